// @ts-check
// The game screen's page: one game's table, its counters and controls, drawn from the
// game's session (gamestate.js: the state, the queue of actions, the hint, what the notices
// say), whose commands the page's buttons, keys (keys.js) and taps (table.js) call. Every
// action is sent with the version it was decided on; whatever the server says (a new state, a
// refusal, a conflict) is what the screen shows, as gamereply.js says it means. A
// legal-looking move is drawn at once (rules.js) and rolled back, visibly, if the server
// refuses it. The win has its own dialog (windialog.js).

import { analysable, analyseLink } from './analyse.js';
import * as api from './api.js';
import { afterNextPaint, h, clear, confirmDialog, toast, link } from './dom.js';
import { finishLine, openEnd } from './finish.js';
import { answerSound, failureOf, said, shownOf, soundOf } from './gamereply.js';
import { GameSession, buttonsOf, newGameEnds, statsOf } from './gamestate.js';
import { gameKey, keysHelp } from './keys.js';
import { onSettings, settings, settingsPanel } from './settings.js';
import { play } from './sound.js';
import { StatsBar } from './statsbar.js';
import { Table } from './table.js';
import { WinDialog } from './windialog.js';
import { SUIT_LABEL } from './words.js';

/**
 * @import { Action, Game } from './api.js'
 * @import { Ctx } from './app.js'
 * @import { HintSaid, Notice, Pending, Slide } from './gamestate.js'
 */

/**
 * @typedef {{guest: {token: string, username: string}, game: Game | null}} FirstVisit
 * @typedef {({suits: number} | {replay_of: string}) & {deal_over_gap?: boolean}} NewGame
 *   a new game's request: a suit mode, or the deal of a game to replay
 */

/** @type {Promise<FirstVisit> | null} */
let firstVisitMade = null;

/**
 * The first visit's guest and its deal, asked for once however often the play route is drawn
 * before it comes back. boot.js's request is taken if it was sent; if the router runs before
 * boot.js (an async module, late on a loaded machine), this asks and puts its promise where
 * boot.js looks, so boot.js asks nothing: a second guest would take the deal the pool holds.
 * Asked again only if the request failed (boot.js's or this one's).
 * @returns {Promise<FirstVisit>}
 */
function firstVisitGuest() {
  if (firstVisitMade) return firstVisitMade;
  const w = /** @type {any} */ (window);
  const ask = async () => {
    const { game, ...guest } = await api.guest({ suits: 1 });
    return { guest, game: /** @type {Game | null} */ (game || null) };
  };
  if (!w.spiderFirstVisit) w.spiderFirstVisit = ask().catch(() => null);
  const made = (async () => /** @type {FirstVisit | null} */ (await w.spiderFirstVisit) || ask())();
  made.catch(() => { firstVisitMade = null; }); // failed: "Try again" asks again
  firstVisitMade = made;
  return made;
}

/**
 * The play route: resume the game in progress (this device or another), or offer a new one.
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 * @param {string | null} gameId
 */
export async function playScreen(root, ctx, gameId = null) {
  // A first visit plays at once, as a guest (docs/rules.md#guests): no sign-up form first.
  // boot.js asked for the guest and its deal while the modules loaded: one round trip.
  let firstVisit = false;
  /** @type {Game | null} */
  let state = null;
  if (!api.session.token && !gameId) {
    const early = await firstVisitGuest();
    api.session.set(early.guest.token, early.guest.username, true);
    state = early.game;
    firstVisit = true;
  }
  if (ctx.needLogin()) return null;
  if (state) {
    // A new guest's first deal: nothing else can be in progress.
  } else if (gameId) {
    state = await api.getGame(gameId);
  } else {
    // The list says which game is in progress (this device or another); the game this
    // device showed last is fetched at the same time, so a reload costs one round trip.
    const remembered = localStorage.getItem(api.LAST_GAME_KEY);
    const [{ results }, last] = await Promise.all([
      api.gamesInProgress(),
      remembered ? api.getGame(remembered).catch(() => null) : null,
    ]);
    const current = results.find((g) => g.kind === 'casual') || results[0];
    if (current) state = last && last.id === current.id ? last : await api.getGame(current.id);
    if (!state && firstVisit) state = await startGame({ suits: 1 });
  }
  if (!state) {
    clear(root, h('section', { class: 'panel welcome' },
      h('h1', {}, 'Spider Solitaire'),
      h('p', {}, 'Build eight runs from king to ace in one suit (',
        link('/rules', 'the rules'), '). Pick a game:'),
      newGameButtons(ctx, null)));
    return null;
  }
  if (gameId === null) history.replaceState(null, '', `/play/${state.id}`);
  return new GameScreen(root, ctx, state).cleanup;
}

