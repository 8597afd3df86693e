// @ts-check
// The sign-up and log-in screen (one form, two modes).

import * as api from './api.js';
import { h, clear, formErrors, link } from './dom.js';

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
  const next = new URLSearchParams(location.search).get('next') || '/play';
  const safeNext = next.startsWith('/') && !next.startsWith('//') ? next : '/play';
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
  /** @param {api.ApiError | null} err */
  const showFieldErrors = (err) => {
    const fields = err?.body?.errors || {};
    /** @type {[HTMLInputElement, HTMLElement, string][]} */
    const pairs = [[user, userError, 'username'], [pass, passError, 'password']];
    let first = null;
    for (const [input, box, name] of pairs) {
      const messages = [...new Set(fields[name] || [])]; // each said once
      box.textContent = messages.join(' ');
      if (messages.length) {
        input.setAttribute('aria-invalid', 'true');
        first ??= input;
      } else input.removeAttribute('aria-invalid');
    }
    if (err && err.code === 'username_taken') {
      userError.textContent = err.detail;
      user.setAttribute('aria-invalid', 'true');
      first = user;
    }
    first?.focus();
    return Boolean(first);
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
      const token = api.session.token;
      if (signup && token && api.session.guest) {
        // A guest signs up by claiming its account: the same token, the games kept.
        const claimed = await api.claim(username, pass.value);
        api.session.set(token, claimed.username);
      } else {
        const answer = signup
          ? await api.register(username, pass.value)
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
