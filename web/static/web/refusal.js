// @ts-check
// A refusal said beside what it is about: a short bubble on the table's felt, under the
// column it concerns (never over the counters, the buttons or the header, which are outside
// the table), gone at the player's next action (a pointer down or a key anywhere) or after a
// while. Nothing here knows a rule: the text is the server's.

import { h } from './dom.js';
import { sentence } from './words.js';

const SHOWN_MS = 9000;
const MARGIN = 4;

/** @type {{el: HTMLElement, done: () => void} | null} the bubble shown now */
let current = null;

/** The bubble shown now, taken away (at the next action, or a new refusal). */
export function dismissRefusal() {
  current?.done();
}

/**
 * Say `text` beside column `col` of a table: under its last card, centred on it as far as
 * the table's edges allow, on the felt (above the table's foot if the column runs down to it).
 * @param {HTMLElement} table  the table's element (positioned: the bubble is placed in it)
 * @param {HTMLElement} column  the column it concerns
 * @param {string} text
 */
export function showRefusal(table, column, text) {
  dismissRefusal();
  const el = h('p', { class: 'refusal', role: 'alert', dataset: { col: column.dataset.col || '' } },
    sentence(text));
  el.style.visibility = 'hidden'; // placed once measured, in the same frame
  table.append(el);
  const within = table.getBoundingClientRect();
  const col = column.getBoundingClientRect();
  const last = column.lastElementChild?.getBoundingClientRect();
  const width = el.offsetWidth;
  const height = el.offsetHeight;
  const middle = col.left + col.width / 2 - within.left;
  const left = Math.min(Math.max(MARGIN, middle - width / 2), within.width - width - MARGIN);
  const below = (last ? last.bottom : col.top) - within.top + 6;
  const top = Math.min(below, within.height - height - MARGIN);
  el.style.left = `${Math.max(MARGIN, left)}px`;
  el.style.top = `${Math.max(MARGIN, top)}px`;
  // The arrow points at the column's middle, wherever the bubble had to sit.
  el.style.setProperty('--arrow', `${Math.min(Math.max(12, middle - left), width - 12)}px`);
  el.style.visibility = '';

  /** @param {Event} e */
  const onAction = (e) => {
    if (e.target instanceof Node && el.contains(e.target)) return;
    done();
  };
  const timer = setTimeout(() => done(), SHOWN_MS);
  // Listened for from the next task: the tap that caused the refusal is not the next action.
  const listen = setTimeout(() => {
    document.addEventListener('pointerdown', onAction, true);
    document.addEventListener('keydown', onAction, true);
  }, 0);
  const done = () => {
    clearTimeout(timer);
    clearTimeout(listen);
    document.removeEventListener('pointerdown', onAction, true);
    document.removeEventListener('keydown', onAction, true);
    el.remove();
    if (current?.el === el) current = null;
  };
  current = { el, done };
  return el;
}
