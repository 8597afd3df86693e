// @ts-check
// What the table can tell before the server answers, to draw a move, a one-tap, a deal or an
// undo at once and to glow the places a card may go. The server stays the authority
// (docs/rules.md#moves): what is drawn here is replaced by its answer, rolled back if it
// refuses, and a card's face is only ever shown once the server has said it.

// A deal may go over empty columns, under the table rule deal_over_gap, below this many
// cards on the table (games/engine/board.py GAP_DEAL_CARDS).
export const GAP_DEAL_CARDS = 10;

/** @import { Game } from './api.js' */

const RANKS = 'A23456789TJQK';

/** @param {string} code */
const rank = (code) => RANKS.indexOf(code[0]) + 1;

/**
 * The score after `actions` actions with `runs` runs removed (docs/rules.md#score).
 * @param {number} actions
 * @param {number} runs
 */
const scoreOf = (actions, runs) => Math.max(0, 500 - actions + 100 * runs);

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
  if (state.columns[col].dealt) return [];
  const first = state.columns[col].cards.slice(-count)[0];
  const out = [];
  for (let to = 0; to < state.columns.length; to += 1) {
    if (to === col) continue;
    const dest = state.columns[to];
    if (dest.dealt) continue;
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
  const actions = state.actions + 1;
  return {
    ...state, columns, actions, version: state.version + 1,
    score: scoreOf(actions, (state.removed_suits || []).length), can_undo: true,
  };
}

/**
 * The last `count` cards of column `col` that a one-tap or a move may lift: a column whose
 * top cards were dealt face down and not yet turned lifts nothing until the server says them.
 * @param {Game} state
 * @param {number} col
 */
function tailRun(state, col) {
  const column = state.columns[col];
  if (!column || column.dealt) return 0;
  const cards = column.cards;
  let k = cards.length ? 1 : 0;
  while (k < cards.length && cards[cards.length - k - 1][1] === cards[cards.length - k][1]
    && rank(cards[cards.length - k - 1]) === rank(cards[cards.length - k]) + 1) k += 1;
  return k;
}

/**
 * The longest count from `src` that may go onto `dst` (games/engine/board.py,
 * fitting_count), or null.
 * @param {Game} state
 * @param {number} src
 * @param {number} dst
 */
function fittingCount(state, src, dst) {
  if (src === dst) return null;
  const k = tailRun(state, src);
  if (!k) return null;
  const d = state.columns[dst];
  if (d.dealt) return null;
  if (!d.hidden && !d.cards.length) return k;
  if (!d.cards.length) return null; // a face-down top: turned over by the server first
  const cards = state.columns[src].cards;
  const low = rank(cards[cards.length - 1]);
  const t = rank(d.cards[d.cards.length - 1]);
  return low < t && t <= low + k ? t - low : null;
}

/**
 * Where one tap sends the last `count` cards of `src` (all of its run when `count` is
 * undefined): exactly the server's choice (docs/rules.md#one-tap-destination,
 * games/engine/onetap.py), so it is drawn before the answer. Null: no column takes them
 * (the server refuses with `no_destination`), or the cards cannot be lifted.
 * @param {Game} state
 * @param {number} src
 * @param {number | undefined} count
 * @returns {{to: number, count: number} | null}
 */
export function oneTapChoice(state, src, count = undefined) {
  const column = state.columns[src];
  if (!column || column.dealt) return null;
  if (count !== undefined && !liftable(state, src, count)) return null;
  const cards = column.cards;
  const wholeColumn = column.hidden === 0;
  /** @type {{to: number, count: number, key: number[]} | null} */
  let best = null;
  for (let dst = 0; dst < state.columns.length; dst += 1) {
    if (dst === src) continue;
    const fit = fittingCount(state, src, dst);
    const target = state.columns[dst].cards;
    if (fit === null || (count !== undefined && target.length && fit !== count)) continue;
    const n = count === undefined ? fit : count;
    if (!target.length && wholeColumn && n === cards.length) continue; // only renumbers
    const first = cards[cards.length - n];
    let score = 0;
    if (n === cards.length) score += 2; // a card turns over, or the column empties
    if (target.length && target[target.length - 1][1] === first[1]) score += 1;
    const under = cards[cards.length - n - 1];
    if (n < cards.length && under[1] === first[1] && rank(under) === rank(first) + 1) score -= 2;
    const key = [score, target.length ? 1 : 0, -dst];
    if (!best || key[0] > best.key[0] || (key[0] === best.key[0] && (key[1] > best.key[1]
      || (key[1] === best.key[1] && key[2] > best.key[2])))) best = { to: dst, count: n, key };
  }
  return best && { to: best.to, count: best.count };
}

/**
 * A deal as drawn before the answer: ten cards leave the stock face down (`dealt`), their
 * faces come with the server's answer. Null if the deal cannot be made: the stock is out, or
 * a column is empty, unless the game's table rule (`deal_over_gap`) lets it go over the gaps
 * with fewer than GAP_DEAL_CARDS cards on the table (docs/rules.md#deal-over-a-gap).
 * @param {Game} state
 * @returns {Game | null}
 */
export function predictDeal(state) {
  if (state.deals_left < 1) return null;
  const gap = state.columns.some((c) => !c.hidden && !c.cards.length && !c.dealt);
  const onTable = state.columns.reduce(
    (n, c) => n + c.hidden + c.cards.length + (c.dealt || 0), 0);
  if (gap && !(state.deal_over_gap && onTable < GAP_DEAL_CARDS)) return null;
  const columns = state.columns.map((c) => ({ ...c, dealt: (c.dealt || 0) + 1 }));
  const actions = state.actions + 1;
  return {
    ...state, columns, deals_left: state.deals_left - 1, actions, version: state.version + 1,
    score: scoreOf(actions, (state.removed_suits || []).length), can_undo: true,
  };
}

/**
 * An undo as drawn before the answer: the table before the action undone (`before`), except
 * that a card turned face up stays face up (docs/rules.md#undo): a column that has fewer
 * face-down cards now than then keeps them face up, under the cards that come back.
 * @param {Game} state  the table now
 * @param {Game} before  the table before the action undone
 * @param {boolean} more  an action before that one can still be undone
 * @returns {Game}
 */
export function predictUndo(state, before, more) {
  const columns = before.columns.map((then, i) => {
    const now = state.columns[i];
    // A card dealt there and still awaiting its face (`dealt`) stays so.
    if (now.hidden >= then.hidden) return { ...then, cards: [...then.cards] };
    const turned = now.cards.slice(0, then.hidden - now.hidden);
    return { ...then, hidden: now.hidden, cards: [...turned, ...then.cards] };
  });
  const actions = state.actions + 1;
  const removed = before.removed_suits || [];
  return {
    ...state, columns, deals_left: before.deals_left, removed_suits: [...removed], actions,
    version: state.version + 1, score: scoreOf(actions, removed.length), can_undo: more,
    stuck: false,
  };
}
