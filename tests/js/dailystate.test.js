// The daily challenge's decisions (web/static/web/dailystate.js) without a browser: what a
// player is offered to play today, and the check of a closed day's commitment.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';

import {
  attemptOffer, calendarCells, checkCommitment, commitmentText, placeWords, shareMessage,
  standingLines, streakWords, untilWords,
} from '../../web/static/web/dailystate.js';

const member = { signedIn: true, guest: false };
/**
 * @param {'in_progress' | 'won' | 'lost'} status
 * @param {boolean} ranked
 */
const attempt = (status, ranked = true) => ({
  game: 'g', status, ranked, score: 512, standing: null, share: null });

describe('the daily challenge\'s offer', () => {
  test('a member: the ranked attempt, then resume it, then practice', () => {
    assert.deepEqual(attemptOffer(null, member), {
      kind: 'ranked', note: null, button: 'Play your ranked attempt', unranked: false });
    assert.deepEqual(attemptOffer(attempt('in_progress'), member), {
      kind: 'resume', note: 'Your ranked attempt is in progress (score 512).',
      button: 'Resume', unranked: false });
    assert.equal(attemptOffer(attempt('in_progress', false), member).note,
      'Your practice game is in progress (score 512).');
    assert.deepEqual(attemptOffer(attempt('lost'), member), {
      kind: 'over', note: 'Your ranked attempt: lost, score 512.',
      button: 'Practice this deal', unranked: true });
  });

  test('a guest or no one signed in: practice only, never the ranked attempt', () => {
    for (const who of [{ signedIn: false, guest: false }, { signedIn: true, guest: true }]) {
      assert.deepEqual(attemptOffer(null, who), {
        kind: 'guest', note: null, button: 'Play as practice', unranked: false });
      assert.deepEqual(attemptOffer(attempt('in_progress', false), who), {
        kind: 'guest', note: null, button: 'Resume your practice game', unranked: false });
      assert.deepEqual(attemptOffer(attempt('won', false), who), {
        kind: 'guest', note: 'Your practice game: won, score 512.',
        button: 'Play as practice', unranked: true });
    }
  });
});

const standing = {
  players: 120, winners: 54, won_percent: 45, place: 73, final: false, better_than_percent: 38,
  distribution: [{ from: 0, to: 299, players: 120, mine: true }],
};

describe('where an ended attempt stands, in words', () => {
  test('a lost attempt is told its place too, so far until the close', () => {
    const lost = { ...attempt('lost'), standing };
    assert.equal(attemptOffer(lost, member).note,
      'Your ranked attempt: lost, score 512, 73rd of 120 so far.');
    assert.deepEqual(standingLines(standing), ['Place: 73rd of 120 so far.',
      "Better than 38% of today's players.", '54 of 120 won (45%).']);
    assert.equal(placeWords({ ...standing, place: 1, final: true }), '1st of 120');
    assert.equal(placeWords({ ...standing, place: 12 }), '12th of 120 so far');
  });

  test('streaks, or why a guest has none', () => {
    assert.equal(streakWords({ kept: true, reason: null,
      played: { current: 3, best: 5, last: null }, won: { current: 1, best: 2, last: null } }),
    'Played 3 days in a row (best 5 days); won 1 day in a row (best 2 days).');
    assert.equal(streakWords({ kept: false, reason: 'Guests play practice dailies only.',
      played: null, won: null }), 'Guests play practice dailies only.');
  });

  test('the countdown, the share and the calendar', () => {
    assert.equal(untilWords((6 * 60 + 12) * 60000 + 5000), '6 h 12 min');
    assert.equal(untilWords(45000), '45 s');
    assert.equal(untilWords(-1), 'now');
    assert.equal(shareMessage({ text: 'Spider daily', path: '/daily/2026-12-07' },
      'https://x.example'), 'Spider daily\nhttps://x.example/daily/2026-12-07');
    assert.deepEqual(calendarCells([
      { date: '2026-12-01', closed: true, status: 'won', score: 1000, place: 2, players: 9 },
      { date: '2026-12-02', closed: true, status: 'missed', score: null, place: null,
        players: null },
    ]).map((c) => [c.text, c.practice]), [['won, score 1000, 2nd of 9', true], ['missed', true]]);
  });
});

describe('the commitment\'s check', () => {
  const day = { date: '2026-12-01', suits: /** @type {2} */ (2), deal_version: 1,
    seed: '123456789', nonce: '00ff'.repeat(8) };
  // leaderboard/commitment.py commit() of that day, as the server publishes it
  const published = 'f5cb31b82f74003386bd80cb387d8731f80ca7cf933a44c7fe6242807caba321';

  test('the text hashed is the server\'s, and the hash it publishes matches', async () => {
    const text = commitmentText(day);
    assert.equal(text, `spider-daily:v1:2026-12-01:2:1:123456789:${'00ff'.repeat(8)}`);
    assert.equal(createHash('sha256').update(text).digest('hex'), published);
    const { good, said } = await checkCommitment({ ...day, commitment: published });
    assert.equal(good, true);
    assert.match(said, /^✓ sha256\("spider-daily:v1:2026-12-01:.*"\) matches the commitment/);
  });

  test('a commitment that does not match says what the hash is', async () => {
    const { good, said } = await checkCommitment({ ...day, seed: '1', commitment: published });
    assert.equal(good, false);
    const hex = createHash('sha256').update(commitmentText({ ...day, seed: '1' })).digest('hex');
    assert.equal(said, `✗ sha256 gives ${hex}, not the commitment.`);
  });
});
