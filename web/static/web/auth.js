// @ts-check
// The sign-up and log-in screen (one form, two modes).

import * as api from './api.js';
import { fieldErrors, nextPath } from './authstate.js';
import { h, clear, formErrors, link, toast } from './dom.js';

/**
 * @import { Ctx } from './app.js'
 */

/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 * @param {'login' | 'signup'} mode
 */
export async function authScreen(root, ctx, mode) {
  const signup = mode === 'signup';
  const safeNext = nextPath(location.search);
  // Each field says its rules up front and its errors under it (aria-describedby), and is
  // marked aria-invalid while the server refuses it.
  const userHelp = h('p', { id: 'username-help', class: 'small field-help' },
    signup ? '3 to 30 letters, digits, _ or -.' : '');
  const passHelp = h('p', { id: 'password-help', class: 'small field-help' },
    signup ? 'At least 8 characters, not only digits, not a common password, '
      + 'not like the username.' : '');
  const userError = h('p', { id: 'username-error', class: 'field-error' });
  const passError = h('p', { id: 'password-error', class: 'field-error' });
  const user = h('input', {
    id: 'username', name: 'username', autocomplete: 'username', required: true,
    minlength: signup ? '3' : null, maxlength: '150',
    'aria-describedby': 'username-help username-error',
  });
  const pass = h('input', {
    id: 'password', name: 'password', type: 'password', required: true,
    autocomplete: signup ? 'new-password' : 'current-password',
    'aria-describedby': 'password-help password-error',
  });
  // Sign-up only: an email, optional, where a forgotten password's reset link is sent.
  const emailHelp = h('p', { id: 'email-help', class: 'small field-help' },
    'Optional: only for a link to reset a forgotten password. Never shown to anyone; '
    + 'you can add or change it later on your account page.');
  const email = h('input', {
    id: 'email', name: 'email', type: 'email', autocomplete: 'email',
    'aria-describedby': 'email-help',
  });
  /**
   * Each field's refusal under it, the field marked invalid; the first refused focused.
   * @param {api.ApiError | null} err
   */
  const showFieldErrors = (err) => {
    const said = fieldErrors(err);
    /** @type {[HTMLInputElement, HTMLElement, 'username' | 'password'][]} */
    const pairs = [[user, userError, 'username'], [pass, passError, 'password']];
    for (const [input, box, name] of pairs) {
      box.textContent = said[name];
      if (said[name]) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
    if (said.focus) (said.focus === 'username' ? user : pass).focus();
    return Boolean(said.focus);
  };
  const errors = h('div', { class: 'form-errors', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, signup ? 'Sign up' : 'Log in');
  const form = h('form', { class: 'panel auth', novalidate: true },
    h('h1', {}, signup ? 'Sign up' : 'Log in'),
    signup && api.session.guest
      ? h('p', { class: 'small' }, 'Your games as a guest stay yours; from now on your '
        + 'games are ranked, earn coins and enter the leaderboards.')
      : null,
    h('label', { for: 'username' }, 'Username'), user, userHelp, userError,
    h('label', { for: 'password' }, 'Password'), pass, passHelp, passError,
    signup ? [h('label', { for: 'email' }, 'Email (optional)'), email, emailHelp] : null,
    errors, submit,
    h('p', { class: 'small' }, signup ? 'Have an account? ' : 'New here? ',
      link(signup ? '/login' : '/signup', signup ? 'Log in' : 'Sign up')),
    signup ? null : h('p', { class: 'small' }, link('/forgot', 'Forgot your password?')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clear(errors);
    showFieldErrors(null);
    submit.disabled = true;
    try {
      const username = user.value.trim();
      const address = signup ? email.value.trim() : '';
      const token = api.session.token;
      if (signup && token && api.session.guest) {
        // A guest signs up by claiming its account: the same token, the games kept; the
        // email is set once the account is the player's (the claim takes none).
        const claimed = await api.claim(username, pass.value);
        api.session.set(token, claimed.username);
        if (address) await setEmailAfterClaim(address);
      } else {
        const answer = signup
          ? await api.register(username, pass.value, address)
          : await api.login(username, pass.value);
        api.session.set(answer.token, answer.username || username);
      }
      ctx.navigate(safeNext);
    } catch (error) {
      const err = /** @type {api.ApiError} */ (error);
      if (!showFieldErrors(err)) formErrors(errors, err);
    } finally {
      submit.disabled = false;
    }
  });
  clear(root, form);
  user.focus();
  return null;
}

/**
 * The email given while claiming a guest's account: the account is made already, so a refused
 * address is said (and left to the account page) rather than undoing the sign-up.
 * @param {string} address
 */
async function setEmailAfterClaim(address) {
  try {
    await api.setEmail(address);
  } catch (error) {
    toast(`You are signed up, but the email was not saved: ${
      /** @type {api.ApiError} */ (error).detail} Set it on your account page.`, 'warn', 8000);
  }
}