/**
 * Start a game under the table rule the settings choose (GameLake's end game), unless `body`
 * names one (a replay keeps the rule of the game it replays).
 * @param {NewGame} body
 * @returns {Promise<Game>}
 */
function startGame(body) {
  return api.createGame({ deal_over_gap: settings().deal_over_gap, ...body });
}

/**
 * A new game of 1, 2 or 4 suits (asked first when it ends the one in play: a loss).
 * @param {Ctx} ctx
 * @param {Game | null} current
 */
function newGameButtons(ctx, current) {
  /** @param {number} suits */
  const start = (suits) => newGame(ctx, current, suits,
    (err) => toast(/** @type {api.ApiError} */ (err).detail, 'error', 8000));
  const live = newGameEnds(current);
  return h('div', { class: 'new-game' },
    live ? h('p', { class: 'small' }, 'A new game ends this one (it counts as lost).') : null,
    h('div', { class: 'buttons' },
      [1, 2, 4].map((suits) => h('button', {
        type: 'button', class: 'primary', dataset: { suits: String(suits) },
        onclick: () => start(suits),
      }, `New ${SUIT_LABEL[suits]}`))));
}

/**
 * A new game of `suits` suits, asked first when it ends `current` (a loss), opened once made.
 * @param {Ctx} ctx
 * @param {Game | null} current
 * @param {number} suits
 * @param {(err: unknown) => void} failed
 */
async function newGame(ctx, current, suits, failed) {
  if (newGameEnds(current) && !await confirmDialog('Start a new game?',
    'The game in play ends and counts as a loss.', `New ${SUIT_LABEL[suits]} game`)) return;
  await openNewGame(ctx, { suits }, failed);
}

/**
 * Start a game (startGame) and open it.
 * @param {Ctx} ctx
 * @param {NewGame} body
 * @param {(err: unknown) => void} failed
 */
async function openNewGame(ctx, body, failed) {
  try {
    const state = await startGame(body);
    ctx.navigate(`/play/${state.id}`);
  } catch (err) {
    failed(err);
  }
}

/**
 * The notice under the table (gamestate.js's noticeOf), drawn; null: none.
 * @param {Notice} n
 * @param {Game} s  the server's state
 * @param {{undo: () => void, newGame: (body: NewGame) => void}} ways  the ways out offered
 */
