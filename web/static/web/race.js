// @ts-check
// The race screens (docs/rules.md#races): the lobby (open a table, join one by its invite
// code) and a race table (seats, ready and start, the countdown, your own table played
// through the same game component as a casual game, the others' progress live from the
// table's event stream, draw, resign, the result with every table laid open, play again).
//
// Like the rest of the client it keeps no rules: every change is a request the server
// answers, and the screen shows the table the server sent, kept current by the events of
// the table's stream (stream.js). What each kind of event does to the table is in one place,
// EVENTS (racestate.js, with the rest of what the table's state decides without the DOM).

import { analyseLink } from './analyse.js';
import * as api from './api.js';
import { SUIT_LABEL } from './cards.js';
import { h, clear, formErrors, formatTime, link } from './dom.js';
import { GameScreen } from './game.js';
import {
  COUNTS, applyEvent, codeFrom, controlsOf, parsePosition, same,
} from './racestate.js';
import { RaceStream } from './stream.js';
import { Table } from './table.js';

/**
 * @import { Race, RaceEvent, RaceTable, Racer, Seat } from './api.js'
 * @import { Control } from './racestate.js'
 * @import { Ctx } from './app.js'
 */

const LIMITS = [[0, 'No time limit'], [60, '1 minute'], [180, '3 minutes'], [300, '5 minutes'],
  [600, '10 minutes'], [900, '15 minutes'], [1800, '30 minutes'], [3600, '60 minutes']];
const LAST_TABLE_KEY = 'spider.race';
/** @type {Record<string, string>} */
const END_REASON = {
  won: 'the first to win the deal takes the race',
  time: 'the time ran out: most runs removed, then most cards turned, then fewest actions',
  draw: 'every racer still racing agreed to a draw',
  last_left: 'the others resigned or left',
};
/** @type {Record<string, string>} */
const STATE_LABEL = { racing: 'racing', out: 'out', won: 'won', lost: 'lost', draw: 'draw' };
// The counts a phone's result table keeps (the others hide under 600 px).
const NARROW = new Set(['runs_removed', 'moves', 'score']);

/**
 * The suits, time-limit and table-rule fields of the lobby's and the settings' forms.
 * @param {string} prefix  of the fields' ids and names
 * @param {number} suits
 * @param {number | null} limit
 * @param {boolean} gap  the table rule deal_over_gap (GameLake's end game)
 */
function settingsFields(prefix, suits = 1, limit = null, gap = false) {
  const radios = [1, 2, 4].map((s) => h('label', { class: 'radio' },
    h('input', {
      type: 'radio', name: `${prefix}-suits`, value: String(s), checked: s === suits,
    }), ` ${SUIT_LABEL[s]}`));
  const select = h('select', { id: `${prefix}-limit`, name: 'time_limit_s' },
    LIMITS.map(([v, label]) =>
      h('option', { value: String(v), selected: v === (limit || 0) }, label)));
  const rule = h('input', {
    type: 'checkbox', id: `${prefix}-gap`, name: 'deal_over_gap', checked: gap,
  });
  /** @param {HTMLFormElement} form */
  const read = (form) => {
    const checked = /** @type {HTMLInputElement} */ (
      form.querySelector(`input[name="${prefix}-suits"]:checked`));
    return {
      suits: Number(checked.value),
      time_limit_s: Number(select.value) || null,
      deal_over_gap: rule.checked,
    };
  };
  return {
    nodes: [h('fieldset', { class: 'suits-choice' }, h('legend', {}, 'Suits'), radios),
      h('label', { for: `${prefix}-limit` }, 'Time limit'), select,
      h('label', { for: `${prefix}-gap` }, rule, ' GameLake end game: deal over empty columns '
        + 'once fewer than ten cards are left on the table')],
    read,
  };
}

