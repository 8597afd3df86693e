// @ts-check
// What the client says in words: a suit mode, an action (the game's notices, a hint, a
// replay's steps).

/** @import { LoggedAction } from './api.js' */

/**
 * A game's or a table's suit mode (1, 2 or 4 suits), as the screens name it.
 * @type {Record<string, string>}
 */
export const SUIT_LABEL = { 1: '1 suit', 2: '2 suits', 4: '4 suits' };

/**
 * An action in words: "move 3 cards from column 2 to column 5".
 * @param {LoggedAction} action
 */
export function describe(action) {
  if (action.type === 'deal') return 'deal from the stock';
  if (action.type === 'undo') return 'undo';
  if (action.type === 'hint') return 'asked for a hint';
  const cards = (action.count ?? 0) > 1 ? `${action.count} cards` : 'the card';
  return `move ${cards} from column ${Number(action.from) + 1} to column ${Number(action.to) + 1}`;
}
