// @ts-check
// What the sign-up and log-in form decides, apart from drawing it (auth.js): where to go
// once signed in, and which field each refusal is about. No DOM: tests/js hold it.

/** @import { ErrorBody } from './api.js' */

/**
 * Where to go once signed in: the `next` of the query if it is a path of this site, else the
 * table (never another site: `//host` and `/\host` are other sites to a browser).
 * @param {string} search  the query string
 */
export function nextPath(search) {
  const next = new URLSearchParams(search).get('next') || '/play';
  return next.startsWith('/') && !/^\/[/\\]/.test(next) ? next : '/play';
}

/**
 * Each field's messages in a refusal (each said once), and the field to focus: the first
 * refused. A taken username is the username's, in the server's words.
 * @param {{code: string, detail: string, body: ErrorBody} | null} err
 * @returns {{username: string, password: string, focus: 'username' | 'password' | null}}
 */
export function fieldErrors(err) {
  const fields = err?.body?.errors || {};
  /** @param {string} name */
  const said = (name) => [...new Set(fields[name] || [])].join(' ');
  let username = said('username');
  const password = said('password');
  if (err && err.code === 'username_taken') username = err.detail;
  const focus = username ? 'username' : password ? 'password' : null;
  return { username, password, focus };
}
