// What a column shows card by card, and what of it a new drawing keeps
// (web/static/web/columnview.js): the table builds only the cards that changed.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import { keptCards, shownCards } from '../../web/static/web/columnview.js';

const keys = (/** @type {any} */ column) => shownCards(column).map((c) => c.key);

describe('a column card by card', () => {
  test('face down, face up, then dealt awaiting their faces', () => {
    const shown = shownCards({ hidden: 2, cards: ['9s', '8s'], dealt: 1 });
    assert.deepEqual(shown.map((c) => c.kind), ['down', 'down', 'up', 'up', 'dealt']);
    assert.deepEqual(shown.map((c) => c.code), [null, null, '9s', '8s', null]);
  });

  test('a laid-open table names its face-down cards', () => {
    assert.deepEqual(keys({ hidden: 2, cards: ['Kh'], down: ['3d', 'Qc'] }),
      ['w3d', 'wQc', 'uKh']);
  });

  test('an empty column shows nothing', () => {
    assert.deepEqual(shownCards({ hidden: 0, cards: [] }), []);
  });
});

describe('what a new drawing keeps', () => {
  test('a move onto a column keeps all it had and builds the cards moved', () => {
    const before = keys({ hidden: 3, cards: ['9h'] });
    const after = keys({ hidden: 3, cards: ['9h', '8s', '7s'] });
    assert.equal(keptCards(before, after), 4);
  });

  test('a move off a column keeps the cards below; the card it turns is built', () => {
    const before = keys({ hidden: 3, cards: ['8s', '7s'] });
    const after = keys({ hidden: 2, cards: ['Jd'] });
    assert.equal(keptCards(before, after), 2);
  });

  test('an undo puts back a face-down card: built from there up', () => {
    const before = keys({ hidden: 2, cards: ['Jd'] });
    const after = keys({ hidden: 3, cards: ['8s', '7s'] });
    assert.equal(keptCards(before, after), 2);
  });

  test('a dealt card given its face is built again (it turns over)', () => {
    const before = keys({ hidden: 1, cards: ['5c'], dealt: 1 });
    const after = keys({ hidden: 1, cards: ['5c', 'Ah'] });
    assert.equal(keptCards(before, after), 2);
  });

  test('the same column keeps every card; a new one keeps none', () => {
    const column = keys({ hidden: 4, cards: ['Qs', 'Jh'] });
    assert.equal(keptCards(column, column), column.length);
    assert.equal(keptCards([], column), 0);
    assert.equal(keptCards(['u9s'], ['u9h']), 0);
  });
});
