// @ts-check
// The account page (/account): change the password, sign out here or everywhere, the
// devices, personal access tokens and apps you approved with revoke, your data's download
// and deleting the
// account; and the creation of a personal access token (/account/tokens/new, which a link
// may open with a name and scopes filled in: ?name=my%20bot&scopes=game:play,race:play).

import * as api from './api.js';
import { h, clear, confirmDialog, toast, formErrors, link } from './dom.js';
import { relativeTime } from './words.js';

/**
 * @import { ApiError, ApiToken, Approval } from './api.js'
 * @import { Ctx } from './app.js'
 */

/** The API's scopes (base/scopes.py): name -> what the creation form says of it. */
export const SCOPES = {
  'profile:read': 'Read your profile, settings, statistics and coins.',
  'profile:write': 'Change your settings.',
  'game:play': 'Start games, list yours and play them: moves, deals, undos, hints, resigning, '
    + 'analysis.',
  'race:play': 'Create and join races, and play and watch them as you.',
  'daily:play': 'Play the daily challenge as you (a ranked attempt).',
};
/** @type {[number, string][]} */
const EXPIRIES = [[7, '7 days'], [30, '30 days'], [90, '90 days'], [365, 'A year']];

/**
 * A moment as a person says it ("5 minutes ago", "never"), its full date in the tooltip.
 * @param {string | null} iso
 */
const when = (iso) => (iso
  ? h('time', { datetime: iso, title: new Date(iso).toLocaleString([],
    { dateStyle: 'medium', timeStyle: 'short' }) }, relativeTime(iso))
  : 'never');

/**
 * A form's submit as one async step: errors shown in `box`, the button off meanwhile.
 * @param {HTMLFormElement} form
 * @param {HTMLElement} box
 * @param {() => Promise<void>} run
 */
function onSubmit(form, box, run) {
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clear(box);
    const button = form.querySelector('button');
    if (button) button.disabled = true;
    try {
      await run();
    } catch (error) {
      formErrors(box, /** @type {ApiError} */ (error));
    } finally {
      if (button) button.disabled = false;
    }
  });
}

/**
 * @param {string} id
 * @param {string} label
 * @param {Record<string, unknown>} attrs
 */
function field(id, label, attrs) {
  const input = h('input', { id, name: id, ...attrs });
  return { input, nodes: [h('label', { for: id }, label), input] };
}

