// @ts-check
// "Analyse": the way to a finished game's analysis from wherever the game is shown (its end,
// a leaderboard row, a laid-open race table, a closed day's page). The replay asks for the
// analysis and shows it (replay.js); docs/rules.md#after-the-game-the-analysis.

import { link } from './dom.js';

/**
 * To the replay of game `id`, asking for its analysis there. Offered only where the server
 * would answer: a finished game of one's own, or one whose log is public; never a running
 * game, a race before it ends, or a daily game before its day closes (those are refused,
 * 409: the solver sees every card).
 * @param {string} id
 * @param {string | null} [label]  the accessible name, where "Analyse" alone says not whose
 * @param {boolean} [button]  drawn as a button (false: a plain link, as in a table's row)
 */
export function analyseLink(id, label = null, button = true) {
  return link(`/replay/${id}?analyse=1`, 'Analyse', {
    class: button ? 'button analyse' : 'analyse',
    title: 'Where the win was lost, and the way through',
    'aria-label': label,
  });
}

/**
 * Whether the analysis of a game can be had now: not a daily game whose UTC day has not
 * closed yet (the server refuses it, `daily_open`): no control is offered only to refuse.
 * @param {{kind: string, daily?: string | null}} game
 */
export function analysable(game) {
  if (game.kind !== 'daily' || !game.daily) return true;
  return game.daily < new Date().toISOString().slice(0, 10);
}
