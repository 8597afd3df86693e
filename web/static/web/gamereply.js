// @ts-check
// What the server's answers mean for the game's screen (no DOM): an action's words for the
// live region and its sound, what a state shown brings (a run's toast, the win, the game to
// resume), and what a refusal or a failure calls for. game.js does what these say.

import { cardName } from './words.js';
import { emptyColumns } from './gamestate.js';

/**
 * @import { Action, ApiError, Game } from './api.js'
 * @import { Pending } from './gamestate.js'
 * @import { Sound } from './sound.js'
 */

/**
 * What a state shown brings: `remember` it as the game to resume on this device, a `toast`
 * for the runs it removed (null: none), the `win` dialog.
 * @param {Game} state
 * @param {Game['outcome'] | null} outcome  what the action did
 * @param {boolean} race  a racer's table: the race screen says the result
 */
export function shownOf(state, outcome, race) {
  const runs = outcome?.runs_removed?.length ?? 0;
  return {
    remember: state.status === 'in_progress' && !race,
    toast: runs ? (runs > 1 ? 'Runs complete!' : 'A run is complete!') : null,
    win: state.status === 'won' && !race,
  };
}

/**
 * An action's sound, heard as it is drawn.
 * @param {Action} action
 * @returns {Sound}
 */
export const soundOf = (action) => (action.type === 'deal' ? 'deal' : 'move');

/**
 * The sound of an answer: a run completed, or the action's own when it was not drawn ahead
 * (null: none, or the win's, heard with its dialog).
 * @param {Pending} item  the action answered
 * @param {Game} next  the answer
 * @param {boolean} race
 * @returns {Sound | null}
 */
export function answerSound(item, next, race) {
  if (next.status === 'won' && !race) return null;
  if (next.outcome?.runs_removed?.length) return 'run';
  return item.drawn ? null : soundOf(item.action);
}

/**
 * What an action did, for the live region: "9 of spades to column 1; column 2 turns over the
 * queen of spades".
 * @param {Action} action
 * @param {Game} before
 * @param {Game} after
 */
export function said(action, before, after) {
  if (action.type === 'undo') return 'Undone.';
  if (action.type !== 'move') return 'Dealt ten cards.';
  const done = after.outcome?.action;
  const from = Number(done?.from ?? action.from);
  const to = Number(done?.to);
  const count = Number(done?.count ?? 1);
  const moved = before.columns[from]?.cards.slice(-count)[0];
  const parts = [moved ? `${cardName(moved)}${count > 1 ? ` and ${count - 1} more` : ''} `
    + `to column ${to + 1}` : 'Moved'];
  const shown = after.columns[from];
  if (shown && before.columns[from] && shown.hidden < before.columns[from].hidden) {
    parts.push(`column ${from + 1} turns over the ${cardName(shown.cards[0])}`);
  }
  if (after.outcome?.runs_removed?.length) parts.push('a run is complete');
  return `${parts.join('; ')}.`;
}

/**
 * What a refused or failed action calls for.
 * - `conflict` (409 with the game): the game moved on elsewhere: draw the server's `game`.
 * - `login` (401): signed out: to the log-in page.
 * - `refused` (422): the rule's sentence, said beside the column it is about (`at`: the
 *   column a move was refused on, else the one it came from, or the first empty column
 *   blocking a deal; null: said in a toast), the moved cards shaken (`shake`), the columns that
 *   refused them or the empty ones blocking a deal marked (`flash`), and the game read again
 *   when the server says it is over (`refresh`).
 * - `error`: anything else, its sentence.
 * @typedef {{kind: 'conflict', game: Game, text: string} | {kind: 'login'}
 *   | {kind: 'refused', text: string, at: number | null,
 *      shake: {col: number, count: number} | null,
 *      flash: {cols: number[], ms: number} | null, refresh: boolean}
 *   | {kind: 'error', text: string}} Failure
 */

/**
 * @param {ApiError} err
 * @param {Action | null} action  the action refused (null: another request)
 * @param {Game} state  the server's state
 * @returns {Failure}
 */
export function failureOf(err, action, state) {
  if (err.status === 409 && err.body.game) {
    const text = 'This game had moved on (another tab or device?): here is where it stands now.';
    return { kind: 'conflict', game: /** @type {Game} */ (err.body.game), text };
  }
  if (err.status === 401) return { kind: 'login' };
  if (err.status !== 422) return { kind: 'error', text: err.detail };
  /** @type {{col: number, count: number} | null} */
  let shake = null;
  /** @type {{cols: number[], ms: number} | null} */
  let flash = null;
  /** @type {number | null} */
  let at = null;
  if (action && action.type === 'move') {
    shake = { col: action.from, count: action.count ?? 1 };
    at = action.to ?? action.from ?? null;
    if (action.to !== undefined) flash = { cols: [action.to], ms: 1200 };
  } else if (err.code === 'empty_column_blocks_deal') {
    flash = { cols: emptyColumns(state), ms: 1500 };
    at = flash.cols[0] ?? null;
  }
  return {
    kind: 'refused', text: err.detail, at, shake, flash, refresh: err.code === 'game_over',
  };
}