/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 */
export async function accountScreen(root, ctx) {
  if (ctx.needLogin()) return null;
  const signedOut = (/** @type {string} */ text) => {
    api.session.clear();
    toast(text);
    ctx.navigate('/login');
  };

  // -- password
  const current = field('current-password', 'Current password',
    { type: 'password', autocomplete: 'current-password', required: true });
  const next = field('new-password', 'New password',
    { type: 'password', autocomplete: 'new-password', required: true });
  const passwordErrors = h('div', { class: 'form-errors', role: 'alert' });
  const passwordForm = h('form', { class: 'account-form', id: 'password-form' },
    h('h2', {}, 'Password'), ...current.nodes, ...next.nodes,
    h('p', { class: 'small' }, 'Every other device and token is signed out; this one stays.'),
    passwordErrors, h('button', { type: 'submit', class: 'primary' }, 'Change password'));
  onSubmit(passwordForm, passwordErrors, async () => {
    await api.changePassword(current.input.value, next.input.value);
    passwordForm.reset();
    toast('Password changed: your other devices and tokens are signed out.');
    await showTokens();
  });

  // -- the email a forgotten password's link goes to (optional; a player's, not a guest's:
  // a guest has no password to reset)
  const email = field('email', 'Email', { type: 'email', autocomplete: 'email',
    'aria-describedby': 'email-help' });
  const emailHelp = h('p', { class: 'small', id: 'email-help' });
  const emailErrors = h('div', { class: 'form-errors', role: 'alert' });
  const emailForm = h('form', { class: 'account-form', id: 'email-form', novalidate: true },
    h('h2', {}, 'Email'), ...email.nodes, emailHelp,
    emailErrors, h('button', { type: 'submit', class: 'primary' }, 'Save email'));
  /** @param {string} address */
  const showEmail = (address) => {
    email.input.value = address;
    emailHelp.textContent = address
      ? 'A forgotten password\'s reset link is sent here, and nowhere else. Never shown to '
        + 'anyone. Empty it to remove it.'
      : 'None yet. Without one, a forgotten password cannot be reset: you would have to '
        + 'sign in on a device still signed in, or start a new account. Optional, never shown '
        + 'to anyone, used only for that link.';
  };
  showEmail('');
  onSubmit(emailForm, emailErrors, async () => {
    const saved = await api.setEmail(email.input.value.trim());
    showEmail(saved.email);
    toast(saved.email ? `Email saved: ${saved.email}.` : 'Email removed.');
  });
  const loadEmail = async () => {
    if (api.session.guest) return;
    try {
      showEmail((await api.me()).email || '');
    } catch { /* the form stays empty: saving still works */ }
  };

  // -- a guest's name (the made-up one until it chooses), checked as a username is
  const guestName = field('guest-name', 'Your name', {
    required: true, minlength: '3', maxlength: '30', autocomplete: 'nickname',
    value: (api.session.username || '').startsWith('guest-') ? '' : api.session.username || '',
    'aria-describedby': 'guest-name-help',
  });
  const nameErrors = h('div', { class: 'form-errors', role: 'alert' });
  const nameForm = h('form', { class: 'account-form', id: 'name-form' },
    h('h2', {}, 'Your name'), ...guestName.nodes,
    h('p', { class: 'small', id: 'guest-name-help' }, '3 to 30 letters, digits, _ or -. '
      + 'Other players see it in races; you stay a guest until you sign up.'),
    nameErrors, h('button', { type: 'submit', class: 'primary' }, 'Save name'));
  onSubmit(nameForm, nameErrors, async () => {
    const named = await api.nameGuest(guestName.input.value.trim());
    api.session.set(/** @type {string} */ (api.session.token), named.username, true);
    clear(whoami, named.username);
    statsLink.setAttribute('href', `/players/${encodeURIComponent(named.username)}`);
    toast(`You play as ${named.username}.`);
  });
  const whoami = h('strong', {}, api.session.username || '');
  const statsLink = link(`/players/${encodeURIComponent(api.session.username || '')}`,
    'Your statistics', { id: 'my-stats' });

  // -- signing out
  const signOut = h('button', { type: 'button', id: 'sign-out', onclick: async () => {
    await api.logout().catch(() => null); // gone already: signed out all the same
    signedOut('Signed out.');
  } }, 'Sign out');
  const everywhere = h('button', { type: 'button', class: 'danger', id: 'sign-out-everywhere',
    onclick: async () => {
      const yes = await confirmDialog('Sign out everywhere?',
        'Every device, personal access token and app signed in as you is signed out, '
        + 'this one too.', 'Sign out everywhere');
      if (!yes) return;
      await api.logoutEverywhere();
      signedOut('Signed out everywhere.');
    } }, 'Sign out everywhere');

  // -- devices and tokens
  const tokenList = h('div', { class: 'token-list', 'aria-live': 'polite' });
  const showTokens = async () => {
    /** @type {ApiToken[]} */
    let all;
    try {
      all = await api.tokens();
    } catch (error) {
      if (/** @type {ApiError} */ (error).status === 401) throw error; // to log-in
      clear(tokenList, h('p', { class: 'form-errors', role: 'alert' },
        `Your devices and tokens cannot be listed: ${/** @type {ApiError} */ (error).detail}`));
      return;
    }
    const devices = all.filter((t) => t.kind === 'device');
    const personal = all.filter((t) => t.kind === 'personal');
    clear(tokenList,
      h('h3', {}, 'Devices signed in'), tokenTable(devices, false),
      h('h3', {}, 'Personal access tokens'),
      personal.length ? tokenTable(personal, true)
        : h('p', { class: 'small' }, 'None yet. A personal access token lets a script or an app '
          + 'of yours act for you, limited to the scopes you choose.'));
  };
  /**
   * @param {ApiToken[]} list
   * @param {boolean} withScopes
   */
  const tokenTable = (list, withScopes) => h('table', { class: 'results tokens' },
    h('thead', {}, h('tr', {}, h('th', {}, 'Name'), withScopes ? h('th', {}, 'Scopes') : null,
      h('th', {}, 'Created'), h('th', {}, 'Last used'), h('th', {}, 'Expires'), h('th', {}, ''))),
    h('tbody', {}, list.map((t) => h('tr', { dataset: { token: String(t.id), kind: t.kind } },
      h('td', {}, t.name, t.current ? h('span', { class: 'tag' }, 'this device') : null),
      withScopes ? h('td', {}, t.scopes.join(', ')) : null,
      h('td', {}, when(t.created)), h('td', {}, when(t.last_used)), h('td', {}, when(t.expires)),
      h('td', {}, h('button', { type: 'button', class: 'revoke',
        'aria-label': `Revoke ${t.name}`, onclick: () => revoke(t) }, 'Revoke'))))));
  /** @param {ApiToken} token */
  const revoke = async (token) => {
    const yes = await confirmDialog(`Revoke ${token.name}?`, token.current
      ? 'This is the sign-in of this device: you will be signed out here.'
      : 'Whatever uses it stops working at once.', 'Revoke');
    if (!yes) return;
    await api.revokeToken(token.id);
    if (token.current) {
      signedOut('Signed out.');
      return;
    }
    toast(`${token.name} revoked.`);
    await showTokens();
  };

  // -- apps you approved (OAuth2): what each may do, when it last acted, revoke
  const appList = h('div', { class: 'app-list', 'aria-live': 'polite' });
  const showApps = async () => {
    /** @type {Approval[]} */
    let approvals;
    try {
      approvals = await api.approvedApps();
    } catch (error) {
      if (/** @type {ApiError} */ (error).status === 401) throw error; // to log-in
      clear(appList, h('p', { class: 'form-errors', role: 'alert' },
        `Your apps cannot be listed: ${/** @type {ApiError} */ (error).detail}`));
      return;
    }
    clear(appList, approvals.length ? h('table', { class: 'results tokens apps' },
      h('thead', {}, h('tr', {}, h('th', {}, 'App'), h('th', {}, 'May'),
        h('th', {}, 'Approved'), h('th', {}, 'Last used'), h('th', {}, ''))),
      h('tbody', {}, approvals.map((a) => h('tr', { dataset: { app: a.app.client_id } },
        h('td', {}, a.app.name, a.app.owner
          ? h('span', { class: 'small' }, ` by ${a.app.owner}`) : null),
        h('td', {}, h('ul', { class: 'scopes' }, a.scopes.map((s) =>
          h('li', { title: s.name }, s.description)))),
        h('td', {}, when(a.approved)), h('td', {}, when(a.last_used)),
        h('td', {}, h('button', { type: 'button', class: 'revoke',
          'aria-label': `Revoke ${a.app.name}`, onclick: () => revokeApp(a) }, 'Revoke'))))))
      : h('p', { class: 'small' }, 'None. An app you approve on its sign-in page acts for you '
        + 'within the scopes you allowed, until you revoke it here.'));
  };
  /** @param {Approval} approval */
  const revokeApp = async (approval) => {
    const yes = await confirmDialog(`Revoke ${approval.app.name}?`,
      'It stops acting for you at once; to act again it must ask you again.', 'Revoke');
    if (!yes) return;
    try {
      await api.revokeApproval(approval.app.client_id);
      toast(`${approval.app.name} revoked.`);
    } catch (error) {
      toast(/** @type {ApiError} */ (error).detail, 'error');
    }
    await showApps();
  };

  // -- your data, and deleting the account
  const exportButton = h('button', { type: 'button', id: 'export', onclick: async () => {
    exportButton.disabled = true;
    try {
      toast(`Downloaded ${await api.downloadExport()}.`);
    } catch (error) {
      toast(/** @type {ApiError} */ (error).detail, 'error');
    } finally {
      exportButton.disabled = false;
    }
  } }, 'Download your data');
  const deletePassword = field('delete-password', 'Your password',
    { type: 'password', autocomplete: 'current-password', required: !api.session.guest });
  const deleteErrors = h('div', { class: 'form-errors', role: 'alert' });
  const deleteForm = h('form', { class: 'account-form', id: 'delete-form' },
    h('h2', {}, 'Delete your account'),
    h('p', { class: 'small' }, (api.session.guest
      ? 'For good: your name is erased and every token is revoked.'
      : 'For good: your name, your password and your email (if you gave one) are erased and '
        + 'every token is revoked.')
      + ' Your finished games, places and race results stay under a made-up '
      + 'name, so the leaderboards still add up, and your username is free for anyone to take.'),
    api.session.guest ? null : deletePassword.nodes,
    deleteErrors, h('button', { type: 'submit', class: 'danger' }, 'Delete my account'));
  onSubmit(deleteForm, deleteErrors, async () => {
    const yes = await confirmDialog('Delete your account?',
      'This cannot be undone. Download your data first if you want to keep it.',
      'Delete my account');
    if (!yes) return;
    await api.deleteAccount(deletePassword.input.value);
    signedOut('Your account is deleted.');
  });

  clear(root, h('section', { class: 'panel account-page' },
    h('h1', {}, 'Your account'),
    h('p', {}, api.session.guest ? 'Playing as a guest: ' : 'Signed in as ', whoami, ' · ',
      statsLink),
    h('div', { class: 'buttons' }, signOut, everywhere),
    api.session.guest ? nameForm : [emailForm, passwordForm],
    h('h2', {}, 'Devices and tokens'), tokenList,
    h('p', {}, link('/account/tokens/new', 'Create a personal access token', { id: 'new-token' })),
    h('h2', {}, 'Apps you approved'), appList,
    h('h2', {}, 'Your data'),
    h('p', { class: 'small' }, 'Everything kept about you, one JSON object a line: your '
      + 'profile, every game with its moves, your coins, places and races.'),
    h('p', {}, exportButton),
    deleteForm));
  await Promise.all([showTokens(), showApps(), loadEmail()]);
  return null;
}

