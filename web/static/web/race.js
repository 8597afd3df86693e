// The race screens (docs/rules.md#races): the lobby (open a table, join one by its invite
// code) and a race table (seats, ready and start, the countdown, your own table played
// through the same game component as a casual game, the others' progress live from the
// table's event stream, draw, resign, the result with every table laid open, play again).
//
// Like the rest of the client it keeps no rules: every change is a request the server
// answers, and the screen shows the table the server sent, kept current by the stream's
// events. The stream is an EventSource opened with a single-use ticket; when it drops, a new
// ticket reopens it with `since` = the last event seen, so no event is lost or seen twice.

import * as api from './api.js';
import { h, clear, formatTime, link } from './dom.js';
import { GameScreen } from './game.js';
import { Table } from './table.js';

const SUIT_LABEL = { 1: '1 suit', 2: '2 suits', 4: '4 suits' };
const LIMITS = [[0, 'No time limit'], [60, '1 minute'], [180, '3 minutes'], [300, '5 minutes'],
  [600, '10 minutes'], [900, '15 minutes'], [1800, '30 minutes'], [3600, '60 minutes']];
const LAST_TABLE_KEY = 'spider.race';
const END_REASON = {
  won: 'the first to win the deal takes the race',
  time: 'the time ran out: most runs removed, then most cards turned, then fewest actions',
  draw: 'every racer still racing agreed to a draw',
  last_left: 'the others resigned or left',
};
const STATE_LABEL = { racing: 'racing', out: 'out', won: 'won', lost: 'lost', draw: 'draw' };
const COUNTS = [['runs_removed', 'Runs'], ['turned', 'Turned'], ['moves', 'Moves'], ['deals', 'Deals'], ['score', 'Score']];
// The counts a phone's result table keeps (the others hide under 600 px).
const NARROW = new Set(['runs_removed', 'moves', 'score']);
// The events that change the table's shape: the whole table is read again after them.
const SMALL_EVENTS = new Set(['ready', 'gone', 'back', 'started', 'progress', 'draw_offered', 'draw_declined', 'out']);

function needLogin(ctx) {
  if (api.session.token) return false;
  ctx.navigate('/login?next=' + encodeURIComponent(location.pathname), true);
  return true;
}

function settingsFields(prefix, suits = 1, limit = null) {
  const radios = [1, 2, 4].map((s) => h('label', { class: 'radio' },
    h('input', { type: 'radio', name: `${prefix}-suits`, value: String(s), checked: s === suits }), ` ${SUIT_LABEL[s]}`));
  const select = h('select', { id: `${prefix}-limit`, name: 'time_limit_s' },
    LIMITS.map(([v, label]) => h('option', { value: String(v), selected: v === (limit || 0) }, label)));
  const read = (form) => {
    const body = { suits: Number(form.querySelector(`input[name="${prefix}-suits"]:checked`).value) };
    body.time_limit_s = Number(select.value) || null;
    return body;
  };
  return {
    nodes: [h('fieldset', { class: 'suits-choice' }, h('legend', {}, 'Suits'), radios),
      h('label', { for: `${prefix}-limit` }, 'Time limit'), select],
    read,
  };
}

function formErrors(box, err) {
  const fields = err.body?.errors || {};
  const lines = Object.entries(fields).flatMap(([field, messages]) =>
    messages.map((m) => (field === 'non_field_errors' ? m : `${field}: ${m}`)));
  clear(box, (lines.length ? lines : [err.detail]).map((m) => h('p', {}, m)));
}

/** An invite code, typed or pasted (a whole link works too). */
function codeFrom(text) {
  const match = text.trim().match(/([A-Za-z0-9]+)\/?$/);
  return match ? match[1].toUpperCase() : '';
}

