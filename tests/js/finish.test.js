// The optional finish (web/static/web/finish.js) without a browser: offered only at the open
// end (stock empty, every card face up), and its line, played by the rules, clears the table.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { finishLine, openEnd } from '../../web/static/web/finish.js';
import { predictMove } from '../../web/static/web/rules.js';

const RUN = ['Ks', 'Qs', 'Js', 'Ts', '9s', '8s', '7s', '6s', '5s', '4s', '3s', '2s', 'As'];
/** A game in play from columns of cards, all face up unless `hidden` says. */
const game = (/** @type {string[][]} */ cols, more = {}) => /** @type {any} */ ({
  id: 'g', status: 'in_progress', deals_left: 0, version: 5, actions: 5, score: 495,
  removed_suits: [], columns: cols.map((cards) => ({ hidden: 0, cards })), ...more,
});

/**
 * Play `line` by the rules, removing a completed run as the server does.
 * @param {any} state
 * @param {{from: number, to: number, count: number}[]} line
 */
function playOut(state, line) {
  let s = state;
  for (const m of line) {
    s = predictMove(s, m.from, m.to, m.count);
    assert.ok(s, `legal: ${JSON.stringify(m)}`);
    const cards = s.columns[m.to].cards;
    const suit = cards.at(-1)?.[1];
    if (cards.slice(-13).join() === RUN.map((c) => `${c[0]}${suit}`).join()) {
      s.columns[m.to].cards = cards.slice(0, -13);
    }
  }
  return s;
}

describe('the finish', () => {
  test('only at the open end: in play, the stock empty, nothing face down', () => {
    const cols = [RUN.slice(0, 7), RUN.slice(7)];
    assert.equal(openEnd(game(cols)), true);
    assert.equal(openEnd(game(cols, { deals_left: 1 })), false);
    assert.equal(openEnd(game(cols, { status: 'won' })), false);
    const hidden = game(cols);
    hidden.columns[1].hidden = 1;
    assert.equal(openEnd(hidden), false);
    assert.equal(finishLine(hidden), null);
  });

  test('a line that clears the table, each move legal', () => {
    // Two suits mixed: the spades' run is split over three columns, the hearts' over two.
    const hearts = RUN.map((c) => `${c[0]}h`);
    const cols = [
      [...hearts.slice(0, 6), ...RUN.slice(0, 4)], RUN.slice(4, 9), [...RUN.slice(9)],
      hearts.slice(6), [], [], [], [], [], [],
    ];
    const line = finishLine(game(cols));
    assert.ok(line && line.length > 0);
    const end = playOut(game(cols), /** @type {any} */ (line));
    assert.ok(end.columns.every((/** @type {any} */ c) => !c.cards.length), 'cleared');
  });

  test('no line within the budget: not offered', () => {
    const cols = [RUN.slice(0, 7), RUN.slice(7)];
    assert.equal(finishLine(game(cols), 0), null);
  });
});
