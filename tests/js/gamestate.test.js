// The game table's state (web/static/web/gamestate.js) without a browser: what an action
// does to the table drawn before the answer, and the undo drawn from what came before.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { positionKey, predict } from '../../web/static/web/gamestate.js';

const column = (/** @type {string[]} */ cards, hidden = 0) => ({ hidden, cards });
/** A game in progress: a 6 of spades onto a 7 of spades (col 1), a 5 of hearts alone. */
const game = () => /** @type {any} */ ({
  id: 'g', status: 'in_progress', suits: 2, version: 3, actions: 3, score: 497,
  can_undo: false, deals_left: 2, removed_suits: [], deal_over_gap: false,
  columns: [column(['6s'], 2), column(['8h', '7s']), column(['5h'], 1),
    ...Array.from({ length: 7 }, () => column(['Kd'], 3))],
});

describe('the game table\'s state', () => {
  test('a move is drawn at once and may be undone, cards sliding back', () => {
    const view = game();
    const step = /** @type {NonNullable<ReturnType<typeof predict>>} */ (
      predict(view, [], { type: 'move', from: 0, to: 1, count: 1 }, false));
    assert.deepEqual(step.moved, { from: 0, to: 1, count: 1 });
    assert.deepEqual(step.state.columns[1].cards, ['8h', '7s', '6s']);
    assert.equal(step.state.can_undo, true);
    assert.deepEqual(step.past, [{ before: view, action: step.send }]);

    const back = /** @type {NonNullable<ReturnType<typeof predict>>} */ (
      predict(step.state, step.past, { type: 'undo' }, false));
    assert.deepEqual(back.moved, { from: 1, to: 0, count: 1 });
    assert.deepEqual(back.past, []);
    assert.equal(back.state.can_undo, false); // nothing before it, and no deeper history
    assert.equal(positionKey(back.state), positionKey(view));
    assert.equal(back.state.actions, 5); // an undo is an action too
  });

  test('a one-tap is sent with the destination the engine would choose', () => {
    const step = predict(game(), [], { type: 'move', from: 2 }, false);
    assert.deepEqual(step?.send, { type: 'move', from: 2, to: 0, count: 1 });
  });

  test('what the table cannot tell is left to the server\'s answer', () => {
    const view = game();
    assert.equal(predict(view, [], { type: 'move', from: 1, to: 2, count: 1 }, false), null);
    assert.equal(predict(view, [], { type: 'undo' }, false), null); // nothing to undo
    assert.equal(predict({ ...view, status: 'won' }, [], { type: 'deal' }, false), null);
    const gap = game();
    gap.columns[3] = column([]);
    assert.equal(predict(gap, [], { type: 'deal' }, false), null); // a gap blocks the deal
  });

  test('a deal goes down face down; its undo takes it back, with deeper history kept', () => {
    const view = game();
    const dealt = /** @type {NonNullable<ReturnType<typeof predict>>} */ (
      predict(view, [], { type: 'deal' }, false));
    assert.equal(dealt.state.deals_left, 1);
    assert.ok(dealt.state.columns.every((/** @type {{dealt?: number}} */ c) => c.dealt === 1));
    const back = /** @type {NonNullable<ReturnType<typeof predict>>} */ (
      predict(dealt.state, dealt.past, { type: 'undo' }, true));
    assert.equal(back.moved, null);
    assert.equal(back.state.deals_left, 2);
    assert.equal(back.state.can_undo, true); // the server holds actions before these
  });

  test('a position as the player sees it: faces, face-down counts, deals, runs', () => {
    const view = game();
    assert.match(positionKey(view), /^2:6s\/0:8h7s\/1:5h\//);
    assert.notEqual(positionKey(view), positionKey({ ...view, deals_left: 1 }));
    assert.notEqual(positionKey(view), positionKey({ ...view, removed_suits: ['s'] }));
  });
});
