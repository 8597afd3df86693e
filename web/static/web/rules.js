// @ts-check
// What the table can tell before the server answers, to draw a move at once and to glow the
// places a card may go. The server stays the authority (docs/rules.md#moves): a move drawn
// here is rolled back if it refuses, and what a move turns over is only known from its answer.

/** @import { Game } from './api.js' */

const RANKS = 'A23456789TJQK';

/** @param {string} code */
const rank = (code) => RANKS.indexOf(code[0]) + 1;

/**
 * Whether the last `count` face-up cards of column `col` form one run (one suit, descending).
 * @param {Game} state
 * @param {number} col
 * @param {number} count
 */
export function liftable(state, col, count) {
  const cards = state.columns[col]?.cards || [];
  if (count < 1 || count > cards.length) return false;
  const run = cards.slice(-count);
  return run.every((c, k) => k === 0
    || (c[1] === run[k - 1][1] && rank(c) === rank(run[k - 1]) - 1));
}

/**
 * The columns the last `count` cards of `col` may go to (none if they cannot be lifted).
 * @param {Game} state
 * @param {number} col
 * @param {number} count
 * @returns {number[]}
 */
export function targets(state, col, count) {
  if (!liftable(state, col, count)) return [];
  const first = state.columns[col].cards.slice(-count)[0];
  const out = [];
  for (let to = 0; to < state.columns.length; to += 1) {
    if (to === col) continue;
    const dest = state.columns[to];
    const top = dest.cards[dest.cards.length - 1];
    if (top ? rank(top) === rank(first) + 1 : !dest.hidden) out.push(to);
  }
  return out;
}

/**
 * The state a legal move leads to, as far as it is known before the answer (the card it
 * turns over and a run it completes come with the answer); null if the move is not legal.
 * @param {Game} state
 * @param {number} from
 * @param {number} to
 * @param {number} count
 * @returns {Game | null}
 */
export function predictMove(state, from, to, count) {
  if (!targets(state, from, count).includes(to)) return null;
  const columns = state.columns.map((c) => ({ ...c, cards: [...c.cards] }));
  const moved = columns[from].cards.splice(-count, count);
  columns[to].cards.push(...moved);
  return { ...state, columns, actions: state.actions + 1, version: state.version + 1 };
}
