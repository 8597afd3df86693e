// A race table's state (web/static/web/racestate.js) without a browser: each kind of the
// table's events done to the table, the line the page says, the events it must read the
// table again for, and a laid-open table's notation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  applyEvent, codeFrom, controlsOf, parsePosition, same,
} from '../../web/static/web/racestate.js';

const seat = (/** @type {number} */ n, /** @type {string} */ player) => ({
  seat: n, player, ready: false, connected: true, score: { wins: 0, draws: 0 } });
const racer = (/** @type {number} */ n, /** @type {string} */ player) => ({
  seat: n, player, state: 'racing', out_reason: null, connected: true, game: `g${n}`,
  runs_removed: 0, turned: 0, moves: 0, deals: 0, actions: 0, score: 500 });
/** A table with a race in its countdown, at event `seq` 10. */
const table = () => /** @type {any} */ ({
  code: 'K7QX2M9A', suits: 2, time_limit_s: null, deal_over_gap: false, opener: 'ann',
  status: 'countdown', seq: 10, staff_deal: false, watchers: 0, match: { wins: {}, draws: {} },
  seats: [seat(0, 'ann'), seat(1, 'bob')],
  race: { number: 1, status: 'countdown', racers: [racer(0, 'ann'), racer(1, 'bob')],
    draw_offer: null, starts_at: '', ends_at: null, finished_at: null, result: null,
    end_reason: null, winner: null, laid_open: null, suits: 2, time_limit_s: null,
    deal_over_gap: false },
});
/**
 * @param {string} event
 * @param {number} seq
 * @param {object} data
 */
const frame = (event, seq, data) => ({ event, seq, at: '2026-12-04T12:00:00Z', data });

describe('a race table\'s events', () => {
  test('an event already in the table does nothing', () => {
    const t = table();
    const done = applyEvent(t, frame('ready', 10, { seat: 1, player: 'bob', ready: true }), 'ann');
    assert.deepEqual(done, { status: 'old', news: null, turnOver: false });
    assert.deepEqual(t, table());
  });

  test('ready, gone and back change the seat (and the racer) in place', () => {
    const t = table();
    const ready = applyEvent(t, frame('ready', 11, { seat: 1, player: 'bob', ready: true }),
      'ann');
    assert.deepEqual(ready, { status: 'patched', news: 'bob is ready.', turnOver: false });
    assert.equal(t.seats[1].ready, true);
    assert.equal(t.seq, 11);
    const gone = applyEvent(t, frame('gone', 12, { seat: 0, player: 'ann' }), 'ann');
    assert.equal(gone.news, 'You lost the connection.');
    assert.equal(t.seats[0].connected, false);
    assert.equal(t.race.racers[0].connected, false);
    applyEvent(t, frame('back', 13, { seat: 0, player: 'ann' }), 'ann');
    assert.equal(t.seats[0].connected, true);
  });

  test('the start turns every racer\'s cards over; progress and out change the racer', () => {
    const t = table();
    const go = applyEvent(t, frame('started', 11, { race: 1, started_at: '' }), 'ann');
    assert.deepEqual(go, { status: 'patched', news: 'Go!', turnOver: true });
    assert.equal(t.status, 'racing');
    assert.equal(t.race.status, 'racing');
    const counts = { runs_removed: 1, turned: 7, moves: 30, deals: 2, actions: 33, score: 567 };
    const progress = applyEvent(t, frame('progress', 12, { seat: 1, player: 'bob', ...counts }),
      'ann');
    assert.equal(progress.news, null);
    assert.deepEqual({ ...t.race.racers[1], ...counts }, t.race.racers[1]);
    applyEvent(t, frame('out', 13, { seat: 1, player: 'bob', reason: 'resigned' }), 'ann');
    assert.deepEqual([t.race.racers[1].state, t.race.racers[1].out_reason], ['out', 'resigned']);
    // another race's start is not this one's
    const other = table();
    applyEvent(other, frame('started', 11, { race: 2, started_at: '' }), 'ann');
    assert.equal(other.race.status, 'countdown');
  });

  test('a draw offered, accepted and declined', () => {
    const t = table();
    const offer = applyEvent(t, frame('draw_offered', 11,
      { seat: 0, player: 'ann', accepted: ['ann'] }), 'bob');
    assert.equal(offer.news, 'ann offered a draw.');
    assert.deepEqual(t.race.draw_offer, { accepted: ['ann'] });
    const accept = applyEvent(t, frame('draw_offered', 12,
      { seat: 1, player: 'bob', accepted: ['ann', 'bob'] }), 'bob');
    assert.equal(accept.news, 'You accepted a draw.');
    const off = applyEvent(t, frame('draw_declined', 13,
      { seat: 0, player: 'ann', reason: 'action' }), 'bob');
    assert.equal(off.news, 'The draw is off: ann played on.');
    assert.equal(t.race.draw_offer, null);
  });

  test('the events a patch cannot follow read the table again; an unknown kind too', () => {
    for (const [kind, news] of [
      ['seated', 'carl sat down.'], ['stood', 'carl stood up.'], ['finished', 'The race is over.'],
      ['again', 'Again! The seats have moved round by one.'], ['who-knows', null]]) {
      const t = table();
      const done = applyEvent(t, frame(/** @type {string} */ (kind), 11,
        { seat: 2, player: 'carl' }), 'ann');
      assert.deepEqual(done, { status: 'read', news, turnOver: false }, String(kind));
      assert.equal(t.seq, 10); // the table read again brings the seq
    }
    const settings = applyEvent(table(), frame('settings', 11,
      { suits: 4, time_limit_s: 300, deal_over_gap: true }), 'ann');
    assert.equal(settings.news, 'New settings: 4 suits, 5 min, GameLake end game.');
  });

  test('a finished race\'s racers are no longer patched', () => {
    const t = table();
    t.race.status = 'finished';
    applyEvent(t, frame('gone', 11, { seat: 1, player: 'bob' }), 'ann');
    assert.equal(t.seats[1].connected, false);
    assert.equal(t.race.racers[1].connected, true);
  });
});

