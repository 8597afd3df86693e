// @ts-check
// Third-party apps: the authorization page an app sends a player to (/oauth/authorize, the
// OAuth2 authorization endpoint), and the page where a developer registers their apps
// (/apps). The client is signed in with its bearer token, not a cookie, so the page asks the
// API what the request is (app, scopes) and posts the player's answer; the API answers
// where to send the browser back to, which the page follows.

import * as api from './api.js';
import { h, clear, confirmDialog, formErrors, toast } from './dom.js';

/**
 * @import { Ctx } from './app.js'
 * @import { App } from './api.js'
 */

/**
 * The page's own address, back to after signing in.
 * @param {Ctx} ctx
 * @returns {boolean} true when it sent the player to sign in
 */
function signInFirst(ctx) {
  if (api.session.token) return false;
  ctx.navigate(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, true);
  return true;
}

/**
 * @param {string} url
 * @returns {string} its origin, for people to read
 */
function hostOf(url) {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

// --- /oauth/authorize -----------------------------------------------------------------------
/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 */
export async function authorizeScreen(root, ctx) {
  if (signInFirst(ctx)) return null;
  const query = location.search;
  /** @type {api.AuthorizationRequest} */
  let asked;
  try {
    asked = await api.authorization(query);
  } catch (error) {
    const err = /** @type {api.ApiError} */ (error);
    if (err.code !== 'invalid_authorization_request') throw err;
    const back = /** @type {{redirect_to?: string | null}} */ (err.body).redirect_to;
    clear(root, h('section', { class: 'panel oauth error', role: 'alert' },
      h('h1', {}, 'This app’s request cannot be approved'),
      h('p', { class: 'oauth-error' }, err.detail),
      // Never back to an address the app did not register: then there is no link.
      back ? h('p', {}, h('a', { href: back, class: 'button', id: 'oauth-back' },
        'Back to the app')) : null));
    return null;
  }
  const status = h('p', { class: 'form-errors', role: 'alert' });
  /** @param {boolean} allow */
  const answer = async (allow) => {
    for (const b of buttons) b.disabled = true;
    try {
      const { redirect_to: to } = await api.decide(query, allow);
      location.assign(to);
    } catch (error) {
      const err = /** @type {api.ApiError} */ (error);
      formErrors(status, err);
      for (const b of buttons) b.disabled = false;
    }
  };
  const buttons = [
    h('button', { type: 'button', class: 'primary', id: 'oauth-approve',
      onclick: () => answer(true) }, 'Approve'),
    h('button', { type: 'button', id: 'oauth-deny', onclick: () => answer(false) }, 'Deny'),
  ];
  const { app } = asked;
  clear(root, h('section', { class: 'panel oauth', 'aria-labelledby': 'oauth-title' },
    h('h1', { id: 'oauth-title' }, `${app.name} wants to act as you`),
    h('p', {}, 'Signed in as ', h('strong', {}, api.session.username || ''),
      app.owner ? `. The app was registered by ${app.owner}.` : '.'),
    h('p', {}, 'It asks to:'),
    h('ul', { class: 'oauth-scopes' }, asked.scopes.map((s) =>
      h('li', { dataset: { scope: s.name } }, h('strong', {}, s.description), ' ',
        h('code', { class: 'small' }, s.name)))),
    h('p', { class: 'small' }, 'It never gets your password, and it cannot manage your '
      + `account. Approved or not, you go back to ${hostOf(asked.redirect_uri)}.`),
    status,
    h('p', { class: 'buttons' }, ...buttons)));
  return null;
}

// --- /apps ----------------------------------------------------------------------------------
/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 */
export async function appsScreen(root, ctx) {
  if (ctx.needLogin()) return null;
  const list = h('ul', { class: 'apps' });
  const created = h('div', { class: 'app-created', 'aria-live': 'polite' });
  const refresh = async () => {
    const page = await api.apps();
    clear(list, page.results.length ? page.results.map(row) : h('li', {}, 'No apps yet.'));
  };
  /** @param {App} app */
  const row = (app) => h('li', { dataset: { client: app.client_id } },
    h('strong', {}, app.name), ' ',
    h('span', { class: 'small' }, app.confidential ? 'confidential' : 'public'),
    h('div', { class: 'small' }, 'Client id: ', h('code', {}, app.client_id)),
    h('div', { class: 'small' }, 'Redirect URIs: ', app.redirect_uris.join(', ')),
    h('button', { type: 'button', class: 'link danger', onclick: async () => {
      const sure = await confirmDialog(`Delete ${app.name}?`,
        'Every token it holds stops working.', 'Delete');
      if (!sure) return;
      await api.deleteApp(app.client_id);
      toast(`${app.name} deleted.`);
      await refresh();
    } }, 'Delete'));

  const name = h('input', { id: 'app-name', name: 'name', required: true, maxlength: '100' });
  const uris = h('textarea', { id: 'app-redirects', name: 'redirect_uris', rows: '2',
    required: true, placeholder: 'https://app.example/callback' });
  const confidential = h('input', { id: 'app-confidential', type: 'checkbox' });
  const errors = h('div', { class: 'form-errors', role: 'alert' });
  const form = h('form', { class: 'auth', id: 'app-form', novalidate: true },
    h('h2', {}, 'Register an app'),
    h('label', { for: 'app-name' }, 'Name (players see it when they approve)'), name,
    h('label', { for: 'app-redirects' }, 'Redirect URIs, one a line'), uris,
    h('label', {}, confidential, ' Confidential: a server that keeps a secret (a browser '
      + 'or mobile app is public, with PKCE alone)'),
    errors, h('button', { type: 'submit', class: 'primary' }, 'Register'));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clear(errors);
    try {
      const app = await api.createApp({
        name: name.value.trim(),
        redirect_uris: uris.value.split(/\s+/).filter(Boolean),
        confidential: confidential.checked,
      });
      clear(created, h('div', { class: 'panel notice' },
        h('p', {}, `${app.name} is registered. Its client id: `,
          h('code', { class: 'client-id' }, app.client_id)),
        app.client_secret
          ? h('p', {}, 'Its secret, shown this once (copy it now): ',
            h('code', { class: 'client-secret' }, app.client_secret))
          : h('p', { class: 'small' }, 'A public app: no secret; it proves itself with PKCE.')));
      form.reset();
      await refresh();
    } catch (error) {
      formErrors(errors, /** @type {api.ApiError} */ (error));
    }
  });
  await refresh();
  clear(root, h('section', { class: 'panel apps-page' },
    h('h1', {}, 'Your apps'),
    h('p', { class: 'small' }, 'Apps you build that players sign in to with OAuth2 '
      + '(authorization code with PKCE). See “OAuth2 for third-party apps” in the API guide '
      + '(docs/api.md).'),
    created, list, form));
  return null;
}