function noticeBox(n, s, { undo, newGame }) {
  // A daily game's deal is not replayed from the game (the server keeps it until its day
  // closes): the daily's page offers its practice.
  const again = () => (s.kind === 'daily'
    ? link('/daily', 'Practice it from the daily page', { class: 'button' })
    : h('button', {
      type: 'button',
      onclick: () => newGame({ replay_of: s.id, deal_over_gap: s.deal_over_gap }),
    }, 'Replay this deal'));
  const replay = () => h('span', { class: 'buttons' },
    h('button', { type: 'button', onclick: () => newGame({ suits: s.suits }) }, 'New deal'),
    again());
  if (n.kind === 'race-stuck') {
    return h('div', { class: 'notice stuck', role: 'alert' }, h('p', {}, n.text));
  }
  if (n.kind === 'lost') {
    return h('div', { class: 'notice', role: 'status' },
      h('p', {}, n.text), replay(), ' ', analysable(s) ? analyseLink(s.id) : null);
  }
  if (n.kind !== 'stuck') return null;
  // The server's word (the state's `stuck`, or a hint with no useful move): said on the
  // board with the ways out.
  return h('div', { class: 'notice stuck', role: 'alert' },
    h('p', {}, h('strong', { class: 'stuck-badge' }, 'Stuck'), ' ', n.text, ' ', n.ways),
    h('div', { class: 'buttons' },
      n.canUndo ? h('button', { type: 'button', onclick: undo }, 'Undo') : null,
      replay()));
}

/** The finish's moves, this far apart: each seen going where it goes. */
const FINISH_PACE_MS = 160;

/**
 * How to play and the keys, folded under the table.
 * @param {boolean} race
 */
function help(race) {
  // The keys are a keyboard's: a touch screen without one is not told of them (style.css).
  return h('details', { class: 'help' },
    h('summary', {}, 'How to play', h('span', { class: 'keys-help' }, ' and keys')),
    h('p', {}, 'Tap a card to move it to the best place (the places it could go glow when '
      + 'there are several), or drag it where you want it. With one-tap off (Settings), '
      + 'tap a card, then the column to move it to; a double-tap picks the best place. '
      + 'Only runs of one suit move together; a full king-to-ace run of one suit leaves '
      + 'the table. ', link('/rules', 'The full rules'), '.'),
    h('p', { class: 'keys-help' }, keysHelp(race)));
}

/**
 * One game's table, counters and controls: the page of a GameSession (gamestate.js), which
 * holds the game's state and commands; this draws what it hears and wires the page's events
 * to its commands. `race: true` (a racer's own table in a race, see race.js): the same table
 * and the same action endpoint, without Undo, Hint, the new-game menu or the win dialog (the
 * race screen shows the race's result); `onShow(state)` hears every state drawn.
 */