// --- the lobby ------------------------------------------------------------------------------
/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 */
export async function lobbyScreen(root, ctx) {
  if (ctx.needLogin()) return null;
  const open = settingsFields('open');
  const openErrors = h('div', { class: 'form-errors', role: 'alert' });
  const openButton = h('button', { type: 'submit', class: 'primary' }, 'Open a table');
  const openForm = h('form', { class: 'panel race-form', 'aria-labelledby': 'open-title' },
    h('h2', { id: 'open-title' }, 'Open a table'),
    h('p', { class: 'small' }, 'Two to four players race on the same deal, each at their own '
      + 'table. Share the invite code; the first to win the deal takes the race.'),
    open.nodes, openErrors, openButton);
  openForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    clear(openErrors);
    openButton.disabled = true;
    try {
      const table = await api.openRace(open.read(openForm));
      ctx.navigate(`/race/${table.code}`);
    } catch (err) {
      formErrors(openErrors, /** @type {api.ApiError} */ (err));
    } finally {
      openButton.disabled = false;
    }
  });

  const code = h('input', {
    id: 'invite-code', name: 'code', autocomplete: 'off', autocapitalize: 'characters',
    spellcheck: 'false', required: true, maxlength: '200', placeholder: 'e.g. K7QX2M9A',
  });
  const joinErrors = h('div', { class: 'form-errors', role: 'alert' });
  const joinButton = h('button', { type: 'submit', class: 'primary' }, 'Go to the table');
  const joinForm = h('form', { class: 'panel race-form', 'aria-labelledby': 'join-title' },
    h('h2', { id: 'join-title' }, 'Join a table'),
    h('label', { for: 'invite-code' }, 'Invite code or link'), code, joinErrors, joinButton);
  joinForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    clear(joinErrors);
    const wanted = codeFrom(code.value);
    if (!wanted) {
      clear(joinErrors, h('p', {}, 'Type the invite code you were given.'));
      return;
    }
    joinButton.disabled = true;
    try {
      const table = await api.race(wanted);
      ctx.navigate(`/race/${table.code}`);
    } catch (err) {
      formErrors(joinErrors, /** @type {api.ApiError} */ (err));
    } finally {
      joinButton.disabled = false;
    }
  });
  const last = localStorage.getItem(LAST_TABLE_KEY);
  clear(root, h('section', { class: 'race-lobby' },
    h('h1', {}, 'Race a friend'),
    h('div', { class: 'lobby-forms' }, openForm, joinForm),
    last ? h('p', { class: 'small' }, 'Your last table: ', link(`/race/${last}`, last)) : null));
  return null;
}

