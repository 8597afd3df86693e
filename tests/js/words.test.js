// How the client says a moment (words.js): relative while near, a date without seconds after,
// "never" for none.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { relativeTime } from '../../web/static/web/words.js';

const NOW = Date.UTC(2026, 11, 7, 18, 0, 0);
const MIN = 60_000;

describe('a moment in words', () => {
  test('none is "never"', () => {
    assert.equal(relativeTime(null, NOW), 'never');
    assert.equal(relativeTime(undefined, NOW), 'never');
    assert.equal(relativeTime('', NOW), 'never');
    assert.equal(relativeTime('not a date', NOW), 'never');
  });

  test('near moments are relative, in the past or ahead', () => {
    assert.equal(relativeTime(NOW - 20_000, NOW), 'just now');
    assert.equal(relativeTime(NOW + 20_000, NOW), 'in a moment');
    assert.equal(relativeTime(NOW - MIN, NOW), '1 minute ago');
    assert.equal(relativeTime(new Date(NOW - 5 * MIN).toISOString(), NOW), '5 minutes ago');
    assert.equal(relativeTime(NOW + 3 * 60 * MIN, NOW), 'in 3 hours');
    assert.equal(relativeTime(NOW - 26 * 60 * MIN, NOW), 'yesterday');
    assert.equal(relativeTime(NOW + 24 * 60 * MIN, NOW), 'tomorrow');
    assert.equal(relativeTime(NOW + 6 * 24 * 60 * MIN, NOW), 'in 6 days');
  });

  test('far moments are a date, never with seconds', () => {
    const far = relativeTime(NOW + 90 * 24 * 60 * MIN, NOW);
    assert.match(far, /2027/);
    assert.doesNotMatch(far, /\d:\d\d/);
  });
});
