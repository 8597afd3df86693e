// @ts-check
// What the win dialog says beside the score (no DOM): why the game does not rank, its places
// on the boards, and the player's news (a personal best, a winning streak). windialog.js
// draws it.

import { SUIT_LABEL, ordinal } from './words.js';

/** @import { Game, GamePlaces } from './api.js' */

/**
 * Why a won game does not rank. `guest`: the player plays as a guest (offered to sign up);
 * a sentence otherwise; null: it ranks (its places are asked for).
 * @param {Game} s
 * @param {boolean} guest
 * @returns {'guest' | string | null}
 */
export function unranked(s, guest) {
  if (s.ranked) return null;
  if (guest) return 'guest';
  return s.kind === 'daily'
    ? 'This game does not rank: it is a practice game of the daily.'
    : 'This game does not rank: a replay, a practice game, a deal you were dealt before '
      + 'or a staff deal.';
}

/**
 * A won game's places: "3rd on the 1 suit leaderboard, 1st today, 2nd on the daily board of
 * 2026-12-07."
 * @param {Game} s
 * @param {GamePlaces} p  as GET /leaderboard/games/{id} answers
 */
export function placesSaid(s, p) {
  const parts = [`${ordinal(p.places.all)} on the ${SUIT_LABEL[s.suits]} leaderboard`];
  if (p.places.day) parts.push(`${ordinal(p.places.day)} today`);
  if (p.daily) parts.push(`${ordinal(p.daily.rank)} on the daily board of ${p.daily.date}`);
  return `${parts.join(', ')}.`;
}

/**
 * The player's news under a win, from their statistics in its suit mode ('' when none).
 * @param {Game} s
 * @param {{best_score: number, wins: number, current_win_streak: number} | undefined} mode
 */
export function winNews(s, mode) {
  if (!mode) return '';
  const news = [];
  if (mode.best_score === s.score && mode.wins > 1) news.push('A personal best score!');
  if (mode.current_win_streak > 1) news.push(`${mode.current_win_streak} wins in a row.`);
  return news.join(' ');
}
