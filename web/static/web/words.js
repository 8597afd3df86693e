// @ts-check
// What the client says of an action, in words (the game's notices, a hint, a replay's steps).

/** @import { LoggedAction } from './api.js' */

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
