// What the server's answers mean for the game's screen (web/static/web/gamereply.js) and what
// the win dialog says (winstate.js), without a browser: the live region's sentence, the
// sounds, a run's toast, the win, and what each kind of refusal calls for.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  answerSound, failureOf, said, shownOf, soundOf,
} from '../../web/static/web/gamereply.js';
import { placesSaid, unranked, winNews } from '../../web/static/web/winstate.js';

const column = (/** @type {string[]} */ cards, hidden = 0) => ({ hidden, cards });
/** A game in progress: column 1 holds the 9 of spades over a face-down card. */
const game = (/** @type {object} */ more = {}) => /** @type {any} */ ({
  id: 'g', status: 'in_progress', suits: 1, version: 3, actions: 3, score: 497,
  kind: 'casual', ranked: true, outcome: null,
  columns: [column(['Ts', '9s'], 1), column(['Js']), column([], 0),
    ...Array.from({ length: 7 }, () => column(['Kd'], 3))],
  ...more,
});
/** An ApiError as api.js makes one. */
const refusal = (/** @type {number} */ status, code = 'error', body = {}) =>
  /** @type {any} */ ({ status, code, detail: `said ${code}`, body });

describe('what an answer means for the screen', () => {
  test('a state shown: remembered while in play, a run toasted, the win shown', () => {
    assert.deepEqual(shownOf(game(), null, false), { remember: true, toast: null, win: false });
    const one = /** @type {any} */ ({ runs_removed: ['s'] });
    assert.equal(shownOf(game(), one, false).toast, 'A run is complete!');
    const two = /** @type {any} */ ({ runs_removed: ['s', 's'] });
    assert.equal(shownOf(game(), two, false).toast, 'Runs complete!');
    assert.deepEqual(shownOf(game({ status: 'won' }), one, false),
      { remember: false, toast: 'A run is complete!', win: true });
  });

  test('a racer\'s table: not the game to resume, and the race screen says the result', () => {
    assert.deepEqual(shownOf(game(), null, true), { remember: false, toast: null, win: false });
    assert.equal(shownOf(game({ status: 'won' }), null, true).win, false);
  });

  test('the sounds: the action\'s as drawn, a run\'s on the answer, none under the win', () => {
    assert.equal(soundOf({ type: 'deal' }), 'deal');
    assert.equal(soundOf({ type: 'move', from: 0, to: 1 }), 'move');
    const move = /** @type {any} */ ({ action: { type: 'move', from: 0, to: 1 }, drawn: true });
    const deal = /** @type {any} */ ({ action: { type: 'deal' }, drawn: false });
    const run = { outcome: { runs_removed: ['s'] } };
    assert.equal(answerSound(move, game(), false), null, 'heard when it was drawn');
    assert.equal(answerSound(deal, game(), false), 'deal', 'not drawn ahead: heard now');
    assert.equal(answerSound(move, game(run), false), 'run');
    assert.equal(answerSound(move, game({ ...run, status: 'won' }), false), null);
    assert.equal(answerSound(move, game({ ...run, status: 'won' }), true), 'run');
  });

  test('the live region: the cards moved, the card turned over, a run complete', () => {
    const before = game();
    const after = game({
      columns: [column(['Ts']), column(['Js', '9s']), ...before.columns.slice(2)],
      outcome: { action: { type: 'move', from: 0, to: 1, count: 1 }, runs_removed: [] },
    });
    assert.equal(said({ type: 'move', from: 0, to: 1, count: 1 }, before, after),
      '9 of spades to column 2; column 1 turns over the 10 of spades.');
    const two = game({ outcome: { action: { from: 0, to: 4, count: 2 }, runs_removed: ['s'] } });
    assert.equal(said({ type: 'move', from: 0 }, before, two),
      '10 of spades and 1 more to column 5; a run is complete.');
    assert.equal(said({ type: 'undo' }, before, after), 'Undone.');
    assert.equal(said({ type: 'deal' }, before, after), 'Dealt ten cards.');
  });
});