export class GameScreen {
  /**
   * @param {HTMLElement} root
   * @param {Ctx} ctx
   * @param {Game} state
   * @param {{race?: boolean, onShow?: ((state: Game) => void) | null}} options
   */
  constructor(root, ctx, state, { race = false, onShow = null } = {}) {
    this.ctx = ctx;
    this.race = race;
    this.onShow = onShow;
    this.receivedAt = performance.now();
    const io = { act: api.act, hint: api.hint, painted: afterNextPaint };
    this.session = new GameSession(state, io, {
      predicted: (moved, action) => {
        this.draw(moved);
        play(soundOf(action)); // heard with the cards drawn
      },
      confirmed: (item, before, next) => this.confirmed(item, before, next),
      shown: (outcome, moved) => this.shown(outcome, moved),
      hinted: (hint) => this.hinted(hint),
      failed: (err, action) => this.failed(err, action),
    }, { race });
    const session = this.session;
    this.table = new Table({
      handlers: {
        move: (from, to, count) => session.send({ type: 'move', from, to, count }),
        oneTap: (from, count) => this.oneTapMove(from, count),
        deal: () => session.send({ type: 'deal' }),
        announce: (text) => this.announce(text),
      },
    });
    /** What a screen reader hears of the play: a pick-up, a move, what it turned over. */
    this.announcer = h('div', { class: 'visually-hidden', 'aria-live': 'polite', role: 'status' });
    // One tap moves a card to the best place unless the player turned it off (settings.js).
    this.table.setOneTap(settings().one_tap);
    this.stopSettings = onSettings((s) => this.table.setOneTap(s.one_tap));
    this.stats = new StatsBar();
    this.hintBox = h('div', { class: 'hint-box', 'aria-live': 'polite' });
    this.notice = h('div', { class: 'notice-area' });
    /** The finish offered at the open end (finish.js), for the version it was found on. */
    this.finishBox = h('div', { class: 'notice-area finish-area' });
    this.finishFor = -1;
    this.finishing = false;
    /**
     * @param {string} label
     * @param {() => unknown} onclick
     * @param {string} key  its keyboard shortcut
     */
    const button = (label, onclick, key) =>
      h('button', { type: 'button', onclick, 'aria-keyshortcuts': key }, label);
    this.buttons = {
      undo: button('Undo', () => session.send({ type: 'undo' }), 'Z'),
      hint: button('Hint', () => this.askHint(0), 'H'),
      next: button('Next hint', () => this.askHint(session.hintN + 1), 'Shift+H'),
      deal: button('Deal', () => session.send({ type: 'deal' }), 'D'),
      menu: h('button', {
        type: 'button', onclick: () => this.toggleMenu(), 'aria-expanded': 'false',
      }, 'New game…'),
    };
    this.menu = h('div', { class: 'menu', hidden: true });
    this.win = new WinDialog();
    const { undo, hint, next, deal, menu } = this.buttons;
    const controls = race ? [deal] : [undo, hint, next, deal, menu];
    const label = race ? 'Your table in the race' : 'Spider Solitaire game';
    // Hints and notices float over the foot of the screen (room is kept for them below the
    // table, see table.js): when one comes or goes, nothing on the page moves.
    clear(root, h('section', { class: `game${race ? ' race-game' : ''}`, 'aria-label': label },
      h('div', { class: 'bar' }, this.stats.el, h('div', { class: 'controls' }, controls)),
      this.menu, this.table.el, h('div', { class: 'messages' }, this.hintBox, this.notice,
        this.finishBox),
      this.win.el, this.announcer,
      settingsPanel(), help(race)));
    this.clock = setInterval(() => this.renderStats(), 1000);
    /** @param {KeyboardEvent} e */
    this.onKey = (e) => this.globalKey(e);
    this.onVisible = () => { if (document.visibilityState === 'visible') this.refresh(); };
    document.addEventListener('keydown', this.onKey);
    document.addEventListener('visibilitychange', this.onVisible);
    this.cleanup = () => {
      clearInterval(this.clock);
      this.stopSettings();
      document.removeEventListener('keydown', this.onKey);
      document.removeEventListener('visibilitychange', this.onVisible);
      this.table.destroy();
    };
    session.show(state);
  }

  /** The server's latest state. */
  get state() { return this.session.state; }

  /**
   * Ask for hint `n` (0: the best), its button marked busy until it is shown: the one action
   * that waits for the server (a search) shows that it works.
   * @param {number} n
   */
  async askHint(n) {
    const button = n ? this.buttons.next : this.buttons.hint;
    button.classList.add('busy');
    button.setAttribute('aria-busy', 'true');
    try {
      await this.session.askHint(n);
    } finally {
      button.classList.remove('busy');
      button.removeAttribute('aria-busy');
    }
  }

  /**
   * @param {string} text
   * @param {boolean} [more]  after what was just said, not instead of it
   */
  announce(text, more = false) {
    const before = more ? this.announcer.textContent : '';
    this.announcer.textContent = before ? `${before} ${text}` : text;
  }

  /**
   * One tap (GameSession.oneTap): with several places they glow; with none, the server says
   * why.
   * @param {number} from
   * @param {number | undefined} count
   */
  oneTapMove(from, count) {
    const tap = this.session.oneTap(from, count);
    if (!tap) return;
    if (tap.glow.length) this.table.flash(tap.glow, 'glow');
    this.session.send(tap.action);
  }

