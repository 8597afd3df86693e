// The game screen's session (web/static/web/gamestate.js) without a browser: actions queued
// and sent in order with the version each answer gave, a refusal rolling the table back to
// the server's, an undo of an action drawn ahead, the hint and what the notices say. The
// server is a fake that answers the way the API does (the engine's answer is the table drawn).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  GameSession, buttonsOf, coinsNote, newGameEnds, noticeOf, positionKey, predict, statsOf,
} from '../../web/static/web/gamestate.js';

const column = (/** @type {string[]} */ cards, hidden = 0) => ({ hidden, cards });
/** A game in progress: a 6 of spades onto a 7 of spades (col 1), a 5 of spades alone. */
const game = () => /** @type {any} */ ({
  id: 'g', status: 'in_progress', suits: 2, version: 3, actions: 3, score: 497, hints: 0,
  can_undo: false, deals_left: 2, removed_suits: [], deal_over_gap: false, stuck: false,
  kind: 'casual', ranked: true, elapsed_ms: 61_000, started_at: '2026-12-04T12:00:00Z',
  perfect: true, outcome: null,
  columns: [column(['6s']), column(['8h', '7s']), column(['5s'], 1),
    ...Array.from({ length: 7 }, () => column(['Kd'], 3))],
});

/**
 * A fake server: each action waits until the test answers it (`answer`: the engine's table
 * after it, as the server would; `refuse`: an ApiError-like refusal).
 */
function fakeServer() {
  /** @type {{id: string, body: any, resolve: (g: any) => void, reject: (e: any) => void}[]} */
  const calls = [];
  /** @type {any[]} */
  const hints = [];
  return {
    calls,
    hints,
    io: {
      act: (/** @type {string} */ id, /** @type {any} */ body) => new Promise((resolve, reject) => {
        calls.push({ id, body, resolve, reject });
      }),
      hint: async (/** @type {string} */ _id, /** @type {number} */ n, /** @type {number} */ v) => {
        const hint = hints.shift();
        return { n, version: v + 1, hints: 1, ...hint };
      },
    },
    /**
     * Answer the call `i` with the table after it (a move or an undo, `before` the server's
     * table it was sent on; `past`: the undoable actions before it).
     * @param {number} i
     * @param {any} before
     * @param {any[]} past
     */
    answer(i, before, past = []) {
      const { body } = calls[i];
      assert.equal(body.version, before.version, 'sent with the version of the table it was on');
      const step = /** @type {NonNullable<ReturnType<typeof predict>>} */ (
        predict(before, past, body, false));
      const next = { ...step.state, version: before.version + 1,
        outcome: { action: step.send, runs_removed: [] } };
      calls[i].resolve(next);
      return { next, past: step.past };
    },
  };
}

/** The events a session tells its page, recorded. */
function listener() {
  /** @type {any[][]} */
  const heard = [];
  return {
    heard,
    /** @param {string} kind */
    of: (kind) => heard.filter(([k]) => k === kind).map(([, ...rest]) => rest),
    on: {
      predicted: (/** @type {any[]} */ ...a) => { heard.push(['predicted', ...a]); },
      confirmed: (/** @type {any[]} */ ...a) => { heard.push(['confirmed', ...a]); },
      shown: (/** @type {any[]} */ ...a) => { heard.push(['shown', ...a]); },
      hinted: (/** @type {any[]} */ ...a) => { heard.push(['hinted', ...a]); },
      failed: (/** @type {any[]} */ ...a) => { heard.push(['failed', ...a]); },
    },
  };
}

const tick = () => new Promise((resolve) => { setImmediate(resolve); });