describe('what a refusal means for the screen', () => {
  test('409 with the game: the game moved on, drawn as the server has it', () => {
    const theirs = game({ version: 9 });
    const f = failureOf(refusal(409, 'version_conflict', { game: theirs }), null, game());
    assert.equal(f.kind, 'conflict');
    assert.equal(f.kind === 'conflict' && f.game, theirs);
  });

  test('401: to the log-in page; anything else: its sentence', () => {
    assert.deepEqual(failureOf(refusal(401), null, game()), { kind: 'login' });
    assert.deepEqual(failureOf(refusal(503, 'busy'), null, game()),
      { kind: 'error', text: 'said busy' });
    assert.equal(failureOf(refusal(409, 'other'), null, game()).kind, 'error',
      'a 409 without the game is not a conflict to draw');
  });

  test('422 on a move: its cards shake and the column that refused them is marked', () => {
    const action = { type: /** @type {const} */ ('move'), from: 0, to: 1, count: 2 };
    assert.deepEqual(failureOf(refusal(422, 'illegal_move'), action, game()), {
      kind: 'refused', text: 'said illegal_move', at: 1, shake: { col: 0, count: 2 },
      flash: { cols: [1], ms: 1200 }, refresh: false,
    });
    const oneTap = { type: /** @type {const} */ ('move'), from: 3 };
    const f = failureOf(refusal(422, 'no_move'), oneTap, game());
    assert.deepEqual(f.kind === 'refused' && [f.shake, f.flash], [{ col: 3, count: 1 }, null]);
    assert.equal(f.kind === 'refused' && f.at, 3, 'said beside the column it came from');
  });

  test('422 on a deal over an empty column: the empty columns are marked', () => {
    const f = failureOf(refusal(422, 'empty_column_blocks_deal'), { type: 'deal' }, game());
    assert.deepEqual(f.kind === 'refused' && f.flash, { cols: [2], ms: 1500 });
    assert.equal(f.kind === 'refused' && f.at, 2, 'said beside the empty column');
  });

  test('422 game over: the game is read again', () => {
    const f = failureOf(refusal(422, 'game_over'), { type: 'undo' }, game());
    assert.deepEqual(f.kind === 'refused' && [f.refresh, f.shake, f.flash], [true, null, null]);
    assert.equal(f.kind === 'refused' && f.at, null, 'about no column: a toast');
  });
});

describe('what the win dialog says', () => {
  test('why a game does not rank', () => {
    assert.equal(unranked(game(), true), null, 'a ranked game: its places are asked for');
    assert.equal(unranked(game({ ranked: false }), true), 'guest');
    assert.match(String(unranked(game({ ranked: false, kind: 'daily' }), false)),
      /practice game of the daily/);
    assert.match(String(unranked(game({ ranked: false }), false)), /a replay/);
  });

  test('the places on the boards', () => {
    const p = /** @type {any} */ ({ places: { all: 3, day: 1 }, daily: null });
    assert.equal(placesSaid(game(), p), '3rd on the 1 suit leaderboard, 1st today.');
    const daily = /** @type {any} */ ({ places: { all: 12, day: null },
      daily: { rank: 22, date: '2026-12-07' } });
    assert.equal(placesSaid(game({ suits: 4 }), daily),
      '12th on the 4 suits leaderboard, 22nd on the daily board of 2026-12-07.');
  });

  test('a personal best and a winning streak', () => {
    const mode = { best_score: 497, wins: 4, current_win_streak: 3 };
    assert.equal(winNews(game(), mode), 'A personal best score! 3 wins in a row.');
    assert.equal(winNews(game(), { ...mode, wins: 1, current_win_streak: 1 }), '',
      'a first win is no personal best');
    assert.equal(winNews(game(), undefined), '');
  });
});
