// The daily challenge's decisions (web/static/web/dailystate.js) without a browser: what a
// player is offered to play today, and the check of a closed day's commitment.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';

import {
  attemptOffer, checkCommitment, commitmentText,
} from '../../web/static/web/dailystate.js';

const member = { signedIn: true, guest: false };
/**
 * @param {'in_progress' | 'won' | 'lost'} status
 * @param {boolean} ranked
 */
const attempt = (status, ranked = true) => ({ game: 'g', status, ranked, score: 512 });

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