describe('the game session', () => {
  test('chained actions are drawn at once and confirmed in order, each on the last answer',
    async () => {
      const server = fakeServer();
      const page = listener();
      const start = game();
      const s = new GameSession(start, server.io, page.on);
      s.send({ type: 'move', from: 0, to: 1, count: 1 }); // 6s onto 7s
      s.send({ type: 'move', from: 2, to: 1, count: 1 }); // 5s onto the 6s drawn ahead
      assert.deepEqual(s.view.columns[1].cards, ['8h', '7s', '6s', '5s']);
      assert.deepEqual(page.of('predicted').map(([moved]) => moved),
        [{ from: 0, to: 1, count: 1 }, { from: 2, to: 1, count: 1 }]);
      assert.equal(s.state, start); // nothing answered yet
      await tick();
      assert.equal(server.calls.length, 1, 'one action in flight at a time');
      assert.deepEqual(server.calls[0].body,
        { type: 'move', from: 0, to: 1, count: 1, version: 3 });

      const first = server.answer(0, start);
      await tick();
      assert.equal(server.calls.length, 2);
      assert.deepEqual(server.calls[1].body,
        { type: 'move', from: 2, to: 1, count: 1, version: 4 });
      assert.equal(s.state.version, 4);
      // The answer is shown with the action still waiting drawn again on it.
      assert.deepEqual(s.view.columns[1].cards, ['8h', '7s', '6s', '5s']);
      assert.equal(s.pending.length, 1);

      server.answer(1, first.next, first.past);
      await s.idle();
      assert.equal(s.state.version, 5);
      assert.equal(s.view, s.state);
      assert.equal(s.pending.length, 0);
      assert.deepEqual(s.past.map((d) => d.action),
        [{ type: 'move', from: 0, to: 1, count: 1 }, { type: 'move', from: 2, to: 1, count: 1 }]);
      assert.deepEqual(page.of('confirmed').map(([item]) => item.action.from), [0, 2]);
      // Both drawn ahead: nothing slides again when the answers come.
      assert.deepEqual(page.of('shown').map(([, moved]) => moved), [null, null]);
    });

  test('a move drawn ahead is sent once the page says the drawing is on screen', async () => {
    const server = fakeServer();
    /** @type {() => void} */
    let painted = () => {};
    const io = {
      ...server.io, painted: () => new Promise((r) => { painted = () => r(undefined); }),
    };
    const s = new GameSession(game(), io, listener().on);
    s.send({ type: 'move', from: 0, to: 1, count: 1 });
    await tick();
    assert.equal(server.calls.length, 0, 'not sent before the drawing is on screen');
    assert.equal(s.busy, true, 'yet in flight: a hint asked now waits for it');
    painted();
    await tick();
    assert.equal(server.calls.length, 1);
  });

  test('a refusal drops the queue and rolls the table back to the server\'s', async () => {
    const server = fakeServer();
    const page = listener();
    const start = game();
    const s = new GameSession(start, server.io, page.on);
    s.send({ type: 'move', from: 0, to: 1, count: 1 });
    s.send({ type: 'move', from: 2, to: 1, count: 1 });
    await tick();
    const refusal = { status: 422, code: 'illegal_move', detail: 'No.' };
    server.calls[0].reject(refusal);
    await s.idle();
    assert.equal(server.calls.length, 1, 'the rest of the queue is never sent');
    assert.equal(s.pending.length, 0);
    assert.equal(s.view, start);
    assert.equal(positionKey(s.view), positionKey(start));
    assert.deepEqual(s.viewPast, []);
    // Two were drawn ahead: the table is redrawn as the server's, nothing slides back.
    assert.deepEqual(page.of('shown').at(-1), [null, null]);
    assert.deepEqual(page.of('failed'), [[refusal, { type: 'move', from: 0, to: 1, count: 1 }]]);
  });

  test('a single refused move slides back; a conflict leaves the table to its answer',
    async () => {
      const server = fakeServer();
      const page = listener();
      const s = new GameSession(game(), server.io, page.on);
      s.send({ type: 'move', from: 0, to: 1, count: 1 });
      await tick();
      server.calls[0].reject({ status: 422, code: 'illegal_move', detail: 'No.' });
      await s.idle();
      assert.deepEqual(page.of('shown').at(-1), [null, { from: 1, to: 0, count: 1 }]);

      const other = listener();
      const c = new GameSession(game(), server.io, other.on);
      c.send({ type: 'move', from: 0, to: 1, count: 1 });
      await tick();
      server.calls[1].reject({ status: 409, body: { game: game() } });
      await c.idle();
      assert.equal(other.of('shown').length, 0, 'the page resets to the conflict\'s game');
      assert.equal(other.of('failed').length, 1);
      assert.equal(c.pending.length, 0);
    });

  test('an undo of a move drawn ahead is drawn at once and sent after it', async () => {
    const server = fakeServer();
    const page = listener();
    const start = game();
    const s = new GameSession(start, server.io, page.on);
    s.send({ type: 'move', from: 0, to: 1, count: 1 });
    s.send({ type: 'undo' });
    assert.equal(positionKey(s.view), positionKey(start));
    assert.equal(s.view.can_undo, false);
    assert.deepEqual(page.of('predicted').map(([moved]) => moved),
      [{ from: 0, to: 1, count: 1 }, { from: 1, to: 0, count: 1 }]);
    await tick();
    const first = server.answer(0, start);
    await tick();
    assert.deepEqual(server.calls[1].body, { type: 'undo', version: 4 });
    server.answer(1, first.next, first.past);
    await s.idle();
    assert.equal(positionKey(s.state), positionKey(start));
    assert.deepEqual(s.past, []);
    assert.equal(s.deepUndo, false);
  });

  test('an action the table cannot tell waits for the one before it, then slides', async () => {
    const server = fakeServer();
    const page = listener();
    const start = game();
    const s = new GameSession(start, server.io, page.on);
    s.send({ type: 'move', from: 1, to: 2, count: 1 }); // 7s onto 5s: not drawn
    assert.equal(s.view, start);
    assert.equal(page.of('predicted').length, 0);
    assert.equal(s.pending[0].drawn, false);
    await tick();
    // Should the server take it anyway, its answer is drawn with the cards sliding.
    const next = { ...start, version: 4, outcome: {
      action: { type: 'move', from: 1, to: 2, count: 1 }, runs_removed: [] } };
    server.calls[0].resolve(next);
    await s.idle();
    assert.deepEqual(page.of('shown').at(-1), [next.outcome, { from: 1, to: 2, count: 1 }]);
  });

  test('a hint is kept until the next action; a one-tap on it goes where it says',
    async () => {
      const server = fakeServer();
      const page = listener();
      const s = new GameSession(game(), server.io, page.on);
      server.hints.push({ action: { type: 'move', from: 2, to: 0, count: 1 },
        reason: 'builds in suit', alternatives: 2, chance: null });
      await s.askHint(0);
      const [said] = page.of('hinted').at(-1);
      assert.equal(said.title, 'Hint 1 of 2: ');
      assert.equal(said.text, 'Move the card from column 3 to column 1. Builds in suit.');
      assert.deepEqual(said.highlight, { from: 2, to: 0, count: 1 });
      assert.equal(said.nextDisabled, false);
      assert.equal(s.state.version, 4); // a hint is counted: the version moves on
      assert.equal(s.view.hints, 1);
      assert.equal(s.state.perfect, false);
      // The hinted card goes where the hint says (here also the one-tap place).
      assert.deepEqual(s.oneTap(2, undefined),
        { action: { type: 'move', from: 2, to: 0, count: 1 }, glow: [] });

      s.send({ type: 'deal' });
      assert.equal(s.hintShown, null);
      assert.equal(s.hintN, 0);
      assert.deepEqual(page.of('hinted').at(-1), [null]);
    });

  test('a hint with no useful move says stuck once; the next action clears it', async () => {
    const server = fakeServer();
    const page = listener();
    const s = new GameSession(game(), server.io, page.on);
    server.hints.push({ action: null, reason: 'no useful move', alternatives: 0, chance: null });
    await s.askHint(0);
    assert.equal(page.of('hinted').at(-1)[0].nextDisabled, true);
    const first = s.notice();
    assert.equal(first.kind, 'stuck');
    assert.equal(first.text, 'No useful move. You are stuck here.');
    assert.equal(first.ways, 'Replay this deal or start a new one.');
    assert.equal(first.announce, true);
    assert.equal(s.notice().announce, false, 'said once in the live region');
    s.send({ type: 'move', from: 0, to: 1, count: 1 });
    assert.equal(s.noUseful, '');
    assert.equal(s.notice().kind, 'none');
  });

  test('a hint that would lead back to a position shown is not suggested', async () => {
    const server = fakeServer();
    const page = listener();
    const start = game();
    const s = new GameSession(start, server.io, page.on);
    s.show(start);
    s.send({ type: 'move', from: 0, to: 1, count: 1 });
    await tick();
    server.answer(0, start);
    await s.idle();
    server.hints.push({ action: { type: 'move', from: 1, to: 0, count: 1 },
      reason: 'frees a column', alternatives: 1, chance: null });
    await s.askHint(0);
    const [said] = page.of('hinted').at(-1);
    assert.equal(said.highlight, null);
    assert.equal(said.text, 'No useful move: every useful move leads back.');
    assert.equal(s.noUseful, 'Every useful move leads back to a position already seen.');
  });

  test('a one-tap with several places makes them glow', () => {
    const start = game();
    start.columns[3] = column(['7h']);
    const s = new GameSession(start, fakeServer().io, listener().on);
    const tap = s.oneTap(0, 1);
    assert.deepEqual(tap?.action, { type: 'move', from: 0, count: 1 });
    assert.deepEqual(tap?.glow, [1, 3]);
    assert.equal(s.oneTap(0, 1)?.glow.length, 2);
    assert.equal(new GameSession({ ...start, status: 'won' }, fakeServer().io,
      listener().on).oneTap(0, 1), null);
  });
});

