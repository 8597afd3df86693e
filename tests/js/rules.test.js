// The client's rules (web/static/web/rules.js) against the engine's answers, position by
// position: which cards lift, where they may go, where one tap sends them, when a deal is
// legal. The client draws these before the server answers, so they must be the server's.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';

import {
  liftable, oneTapChoice, predictDeal, predictMove, targets,
} from '../../web/static/web/rules.js';
import { enginePositions } from './engine.js';

/** @type {import('./engine.js').Position[]} */
let positions = [];
before(() => { positions = enginePositions(); });

/** @param {import('./engine.js').View} view */
const game = (view) => /** @type {any} */ (structuredClone(view));

describe('rules.js holds to the engine', () => {
  test('the export covers 1, 2 and 4 suits and the edges', () => {
    assert.ok(positions.length >= 300, `${positions.length} positions`);
    for (const suits of [1, 2, 4]) {
      assert.ok(positions.filter((p) => p.game.suits === suits).length >= 100, `${suits} suits`);
    }
    const empty = (/** @type {import('./engine.js').Position} */ p) => p.game.columns.some(
      (c) => !c.cards.length && !c.hidden);
    assert.ok(positions.filter(empty).length >= 20, 'empty columns');
    assert.ok(positions.filter((p) => p.game.removed_suits.length).length >= 10, 'runs removed');
    assert.ok(positions.filter((p) => p.can_deal && empty(p)).length >= 3, 'deals over gaps');
    assert.ok(positions.filter((p) => !p.can_deal && !empty(p) && p.game.deals_left).length
      === 0, 'a deal refused only for a gap or an empty stock');
  });

  test('lift: the last count face-up cards lift when they are one run', () => {
    for (const p of positions) {
      const state = game(p.game);
      state.columns.forEach((/** @type {{cards: string[]}} */ c, /** @type {number} */ col) => {
        for (let count = 0; count <= c.cards.length + 1; count += 1) {
          assert.equal(liftable(state, col, count), count >= 1 && count <= p.lift[col],
            `column ${col}, ${count} cards`);
        }
      });
    }
  });

  test('targets: exactly the legal moves', () => {
    for (const p of positions) {
      const state = game(p.game);
      const moves = [];
      for (let col = 0; col < state.columns.length; col += 1) {
        for (let count = 1; count <= state.columns[col].cards.length; count += 1) {
          moves.push(...targets(state, col, count).map((to) => [col, to, count]));
        }
      }
      const sort = (/** @type {number[][]} */ list) => list.map((m) => m.join(',')).sort();
      assert.deepEqual(sort(moves), sort(p.moves), JSON.stringify(p.game.columns));
    }
  });

  test('one tap: the engine\'s destination, for the whole run and for each count', () => {
    let chosen = 0;
    for (const p of positions) {
      const state = game(p.game);
      p.onetap.forEach((choices, src) => {
        choices.forEach((expected, count) => {
          const got = oneTapChoice(state, src, count === 0 ? undefined : count);
          assert.deepEqual(got && [got.to, got.count], expected,
            `column ${src}, count ${count || 'none'}: ${JSON.stringify(p.game.columns)}`);
          if (expected) chosen += 1;
        });
      });
    }
    assert.ok(chosen > 1000, `${chosen} destinations`);
  });

  test('a move is drawn only when legal, as the cards moved', () => {
    for (const p of positions) {
      const state = game(p.game);
      const legal = new Set(p.moves.map((m) => m.join(',')));
      for (let from = 0; from < 10; from += 1) {
        for (let to = 0; to < 10; to += 1) {
          for (let count = 1; count <= state.columns[from].cards.length; count += 1) {
            const next = predictMove(state, from, to, count);
            assert.equal(next !== null, legal.has(`${from},${to},${count}`));
            if (!next) continue;
            const cards = state.columns[from].cards;
            assert.deepEqual(next.columns[from].cards, cards.slice(0, -count));
            assert.deepEqual(next.columns[to].cards,
              [...state.columns[to].cards, ...cards.slice(-count)]);
            assert.equal(next.actions, state.actions + 1);
            assert.deepEqual(state, game(p.game), 'the state drawn from is left alone');
          }
        }
      }
    }
  });

  test('a deal is drawn only when legal', () => {
    for (const p of positions) {
      const state = game(p.game);
      const next = predictDeal(state);
      assert.equal(next !== null, p.can_deal, JSON.stringify(p.game));
      if (next) {
        assert.equal(next.deals_left, state.deals_left - 1);
        assert.ok(next.columns.every((/** @type {{dealt?: number}} */ c) => c.dealt === 1));
      }
    }
  });
});
