// A race table's state (web/static/web/racestate.js) without a browser: each kind of the
// table's events done to the table, the line the page says, the events it must read the
// table again for, what the page shows (seats, controls, racers, the clock, the result) and
// a laid-open table's notation.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';

import {
  RaceTableState, applyEvent, clockOf, codeFrom, controlsOf, parsePosition, racerStateOf,
  racersOf, resultKeyOf, resultOf, same, seatsOf, settingsLineOf,
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

describe('what a race table\'s page shows', () => {
  const T0 = Date.parse('2026-12-04T12:00:00Z');
  /** A race at `status`, started (or starting) at T0. */
  const at = (/** @type {string} */ status) => {
    const t = table();
    t.status = status === 'finished' ? 'finished' : status;
    t.race.status = status;
    t.race.starts_at = '2026-12-04T12:00:00Z';
    return t;
  };

  test('the settings line', () => {
    const t = table();
    assert.equal(settingsLineOf(t), '2 suits · no time limit · opened by ann');
    Object.assign(t, { time_limit_s: 300, deal_over_gap: true, watchers: 2, staff_deal: true });
    assert.equal(settingsLineOf(t), '2 suits · 5:00 time limit · GameLake end game · opened by '
      + 'ann · 2 watching · a deal chosen by staff');
  });

  test('the seats: taken ones tagged while the table is open, free ones to sit in', () => {
    const t = table();
    t.status = 'open';
    t.seats[1].ready = true;
    const seats = seatsOf(t, 'carl');
    assert.equal(seats.length, 4);
    assert.deepEqual(seats[0], { seat: 0, free: false, player: 'ann', mine: false, ready: false,
      connected: true, tags: ['opener'], wins: 0, draws: 0 });
    assert.deepEqual(seats[1].free ? null : seats[1].tags, ['ready']);
    assert.deepEqual(seats[2], { seat: 2, free: true, canSit: true });
    // Seated already, or after a race (until the opener changes the settings): no sitting.
    assert.deepEqual(seatsOf(t, 'bob')[3], { seat: 3, free: true, canSit: false });
    assert.equal(seatsOf(t, 'bob')[1].free ? null : seatsOf(t, 'bob')[1].mine, true);
    t.status = 'finished';
    assert.deepEqual(seatsOf(t, 'carl')[2], { seat: 2, free: true, canSit: false });
    assert.deepEqual(seatsOf(t, 'carl')[1].free ? null : seatsOf(t, 'carl')[1].tags, []);
  });

  test('the racers: your own table and the others while the race runs, none after', () => {
    const t = at('racing');
    const mine = racersOf(t, 'ann');
    assert.equal(mine.running, true);
    assert.equal(mine.mine?.player, 'ann');
    assert.deepEqual(mine.others.map((r) => r.player), ['bob']);
    assert.equal(mine.title, 'The others');
    const watching = racersOf(t, 'carl');
    assert.equal(watching.mine, null);
    assert.equal(watching.title, 'The racers');
    assert.equal(watching.others.length, 2);
    assert.deepEqual(racersOf(at('finished'), 'ann'), { running: false, mine: null, others: [],
      title: 'The racers' });
    const out = { ...t.race.racers[1], state: 'out', out_reason: 'gone' };
    assert.equal(racerStateOf(out), 'out (left)');
    assert.equal(racerStateOf({ ...out, out_reason: 'resigned' }), 'out (resigned)');
    assert.equal(racerStateOf(t.race.racers[0]), 'racing');
  });

  test('the clock: the countdown, then the time racing or the time left; none after', () => {
    const t = at('countdown');
    assert.deepEqual(clockOf(t.race, T0 - 2100),
      { countdown: 3, text: 'Race 1: the cards turn over in 3 s.', turned: null });
    // The countdown's end: the cards have turned over even before the `started` event.
    assert.deepEqual(clockOf(t.race, T0 + 10),
      { countdown: null, text: 'Race 1 · racing for 0:00', turned: 1 });
    const racing = at('racing');
    assert.equal(clockOf(racing.race, T0 + 65_000).text, 'Race 1 · racing for 1:05');
    racing.race.ends_at = '2026-12-04T12:05:00Z';
    assert.equal(clockOf(racing.race, T0 + 65_000).text, 'Race 1 · time left 3:55');
    assert.deepEqual(clockOf(at('finished').race, T0), { countdown: null, text: '', turned: null });
    assert.deepEqual(clockOf(null, T0), { countdown: null, text: '', turned: null });
  });

  test('the table\'s state: the server\'s clock, newer tables only, cards read once a race',
    () => {
      const state = new RaceTableState(at('countdown'), 'ann');
      state.heard('2026-12-04T11:59:58Z', T0); // this clock runs 2 s ahead of the server's
      assert.equal(state.serverNow(T0), T0 - 2000);
      assert.equal(state.clock(T0).countdown, 2);
      const older = { ...at('open'), seq: 9 };
      state.take(older);
      assert.equal(state.table.status, 'countdown', 'an older table is not taken');
      const done = state.apply(frame('started', 11, { race: 1, started_at: '' }));
      assert.equal(done.turnOver, true);
      assert.equal(state.table.status, 'racing');
      const whole = { ...at('racing'), seq: 12, watchers: 3 };
      assert.deepEqual(state.apply(/** @type {any} */ ({ ...frame('table', 12, {}), data: whole })),
        { status: 'patched', news: null, turnOver: false });
      assert.equal(state.table, whole);
      assert.deepEqual(state.controls().map((c) => ('command' in c ? c.label : 'resign')),
        ['Offer a draw', 'resign']);
      assert.equal(state.reveal(1), true);
      assert.equal(state.reveal(1), false, 'read once a race');
      assert.equal(state.reveal(2), true);
    });

  test('the result: title, reason, rows, match and every table laid open', () => {
    const t = at('finished');
    assert.equal(resultOf(t, 'ann'), null); // not laid open yet
    const cols = Array(10).fill('|As').join('/');
    Object.assign(t.race, {
      result: 'won', winner: 'ann', end_reason: 'won',
      laid_open: { deal: { seed: '42' }, tables: [
        { player: 'ann', game: 'g0', position: `2 ${cols} - -`, log: [1, 2, 3] },
        { player: 'bob', game: 'g1', position: `2 ${cols} - -`, log: [1] }] },
    });
    t.race.racers[0].state = 'won';
    t.race.racers[1].state = 'out';
    t.race.racers[1].out_reason = 'resigned';
    t.seats[0].score.wins = 1;
    const mine = /** @type {NonNullable<ReturnType<typeof resultOf>>} */ (resultOf(t, 'ann'));
    assert.equal(mine.title, 'You won the race!');
    assert.equal(mine.good, true);
    assert.equal(mine.reason, 'Race 1: the first to win the deal takes the race.');
    assert.deepEqual(mine.rows[1], { player: 'bob', state: 'out (resigned)',
      counts: [0, 0, 0, 0, 500] });
    assert.deepEqual(mine.columns.filter((c) => c.wide).map((c) => c.key), ['turned', 'deals']);
    assert.equal(mine.match, 'ann 1 win, 0 draws · bob 0 wins, 0 draws');
    assert.equal(mine.deal, 'The deal: seed 42');
    assert.deepEqual(mine.tables.map((x) => [x.title, x.line, x.analyse]), [
      ['Your table', ' · won · 3 actions ', 'Analyse your game'],
      ['bob\'s table', ' · out · 1 action ', 'Analyse bob\'s game']]);
    assert.equal(mine.tables[0].position.columns.length, 10);
    const theirs = /** @type {NonNullable<ReturnType<typeof resultOf>>} */ (resultOf(t, 'bob'));
    assert.equal(theirs.title, 'ann won the race');
    assert.equal(theirs.good, false);
    t.race.result = 'draw';
    assert.equal(resultOf(t, 'bob')?.title, 'A draw');
    // Drawn again when the race or the match score changes, not for every event.
    const key = resultKeyOf(t);
    assert.equal(key, '1:ann:1:0,bob:0:0');
    t.watchers = 4;
    assert.equal(resultKeyOf(t), key);
    t.seats[1].score.draws = 1;
    assert.notEqual(resultKeyOf(t), key);
    assert.equal(resultKeyOf(at('racing')), null);
  });
});
