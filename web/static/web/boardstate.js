// @ts-check
// What the leaderboards decide, apart from drawing them (leaderboard.js): which board the
// address asks for, and a win's note. No DOM: tests/js hold it.

/** The periods a board covers, in the order of its tabs. */
export const PERIODS = /** @type {Record<string, string>} */ (
  { all: 'All time', day: 'Today', week: 'This week', month: 'This month' });
export const SUIT_MODES = ['1', '2', '4'];

/**
 * The board the query asks for; anything else asked: 1 suit, all time.
 * @param {string} search  the query string
 * @returns {{suits: string, period: string}}
 */
export function boardChoice(search) {
  const params = new URLSearchParams(search);
  const suits = params.get('suits') || '';
  const period = params.get('period') || '';
  return {
    suits: SUIT_MODES.includes(suits) ? suits : '1',
    period: Object.hasOwn(PERIODS, period) ? period : 'all',
  };
}

/**
 * A win's note: perfect (no undo, no hint), or how many hints it took.
 * @param {{perfect: boolean, hints: number}} r
 */
export function hintsNote(r) {
  if (r.perfect) return 'perfect';
  return r.hints ? `${r.hints} hint${r.hints > 1 ? 's' : ''}` : '';
}
