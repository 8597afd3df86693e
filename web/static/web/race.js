// @ts-check
// A race table's page (docs/rules.md#races): seats, ready and start, the countdown, your own
// table played through the same game component as a casual game, the others' progress live
// from the table's event stream, draw, resign, the result with every table laid open, play
// again. The lobby, where a table is opened or found, is lobby.js.
//
// Like the rest of the client it keeps no rules: every change is a request the server
// answers, and the screen shows the table the server sent, kept current by the events of
// the table's stream (stream.js). What the page shows of the table is decided in
// racestate.js (RaceTableState, EVENTS, the seats, controls, clock and result), without the
// DOM; this draws it and wires the buttons to the table's commands.

import { analyseLink } from './analyse.js';
import * as api from './api.js';
import { h, clear, formErrors } from './dom.js';
import { GameScreen } from './game.js';
import { settingsFields } from './lobby.js';
import {
  COUNTS, LAST_TABLE_KEY, RaceTableState, racerStateOf, racersOf, resultKeyOf, resultOf,
  same, seatsOf, settingsLineOf,
} from './racestate.js';
import { RaceStream } from './stream.js';
import { Table } from './table.js';

/**
 * @import { RaceEvent, RaceTable, Racer } from './api.js'
 * @import { Control, SeatShown } from './racestate.js'
 * @import { Ctx } from './app.js'
 */

/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 * @param {string} code
 */
export async function raceScreen(root, ctx, code) {
  if (ctx.needLogin()) return null;
  const table = await api.race(code);
  if (table.code !== code) history.replaceState(null, '', `/race/${table.code}`);
  localStorage.setItem(LAST_TABLE_KEY, table.code);
  const screen = new RaceScreen(root, ctx, table);
  return () => screen.destroy();
}

class RaceScreen {
  /**
   * @param {HTMLElement} root
   * @param {Ctx} ctx
   * @param {RaceTable} table
   */
  constructor(root, ctx, table) {
    this.ctx = ctx;
    this.code = table.code;
    this.state = new RaceTableState(table, api.session.username);
    this.events = Promise.resolve(); // events are applied one at a time, in order
    this.closed = false;
    /** @type {{id: string, screen: GameScreen | null} | null} the racer's own table */
    this.game = null;
    /** @type {Table[]} the read-only tables of the result */
    this.laidOpen = [];
    /** @type {string | null} */
    this.resultKey = null;
    /** @type {SeatShown[] | null} the seats drawn */
    this.seatsShown = null;
    /** @type {Control[] | null} the controls drawn */
    this.controlsShown = null;

    this.live = h('span', { class: 'live', role: 'status' }, 'Connecting…');
    this.shareInput = h('input', {
      class: 'share-link', readonly: true, value: `${location.origin}/race/${this.code}`,
      'aria-label': 'Link to this table',
    });
    this.settingsLine = h('p', { class: 'race-settings small' });
    this.seats = h('ol', { class: 'seats', 'aria-label': 'Seats' });
    this.controls = h('div', { class: 'race-controls buttons' });
    this.settingsBox = h('div', { class: 'race-settings-form' });
    this.clock = h('p', { class: 'race-clock', 'aria-live': 'off' });
    this.news = h('p', { class: 'race-news', role: 'status', 'aria-live': 'polite' });
    this.others = h('div', { class: 'others', 'aria-label': 'The other racers' });
    this.countdown = h('div', { class: 'countdown', hidden: true, 'aria-hidden': 'true' });
    this.own = h('div', { class: 'race-own' });
    this.result = h('div', { class: 'race-result' });
    this.intro = h('div', { class: 'race-intro' });
    this.section = h('section', { class: 'race', 'aria-label': `Race table ${this.code}` },
      h('header', { class: 'race-head' },
        h('h1', {}, 'Race table ', h('code', { class: 'race-code' }, this.code)), this.live),
      h('div', { class: 'share' },
        h('span', { class: 'small' }, 'Invite code ', h('strong', {}, this.code),
          ' · share the link:'),
        this.shareInput,
        h('button', { type: 'button', onclick: () => this.copyLink() }, 'Copy link')),
      this.settingsLine,
      h('div', { class: 'race-body' },
        h('aside', { class: 'race-side panel' },
          h('h2', {}, 'Seats'), this.seats, this.controls, this.settingsBox),
        h('div', { class: 'race-main' }, this.clock, this.news, this.intro, this.others,
          h('div', { class: 'own-wrap' }, this.own, this.countdown), this.result)));
    clear(root, this.section);
    this.timer = setInterval(() => this.tick(), 250);
    this.render();
    this.stream = new RaceStream(this.code, {
      receive: (event) => {
        this.state.heard(event.at, Date.now());
        this.events = this.events.then(() => this.apply(event)).catch(() => this.resync());
      },
      live: (on) => this.setLive(on),
    });
  }