  /**
   * A state the server sent is the session's now: drawn, with what the action did.
   * @param {Game['outcome'] | null} outcome
   * @param {Slide | null} moved  cards to slide
   */
  shown(outcome, moved) {
    const state = this.session.state;
    const brings = shownOf(state, outcome, this.race);
    if (brings.remember) localStorage.setItem(api.LAST_GAME_KEY, state.id);
    this.receivedAt = performance.now();
    this.draw(moved);
    this.table.el.dataset.version = String(state.version); // the server's: confirmed
    this.renderNotice();
    if (brings.toast) toast(brings.toast, 'good');
    if (brings.win) {
      this.win.show(state, newGameButtons(this.ctx, null), (text) => this.announce(text));
    }
    if (this.onShow) this.onShow(state);
  }

  /**
   * The server answered an action: said in the live region, and heard.
   * @param {Pending} item
   * @param {Game} before
   * @param {Game} next
   */
  confirmed(item, before, next) {
    this.announce(said(item.action, before, next));
    const sound = answerSound(item, next, this.race);
    if (sound) play(sound);
  }

  /**
   * The table, counters and buttons as drawn now (the session's `view`).
   * @param {Slide | null} moved  cards to slide
   */
  draw(moved = null) {
    const view = this.session.view;
    this.table.render(view, moved);
    this.renderStats();
    const off = buttonsOf(view, this.session.hintShown !== null);
    this.buttons.undo.disabled = off.undo;
    this.buttons.hint.disabled = off.hint;
    this.buttons.next.disabled = off.next;
    this.buttons.deal.disabled = off.deal;
    // Looked for once the drawing is on screen, never on the way to it.
    if (!this.race && openEnd(this.session.state)) setTimeout(() => this.offerFinish(), 0);
    else if (this.finishBox.firstChild) clear(this.finishBox);
  }

  /**
   * At the open end (stock empty, every card face up) with a line that wins found: "Finish"
   * offered under the table; not in a race (each racer plays their own moves).
   */
  offerFinish() {
    const state = this.session.state;
    if (this.race || this.finishing || this.finishFor === state.version
      || !this.finishBox.isConnected) return;
    this.finishFor = state.version;
    const line = openEnd(state) ? finishLine(state) : null;
    if (!line) {
      clear(this.finishBox);
      return;
    }
    clear(this.finishBox, h('div', { class: 'notice finish', role: 'status' },
      h('p', {}, 'Every card is face up and the stock is empty: the rest can be played '
        + `for you, ${line.length} move${line.length === 1 ? '' : 's'}.`),
      h('button', { type: 'button', class: 'primary', onclick: () => this.finish() }, 'Finish')));
  }

  /**
   * Play the finish: its moves sent one after the other, each an ordinary action the server
   * checks and the table draws; stopped by any refusal or change made meanwhile.
   */
  async finish() {
    const line = finishLine(this.session.state);
    clear(this.finishBox);
    if (!line) return;
    this.finishing = true;
    try {
      for (const move of line) {
        const version = this.session.state.version;
        this.session.send(move);
        await this.session.idle();
        if (this.session.state.version !== version + 1) break; // refused, or played elsewhere
        await new Promise((resolve) => { setTimeout(resolve, FINISH_PACE_MS); });
      }
    } finally {
      this.finishing = false;
      this.finishFor = -1;
      if (this.session.state.status === 'in_progress') this.offerFinish();
    }
  }

  /** The counters; the clock runs on from the state's `elapsed_ms` since it came. */
  renderStats() {
    this.stats.write(statsOf(this.session.view, performance.now() - this.receivedAt, this.race));
  }

  /** The notice under the table, as the session says it (noticeOf). */
  renderNotice() {
    const n = this.session.notice();
    this.table.el.classList.toggle('stuck', n.stuck);
    clear(this.notice, noticeBox(n, this.session.state, {
      undo: () => this.session.send({ type: 'undo' }),
      newGame: (body) => this.newGame(body),
    }));
    // Stuck is said once in the live region too.
    if (n.announce) this.announce(`Stuck. ${n.text} ${n.ways}`, true);
  }

