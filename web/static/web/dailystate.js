// @ts-check
// What the daily challenge's page decides, apart from drawing it (daily.js): which way to
// play today's deal the player is offered, and the check of the day's commitment. No DOM:
// tests/js hold it without a browser.

/** @import { Daily } from './api.js' */

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
  return { kind: 'over', note: `Your ${a.ranked ? 'ranked attempt' : 'game'}: ${a.status}, `
    + `score ${a.score}.`, button: 'Practice this deal', unranked: true };
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