  destroy() {
    this.closed = true;
    clearInterval(this.timer);
    this.stream.close();
    this.dropGame();
    this.laidOpen.forEach((t) => t.destroy());
  }

  /** @param {boolean} on */
  setLive(on) {
    this.live.textContent = on ? 'Live' : 'Reconnecting…';
    this.live.classList.toggle('on', on);
  }

  // --- the events ---------------------------------------------------------------------------
  /**
   * One frame of the stream: the whole table (`table`), or an event, done as EVENTS says.
   * @param {RaceEvent} event
   */
  async apply(event) {
    if (this.closed) return;
    const done = this.state.apply(event);
    if (done.status === 'old') return; // already in the table we have
    if (done.status === 'read') this.state.take(await api.race(this.code));
    this.render();
    if (done.news) this.news.textContent = done.news;
    if (done.turnOver && this.game && this.game.screen) this.game.screen.reload();
  }

  /** After a failure: the whole table again (nothing is lost: the stream goes on). */
  async resync() {
    try {
      this.state.take(await api.race(this.code));
      this.render();
    } catch { /* the next event tries again */ }
  }

  // --- commands -----------------------------------------------------------------------------
  /**
   * A table command; the table it answers is drawn.
   * @param {string} what
   * @param {object} body
   * @param {HTMLButtonElement | null} button  disabled while it runs
   */
  async command(what, body, button = null) {
    if (button) button.disabled = true;
    try {
      this.state.take(await api.raceCommand(this.code, what, body));
      this.render();
      return true;
    } catch (error) {
      const err = /** @type {api.ApiError} */ (error);
      this.news.textContent = err.detail;
      if (err.status === 401) this.ctx.toLogin();
      return false;
    } finally {
      if (button && button.isConnected) button.disabled = false;
    }
  }

  /**
   * A button that sends a table command (disabled while it runs).
   * @param {string} label
   * @param {string} what
   * @param {object} body
   * @param {string} cls
   */
  commandButton(label, what, body = {}, cls = '') {
    /** @type {HTMLButtonElement} */
    const button = h('button', {
      type: 'button', class: cls || null, dataset: { command: what },
      onclick: () => this.command(what, body, button),
    }, label);
    return button;
  }

  /**
   * A free seat's own button: sit in that one.
   * @param {number} seat
   */
  sitHere(seat) {
    /** @type {HTMLButtonElement} */
    const button = h('button', {
      type: 'button', onclick: () => this.command('sit', { seat }, button),
    }, 'Sit here');
    return button;
  }

  async copyLink() {
    this.shareInput.select();
    try {
      await navigator.clipboard.writeText(this.shareInput.value);
      this.news.textContent = 'The link is copied: send it to the players you race.';
    } catch {
      this.news.textContent = 'Select the link and copy it.';
    }
  }

  // --- drawing ------------------------------------------------------------------------------
  render() {
    if (this.closed) return;
    const m = this.state.table;
    this.settingsLine.textContent = settingsLineOf(m);
    this.renderSeats();
    this.renderControls();
    const racers = racersOf(m, this.state.me);
    this.section.classList.toggle('running', racers.running);
    clear(this.others, racers.others.length
      ? [h('h2', { class: 'others-title' }, racers.title),
        h('div', { class: 'racers' }, racers.others.map((r) => racerCard(r)))]
      : null);
    clear(this.intro, m.status === 'open' ? h('div', { class: 'panel intro' },
      h('h2', {}, 'Waiting for the start'),
      h('p', {}, `Share the code ${this.code} or the link. Up to four players sit down; `
        + 'anyone else with the code watches. Everyone seated presses Ready, then the opener '
        + 'starts: after a short countdown the cards turn over for all at once, each racer at '
        + 'their own table.'),
      h('p', { class: 'small' }, 'No undo and no hints in a race. You see the others\' counts, '
        + 'never their cards; every table is laid open at the end.')) : null);
    this.ensureGame(racers.mine);
    this.renderResult();
    this.tick();
  }