  /**
   * The hint the session shows (null: none): marked on the table and said under it.
   * @param {HintSaid | null} hint
   */
  hinted(hint) {
    this.table.setHighlight(hint ? hint.highlight : null);
    if (!hint) {
      clear(this.hintBox);
      return;
    }
    this.renderStats();
    clear(this.hintBox, h('div', { class: 'hint', dataset: hint.dataset },
      h('strong', {}, hint.title), hint.text));
    this.renderNotice();
    this.buttons.next.disabled = hint.nextDisabled;
  }

  /** @param {boolean} [force]  open (true) or closed (false); else the other way */
  toggleMenu(force) {
    const open = force ?? this.menu.hidden;
    this.menu.hidden = !open;
    this.buttons.menu.setAttribute('aria-expanded', String(open));
    if (open) {
      clear(this.menu, newGameButtons(this.ctx, this.state),
        this.state.status === 'in_progress'
          ? h('button', { type: 'button', class: 'danger', onclick: () => this.resign() },
            'Resign this game')
          : null);
    }
  }

  /** N: a new game of this game's suit mode (asked first while this one is in play). */
  askNewGame() {
    return newGame(this.ctx, this.state, this.state.suits, (err) => this.failed(err));
  }

  /** @param {NewGame} body */
  newGame(body) {
    return openNewGame(this.ctx, body, (err) => this.failed(err));
  }

  async resign() {
    this.toggleMenu(false);
    if (!await confirmDialog('Resign this game?', 'It ends now and counts as a loss.',
      'Resign')) return;
    try {
      await this.session.idle();
      this.session.reset(await api.resign(this.state.id));
    } catch (err) {
      this.failed(err);
    }
  }

  /** Draw the server's state again, changed or not (a race's cards turning over). */
  async reload() {
    try {
      this.session.reset(await api.getGame(this.state.id));
    } catch { /* the next event or action tries again */ }
  }

  async refresh() {
    if (this.session.busy) return;
    try {
      const state = await api.getGame(this.state.id);
      if (state.version !== this.state.version) this.session.reset(state);
    } catch { /* a failed refresh changes nothing; the next action reports errors */ }
  }

  /**
   * A refused or failed action, said the way its status calls for; a refused move shakes
   * its cards and marks the column that refused them (or the empty ones blocking a deal).
   * @param {unknown} error
   * @param {Action | null} action
   */
  failed(error, action = null) {
    const f = failureOf(/** @type {api.ApiError} */ (error), action, this.state);
    if (f.kind === 'conflict') {
      this.session.clearHint();
      this.session.reset(f.game);
      toast(f.text, 'warn', 6000);
    } else if (f.kind === 'login') {
      this.ctx.toLogin();
    } else if (f.kind === 'refused') {
      play('refusal');
      if (f.at !== null) this.table.refuse(f.at, f.text);
      else toast(f.text, 'error', 6000);
      if (f.shake) this.table.shake(f.shake.col, f.shake.count);
      if (f.flash) this.table.flash(f.flash.cols, 'refused', f.flash.ms);
      if (f.refresh) this.refresh();
    } else {
      toast(f.text, 'error', 8000);
    }
  }

  /** @param {KeyboardEvent} e */
  globalKey(e) {
    if (/** @type {Element} */ (e.target).closest('input, textarea, select')) return;
    const command = gameKey(e, this.race);
    if (!command) return;
    e.preventDefault();
    const session = this.session;
    if (command === 'undo') session.send({ type: 'undo' });
    else if (command === 'deal') session.send({ type: 'deal' });
    else if (command === 'hint') this.askHint(0);
    else if (command === 'next-hint') {
      if (!this.buttons.next.disabled) this.askHint(session.hintN + 1);
    } else if (command === 'new-game') this.askNewGame();
    else {
      this.table.select(null);
      if (!this.race) this.toggleMenu(false);
    }
  }
}