// --- the lobby ------------------------------------------------------------------------------
export async function lobbyScreen(root, ctx) {
  if (needLogin(ctx)) return null;
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
      formErrors(openErrors, err);
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
      formErrors(joinErrors, err);
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
export async function raceScreen(root, ctx, code) {
  if (needLogin(ctx)) return null;
  const table = await api.race(code);
  if (table.code !== code) history.replaceState(null, '', `/race/${table.code}`);
  localStorage.setItem(LAST_TABLE_KEY, table.code);
  const screen = new RaceScreen(root, ctx, table);
  return () => screen.destroy();
}

/** A laid-open position's notation (`<suits> <down|up>/... <stock> <removed>`) to draw. */
function parsePosition(text) {
  const [, cols, stock, removed] = text.split(' ');
  const cards = (s) => s.match(/../g) || [];
  return {
    columns: cols.split('/').map((col) => {
      const [down, up] = col.split('|');
      const d = cards(down);
      return { hidden: d.length, down: d, cards: cards(up) };
    }),
    deals_left: stock === '-' ? 0 : Math.ceil(cards(stock).length / 10),
    removed_suits: removed === '-' ? [] : removed.split(''),
  };
}

class RaceScreen {
  constructor(root, ctx, table) {
    this.ctx = ctx;
    this.code = table.code;
    this.me = api.session.username;
    this.model = table; // the table as the server last described it (plus the small events)
    this.lastSeq = null; // the stream's last event: where a reconnect resumes
    this.events = Promise.resolve(); // events are applied one at a time, in order
    this.offset = 0; // local clock minus the server's, from the events' `at`
    this.backoff = 1000;
    this.closed = false;
    this.game = null; // {id, screen}: the racer's own table
    this.laidOpen = []; // read-only Tables of the result
    this.resultKey = null;
    this.revealed = null; // the race whose cards we asked for at the end of its countdown
    this.settingsOpen = false;

    this.live = h('span', { class: 'live', role: 'status' }, 'Connecting…');
    this.shareInput = h('input', { class: 'share-link', readonly: true, value: `${location.origin}/race/${this.code}`, 'aria-label': 'Link to this table' });
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
        h('span', { class: 'small' }, 'Invite code ', h('strong', {}, this.code), ' · share the link:'),
        this.shareInput,
        h('button', { type: 'button', onclick: () => this.copyLink() }, 'Copy link')),
      this.settingsLine,
      h('div', { class: 'race-body' },
        h('aside', { class: 'race-side panel' }, h('h2', {}, 'Seats'), this.seats, this.controls, this.settingsBox),
        h('div', { class: 'race-main' }, this.clock, this.news, this.intro, this.others,
          h('div', { class: 'own-wrap' }, this.own, this.countdown), this.result)));
    clear(root, this.section);
    this.timer = setInterval(() => this.tick(), 250);
    this.render();
    this.connect();
  }

  destroy() {
    this.closed = true;
    clearInterval(this.timer);
    clearTimeout(this.retryTimer);
    if (this.source) this.source.close();
    this.dropGame();
    this.laidOpen.forEach((t) => t.destroy());
  }

  serverNow() { return Date.now() - this.offset; }

  // --- the stream ---------------------------------------------------------------------------
  async connect() {
    if (this.closed) return;
    let ticket;
    try {
      ticket = await api.raceTicket(this.code);
    } catch (err) {
      if (err.status === 401) return; // signed out: the app goes to log-in
      this.retry();
      return;
    }
    if (this.closed) return;
    let url = ticket.events_url;
    if (this.lastSeq !== null) url += `&since=${this.lastSeq}`;
    const source = new EventSource(url);
    this.source = source;
    source.onopen = () => {
      this.backoff = 1000;
      this.setLive(true);
    };
    source.onmessage = (e) => {
      const event = JSON.parse(e.data);
      if (event.event !== 'table' && this.lastSeq !== null && event.seq <= this.lastSeq) return;
      this.lastSeq = event.seq;
      this.offset = Date.now() - Date.parse(event.at);
      this.events = this.events.then(() => this.apply(event)).catch(() => this.resync());
    };
    // The ticket was for one connection: EventSource's own retry would be refused, so the
    // next connection gets a new ticket and resumes after the last event seen.
    source.onerror = () => {
      source.close();
      if (this.source === source) this.source = null;
      this.setLive(false);
      this.retry();
    };
  }

  retry() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, 10000);
  }

  setLive(on) {
    this.live.textContent = on ? 'Live' : 'Reconnecting…';
    this.live.classList.toggle('on', on);
  }

  /** One event: the small ones change the table in place; the others read it again. */
  async apply(event) {
    if (this.closed) return;
    const m = this.model;
    if (event.event === 'table') {
      if (event.data.seq >= m.seq) this.model = event.data;
      this.render();
      return;
    }
    if (event.seq <= m.seq) return; // already in the table we have
    if (!SMALL_EVENTS.has(event.event)) {
      const fresh = await api.race(this.code);
      if (fresh.seq >= m.seq) this.model = fresh;
      this.render();
      this.announce(event);
      return;
    }
    const d = event.data;
    const race = m.race;
    const seat = m.seats.find((s) => s.player === d.player);
    const racer = race && race.status !== 'finished' ? race.racers.find((r) => r.player === d.player) : null;
    if (event.event === 'ready' && seat) seat.ready = d.ready;
    if ((event.event === 'gone' || event.event === 'back') && seat) {
      seat.connected = event.event === 'back';
      if (racer) racer.connected = seat.connected;
    }
    if (event.event === 'started' && race && race.number === d.race) {
      race.status = 'racing';
      m.status = 'racing';
    }
    if (event.event === 'progress' && racer) {
      for (const [key] of COUNTS) racer[key] = d[key];
      racer.actions = d.actions;
    }
    if (event.event === 'draw_offered' && race) race.draw_offer = { accepted: d.accepted };
    if (event.event === 'draw_declined' && race) race.draw_offer = null;
    if (event.event === 'out' && racer) {
      racer.state = 'out';
      racer.out_reason = d.reason;
    }
    m.seq = event.seq;
    this.render();
    this.announce(event);
    if (event.event === 'started' && this.game && this.game.screen) this.game.screen.reload();
  }

  /** After a failure: the whole table again (nothing is lost: the stream goes on). */
  async resync() {
    try {
      const fresh = await api.race(this.code);
      if (fresh.seq >= this.model.seq) this.model = fresh;
      this.render();
    } catch { /* the next event tries again */ }
  }

  announce(event) {
    const d = event.data;
    const who = d.player === this.me ? 'You' : d.player;
    const text = {
      seated: () => `${who} sat down.`,
      stood: () => `${who} stood up.`,
      ready: () => `${who} ${d.ready ? 'is ready' : 'is not ready'}.`,
      gone: () => `${who} lost the connection.`,
      back: () => `${who} is connected.`,
      settings: () => `New settings: ${SUIT_LABEL[d.suits]}, ${d.time_limit_s ? `${d.time_limit_s / 60} min` : 'no time limit'}.`,
      countdown: () => 'The race is about to start: the cards turn over for everyone at once.',
      started: () => 'Go!',
      draw_offered: () => `${who} ${d.accepted.length > 1 ? 'accepted' : 'offered'} a draw.`,
      draw_declined: () => (d.reason === 'action' ? `The draw is off: ${who} played on.` : `${who} declined the draw.`),
      out: () => `${who} ${d.reason === 'resigned' ? 'resigned' : 'left and is out'}.`,
      finished: () => 'The race is over.',
      again: () => 'Again! The seats have moved round by one.',
    }[event.event];
    if (text) this.news.textContent = text();
  }

  // --- commands -----------------------------------------------------------------------------
  async command(what, body, button = null) {
    if (button) button.disabled = true;
    try {
      const table = await api.raceCommand(this.code, what, body);
      if (table.seq >= this.model.seq) this.model = table;
      this.render();
      return true;
    } catch (err) {
      this.news.textContent = err.detail;
      if (err.status === 401) this.ctx.navigate('/login?next=' + encodeURIComponent(location.pathname));
      return false;
    } finally {
      if (button && button.isConnected) button.disabled = false;
    }
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
    const iOpened = m.opener === this.me;
    const limit = m.time_limit_s ? `${formatTime(m.time_limit_s * 1000)} time limit` : 'no time limit';
    this.settingsLine.textContent = `${SUIT_LABEL[m.suits]} · ${limit} · opened by ${m.opener}`
      + `${m.watchers ? ` · ${m.watchers} watching` : ''}${m.staff_deal ? ' · a deal chosen by staff' : ''}`;
    this.renderSeats(mine);
    this.renderControls(mine, iOpened);
    const running = race && (race.status === 'countdown' || race.status === 'racing');
    this.section.classList.toggle('running', Boolean(running));
    const myRacer = running ? race.racers.find((r) => r.player === this.me) : null;
    const others = running ? race.racers.filter((r) => r.player !== this.me) : [];
    clear(this.others, others.length ? [h('h2', { class: 'others-title' }, myRacer ? 'The others' : 'The racers'), h('div', { class: 'racers' }, others.map((r) => this.racerCard(r)))] : null);
    clear(this.intro, m.status === 'open' ? h('div', { class: 'panel intro' },
      h('h2', {}, 'Waiting for the start'),
      h('p', {}, `Share the code ${this.code} or the link. Up to four players sit down; anyone else with the `
        + 'code watches. Everyone seated presses Ready, then the opener starts: after a short '
        + 'countdown the cards turn over for all at once, each racer at their own table.'),
      h('p', { class: 'small' }, 'No undo and no hints in a race. You see the others\' counts, never their cards; '
        + 'every table is laid open at the end.')) : null);
    this.ensureGame(myRacer);
    this.renderResult(race);
    this.tick();
  }

  renderSeats(mine) {
    const m = this.model;
    const key = JSON.stringify([m.status, m.opener, m.seats]);
    if (key === this.seatsKey) return;
    this.seatsKey = key;
    const canSit = !mine && (m.status === 'open' || m.status === 'finished');
    const items = [];
    for (let n = 0; n < 4; n += 1) {
      const s = m.seats.find((x) => x.seat === n);
      if (!s) {
        items.push(h('li', { class: 'seat free', dataset: { seat: String(n) } },
          h('span', { class: 'seat-no' }, `${n + 1}`), h('span', { class: 'seat-name' }, 'Free seat'),
          canSit ? h('button', { type: 'button', onclick: (e) => this.command('sit', { seat: n }, e.currentTarget) }, 'Sit here') : null));
        continue;
      }
      const opener = s.player === m.opener;
      const tags = [];
      if (opener) tags.push('opener');
      else if (m.status === 'open') tags.push(s.ready ? 'ready' : 'not ready');
      items.push(h('li', { class: `seat${s.player === this.me ? ' me' : ''}${s.ready ? ' ready' : ''}`, dataset: { seat: String(n), player: s.player } },
        h('span', { class: 'seat-no' }, `${n + 1}`),
        h('span', { class: `dot${s.connected ? ' on' : ''}`, title: s.connected ? 'connected' : 'not connected' }),
        h('span', { class: 'seat-name' }, s.player, s.player === this.me ? ' (you)' : ''),
        h('span', { class: 'visually-hidden' }, s.connected ? ', connected' : ', not connected'),
        tags.map((t) => h('span', { class: `tag tag-${t.replace(' ', '-')}` }, t)),
        h('span', { class: 'seat-score', 'aria-label': `match score: ${s.score.wins} wins, ${s.score.draws} draws` },
          `${s.score.wins} W · ${s.score.draws} D`)));
    }
    clear(this.seats, items);
  }

  renderControls(mine, iOpened) {
    const m = this.model;
    const race = m.race;
    // Rebuilt only when what they depend on changes: a button is never swapped under a
    // finger by an event that does not concern it.
    const key = JSON.stringify([m.status, m.seats.length, mine && [mine.seat, mine.ready], iOpened, race && [race.number, race.status,
      race.draw_offer, race.racers.find((r) => r.player === this.me)?.state], this.settingsOpen]);
    if (key === this.controlsKey) return;
    this.controlsKey = key;
    const buttons = [];
    const btn = (label, what, body = {}, cls = '') => h('button', {
      type: 'button', class: cls || null, dataset: { command: what },
      onclick: (e) => this.command(what, body, e.currentTarget),
    }, label);
    const myRacer = race && race.status !== 'finished' ? race.racers.find((r) => r.player === this.me) : null;
    if (m.status === 'open' || m.status === 'finished') {
      if (!mine && m.seats.length < 4) buttons.push(btn('Sit down', 'sit', {}, 'primary'));
      if (mine && !iOpened && m.status === 'open') {
        buttons.push(mine.ready ? btn('Not ready', 'unready') : btn('Ready', 'ready', {}, 'primary'));
      }
      if (iOpened && m.status === 'open') buttons.push(btn('Start the race', 'start', {}, 'primary'));
      if (iOpened && m.status === 'finished') buttons.push(btn('Play again', 'again', {}, 'primary'));
      if (mine && !iOpened) buttons.push(btn('Stand up', 'stand'));
      if (iOpened) {
        buttons.push(h('button', { type: 'button', 'aria-expanded': String(this.settingsOpen), onclick: () => {
          this.settingsOpen = !this.settingsOpen;
          this.render();
        } }, 'Settings…'));
      }
      if (m.status === 'finished' && !iOpened) buttons.push(h('p', { class: 'small' }, `${m.opener} may start the next race.`));
      if (m.status === 'open' && !iOpened && mine) buttons.push(h('p', { class: 'small' }, `${m.opener} starts the race when everyone is ready.`));
    } else if (myRacer && myRacer.state === 'racing' && race.status === 'racing') {
      const offer = race.draw_offer;
      if (!offer) buttons.push(btn('Offer a draw', 'draw', { accept: true }));
      else if (!offer.accepted.includes(this.me)) {
        buttons.push(h('p', { class: 'draw-offer' }, `A draw is offered (accepted by ${offer.accepted.join(', ')}).`),
          btn('Accept the draw', 'draw', { accept: true }, 'primary'), btn('Decline', 'draw', { accept: false }));
      } else {
        buttons.push(h('p', { class: 'draw-offer' }, 'You offered a draw: waiting for the others.'),
          btn('Take it back', 'draw', { accept: false }));
      }
      buttons.push(this.resignButton());
    } else if (myRacer && myRacer.state === 'out') {
      buttons.push(h('p', { class: 'small' }, 'You are out of this race: the others race on.'));
    }
    clear(this.controls, buttons);
    const showSettings = this.settingsOpen && iOpened && (m.status === 'open' || m.status === 'finished');
    clear(this.settingsBox, showSettings ? this.settingsForm() : null);
  }

  resignButton() {
    const box = h('span', { class: 'resign buttons' });
    const ask = () => clear(box,
      h('span', {}, 'Resign this race?'),
      h('button', { type: 'button', class: 'danger', dataset: { command: 'resign' }, onclick: (e) => this.command('resign', {}, e.currentTarget) }, 'Yes, resign'),
      h('button', { type: 'button', onclick: () => clear(box, first) }, 'No'));
    const first = h('button', { type: 'button', class: 'danger', onclick: ask }, 'Resign…');
    box.append(first);
    return box;
  }

  settingsForm() {
    const m = this.model;
    const fields = settingsFields('table', m.suits, m.time_limit_s);
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
        formErrors(errors, err);
      }
    });
    return form;
  }

  racerCard(r) {
    const state = r.state === 'out' ? `out (${r.out_reason === 'gone' ? 'left' : 'resigned'})` : STATE_LABEL[r.state] || r.state;
    return h('article', { class: `racer state-${r.state}`, dataset: { player: r.player }, 'aria-label': `${r.player}: ${state}, ${r.connected ? 'connected' : 'not connected'}` },
      h('h3', {}, h('span', { class: `dot${r.connected ? ' on' : ''}`, title: r.connected ? 'connected' : 'not connected' }),
        r.player, h('span', { class: 'tag' }, state)),
      h('dl', { class: 'counts' }, COUNTS.map(([key, label]) =>
        h('div', { class: `count count-${key}` }, h('dt', {}, label), h('dd', {}, r[key] ?? '–')))));
  }

  /** The racer's own table: the game component, on the game the server dealt them. */
  ensureGame(myRacer) {
    if (!myRacer) {
      this.dropGame();
      return;
    }
    if (this.game && this.game.id === myRacer.game) return;
    this.dropGame();
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
      this.countdown.hidden = false;
      this.countdown.textContent = String(Math.ceil(left / 1000));
      this.clock.textContent = `Race ${race.number}: the cards turn over in ${Math.ceil(left / 1000)} s.`;
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

  renderResult(race) {
    // Drawn again only when the result or the match score changes (not for every event).
    const scores = this.model.seats.map((s) => `${s.player}:${s.score.wins}:${s.score.draws}`).join(',');
    const key = race && race.status === 'finished' ? `${race.number}:${scores}` : null;
    if (key === this.resultKey) return;
    this.resultKey = key;
    this.laidOpen.forEach((t) => t.destroy());
    this.laidOpen = [];
    if (!key) {
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
    const deal = laid.deal.seed ? `The deal: seed ${laid.deal.seed}` : 'The deal: a fixed layout (no seed)';
    const tables = laid.tables.map((t) => {
      const table = new Table({ readOnly: true });
      this.laidOpen.push(table);
      const racer = race.racers.find((r) => r.player === t.player);
      const figure = h('figure', { class: 'laid-open', dataset: { player: t.player } },
        h('figcaption', {}, h('strong', {}, t.player === this.me ? 'Your table' : `${t.player}'s table`),
          ` · ${racer ? STATE_LABEL[racer.state] : ''} · ${t.log.length} action${t.log.length === 1 ? '' : 's'}`),
        table.el);
      table.render(parsePosition(t.position));
      return figure;
    });
    clear(this.result, h('div', { class: `result panel${me && me.state === 'won' ? ' good' : ''}`, role: 'region', 'aria-labelledby': 'race-result-title' },
      h('h2', { id: 'race-result-title' }, title),
      h('p', {}, `Race ${race.number}: ${END_REASON[race.end_reason] || race.end_reason}.`),
      h('table', { class: 'board results' },
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Player'), h('th', { scope: 'col' }, 'Result'),
          COUNTS.map(([k, l]) => h('th', { scope: 'col', class: NARROW.has(k) ? null : 'wide' }, l)))),
        h('tbody', {}, race.racers.map((r) => h('tr', { dataset: { player: r.player } },
          h('td', {}, r.player),
          h('td', { class: 'result-state' }, r.state === 'out' ? `out (${r.out_reason})` : r.state),
          COUNTS.map(([k]) => h('td', { class: NARROW.has(k) ? null : 'wide' }, r[k])))))),
      h('p', { class: 'match' }, 'Match: ', m.seats.map((s) => `${s.player} ${s.score.wins} win${s.score.wins === 1 ? '' : 's'}, ${s.score.draws} draw${s.score.draws === 1 ? '' : 's'}`).join(' · ')),
      h('h3', {}, 'Every table, laid open'),
      h('p', { class: 'small' }, `${deal}. Cards that were still face down are shown faded.`),
      h('div', { class: 'laid-open-tables' }, tables)));
  }
}