  /** The seats (seatsOf), redrawn only when they change. */
  renderSeats() {
    const seats = seatsOf(this.state.table, this.state.me);
    if (this.seatsShown && same(seats, this.seatsShown)) return;
    this.seatsShown = seats;
    clear(this.seats, seats.map((s) => {
      if (s.free) {
        return h('li', { class: 'seat free', dataset: { seat: String(s.seat) } },
          h('span', { class: 'seat-no' }, `${s.seat + 1}`),
          h('span', { class: 'seat-name' }, 'Free seat'),
          s.canSit ? this.sitHere(s.seat) : null);
      }
      const cls = `seat${s.mine ? ' me' : ''}${s.ready ? ' ready' : ''}`;
      return h('li', { class: cls, dataset: { seat: String(s.seat), player: s.player } },
        h('span', { class: 'seat-no' }, `${s.seat + 1}`),
        connectedDot(s.connected),
        h('span', { class: 'seat-name' }, s.player, s.mine ? ' (you)' : ''),
        h('span', { class: 'visually-hidden' }, s.connected ? ', connected' : ', not connected'),
        s.tags.map((t) => h('span', { class: `tag tag-${t.replace(' ', '-')}` }, t)),
        h('span', {
          class: 'seat-score', 'aria-label': `match score: ${s.wins} wins, ${s.draws} draws`,
        }, `${s.wins} W · ${s.draws} D`));
    }));
  }

  /**
   * What the player may do now (controlsOf), redrawn only when it changes: a button is never
   * swapped under a finger by an event that does not concern it.
   */
  renderControls() {
    const controls = this.state.controls();
    if (this.controlsShown && same(controls, this.controlsShown)) return;
    this.controlsShown = controls;
    clear(this.controls, controls.map((c) => this.control(c)));
    const showSettings = controls.some((c) => 'settings' in c && c.settings);
    clear(this.settingsBox, showSettings ? this.settingsForm() : null);
  }

  /** @param {Control} c */
  control(c) {
    if ('command' in c) return this.commandButton(c.label, c.command, c.body, c.cls);
    if ('text' in c) return h('p', { class: c.cls }, c.text);
    if ('resign' in c) return this.resignButton();
    const toggle = () => {
      this.state.settingsOpen = !this.state.settingsOpen;
      this.render();
    };
    return h('button', {
      type: 'button', 'aria-expanded': String(c.settings), onclick: toggle,
    }, 'Settings…');
  }

  /** Resign, asked twice. */
  resignButton() {
    const box = h('span', { class: 'resign buttons' });
    const ask = () => clear(box,
      h('span', {}, 'Resign this race?'),
      this.commandButton('Yes, resign', 'resign', {}, 'danger'),
      h('button', { type: 'button', onclick: () => clear(box, first) }, 'No'));
    /** @type {HTMLButtonElement} */
    const first = h('button', { type: 'button', class: 'danger', onclick: ask }, 'Resign…');
    box.append(first);
    return box;
  }

