// @ts-check
// The optional finish: once every card is face up and the stock is empty, nothing is hidden
// from the player and the game can be played out without a guess. This finds a line of
// moves that wins it from what the table shows (a bounded search, as a player would look);
// the page sends them one after the other as ordinary moves, each checked by the server
// (docs/rules.md#finishing). No DOM: tests/js hold it.

/** @import { Game } from './api.js' */

const RANKS = 'A23456789TJQK';
/** @param {string} code */
const rank = (code) => RANKS.indexOf(code[0]) + 1;
/** Positions looked at, at most: the finish is offered only when a line is found within. */
export const FINISH_BUDGET = 2000;
/** Moves in a line, at most (the search's depth; a full table is cleared in far fewer). */
const MAX_LINE = 150;

/** @typedef {{type: 'move', from: number, to: number, count: number}} FinishMove */

/**
 * Whether the game is at its open end: in play, the stock empty, every card face up (none
 * dealt face down awaiting its face).
 * @param {Game} state
 */
export function openEnd(state) {
  return state.status === 'in_progress' && state.deals_left === 0
    && state.columns.every((c) => !c.hidden && !c.dealt);
}

/**
 * How many cards at the end of `cards` form one run (one suit, descending): what may move.
 * @param {string[]} cards
 */
function tailRun(cards) {
  let k = cards.length ? 1 : 0;
  while (k < cards.length && cards[cards.length - k - 1][1] === cards[cards.length - k][1]
    && rank(cards[cards.length - k - 1]) === rank(cards[cards.length - k]) + 1) k += 1;
  return k;
}

/**
 * A full king-to-ace run of one suit at the end of `cards` leaves the table (the server does
 * this after every move, docs/rules.md).
 * @param {string[]} cards
 */
function withoutRun(cards) {
  if (cards.length < 13) return cards;
  const tail = cards.slice(-13);
  const whole = tail.every((c, k) => c[1] === tail[0][1] && rank(c) === 13 - k);
  return whole ? cards.slice(0, -13) : cards;
}

/**
 * A line of moves that clears the table from `state` (at its open end), or null when none is
 * found within `budget` positions (or the game is not at its open end).
 * @param {Game} state
 * @param {number} [budget]
 * @returns {FinishMove[] | null}
 */
export function finishLine(state, budget = FINISH_BUDGET) {
  if (!openEnd(state)) return null;
  /** @type {string[][]} */
  const start = state.columns.map((c) => [...c.cards]);
  const seen = new Set();
  let left = budget;
  /** @type {FinishMove[]} */
  const line = [];

  /** @param {string[][]} cols */
  const search = (cols) => {
    if (cols.every((c) => !c.length)) return true;
    const key = cols.map((c) => c.join('')).join('|');
    if (seen.has(key) || left <= 0 || line.length >= MAX_LINE) return false;
    seen.add(key);
    left -= 1;
    /** @type {[number, FinishMove][]} */
    const moves = [];
    cols.forEach((cards, from) => {
      const run = tailRun(cards);
      if (!run) return;
      const low = rank(cards[cards.length - 1]);
      cols.forEach((dest, to) => {
        if (to === from) return;
        const top = dest[dest.length - 1];
        // Onto a card one rank higher: the part of the run that fits it. Into an empty
        // column: the whole run, unless it is the whole column (a move to nowhere new).
        const count = top ? rank(top) - low : run < cards.length ? run : 0;
        if (count < 1 || count > run) return;
        // Onto its own suit first, longer runs first; an empty column last.
        const worth = (!top ? 0 : top[1] === cards[cards.length - 1][1] ? 200 : 100) + count;
        moves.push([worth, { type: 'move', from, to, count }]);
      });
    });
    moves.sort((a, b) => b[0] - a[0]);
    for (const [, move] of moves) {
      const next = cols.slice(); // only the two columns it changes are copied
      next[move.to] = withoutRun([...cols[move.to], ...cols[move.from].slice(-move.count)]);
      next[move.from] = cols[move.from].slice(0, -move.count);
      line.push(move);
      if (search(next)) return true;
      line.pop();
    }
    return false;
  };
  return search(start) ? line : null;
}
