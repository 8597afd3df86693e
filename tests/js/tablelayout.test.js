// The table's geometry (web/static/web/tablelayout.js) without a browser: the cards' size for
// the width, the steps between cards, long columns squeezed only as far as a rank stays
// readable, and the table's height kept whatever its columns while it is played on.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { MESSAGE_ROOM, cardSize, fitTable } from '../../web/static/web/tablelayout.js';

const column = (/** @type {number} */ up, hidden = 0) => /** @type {any} */ ({
  hidden, cards: Array.from({ length: up }, () => '9s'),
});
/** The steps from one card's top to the next. */
const steps = (/** @type {number[]} */ tops) => tops.slice(1).map((y, k) => y - tops[k]);
const desk = { width: 1000, top: 100, viewHeight: 2000, readOnly: false };

describe('the table\'s geometry', () => {
  test('ten cards and nine gaps fill the width; a phone\'s are small, with thin gaps', () => {
    const wide = cardSize(1000);
    assert.equal(wide.gap, 10);
    assert.equal(wide.cardW, 91);
    assert.equal(wide.pitch, 101);
    assert.ok(Math.abs(wide.cardH - 91 * 1.4) < 1e-9);
    assert.equal(wide.small, false);
    const phone = cardSize(375);
    assert.equal(phone.gap, 3);
    assert.ok(Math.abs(phone.cardW * 10 + phone.gap * 9 - 375) < 1e-9);
    assert.equal(phone.small, true);
  });

  test('face-down cards step less than face-up ones, each card laid out', () => {
    const { size, tops } = fitTable([column(2, 3)], [5], desk);
    assert.equal(tops[0].length, 5);
    assert.equal(tops[0][0], 0);
    const [d1, d2, d3, u1] = steps(tops[0]);
    assert.ok(Math.abs(d1 - d2) < 1e-9 && Math.abs(d2 - d3) < 1e-9, 'one face-down step');
    assert.ok(d1 < u1);
    assert.ok(Math.abs(u1 - size.cardH * 0.3) < 1e-9, 'room enough: the step grown in full');
  });

  test('the face-up step grows with the free height, and a long column squeezes alone', () => {
    // A phone held upright (390 x 844): a card 35 px wide, its step grown to 60% of it.
    const phone = { width: 383, top: 190, viewHeight: 844, readOnly: false };
    const { size, tops } = fitTable([column(3, 5), column(20)], [8, 20], phone);
    const grown = steps(tops[0]).at(-1);
    assert.ok(Math.abs(grown - size.cardH * 0.6) < 1e-9, `grown: ${grown}`);
    assert.ok(grown >= 18);
    const long = steps(tops[1])[0];
    assert.ok(long < grown, 'the long column squeezed, the short one not');
    assert.ok(tops[1][19] + size.cardH <= 844 - 190 - MESSAGE_ROOM + 1e-6, 'it fits the room');
    // On its side (844 x 390) there is little free height: the step stays the base one.
    const side = fitTable([column(3, 5)], [8], { width: 830, top: 100, viewHeight: 390,
      readOnly: false });
    const base = Math.max(side.size.cardH * 0.26, 17);
    assert.ok(Math.abs(steps(side.tops[0]).at(-1) - base) < 1e-9);
    // In between, the step is what a long run needs to fit.
    const mid = fitTable([column(3, 5)], [8], { ...desk, viewHeight: 780 });
    const step = steps(mid.tops[0]).at(-1);
    const free = (780 - 100 - MESSAGE_ROOM - mid.size.cardH - 5 * mid.size.cardH * 0.12) / 11;
    assert.ok(free > mid.size.cardH * 0.26 && free < mid.size.cardH * 0.3);
    assert.ok(Math.abs(step - free) < 1e-9, `${step} ${free}`);
  });

  test('a table played on is as tall as its room, whatever its columns', () => {
    const short = fitTable([column(1)], [1], desk);
    const longer = fitTable([column(6)], [6], desk);
    assert.equal(short.height, 2000 - 100 - MESSAGE_ROOM);
    assert.equal(longer.height, short.height);
  });

  test('a table only read is as tall as its tallest column', () => {
    const { size, height } = fitTable([column(1), column(0)], [1, 1],
      { ...desk, readOnly: true });
    assert.ok(Math.abs(height - (size.cardH + 4)) < 1e-9);
  });

  test('a long column squeezes to fit its room', () => {
    const room = { ...desk, viewHeight: 900 };
    const { size, tops } = fitTable([column(20)], [20], room);
    const full = size.cardH * 0.26;
    const step = steps(tops[0])[0];
    assert.ok(step < full, 'squeezed');
    const bottom = tops[0][19] + size.cardH;
    assert.ok(Math.abs(bottom - (900 - 100 - MESSAGE_ROOM)) < 1e-6, 'its last card at the foot');
  });

  test('never so tight that a rank is unreadable: the page scrolls instead', () => {
    const { tops, height } = fitTable([column(40)], [40], { ...desk, viewHeight: 500 });
    const step = steps(tops[0])[0];
    assert.equal(step, 19 + 6, 'a desktop rank of 19 px and a few more');
    assert.ok(height > 500, 'taller than the window');
  });

  test('a laid-open column (face-down cards shown) keeps its full steps', () => {
    const open = { ...column(20, 2), down: ['Ks', 'Qs'] };
    const { size, tops } = fitTable([open], [22], { ...desk, viewHeight: 500, readOnly: true });
    for (const step of steps(tops[0])) assert.ok(Math.abs(step - size.cardH * 0.26) < 1e-9);
  });

  test('an empty column\'s slot sits at the top', () => {
    const { tops } = fitTable([column(0)], [1], desk);
    assert.deepEqual(tops[0], [0]);
  });
});
