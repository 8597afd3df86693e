// @ts-check
// Small DOM helpers. Text always goes in as text (never as HTML): nothing the server or a
// player name holds can become markup.

import { fieldSaid, sentence } from './api.js';
import { formatTime, ordinal } from './words.js';

/**
 * What `h` and `clear` take as children: nodes and text (numbers as text); null, undefined
 * and false are left out, so `cond ? node : null` reads as it is meant.
 * @typedef {Node | string | number | null | undefined | false} Leaf
 * @typedef {Leaf | Leaf[]} Child
 */

/**
 * Attributes by name: `class`, `dataset` (an object), `on<event>` (a listener), `true` for
 * an empty attribute; null, undefined and false leave it out.
 * @typedef {{
 *   onclick?: ((e: MouseEvent) => unknown) | null,
 *   dataset?: Record<string, string>,
 *   [name: string]: unknown,
 * }} Attrs
 */

/**
 * h('button', {class: 'x', onclick: fn, 'aria-label': '...'}, 'text', child, ...)
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Attrs} attrs
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on')) {
      el.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    } else if (name === 'class') {
      el.className = String(value);
    } else if (name === 'dataset') {
      Object.assign(el.dataset, value);
    } else {
      el.setAttribute(name, value === true ? '' : String(value));
    }
  }
  append(el, children);
  return el;
}

/**
 * @param {Element} el
 * @param {Child[]} children
 */
function append(el, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

/**
 * Resolves once the page has drawn its next frame, or after `ms` (a hidden page draws none).
 * @param {number} ms
 * @returns {Promise<void>}
 */
export function afterNextPaint(ms = 100) {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    requestAnimationFrame(() => setTimeout(() => {
      clearTimeout(timer);
      resolve();
    }, 0));
  });
}

/**
 * The element's children replaced by these.
 * @template {Element} E
 * @param {E} el
 * @param {...Child} children
 * @returns {E}
 */
export function clear(el, ...children) {
  el.replaceChildren();
  append(el, children);
  return el;
}

/** @type {ReturnType<typeof setTimeout> | undefined} */
let toastTimer;
/**
 * A short message in the page's live region (read out by screen readers).
 * @param {string} text
 * @param {'info' | 'good' | 'warn' | 'error'} kind
 * @param {number} ms  how long it shows (0: until the next one)
 */
export function toast(text, kind = 'info', ms = 4000) {
  const el = /** @type {HTMLElement} */ (document.getElementById('toast'));
  el.textContent = sentence(text);
  el.className = `toast show ${kind}`;
  el.setAttribute('role', kind === 'error' ? 'alert' : 'status');
  clearTimeout(toastTimer);
  if (ms) toastTimer = setTimeout(() => { el.className = 'toast'; }, ms);
}

/**
 * A refused form's messages: each field's, else the error's detail.
 * @param {Element} box
 * @param {import('./api.js').ApiError} err
 */
export function formErrors(box, err) {
  const fields = err.body?.errors || {};
  const lines = Object.entries(fields).flatMap(([field, messages]) =>
    messages.map((m) => fieldSaid(field, m)));
  clear(box, (lines.length ? lines : [err.detail]).map((m) => h('p', {}, m)));
}

export { formatTime, ordinal };

/**
 * A link the router follows without reloading the page.
 * @param {string} href
 * @param {Child} text
 * @param {Attrs} attrs
 */
export const link = (href, text, attrs = {}) => h('a', { href, 'data-link': true, ...attrs }, text);

/**
 * Tab and Shift+Tab go round the controls of a modal dialog (`box`), never out of it.
 * @param {HTMLElement} box
 * @param {KeyboardEvent} e
 */
export function keepFocus(box, e) {
  if (e.key !== 'Tab') return;
  const controls = /** @type {HTMLElement[]} */ (Array.from(box.querySelectorAll(
    'button:not([disabled]), a[href], input:not([disabled]), select, textarea, [tabindex="0"]',
  )));
  if (!controls.length) return;
  const first = controls[0];
  const last = controls[controls.length - 1];
  const at = document.activeElement;
  if (e.shiftKey ? at === first || !box.contains(at) : at === last || !box.contains(at)) {
    e.preventDefault();
    (e.shiftKey ? last : first).focus();
  }
}

/**
 * Ask before doing what cannot be taken back (a new game or resigning ends the one in play):
 * resolves true on the confirm button, false on Cancel, Esc or a click outside.
 * @param {string} title
 * @param {string} text
 * @param {string} yes  the confirm button's label
 * @returns {Promise<boolean>}
 */
export function confirmDialog(title, text, yes) {
  return new Promise((resolve) => {
    const back = /** @type {HTMLElement | null} */ (document.activeElement);
    /** @param {boolean} answer */
    const done = (answer) => {
      document.removeEventListener('keydown', onKey, true);
      box.remove();
      back?.focus?.();
      resolve(answer);
    };
    /** @param {KeyboardEvent} e */
    const onKey = (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        done(false);
      } else keepFocus(box, e);
    };
    const ok = h('button', { type: 'button', class: 'danger', onclick: () => done(true) }, yes);
    const box = h('div', { class: 'confirm', onclick: (/** @type {MouseEvent} */ e) => {
      if (e.target === box) done(false);
    } },
    h('div', {
      class: 'dialog', role: 'alertdialog', 'aria-modal': 'true',
      'aria-labelledby': 'confirm-title', 'aria-describedby': 'confirm-text',
    },
    h('h2', { id: 'confirm-title' }, title),
    h('p', { id: 'confirm-text' }, text),
    h('div', { class: 'buttons' }, ok,
      h('button', { type: 'button', onclick: () => done(false) }, 'Cancel'))));
    document.addEventListener('keydown', onKey, true);
    document.body.append(box);
    ok.focus();
  });
}