  settingsForm() {
    const m = this.state.table;
    const fields = settingsFields('table', m.suits, m.time_limit_s, m.deal_over_gap);
    const errors = h('div', { class: 'form-errors', role: 'alert' });
    const form = h('form', { class: 'race-form' }, fields.nodes, errors,
      h('button', { type: 'submit', class: 'primary' }, 'Save the settings'),
      h('p', { class: 'small' }, 'Saving opens the table again: every Ready is cleared.'));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        const table = await api.raceCommand(this.code, 'settings', fields.read(form));
        this.state.settingsOpen = false;
        this.state.take(table);
        this.render();
      } catch (err) {
        formErrors(errors, /** @type {api.ApiError} */ (err));
      }
    });
    return form;
  }

  /**
   * The racer's own table: the game component, on the game the server dealt them.
   * @param {Racer | null} myRacer
   */
  ensureGame(myRacer) {
    if (!myRacer) {
      this.dropGame();
      return;
    }
    if (this.game && this.game.id === myRacer.game) return;
    this.dropGame();
    /** @type {{id: string, screen: GameScreen | null}} */
    const game = { id: myRacer.game, screen: null };
    this.game = game;
    api.getGame(game.id).then((state) => {
      if (this.game !== game || this.closed) return;
      game.screen = new GameScreen(this.own, this.ctx, state, { race: true });
    }).catch((err) => { this.news.textContent = err.detail; });
  }

  dropGame() {
    if (this.game && this.game.screen) this.game.screen.cleanup();
    this.game = null;
    clear(this.own);
  }

  /** The countdown and the race's clock (clockOf: the server's times, on the local clock). */
  tick() {
    const clock = this.state.clock(Date.now());
    this.countdown.hidden = clock.countdown === null;
    if (clock.countdown !== null) this.countdown.textContent = String(clock.countdown);
    this.clock.textContent = clock.text;
    // The cards have turned over: draw them (once a race).
    const screen = this.game && this.game.screen;
    if (clock.turned !== null && screen && this.state.reveal(clock.turned)) screen.reload();
  }

  /** The result (resultOf), drawn again only when it or the match score changes. */
  renderResult() {
    const key = resultKeyOf(this.state.table);
    if (key === this.resultKey) return;
    this.resultKey = key;
    this.laidOpen.forEach((t) => t.destroy());
    this.laidOpen = [];
    const result = resultOf(this.state.table, this.state.me);
    if (!result) {
      clear(this.result);
      return;
    }
    const tables = result.tables.map((t) => {
      const table = new Table({ readOnly: true });
      this.laidOpen.push(table);
      const figure = h('figure', { class: 'laid-open', dataset: { player: t.player } },
        h('figcaption', {},
          h('strong', {}, t.title), t.line, analyseLink(t.game, t.analyse, false)),
        table.el);
      table.render(t.position);
      return figure;
    });
    const wide = result.columns.map((c) => (c.wide ? 'wide' : null));
    clear(this.result, h('div', {
      class: `result panel${result.good ? ' good' : ''}`,
      role: 'region', 'aria-labelledby': 'race-result-title',
    },
    h('h2', { id: 'race-result-title' }, result.title),
    h('p', {}, result.reason),
    h('table', { class: 'board results' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Result'),
        result.columns.map((c, i) => h('th', { scope: 'col', class: wide[i] }, c.label)))),
      h('tbody', {}, result.rows.map((r) => h('tr', { dataset: { player: r.player } },
        h('td', {}, r.player),
        h('td', { class: 'result-state' }, r.state),
        r.counts.map((v, i) => h('td', { class: wide[i] }, v)))))),
    h('p', { class: 'match' }, 'Match: ', result.match),
    h('h3', {}, 'Every table, laid open'),
    h('p', { class: 'small' }, `${result.deal}. Cards that were still face down are shown faded.`),
    h('div', { class: 'laid-open-tables' }, tables)));
  }
}

/**
 * Another racer's counts (never their cards).
 * @param {Racer} r
 */
function racerCard(r) {
  const state = racerStateOf(r);
  const label = `${r.player}: ${state}, ${r.connected ? 'connected' : 'not connected'}`;
  return h('article', {
    class: `racer state-${r.state}`, dataset: { player: r.player }, 'aria-label': label,
  },
  h('h3', {}, connectedDot(r.connected), r.player, h('span', { class: 'tag' }, state)),
  h('dl', { class: 'counts' }, COUNTS.map(([key, label]) =>
    h('div', { class: `count count-${key}` }, h('dt', {}, label), h('dd', {}, r[key] ?? '–')))));
}

/**
 * A seat's or a racer's connection, as a dot.
 * @param {boolean} connected
 */
function connectedDot(connected) {
  return h('span', {
    class: `dot${connected ? ' on' : ''}`, title: connected ? 'connected' : 'not connected',
  });
}
