// @ts-check
// The game table's state, apart from its page (game.js): what an action does to the table
// drawn before the server answers, with the actions that may be undone, and a position as
// the player sees it. No DOM: tests/js hold it to the engine's rules without a browser.

import { oneTapChoice, predictDeal, predictMove, predictUndo } from './rules.js';

/**
 * @import { Action, Game, Position } from './api.js'
 */

/**
 * @typedef {{before: Game, action: Action}} Done  an action that may be undone, and the
 *   table before it
 */

/**
 * What an action does to the table drawn, as far as it is known before the answer: the table
 * after it, the undoable actions after it, the cards to slide, and the action to send (a
 * one-tap with its destination worked out). Null when the table cannot tell (the server's
 * answer is drawn instead).
 * @param {Game} view
 * @param {Done[]} past
 * @param {Action} action
 * @param {boolean} deep  the server may undo actions before `past`
 * @returns {{state: Game, past: Done[], moved: {from: number, to: number, count: number} | null,
 *   send: Action} | null}
 */
export function predict(view, past, action, deep) {
  if (view.status !== 'in_progress') return null;
  if (action.type === 'deal') {
    const state = predictDeal(view);
    return state && { state, past: [...past, { before: view, action }], moved: null, send: action };
  }
  if (action.type === 'undo') {
    const last = past[past.length - 1];
    if (!last || !view.can_undo) return null;
    const state = predictUndo(view, last.before, past.length > 1 || deep);
    const a = last.action;
    const runs = (/** @type {Game} */ g) => (g.removed_suits || []).length;
    const moved = a.type === 'move' && a.to !== undefined && a.count !== undefined
      && runs(view) === runs(last.before) ? { from: a.to, to: a.from, count: a.count } : null;
    return { state, past: past.slice(0, -1), moved, send: action };
  }
  if (action.type !== 'move') return null;
  let { to, count } = action;
  const from = action.from;
  if (to === undefined) {
    const choice = oneTapChoice(view, from, count);
    if (!choice) return null;
    ({ to, count } = choice);
  }
  if (count === undefined) return null;
  const state = predictMove(view, from, to, count);
  if (!state) return null;
  /** @type {Action} */
  const move = { type: 'move', from, to, count };
  return { state, past: [...past, { before: view, action: move }], moved: { from, to, count },
    send: move };
}

/**
 * A position as the player sees it (docs/rules.md#hints): face-up cards, face-down counts,
 * deals left and runs removed.
 * @param {Position} p
 */
export function positionKey(p) {
  const cols = p.columns.map((c) => `${c.hidden}:${c.cards.join('')}`).join('/');
  return `${cols}|${p.deals_left}|${(p.removed_suits || []).length}`;
}
