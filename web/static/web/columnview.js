// @ts-check
// What a column shows, card by card, and how much of what it showed before still stands: the
// table (table.js) keeps those cards' elements and builds only the rest, so a move touches
// the few cards it moves (on a slow phone, rebuilding both columns was most of a move's
// drawing). No DOM: tests/js hold it.

/** @import { Column } from './api.js' */

/**
 * One card as drawn. `key` names what is drawn, so two cards with the same key look alike.
 * @typedef {object} Shown
 * @property {'down' | 'was-down' | 'up' | 'dealt'} kind  face down; a face-down card named
 *   on a laid-open table (a race's end); face up; dealt, its face not known yet
 * @property {string | null} code  the card, where it is shown
 * @property {string} key
 */

/**
 * The cards of a column from the bottom up: face down, face up, then any dealt whose faces
 * the server has not sent yet.
 * @param {Column} column
 * @returns {Shown[]}
 */
export function shownCards(column) {
  /** @type {Shown[]} */
  const shown = [];
  for (let k = 0; k < column.hidden; k += 1) {
    const code = column.down ? column.down[k] : null;
    shown.push(code ? { kind: 'was-down', code, key: `w${code}` }
      : { kind: 'down', code: null, key: 'd' });
  }
  for (const code of column.cards) shown.push({ kind: 'up', code, key: `u${code}` });
  for (let k = 0; k < (column.dealt || 0); k += 1) {
    shown.push({ kind: 'dealt', code: null, key: 'x' });
  }
  return shown;
}

/**
 * How many cards from the bottom are drawn as they were: the length of the common start.
 * @param {string[]} before  the keys drawn
 * @param {string[]} now  the keys to draw
 */
export function keptCards(before, now) {
  const n = Math.min(before.length, now.length);
  let k = 0;
  while (k < n && before[k] === now[k]) k += 1;
  return k;
}
