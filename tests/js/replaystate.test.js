// The replay's state (web/static/web/replaystate.js) without a browser: stepping over hints,
// the analysis's answers, the way through and back, and what each step says.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  ReplayState, analysisSummary, mark, reviewSentence, reviewSummary,
} from '../../web/static/web/replaystate.js';

const column = { hidden: 0, cards: [] };
/**
 * A game's step as the server answers it.
 * @param {number} step
 * @param {object | null} action
 */
const step = (step, action = null) => ({
  game: 'g', step, steps: 6, action, actions: step, score: 500 - step, won: false,
  columns: Array(10).fill(column), deals_left: 5, removed_suits: [], runs_removed: 0,
  deal_over_gap: false,
});
const move = (/** @type {number} */ from, /** @type {number} */ to, count = 1) => (
  { type: 'move', from, to, count });
// moves, a hint at step 3, a deal, a hint at step 5, a move
const LOG = [move(0, 1), move(2, 3), { type: 'hint' }, { type: 'deal' }, { type: 'hint' },
  move(4, 5, 2)];
const table = { columns: Array(10).fill(column), deals_left: 0, removed_suits: [],
  runs_removed: 8, won: false };
const LINE = {
  from_index: 2, from_seq: 2, position: 'p', length: 2,
  actions: [move(1, 2), { type: 'deal' }],
  positions: [table, table, { ...table, won: true }],
};
const TURN = { index: 2, seq: 4, step: 4, position: 'p', action: move(3, 4, 3),
  after: { index: 3, position: 'q', nodes: 100, exhaustive: true } };
const RESULT = {
  outcome: 'lost', line_length: 4, undone: 0, par: null, start_winnable: true,
  winnable_actions: 3, winnable_at_end: false, last_win: { index: 2, step: 4, position: 'p' },
  proved_loss: { index: 3, step: 5, position: 'q' }, unsettled: 0, turning_point: TURN,
  solver_line: LINE, budget: {}, log_length: 6, nodes: 10, probes: [], version: 1,
};
/** @param {object} fields */
const analysis = (fields) => /** @type {any} */ ({
  game: 'g', status: 'done', reason: '', nodes: 1234, seconds: 2.25, result: RESULT,
  requested_at: '', finished_at: null, ...fields,
});
const fresh = () => new ReplayState(LOG, LOG.length);