describe('what the game page shows', () => {
  test('the notice: a lost game, a stuck deal with or without undo, a race\'s', () => {
    const g = game();
    assert.deepEqual(noticeOf({ ...g, status: 'lost', end_reason: 'resigned' }, '', false),
      { kind: 'lost', stuck: false, text: 'This game is over (resigned). Score 497.', ways: '',
        canUndo: false });
    const stuck = noticeOf({ ...g, stuck: true, can_undo: true }, '', false);
    assert.equal(stuck.text, 'No move can help any more: this deal is stuck.');
    assert.equal(stuck.ways, 'Undo to try another way, replay this deal or start a new one.');
    assert.equal(stuck.canUndo, true);
    assert.equal(noticeOf(g, '', false).kind, 'none');
    assert.equal(noticeOf({ ...g, stuck: true }, '', true).kind, 'race-stuck');
    // A race says only the server's word, not a hint's.
    assert.equal(noticeOf(g, 'No useful move.', true).kind, 'none');
    assert.equal(noticeOf(g, 'No useful move.', true).stuck, true);
    assert.equal(noticeOf({ ...g, status: 'won' }, 'No useful move.', false).kind, 'none');
  });

  test('the buttons by the table drawn', () => {
    const g = game();
    assert.deepEqual(buttonsOf(g, false), { undo: true, hint: false, next: true, deal: false });
    assert.deepEqual(buttonsOf({ ...g, can_undo: true, deals_left: 0 }, true),
      { undo: false, hint: false, next: false, deal: true });
    assert.deepEqual(buttonsOf({ ...g, status: 'won', can_undo: true }, true),
      { undo: true, hint: true, next: true, deal: true });
  });

  test('the counters: the clock runs on from the answer while the game is on', () => {
    const g = game();
    assert.deepEqual(statsOf(g, 2500, false), [['Game', '2 suits'], ['Score', 497],
      ['Moves', 3], ['Time', '1:03'], ['Hints', 0]]);
    assert.deepEqual(statsOf({ ...g, status: 'won' }, 2500, false)[3], ['Time', '1:01']);
    const race = statsOf({ ...g, kind: 'race', deal_over_gap: true }, 0, true);
    assert.deepEqual(race.map(([k]) => k), ['Game', 'Score', 'Moves', 'Time', 'Rules']);
    assert.equal(race[0][1], '2 suits · race');
    assert.equal(statsOf({ ...g, kind: 'daily', ranked: false }, 0, false)[0][1],
      '2 suits · daily practice');
  });

  test('a new game ends (asks first) only a casual game in play with an action made', () => {
    const g = game();
    assert.equal(newGameEnds(g), true);
    assert.equal(newGameEnds({ ...g, actions: 0 }), false);
    assert.equal(newGameEnds({ ...g, kind: 'daily' }), false);
    assert.equal(newGameEnds({ ...g, status: 'won' }), false);
    assert.equal(newGameEnds(null), false);
  });

  test('what a win paid in coins, and the daily limit\'s cut', () => {
    const paid = { eligible: true, earned: 15, base: 10, bonus: 5, cut: 0, daily_limit: 100,
      left_today: 85, balance: 215 };
    assert.equal(coinsNote(/** @type {any} */ (paid)),
      'Coins: 10 for the win + 5 perfect bonus; 85 left today; balance 215.');
    assert.equal(coinsNote(/** @type {any} */ ({ ...paid, bonus: 0, cut: 4, left_today: 0 })),
      'Coins: 10 for the win; 4 over today\'s limit of 100; 0 left today; balance 215.');
  });
});