/**
 * /account/tokens/new: name, scopes, expiry; the name and scopes may come in the link.
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 */
export async function tokenNewScreen(root, ctx) {
  if (ctx.needLogin()) return null;
  const query = new URLSearchParams(location.search);
  const asked = new Set((query.get('scopes') || '').split(',').map((s) => s.trim()));
  const name = field('token-name', 'Name', {
    required: true, maxlength: '64', value: (query.get('name') || '').slice(0, 64),
    placeholder: 'my bot',
  });
  const boxes = Object.entries(SCOPES).map(([scope, text]) => {
    const box = h('input', { type: 'checkbox', name: 'scopes', value: scope,
      id: `scope-${scope.replace(':', '-')}`, checked: asked.has(scope) });
    return h('label', { class: 'scope' }, box, ' ', h('code', {}, scope), ' ',
      h('span', { class: 'small' }, text));
  });
  const expiry = h('select', { id: 'token-expiry', name: 'expiry' },
    EXPIRIES.map(([days, label]) => h('option', { value: String(days), selected: days === 90 },
      label)));
  const errors = h('div', { class: 'form-errors', role: 'alert' });
  const result = h('div', { class: 'new-token', 'aria-live': 'polite' });
  const form = h('form', { class: 'account-form', id: 'token-form' },
    ...name.nodes,
    h('fieldset', {}, h('legend', {}, 'What it may do'), boxes),
    h('label', { for: 'token-expiry' }, 'Expires in'), expiry,
    errors, h('button', { type: 'submit', class: 'primary' }, 'Create token'));
  onSubmit(form, errors, async () => {
    const scopes = [...form.querySelectorAll('input[name=scopes]:checked')]
      .map((b) => /** @type {HTMLInputElement} */ (b).value);
    if (!scopes.length) {
      clear(errors, h('p', {}, 'Choose at least one scope.'));
      return;
    }
    const made = await api.createToken(name.input.value.trim(), scopes, Number(expiry.value));
    const secret = h('input', { id: 'token-secret', readonly: true, value: made.token,
      'aria-label': 'The token' });
    const copy = h('button', { type: 'button', onclick: async () => {
      secret.select();
      await navigator.clipboard?.writeText(made.token).catch(() => null);
      toast('Copied.');
    } }, 'Copy');
    form.remove();
    clear(result, h('h2', {}, `${made.name} is ready`),
      h('p', {}, 'Copy it now: it is shown this once, never again.'),
      h('p', { class: 'secret' }, secret, ' ', copy),
      h('p', { class: 'small' }, `Scopes: ${made.scopes.join(', ')}. Expires `
        + `${relativeTime(made.expires)}. Send it as Authorization: Bearer <token>.`),
      h('p', {}, link('/account', 'Back to your account')));
    secret.select();
  });
  clear(root, h('section', { class: 'panel account-page' },
    h('h1', {}, 'New personal access token'),
    h('p', { class: 'small' }, 'For a script or an app of yours: it acts as you, within the '
      + 'scopes you tick, until it expires or you revoke it. It cannot change your password, '
      + 'tokens or account.'),
    form, result));
  name.input.focus();
  return null;
}