describe('the replay\'s state', () => {
  test('stepping passes over the hints, both ways, and stays within the game', () => {
    const state = fresh();
    assert.deepEqual(state.hintSteps, [3, 5]);
    const seen = [0];
    while (state.target < state.last) seen.push(state.goTo(state.next()));
    assert.deepEqual(seen, [0, 1, 2, 4, 6]);
    const back = [];
    while (state.target > 0) back.push(state.goTo(state.previous()));
    assert.deepEqual(back, [4, 2, 1, 0]);
    assert.equal(state.goTo(99), 6);
    assert.equal(state.goTo(-3), 0);
  });

  test('a step fetched late is not drawn over one asked for since', () => {
    const state = fresh();
    state.goTo(2);
    state.goTo(4);
    assert.equal(state.wanted(2), false);
    assert.equal(state.wanted(4), true);
  });

  test('a game step says what was played, where the cards went, and the turning point', () => {
    const state = fresh();
    const deal = state.gameFrame(0, /** @type {any} */ (step(0)));
    assert.equal(deal.caption, 'The deal (6 steps follow)');
    assert.equal(deal.highlight, null);
    const second = state.gameFrame(2, /** @type {any} */ (step(2, move(2, 3))));
    assert.equal(second.caption, 'Step 2 of 6: move the card from column 3 to column 4');
    assert.deepEqual(second.highlight, { to: 3 });
    assert.equal(second.stats, 'Score 498 · moves 2');
    assert.equal(second.end, false);
    assert.equal(state.gameFrame(6, /** @type {any} */ (step(6, move(4, 5, 2)))).end, true);

    state.analysis(analysis({}));
    const turn = state.gameFrame(4, /** @type {any} */ (step(4, { type: 'deal' })));
    assert.match(turn.caption, /^Turning point, step 4 of 6: .* move 3 cards from column 4 to/);
    assert.deepEqual(turn.highlight, { from: 3, to: 4, count: 3 });
  });

  test('the analysis: pending polls, a failure says why, done shows the turning point', () => {
    const state = fresh();
    const pending = state.analysis(analysis({ status: 'pending', result: null }));
    assert.equal(pending.poll, true);
    assert.equal(state.answered, false);

    const failed = fresh().analysis(analysis({ status: 'failed', result: null, reason: 'busy' }));
    assert.deepEqual([failed.status, failed.error, failed.show], [
      'The analysis failed: busy.', true, null]);

    const done = state.analysis(analysis({}));
    assert.equal(done.status, 'Analysed: 1234 positions searched in 2.3 s.');
    assert.equal(done.show, 4);
    assert.equal(state.answered, true);
    assert.match(/** @type {string} */ (done.summary), /^Winnable for 3 of 4 actions\. At step 4/);

    const noTurn = fresh();
    const line = noTurn.analysis(analysis({ seconds: null,
      result: { ...RESULT, turning_point: null } }));
    assert.equal(line.status, 'Analysed: 1234 positions searched.');
    assert.equal(line.show, 2); // where the way through starts
  });

  test('the way through: stepped with the same controls, then back to the game', () => {
    const state = fresh();
    state.analysis(analysis({}));
    assert.equal(state.playWay(), 0);
    assert.equal(state.last, 2);
    const start = state.wayFrame(state.goTo(0));
    assert.equal(start.caption, 'The way through from step 2: 2 actions to a win');
    assert.deepEqual(start.highlight, { from: 1, to: 2, count: 1 }); // the first one to play
    state.goTo(state.next());
    const end = state.wayFrame(state.goTo(state.next()));
    assert.equal(end.caption, 'Way through, step 2 of 2: deal from the stock · won');
    assert.deepEqual(end.highlight, { deal: true });
    assert.equal(end.stats, 'Won: every run is off the table.');
    assert.equal(end.end, true);
    assert.equal(state.next(), 2); // no further than its end
    assert.equal(state.wanted(2), false); // a game step arriving now is not drawn

    assert.equal(state.backToGame(), 4); // the turning point
    assert.equal(state.way, null);
    assert.equal(state.last, 6);
    assert.equal(state.toTurn(), 4);
  });

  test('back to the game with no turning point: where the way through began', () => {
    const state = fresh();
    state.analysis(analysis({ result: { ...RESULT, turning_point: null } }));
    state.playWay();
    assert.equal(state.backToGame(), 2);
    assert.equal(state.toTurn(), null);
  });

  test('the summary of each kind of finding', () => {
    const won = /** @type {any} */ ({ ...RESULT, outcome: 'won', length: 120, par: 110,
      over_par: 10 });
    assert.equal(analysisSummary(won), 'Won in 120 actions; the deal\'s par is 110 (+10).');
    assert.equal(analysisSummary({ ...won, over_par: 0 }),
      'Won in 120 actions; the deal\'s par is 110 (on par).');
    const unsettled = /** @type {any} */ ({ ...RESULT, turning_point: null, unsettled: 1 });
    assert.match(analysisSummary(unsettled), /A win was found from step 4 .* The position between/);
    const atEnd = /** @type {any} */ ({ ...RESULT, turning_point: null, winnable_at_end: true });
    assert.match(analysisSummary(atEnd), /^A win was still there when the game ended/);
    const none = /** @type {any} */ ({ ...RESULT, turning_point: null, last_win: null,
      start: { index: 0, position: 'p', nodes: 500, exhaustive: false } });
    assert.match(analysisSummary(none), /within 500 positions/);
    assert.deepEqual(mark({ type: 'deal' }, true), { deal: true });
  });

  test('the move review: the graph, a graded move\'s better move on the table, its words', () => {
    const chance = (/** @type {number | null} */ share, won = 0) => (
      { share, won, lost: 10 - won, undecided: 0, sample: 10 });
    const graded = {
      index: 1, step: 1, action: move(2, 3), words: 'moving the 5♠ to the 6♥',
      chance_before: chance(0.9, 9), chance_after: chance(0.3, 3), chance_best: chance(0.9, 9),
      better: { action: move(0, 4), words: 'moving the 7♥ to the 8♠' }, drop: 0.6,
      grade: 'blunder',
      sentence: 'This move left a win in about 3 of 10 ways the hidden cards could lie; '
        + 'moving the 7♥ to the 8♠ left one in about 9 of 10 ways the hidden cards could lie.',
    };
    const plain = { ...graded, index: 0, step: 0, better: null, drop: 0, grade: null,
      sentence: 'This move left a win in all 10 ways the hidden cards could lie.' };
    const review = {
      version: 1, claim: 'estimate', budget: {}, reviewed: 2, actions: 4, complete: false,
      cut: 'nodes', nodes: 1, seconds: 1,
      chances: [{ index: 0, step: 0, chance: chance(1, 10) },
        { index: 1, step: 1, chance: chance(0.9, 9) }, { index: 2, step: 4, chance: chance(null) }],
      moves: [plain, graded],
    };
    const state = fresh();
    state.analysis(analysis({ result: { ...RESULT, review } }));
    assert.deepEqual(state.chanceGraph(), {
      points: [{ step: 0, share: 1 }, { step: 1, share: 0.9 }, { step: 4, share: null }],
      marks: [{ step: 1, grade: 'blunder' }],
    });
    const at = state.gameFrame(1, /** @type {any} */ (step(1, move(0, 1))));
    assert.deepEqual(at.highlight, { from: 0, to: 4, count: 1 }); // the better move
    assert.equal(at.caption,
      'Step 1 of 6: the move played next was a blunder; the better move is marked.');
    assert.equal(at.review, `A blunder (estimate). ${graded.sentence}`);
    const first = state.gameFrame(0, /** @type {any} */ (step(0)));
    assert.equal(first.review, `Estimate: ${plain.sentence}`);
    assert.equal(first.caption, 'The deal (6 steps follow)');
    assert.equal(state.gameFrame(2, /** @type {any} */ (step(2, move(2, 3)))).review, null);
    assert.equal(reviewSentence(plain), `Estimate: ${plain.sentence}`);
    assert.equal(reviewSummary(/** @type {any} */ (review)),
      'Move review, an estimate from the cards you could see: 1 blunder (2 of 4 moves reviewed '
      + 'within the budget).');
    assert.equal(state.toStep(1), 1);
  });
});