describe('a race table\'s controls', () => {
  /** @param {import('../../web/static/web/racestate.js').Control[]} controls */
  const said = (controls) => controls.map((c) => ('command' in c ? `[${c.label}]`
    : 'text' in c ? c.text : 'resign' in c ? '[Resign…]' : '[Settings…]'));
  const open = () => {
    const t = table();
    t.status = 'open';
    t.race = null;
    return t;
  };

  test('at an open table: sit, ready, start; the opener has the settings', () => {
    assert.deepEqual(said(controlsOf(open(), 'carl', false)), ['[Sit down]']);
    assert.deepEqual(said(controlsOf(open(), 'bob', false)), ['[Ready]', '[Stand up]',
      'ann starts the race when everyone is ready.']);
    const ready = open();
    ready.seats[1].ready = true;
    assert.deepEqual(said(controlsOf(ready, 'bob', false)).slice(0, 1), ['[Not ready]']);
    assert.deepEqual(said(controlsOf(open(), 'ann', false)), ['[Start the race]', '[Settings…]']);
    assert.deepEqual(controlsOf(open(), 'ann', true)[1], { settings: true });
    const full = open();
    full.seats.push(/** @type {any} */ ({ ...full.seats[0], seat: 2, player: 'cid' }),
      { ...full.seats[0], seat: 3, player: 'dee' });
    assert.deepEqual(controlsOf(full, 'carl', false), []); // no seat left: watch
  });

  test('after a race: play again for the opener, newcomers wait for new settings', () => {
    const t = table();
    t.status = 'finished';
    t.race.status = 'finished';
    assert.deepEqual(said(controlsOf(t, 'ann', false)), ['[Play again]', '[Settings…]']);
    assert.deepEqual(said(controlsOf(t, 'bob', false)), ['[Stand up]',
      'ann may start the next race.']);
    assert.deepEqual(said(controlsOf(t, 'carl', false)), [
      'Newcomers sit down once the opener changes the settings.', 'ann may start the next race.']);
  });

  test('racing: offer, accept, decline or take back a draw, and resign; out: a line', () => {
    const t = table();
    t.status = 'racing';
    t.race.status = 'racing';
    assert.deepEqual(said(controlsOf(t, 'ann', false)), ['[Offer a draw]', '[Resign…]']);
    assert.deepEqual(controlsOf(t, 'ann', false)[0],
      { command: 'draw', label: 'Offer a draw', body: { accept: true }, cls: '' });
    t.race.draw_offer = { accepted: ['bob'] };
    assert.deepEqual(said(controlsOf(t, 'ann', false)), ['A draw is offered (accepted by bob).',
      '[Accept the draw]', '[Decline]', '[Resign…]']);
    assert.deepEqual(said(controlsOf(t, 'bob', false)), [
      'You offered a draw: waiting for the others.', '[Take it back]', '[Resign…]']);
    assert.deepEqual(controlsOf(t, 'carl', false), []); // watching
    t.race.racers[0].state = 'out';
    assert.deepEqual(said(controlsOf(t, 'ann', false)), [
      'You are out of this race: the others race on.']);
  });

  test('the controls drawn are redrawn only when they change', () => {
    const t = table();
    t.status = 'racing';
    t.race.status = 'racing';
    const before = controlsOf(t, 'ann', false);
    applyEvent(t, frame('progress', 11, { seat: 1, player: 'bob', runs_removed: 1, turned: 3,
      moves: 9, deals: 0, actions: 9, score: 591 }), 'ann');
    assert.ok(same(controlsOf(t, 'ann', false), before)); // the others' counts: no redraw
    applyEvent(t, frame('draw_offered', 12, { seat: 1, player: 'bob', accepted: ['bob'] }),
      'ann');
    assert.ok(!same(controlsOf(t, 'ann', false), before));
  });

  test('same: member by member', () => {
    assert.ok(same({ a: [1, { b: 'x' }] }, { a: [1, { b: 'x' }] }));
    assert.ok(!same({ a: [1, { b: 'x' }] }, { a: [1, { b: 'y' }] }));
    assert.ok(!same({ a: 1 }, { a: 1, b: undefined }));
    assert.ok(!same([1], { 0: 1 }));
    assert.ok(!same(null, {}));
  });
});

describe('a race table\'s words', () => {
  test('an invite code typed or pasted as a link', () => {
    assert.equal(codeFrom(' k7qx2m9a '), 'K7QX2M9A');
    assert.equal(codeFrom('https://spider.example/race/K7QX2M9A/'), 'K7QX2M9A');
    assert.equal(codeFrom('  '), '');
  });

  test('a laid-open table\'s notation, face-down cards named', () => {
    const cols = ['9h8s|KsQs', '|', ...Array(8).fill('|As')].join('/');
    const position = parsePosition(`2 ${cols} ${'Ah'.repeat(20)} sh`);
    assert.deepEqual(position.columns[0], { hidden: 2, down: ['9h', '8s'], cards: ['Ks', 'Qs'] });
    assert.deepEqual(position.columns[1], { hidden: 0, down: [], cards: [] });
    assert.equal(position.deals_left, 2);
    assert.deepEqual(position.removed_suits, ['s', 'h']);
    assert.equal(parsePosition(`1 ${cols} - -`).deals_left, 0);
  });
});
