// The sign-in form's and the leaderboards' decisions (authstate.js, boardstate.js) without a
// browser: where a sign-in goes next, which field a refusal is about, which board is asked for.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { fieldErrors, nextPath } from '../../web/static/web/authstate.js';
import { boardChoice, hintsNote } from '../../web/static/web/boardstate.js';

describe('signing in', () => {
  test('goes on to a path of this site, never another site', () => {
    assert.equal(nextPath(''), '/play');
    assert.equal(nextPath('?next=/daily'), '/daily');
    assert.equal(nextPath(`?next=${encodeURIComponent('/players/gina?tab=1')}`),
      '/players/gina?tab=1');
    for (const elsewhere of ['https://evil.example', '//evil.example', '/\\evil.example',
      'javascript:alert(1)', 'daily']) {
      assert.equal(nextPath(`?next=${encodeURIComponent(elsewhere)}`), '/play', elsewhere);
    }
  });

  test('a refusal is said under its field, each message once, the first refused focused', () => {
    assert.deepEqual(fieldErrors(null), { username: '', password: '', focus: null });
    const weak = { code: 'invalid', detail: 'Invalid input.', body: { errors: {
      password: ['This password is too short.', 'This password is too short.',
        'This password is too common.'] } } };
    assert.deepEqual(fieldErrors(weak), { username: '',
      password: 'This password is too short. This password is too common.', focus: 'password' });
    const both = { code: 'invalid', detail: '', body: { errors: {
      username: ['Required.'], password: ['Required.'] } } };
    assert.equal(fieldErrors(both).focus, 'username');
    const taken = { code: 'username_taken', detail: 'That username is taken.', body: {} };
    assert.deepEqual(fieldErrors(taken), { username: 'That username is taken.', password: '',
      focus: 'username' });
    const other = { code: 'throttled', detail: 'Slow down.', body: {} };
    assert.equal(fieldErrors(other).focus, null); // said by the form, not a field
  });
});

describe('the leaderboards', () => {
  test('the board asked for, or 1 suit of all time', () => {
    assert.deepEqual(boardChoice(''), { suits: '1', period: 'all' });
    assert.deepEqual(boardChoice('?suits=4&period=week'), { suits: '4', period: 'week' });
    assert.deepEqual(boardChoice('?suits=3&period=year'), { suits: '1', period: 'all' });
    assert.deepEqual(boardChoice('?period=constructor'), { suits: '1', period: 'all' });
  });

  test('a win\'s note', () => {
    assert.equal(hintsNote({ perfect: true, hints: 0 }), 'perfect');
    assert.equal(hintsNote({ perfect: false, hints: 0 }), '');
    assert.equal(hintsNote({ perfect: false, hints: 1 }), '1 hint');
    assert.equal(hintsNote({ perfect: false, hints: 3 }), '3 hints');
  });
});
