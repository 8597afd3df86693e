// What a tap and a key on the table mean (web/static/web/picking.js, keys.js) without a
// browser: pick up, put down, move, one-tap, a double-tap; the keys on a column and on the
// game's page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { columnKey, gameKey } from '../../web/static/web/keys.js';
import { DOUBLE_TAP_MS, Taps, dropped, pressOn } from '../../web/static/web/picking.js';

const move = (/** @type {number} */ from, /** @type {number} */ to, /** @type {number} */ count) =>
  ({ type: 'move', from, to, count });
const oneTap = (/** @type {number} */ from, /** @type {number | undefined} */ count) =>
  ({ type: 'oneTap', from, count });

describe('a tap on the table', () => {
  test('one-tap on: a tap on cards moves them where the server\'s rule puts them', () => {
    const taps = new Taps();
    taps.oneTap = true;
    assert.deepEqual(taps.cards(null, 3, 2, 0), { select: null, intent: oneTap(3, 2) });
  });

  test('one-tap off: a tap picks up, the same tap later puts down', () => {
    const taps = new Taps();
    assert.deepEqual(taps.cards(null, 3, 2, 0), { select: { col: 3, count: 2 } });
    assert.deepEqual(taps.cards({ col: 3, count: 2 }, 3, 2, DOUBLE_TAP_MS + 1), { select: null });
  });

  test('a double-tap asks for a one-tap', () => {
    const taps = new Taps();
    taps.cards(null, 3, 1, 1000);
    assert.deepEqual(taps.cards({ col: 3, count: 1 }, 3, 1, 1000 + DOUBLE_TAP_MS - 1),
      { select: null, intent: oneTap(3, 1) });
    // A third tap starts again: it is not the second half of another double-tap.
    assert.deepEqual(taps.cards(null, 3, 1, 1000 + DOUBLE_TAP_MS),
      { select: { col: 3, count: 1 } });
  });

  test('two taps on different cards of a column are not a double-tap', () => {
    const taps = new Taps();
    taps.cards(null, 3, 1, 0);
    assert.deepEqual(taps.cards({ col: 3, count: 1 }, 3, 2, 10), { select: { col: 3, count: 2 } });
  });

  test('cards picked up move to the next column tapped, card or not', () => {
    const taps = new Taps();
    const sel = { col: 3, count: 2 };
    assert.deepEqual(taps.cards(sel, 5, 1, 0), { select: null, intent: move(3, 5, 2) });
    // That tap was a destination: another tap on the same card soon after is no double-tap.
    assert.deepEqual(taps.cards(null, 5, 1, 10), { select: { col: 5, count: 1 } });
    assert.deepEqual(taps.column(sel, 7), { select: null, intent: move(3, 7, 2) });
    assert.deepEqual(taps.column(sel, 3), {});
    assert.deepEqual(taps.column(null, 7), {});
  });

  test('what a pointer coming down starts', () => {
    assert.equal(pressOn(null, 2, true, false), 'cards');
    assert.equal(pressOn(null, 2, false, false), 'column', 'a face-down card or an empty column');
    assert.equal(pressOn({ col: 4, count: 1 }, 2, true, false), 'column', 'a destination');
    assert.equal(pressOn({ col: 2, count: 1 }, 2, true, false), 'cards');
    assert.equal(pressOn(null, 2, true, true), 'none', 'cards dealt, faces not known yet');
  });

  test('a drop on another column moves; anywhere else puts the cards back', () => {
    assert.deepEqual(dropped(1, 6, 3), { select: null, intent: move(1, 6, 3) });
    assert.deepEqual(dropped(1, 1, 3), { select: null });
    assert.deepEqual(dropped(1, null, 3), { select: null });
  });
});