// --- a race table ---------------------------------------------------------------------------
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
    this.me = api.session.username;
    this.model = table; // the table as the server last described it (plus the events since)
    this.events = Promise.resolve(); // events are applied one at a time, in order
    this.offset = 0; // local clock minus the server's, from the events' `at`
    this.closed = false;
    /** @type {{id: string, screen: GameScreen | null} | null} the racer's own table */
    this.game = null;
    /** @type {Table[]} the read-only tables of the result */
    this.laidOpen = [];
    /** @type {string | null} */
    this.resultKey = null;
    /** @type {{status: string, opener: string, seats: Seat[]} | null} the seats drawn */
    this.seatsShown = null;
    /** @type {Control[] | null} the controls drawn */
    this.controlsShown = null;
    /** @type {number | null} the race whose cards we asked for at the end of its countdown */
    this.revealed = null;
    this.settingsOpen = false;

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
        this.offset = Date.now() - Date.parse(event.at);
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

  serverNow() { return Date.now() - this.offset; }

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
    const m = this.model;
    if (event.event === 'table') {
      /** @type {RaceTable} */
      const table = event.data;
      if (table.seq >= m.seq) this.model = table;
      this.render();
      return;
    }
    const done = applyEvent(m, event, this.me);
    if (done.status === 'old') return; // already in the table we have
    if (done.status === 'read') {
      const fresh = await api.race(this.code);
      if (fresh.seq >= m.seq) this.model = fresh;
    }
    this.render();
    if (done.news) this.news.textContent = done.news;
    if (done.turnOver && this.game && this.game.screen) this.game.screen.reload();
  }

  /** After a failure: the whole table again (nothing is lost: the stream goes on). */
  async resync() {
    try {
      const fresh = await api.race(this.code);
      if (fresh.seq >= this.model.seq) this.model = fresh;
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
      const table = await api.raceCommand(this.code, what, body);
      if (table.seq >= this.model.seq) this.model = table;
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
    const m = this.model;
    const race = m.race;
    const mine = m.seats.find((s) => s.player === this.me) || null;
    const limit = m.time_limit_s
      ? `${formatTime(m.time_limit_s * 1000)} time limit`
      : 'no time limit';
    const rule = m.deal_over_gap ? ' · GameLake end game' : '';
    this.settingsLine.textContent = `${SUIT_LABEL[m.suits]} · ${limit}${rule}`
      + ` · opened by ${m.opener}`
      + `${m.watchers ? ` · ${m.watchers} watching` : ''}`
      + `${m.staff_deal ? ' · a deal chosen by staff' : ''}`;
    this.renderSeats(mine);
    this.renderControls();
    const running = race && (race.status === 'countdown' || race.status === 'racing');
    this.section.classList.toggle('running', Boolean(running));
    const myRacer = running ? race.racers.find((r) => r.player === this.me) : null;
    const others = running ? race.racers.filter((r) => r.player !== this.me) : [];
    clear(this.others, others.length
      ? [h('h2', { class: 'others-title' }, myRacer ? 'The others' : 'The racers'),
        h('div', { class: 'racers' }, others.map((r) => this.racerCard(r)))]
      : null);
    clear(this.intro, m.status === 'open' ? h('div', { class: 'panel intro' },
      h('h2', {}, 'Waiting for the start'),
      h('p', {}, `Share the code ${this.code} or the link. Up to four players sit down; `
        + 'anyone else with the code watches. Everyone seated presses Ready, then the opener '
        + 'starts: after a short countdown the cards turn over for all at once, each racer at '
        + 'their own table.'),
      h('p', { class: 'small' }, 'No undo and no hints in a race. You see the others\' counts, '
        + 'never their cards; every table is laid open at the end.')) : null);
    this.ensureGame(myRacer);
    this.renderResult(race);
    this.tick();
  }

  /** @param {Seat | null} mine */
  renderSeats(mine) {
    const m = this.model;
    // Redrawn only when the seats change (a copy: events patch the table in place).
    const seats = structuredClone({ status: m.status, opener: m.opener, seats: m.seats });
    if (this.seatsShown && same(seats, this.seatsShown)) return;
    this.seatsShown = seats;
    // After a race nobody new sits down until the opener changes the settings (the table
    // opens again): Play again is for the players who raced (docs/rules.md#play-again).
    const canSit = !mine && m.status === 'open';
    const items = [];
    for (let n = 0; n < 4; n += 1) {
      const s = m.seats.find((x) => x.seat === n);
      if (!s) {
        items.push(h('li', { class: 'seat free', dataset: { seat: String(n) } },
          h('span', { class: 'seat-no' }, `${n + 1}`),
          h('span', { class: 'seat-name' }, 'Free seat'),
          canSit ? this.sitHere(n) : null));
        continue;
      }
      const opener = s.player === m.opener;
      const tags = [];
      if (opener) tags.push('opener');
      else if (m.status === 'open') tags.push(s.ready ? 'ready' : 'not ready');
      const cls = `seat${s.player === this.me ? ' me' : ''}${s.ready ? ' ready' : ''}`;
      const { wins, draws } = s.score;
      items.push(h('li', { class: cls, dataset: { seat: String(n), player: s.player } },
        h('span', { class: 'seat-no' }, `${n + 1}`),
        connectedDot(s.connected),
        h('span', { class: 'seat-name' }, s.player, s.player === this.me ? ' (you)' : ''),
        h('span', { class: 'visually-hidden' }, s.connected ? ', connected' : ', not connected'),
        tags.map((t) => h('span', { class: `tag tag-${t.replace(' ', '-')}` }, t)),
        h('span', {
          class: 'seat-score', 'aria-label': `match score: ${wins} wins, ${draws} draws`,
        }, `${wins} W · ${draws} D`)));
    }
    clear(this.seats, items);
  }

  /**
   * What the player may do now (controlsOf), redrawn only when it changes: a button is never
   * swapped under a finger by an event that does not concern it.
   */
  renderControls() {
    const controls = controlsOf(this.model, this.me, this.settingsOpen);
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
      this.settingsOpen = !this.settingsOpen;
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
    const m = this.model;
    const fields = settingsFields('table', m.suits, m.time_limit_s, m.deal_over_gap);
    const errors = h('div', { class: 'form-errors', role: 'alert' });
    const form = h('form', { class: 'race-form' }, fields.nodes, errors,
      h('button', { type: 'submit', class: 'primary' }, 'Save the settings'),
      h('p', { class: 'small' }, 'Saving opens the table again: every Ready is cleared.'));
    form.addEventListener('submit', async (e) => {
      e.preventDefault();
      try {
        const table = await api.raceCommand(this.code, 'settings', fields.read(form));
        this.settingsOpen = false;
        if (table.seq >= this.model.seq) this.model = table;
        this.render();
      } catch (err) {
        formErrors(errors, /** @type {api.ApiError} */ (err));
      }
    });
    return form;
  }

  /**
   * Another racer's counts (never their cards).
   * @param {Racer} r
   */
  racerCard(r) {
    const state = r.state === 'out'
      ? `out (${r.out_reason === 'gone' ? 'left' : 'resigned'})`
      : STATE_LABEL[r.state] || r.state;
    const label = `${r.player}: ${state}, ${r.connected ? 'connected' : 'not connected'}`;
    return h('article', {
      class: `racer state-${r.state}`, dataset: { player: r.player }, 'aria-label': label,
    },
    h('h3', {}, connectedDot(r.connected), r.player, h('span', { class: 'tag' }, state)),
    h('dl', { class: 'counts' }, COUNTS.map(([key, label]) =>
      h('div', { class: `count count-${key}` }, h('dt', {}, label), h('dd', {}, r[key] ?? '–')))));
  }

  /**
   * The racer's own table: the game component, on the game the server dealt them.
   * @param {Racer | null | undefined} myRacer
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

  /** The countdown and the race's clock (the server's times, on the local clock). */
  tick() {
    const race = this.model.race;
    if (!race || race.status === 'finished') {
      this.countdown.hidden = true;
      this.clock.textContent = '';
      return;
    }
    const now = this.serverNow();
    const left = Date.parse(race.starts_at) - now;
    if (race.status === 'countdown' && left > 0) {
      const seconds = Math.ceil(left / 1000);
      this.countdown.hidden = false;
      this.countdown.textContent = String(seconds);
      this.clock.textContent = `Race ${race.number}: the cards turn over in ${seconds} s.`;
      return;
    }
    this.countdown.hidden = true;
    if (this.revealed !== race.number && this.game && this.game.screen) {
      this.revealed = race.number; // the cards have turned over: draw them
      this.game.screen.reload();
    }
    const parts = [`Race ${race.number}`];
    if (race.ends_at) parts.push(`time left ${formatTime(Date.parse(race.ends_at) - now)}`);
    else parts.push(`racing for ${formatTime(now - Date.parse(race.starts_at))}`);
    this.clock.textContent = parts.join(' · ');
  }

  /** @param {Race | null} race */
  renderResult(race) {
    // Drawn again only when the result or the match score changes (not for every event).
    const scores = this.model.seats
      .map((s) => `${s.player}:${s.score.wins}:${s.score.draws}`).join(',');
    const key = race && race.status === 'finished' ? `${race.number}:${scores}` : null;
    if (key === this.resultKey) return;
    this.resultKey = key;
    this.laidOpen.forEach((t) => t.destroy());
    this.laidOpen = [];
    if (!race || !key || !race.laid_open) {
      clear(this.result);
      return;
    }
    const me = race.racers.find((r) => r.player === this.me);
    let title;
    if (race.result === 'draw') title = 'A draw';
    else if (race.winner === this.me) title = 'You won the race!';
    else if (race.winner) title = `${race.winner} won the race`;
    else title = 'The race is over';
    const m = this.model;
    const laid = race.laid_open;
    const deal = laid.deal.seed
      ? `The deal: seed ${laid.deal.seed}`
      : 'The deal: a fixed layout (no seed)';
    const tables = laid.tables.map((t) => {
      const table = new Table({ readOnly: true });
      this.laidOpen.push(table);
      const racer = race.racers.find((r) => r.player === t.player);
      const actions = `${t.log.length} action${t.log.length === 1 ? '' : 's'}`;
      const figure = h('figure', { class: 'laid-open', dataset: { player: t.player } },
        h('figcaption', {},
          h('strong', {}, t.player === this.me ? 'Your table' : `${t.player}'s table`),
          ` · ${racer ? STATE_LABEL[racer.state] : ''} · ${actions} `,
          // Laid open: the race is over, so every racer's game is public and analysable.
          analyseLink(t.game, `Analyse ${t.player === this.me ? 'your' : `${t.player}'s`} game`,
            false)),
        table.el);
      table.render(parsePosition(t.position));
      return figure;
    });
    /** @param {number} n @param {string} word */
    const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
    const match = m.seats
      .map((s) => `${s.player} ${plural(s.score.wins, 'win')}, ${plural(s.score.draws, 'draw')}`)
      .join(' · ');
    /** @param {string} k */
    const wide = (k) => (NARROW.has(k) ? null : 'wide');
    clear(this.result, h('div', {
      class: `result panel${me && me.state === 'won' ? ' good' : ''}`,
      role: 'region', 'aria-labelledby': 'race-result-title',
    },
    h('h2', { id: 'race-result-title' }, title),
    h('p', {}, `Race ${race.number}: ${END_REASON[race.end_reason || ''] || race.end_reason}.`),
    h('table', { class: 'board results' },
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Result'),
        COUNTS.map(([k, l]) => h('th', { scope: 'col', class: wide(k) }, l)))),
      h('tbody', {}, race.racers.map((r) => h('tr', { dataset: { player: r.player } },
        h('td', {}, r.player),
        h('td', { class: 'result-state' }, r.state === 'out' ? `out (${r.out_reason})` : r.state),
        COUNTS.map(([k]) => h('td', { class: wide(k) }, r[k])))))),
    h('p', { class: 'match' }, 'Match: ', match),
    h('h3', {}, 'Every table, laid open'),
    h('p', { class: 'small' }, `${deal}. Cards that were still face down are shown faded.`),
    h('div', { class: 'laid-open-tables' }, tables)));
  }
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
