// @ts-check
// A forgotten password: /forgot asks for a reset link by email; /reset?uid=...&token=...
// (the link the email holds) sets a new password, and every old sign-in ends with it.

import * as api from './api.js';
import { h, clear, toast, formErrors, link } from './dom.js';

/**
 * @import { ApiError } from './api.js'
 * @import { Ctx } from './app.js'
 */

/**
 * @param {HTMLElement} root
 * @param {Ctx} _ctx
 */
export async function forgotScreen(root, _ctx) {
  const email = h('input', { id: 'email', name: 'email', type: 'email', autocomplete: 'email',
    required: true });
  const errors = h('div', { class: 'form-errors', role: 'alert' });
  const done = h('p', { class: 'notice', role: 'status' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Send me a link');
  const form = h('form', { class: 'panel auth', id: 'forgot-form', novalidate: true },
    h('h1', {}, 'Forgot your password?'),
    h('p', { class: 'small' }, 'The email of your account gets a link to set a new one.'),
    h('p', { class: 'small', id: 'no-email' }, 'Gave no email? No link can reach you then. '
      + 'If a device of yours is still signed in, set an email on its account page (or change '
      + 'the password there); otherwise the account cannot be recovered: sign up again, or play '
      + 'on as a guest.'),
    h('label', { for: 'email' }, 'Email'), email, errors, submit, done,
    h('p', { class: 'small' }, link('/login', 'Back to log in')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clear(errors);
    submit.disabled = true;
    try {
      const answer = await api.askPasswordReset(email.value.trim());
      done.textContent = answer.detail;
    } catch (error) {
      formErrors(errors, /** @type {ApiError} */ (error));
    } finally {
      submit.disabled = false;
    }
  });
  clear(root, form);
  email.focus();
  return null;
}

/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 */
export async function resetScreen(root, ctx) {
  const query = new URLSearchParams(location.search);
  const uid = query.get('uid') || '';
  const token = query.get('token') || '';
  if (!uid || !token) {
    clear(root, h('section', { class: 'panel' }, h('h1', {}, 'Reset your password'),
      h('p', {}, 'This link is incomplete: open the one in the email again, or ',
        link('/forgot', 'ask for a new one'), '.')));
    return null;
  }
  const pass = h('input', { id: 'new-password', name: 'new_password', type: 'password',
    autocomplete: 'new-password', required: true, 'aria-describedby': 'password-help' });
  const errors = h('div', { class: 'form-errors', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, 'Set the new password');
  const form = h('form', { class: 'panel auth', id: 'reset-form', novalidate: true },
    h('h1', {}, 'Reset your password'),
    h('label', { for: 'new-password' }, 'New password'), pass,
    h('p', { id: 'password-help', class: 'small field-help' }, 'At least 8 characters, not '
      + 'only digits, not a common password. Every device signed in is signed out.'),
    errors, submit,
    h('p', { class: 'small' }, 'Link expired? ', link('/forgot', 'Ask for a new one')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clear(errors);
    submit.disabled = true;
    try {
      await api.confirmPasswordReset(uid, token, pass.value);
      toast('Your password is set: log in with it.');
      ctx.navigate('/login', true);
    } catch (error) {
      formErrors(errors, /** @type {ApiError} */ (error));
    } finally {
      submit.disabled = false;
    }
  });
  clear(root, form);
  pass.focus();
  return null;
}
