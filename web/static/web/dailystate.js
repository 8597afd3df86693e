// @ts-check
// What the daily challenge's page decides, apart from drawing it (daily.js): which way to
// play today's deal the player is offered, and the check of the day's commitment. No DOM:
// tests/js hold it without a browser.

/** @import { Daily, PlayerDaily } from './api.js' */

/**
 * What the attempt's box offers.
 * @typedef {object} AttemptOffer
 * @property {'guest' | 'ranked' | 'resume' | 'over'} kind
 * @property {string | null} note  the sentence above the button (a guest's is the page's)
 * @property {string} button
 * @property {boolean} unranked  the button starts an unranked (practice) game
 */

/**
 * Play today's deal: the ranked attempt, resume it, or practise after it. A guest's (or a
 * signed-out player's) daily game is practice, never the ranked attempt (docs/rules.md#guests).
 * @param {Daily['attempt']} a  the player's game on the day, if any
 * @param {{signedIn: boolean, guest: boolean}} who
 * @returns {AttemptOffer}
 */
export function attemptOffer(a, who) {
  if (!who.signedIn || who.guest) {
    const resume = Boolean(a && a.status === 'in_progress');
    return {
      kind: 'guest',
      note: a && !resume ? `Your practice game: ${a.status}, score ${a.score}.` : null,
      button: resume ? 'Resume your practice game' : 'Play as practice',
      unranked: Boolean(a && !resume),
    };
  }
  if (!a) {
    return { kind: 'ranked', note: null, button: 'Play your ranked attempt', unranked: false };
  }
  if (a.status === 'in_progress') {
    const what = a.ranked ? 'ranked attempt' : 'practice game';
    return { kind: 'resume', note: `Your ${what} is in progress (score ${a.score}).`,
      button: 'Resume', unranked: false };
  }
  const place = a.standing ? `, ${placeWords(a.standing)}` : '';
  return { kind: 'over', note: `Your ${a.ranked ? 'ranked attempt' : 'game'}: ${a.status}, `
    + `score ${a.score}${place}.`, button: 'Practice this deal', unranked: true };
}

/**
 * @typedef {NonNullable<NonNullable<Daily['attempt']>['standing']>} Standing
 * @typedef {NonNullable<Daily['streaks']>} Streaks
 */

/** @param {number} n */
const ordinalOf = (n) => {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] || 'th';
  return `${n}${tail}`;
};

/**
 * The attempt's place in the player's words: "3rd of 120 so far" (final once closed).
 * @param {Standing} s
 */
export const placeWords = (s) => `${ordinalOf(s.place)} of ${s.players}`
  + `${s.final ? '' : ' so far'}`;

/**
 * The lines under an ended attempt: place, the share with a lower result, the share who won.
 * @param {Standing} s
 * @returns {string[]}
 */
export function standingLines(s) {
  const day = s.final ? "the day's" : "today's";
  return [
    `Place: ${placeWords(s)}.`,
    `Better than ${s.better_than_percent}% of ${day} players.`,
    `${s.winners} of ${s.players} won (${s.won_percent}%).`,
  ];
}

/**
 * The streaks in words ("3 days in a row"), or why a guest has none.
 * @param {Streaks} s
 * @returns {string}
 */
export function streakWords(s) {
  if (!s.kept || !s.played || !s.won) return s.reason || '';
  const days = (/** @type {number} */ n) => `${n} day${n === 1 ? '' : 's'}`;
  return `Played ${days(s.played.current)} in a row (best ${days(s.played.best)}); `
    + `won ${days(s.won.current)} in a row (best ${days(s.won.best)}).`;
}

/**
 * How long until ``at`` in hours and minutes ("6 h 12 min", "45 s" in the last minute).
 * @param {number} ms
 */
export function untilWords(ms) {
  if (ms <= 0) return 'now';
  const minutes = Math.floor(ms / 60000);
  if (minutes < 1) return `${Math.ceil(ms / 1000)} s`;
  const hours = Math.floor(minutes / 60);
  return hours ? `${hours} h ${minutes % 60} min` : `${minutes} min`;
}

/**
 * The share: the server's spoiler-free lines and a link to the day's page.
 * @param {{text: string, path: string}} share
 * @param {string} origin
 */
export const shareMessage = (share, origin) => `${share.text}\n${origin}${share.path}`;

/**
 * A month's days of a calendar, as the page lists them: the date, the words, a CSS class.
 * @param {PlayerDaily['days']} days
 */
export function calendarCells(days) {
  const words = {
    won: 'won',
    lost: 'lost',
    missed: 'missed',
    open: 'open today',
    played: 'played (shows after the close)',
  };
  return days.map((d) => ({
    date: d.date,
    status: d.status,
    text: words[d.status] + (d.score == null ? '' : `, score ${d.score}`)
      + (d.place == null ? '' : `, ${ordinalOf(d.place)} of ${d.players}`),
    practice: d.closed,
  }));
}

/**
 * The text the day's commitment hashes (leaderboard/commitment.py).
 * @param {Pick<Daily, 'date' | 'suits' | 'deal_version' | 'seed' | 'nonce'>} info
 */
export const commitmentText = (info) => `spider-daily:v1:${info.date}:${info.suits}:`
  + `${info.deal_version}:${info.seed}:${info.nonce}`;

/**
 * Recompute a closed day's commitment (SubtleCrypto) and compare.
 * @param {Pick<Daily, 'date' | 'suits' | 'deal_version' | 'seed' | 'nonce' | 'commitment'>} info
 * @returns {Promise<{good: boolean, said: string}>}
 */
export async function checkCommitment(info) {
  const text = commitmentText(info);
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  const good = hex === info.commitment;
  return {
    good,
    said: good
      ? `✓ sha256("${text}") matches the commitment: the deal was fixed before the day began.`
      : `✗ sha256 gives ${hex}, not the commitment.`,
  };
}