describe('a key on a column', () => {
  test('arrows and digits choose a column, round the table', () => {
    assert.deepEqual(columnKey('ArrowRight', 9, null, 3), { focus: 0 });
    assert.deepEqual(columnKey('ArrowLeft', 0, null, 3), { focus: 9 });
    assert.deepEqual(columnKey('1', 5, null, 3), { focus: 0 });
    assert.deepEqual(columnKey('0', 5, null, 3), { focus: 9 });
  });

  test('Enter picks up the top card, Up and Down more or fewer, Enter elsewhere moves', () => {
    assert.deepEqual(columnKey('Enter', 2, null, 3), { select: { col: 2, count: 1 } });
    assert.deepEqual(columnKey('Enter', 2, null, 0), {}, 'nothing to pick up');
    assert.deepEqual(columnKey('ArrowUp', 2, { col: 2, count: 1 }, 3),
      { select: { col: 2, count: 2 } });
    assert.deepEqual(columnKey('ArrowUp', 2, { col: 2, count: 3 }, 3),
      { select: { col: 2, count: 3 } }, 'no more than the column holds');
    assert.deepEqual(columnKey('ArrowDown', 2, { col: 2, count: 2 }, 3),
      { select: { col: 2, count: 1 } });
    assert.equal(columnKey('ArrowDown', 2, { col: 2, count: 1 }, 3), null);
    assert.equal(columnKey('ArrowUp', 2, null, 3), null);
    assert.deepEqual(columnKey(' ', 6, { col: 2, count: 2 }, 3),
      { select: null, intent: move(2, 6, 2) });
    assert.deepEqual(columnKey('Enter', 2, { col: 2, count: 2 }, 3), { select: null });
  });

  test('"." lets the server choose, Esc drops the selection, other keys pass', () => {
    assert.deepEqual(columnKey('.', 4, null, 3), { select: null, intent: oneTap(4, undefined) });
    assert.deepEqual(columnKey('.', 4, { col: 4, count: 2 }, 3),
      { select: null, intent: oneTap(4, 2) });
    assert.deepEqual(columnKey('.', 4, { col: 1, count: 2 }, 3),
      { select: null, intent: oneTap(4, undefined) });
    assert.deepEqual(columnKey('Escape', 4, { col: 4, count: 2 }, 3), { select: null });
    assert.equal(columnKey('x', 4, null, 3), null);
  });
});

describe('a key on the game\'s page', () => {
  const press = (/** @type {string} */ key, mods = {}) =>
    ({ key, ctrlKey: false, shiftKey: false, metaKey: false, altKey: false, ...mods });

  test('a game: deal, undo, hints, a new game, cancel', () => {
    assert.equal(gameKey(press('d'), false), 'deal');
    assert.equal(gameKey(press('D', { shiftKey: true }), false), 'deal');
    assert.equal(gameKey(press('z'), false), 'undo');
    assert.equal(gameKey(press('u'), false), 'undo');
    assert.equal(gameKey(press('z', { ctrlKey: true }), false), 'undo');
    assert.equal(gameKey(press('h'), false), 'hint');
    assert.equal(gameKey(press('H', { shiftKey: true }), false), 'next-hint');
    assert.equal(gameKey(press('n'), false), 'new-game');
    assert.equal(gameKey(press('Escape'), false), 'cancel');
  });

  test('the browser keeps its own shortcuts and the keys it has no use for', () => {
    assert.equal(gameKey(press('d', { ctrlKey: true }), false), null);
    assert.equal(gameKey(press('z', { metaKey: true }), false), null);
    assert.equal(gameKey(press('h', { altKey: true }), false), null);
    assert.equal(gameKey(press('q'), false), null);
  });

  test('a race: deal and cancel only', () => {
    assert.equal(gameKey(press('d'), true), 'deal');
    assert.equal(gameKey(press('Escape'), true), 'cancel');
    for (const key of ['z', 'u', 'h', 'n']) assert.equal(gameKey(press(key), true), null);
    assert.equal(gameKey(press('z', { ctrlKey: true }), true), null);
  });
});
