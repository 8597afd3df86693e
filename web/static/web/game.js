// @ts-check
// The game screen: one game's table, its counters and controls, driven by the server's
// answers. Every action is sent with the version it was decided on; whatever the server
// says (a new state, a refusal, a conflict) is what the screen shows. A legal-looking move
// is drawn at once (rules.js) and rolled back, visibly, if the server refuses it.

import { analysable, analyseLink } from './analyse.js';
import * as api from './api.js';
import { SUIT_LABEL, cardName } from './cards.js';
import {
  afterNextPaint, h, clear, confirmDialog, keepFocus, toast, formatTime, link, ordinal,
} from './dom.js';
import { positionKey, predict } from './gamestate.js';
import { predictMove, targets } from './rules.js';
import { onSettings, settings, settingsPanel } from './settings.js';
import { play } from './sound.js';
import { Table } from './table.js';
import { describe } from './words.js';

/**
 * @import { Action, Coins, Game, Hint, LoggedAction } from './api.js'
 * @import { Ctx } from './app.js'
 * @import { Done } from './gamestate.js'
 */

/**
 * @typedef {{action: Action, drawn: boolean}} Pending  an action awaiting its answer;
 *   `drawn`: drawn already on the table (predicted)
 */

/** @typedef {{guest: {token: string, username: string}, game: Game | null}} FirstVisit */

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
 * @param {({suits: number} | {replay_of: string}) & {deal_over_gap?: boolean}} body
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
  const start = async (suits) => {
    if (live && !await confirmDialog('Start a new game?',
      'The game in play ends and counts as a loss.', `New ${SUIT_LABEL[suits]} game`)) return;
    try {
      const state = await startGame({ suits });
      ctx.navigate(`/play/${state.id}`);
    } catch (err) {
      toast(/** @type {api.ApiError} */ (err).detail, 'error', 8000);
    }
  };
  const live = current && current.status === 'in_progress' && current.kind === 'casual'
    && current.actions > 0;
  return h('div', { class: 'new-game' },
    live ? h('p', { class: 'small' }, 'A new game ends this one (it counts as lost).') : null,
    h('div', { class: 'buttons' },
      [1, 2, 4].map((suits) => h('button', {
        type: 'button', class: 'primary', dataset: { suits: String(suits) },
        onclick: () => start(suits),
      }, `New ${SUIT_LABEL[suits]}`))));
}

/**
 * One game's table, counters and controls. `race: true` (a racer's own table in a race, see
 * race.js): the same table and the same action endpoint, without Undo, Hint, the new-game
 * menu or the win dialog (the race screen shows the race's result); `onShow(state)` hears
 * every state drawn.
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
    /** The server's latest state. */
    this.state = state;
    /** The table drawn: the server's state with the actions awaiting answers drawn on it. */
    this.view = state;
    /**
     * The moves and deals this screen saw and may undo, last last, each with the table
     * before it (an undo is drawn from it at once). @type {Done[]}
     */
    this.past = [];
    /** The same, as drawn (`view`). @type {Done[]} */
    this.viewPast = [];
    /** The server may undo actions made before this screen knew the game. */
    this.deepUndo = state.can_undo;
    /** Actions sent or waiting to be, in order (the first is in flight). @type {Pending[]} */
    this.pending = [];
    this.pumping = false;
    this.race = race;
    this.onShow = onShow;
    this.receivedAt = performance.now();
    this.busy = false;
    /** Settles when the actions or hint in flight have their answers. @type {Promise<unknown>} */
    this.inflight = Promise.resolve();
    this.hintN = 0;
    /** @type {Hint | null} */
    this.hintShown = null;
    /** The hint said no move is useful here (cleared by the next action): stuck. */
    this.noUseful = '';
    /** Every position this game has shown, as the player sees it (positionKey). */
    this.seen = new Set();
    /** The stuck banner is up (announced once when it comes up). */
    this.stuckShown = false;
    this.table = new Table({
      handlers: {
        move: (from, to, count) => this.move(from, to, count),
        oneTap: (from, count) => this.oneTapMove(from, count),
        deal: () => this.send({ type: 'deal' }),
        announce: (text) => this.announce(text),
      },
    });
    /** What a screen reader hears of the play: a pick-up, a move, what it turned over. */
    this.announcer = h('div', { class: 'visually-hidden', 'aria-live': 'polite', role: 'status' });
    // One tap moves a card to the best place unless the player turned it off (settings.js).
    this.table.oneTap = settings().one_tap;
    this.stopSettings = onSettings((s) => {
      if (this.table.oneTap !== s.one_tap) this.table.select(null);
      this.table.oneTap = s.one_tap;
    });
    this.stats = h('dl', { class: 'stats', 'aria-label': 'Game' });
    this.statsKey = '';
    this.hintBox = h('div', { class: 'hint-box', 'aria-live': 'polite' });
    this.notice = h('div', { class: 'notice-area' });
    /**
     * @param {string} label
     * @param {() => unknown} onclick
     * @param {string} key  its keyboard shortcut
     */
    const button = (label, onclick, key) =>
      h('button', { type: 'button', onclick, 'aria-keyshortcuts': key }, label);
    this.buttons = {
      undo: button('Undo', () => this.send({ type: 'undo' }), 'Z'),
      hint: button('Hint', () => this.askHint(0), 'H'),
      next: button('Next hint', () => this.askHint(this.hintN + 1), 'Shift+H'),
      deal: button('Deal', () => this.send({ type: 'deal' }), 'D'),
      menu: h('button', {
        type: 'button', onclick: () => this.toggleMenu(), 'aria-expanded': 'false',
      }, 'New game…'),
    };
    this.menu = h('div', { class: 'menu', hidden: true });
    this.overlay = h('div', { class: 'overlay', hidden: true });
    // The win dialog is modal: the focus goes round its controls, Esc closes it.
    this.overlay.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.overlay.hidden = true;
      else keepFocus(this.overlay, e);
    });
    const { undo, hint, next, deal, menu } = this.buttons;
    const controls = race ? [deal] : [undo, hint, next, deal, menu];
    const label = race ? 'Your table in the race' : 'Spider Solitaire game';
    // Hints and notices float over the foot of the screen (room is kept for them below the
    // table, see table.js): when one comes or goes, nothing on the page moves.
    clear(root, h('section', { class: `game${race ? ' race-game' : ''}`, 'aria-label': label },
      h('div', { class: 'bar' }, this.stats, h('div', { class: 'controls' }, controls)),
      this.menu, this.table.el, h('div', { class: 'messages' }, this.hintBox, this.notice),
      this.overlay, this.announcer,
      settingsPanel(),
      h('details', { class: 'help' }, h('summary', {}, 'How to play and keys'),
        h('p', {}, 'Tap a card to move it to the best place (the places it could go glow when '
          + 'there are several), or drag it where you want it. With one-tap off (Settings), '
          + 'tap a card, then the column to move it to; a double-tap picks the best place. '
          + 'Only runs of one suit move together; a full king-to-ace run of one suit leaves '
          + 'the table. ', link('/rules', 'The full rules'), '.'),
        h('p', {}, race
          ? 'Keys: ←/→ or 1–9, 0 pick a column; Enter picks up its top card (↑/↓ more or fewer) '
            + 'and Enter on another column moves; "." lets the server choose; D deal, Esc cancel. '
            + 'A race has no undo and no hints.'
          : 'Keys: ←/→ or 1–9, 0 pick a column; Enter picks up its top card (↑/↓ more or '
            + 'fewer) and Enter on another column moves; "." lets the server choose; D deal, '
            + 'Z (or U) undo, H hint, Shift+H next hint, N new game, Esc cancel.'))));
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
    this.show(state);
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
   * A move the player named: drawn at once if it looks legal, then sent in its turn.
   * @param {number} from
   * @param {number} to
   * @param {number} count
   */
  move(from, to, count) {
    this.send({ type: 'move', from, to, count });
  }

  /**
   * One tap: the hinted card goes where the hint says; any other goes where the server's rule
   * puts it (docs/rules.md#one-tap-destination, worked out here as the server would, so it
   * is drawn at once). With several places they glow; with none, the server says why.
   * @param {number} from
   * @param {number | undefined} count
   */
  oneTapMove(from, count) {
    const view = this.view;
    if (view.status !== 'in_progress') return;
    const hinted = this.hintShown?.action;
    if (hinted && hinted.type === 'move' && hinted.from === from && hinted.to != null
      && hinted.count != null && (count === undefined || count === hinted.count)) {
      this.send({ type: 'move', from, to: hinted.to, count: hinted.count });
      return;
    }
    const places = count === undefined ? [] : targets(view, from, count);
    if (places.length > 1) this.table.flash(places, 'glow');
    this.send({ type: 'move', from, count });
  }

  /**
   * Draw a state the server sent (and `outcome`, what the action did); `view`: the table
   * drawn, which is the server's state with the actions still waiting for their answers
   * drawn on it.
   * @param {Game} state
   * @param {Game['outcome'] | null} outcome
   * @param {{from: number, to: number, count: number} | null} moved  cards to slide
   * @param {Game} view
   * @param {Done[]} viewPast
   */
  show(state, outcome = null, moved = null, view = state, viewPast = this.past) {
    this.state = state;
    this.view = view;
    this.viewPast = viewPast;
    if (state.status === 'in_progress' && !this.race) {
      localStorage.setItem(api.LAST_GAME_KEY, state.id);
    }
    this.receivedAt = performance.now();
    this.seen.add(positionKey(state));
    this.draw(moved);
    this.table.el.dataset.version = String(state.version); // the server's: confirmed
    this.renderNotice();
    if (outcome && outcome.runs_removed && outcome.runs_removed.length) {
      toast(outcome.runs_removed.length > 1 ? 'Runs complete!' : 'A run is complete!', 'good');
    }
    if (state.status === 'won' && !this.race) this.showWin();
    if (this.onShow) this.onShow(state);
  }

  /**
   * A state from elsewhere (a reload, another device, a resignation): what this screen had
   * predicted or remembered of the moves before is dropped.
   * @param {Game} state
   */
  reset(state) {
    this.pending = [];
    this.past = [];
    this.deepUndo = state.can_undo;
    this.show(state);
  }

  /**
   * The table, counters and buttons as drawn now (`this.view`).
   * @param {{from: number, to: number, count: number} | null} moved  cards to slide
   */
  draw(moved = null) {
    const view = this.view;
    this.table.render(view, moved);
    this.renderStats();
    const over = view.status !== 'in_progress';
    this.buttons.undo.disabled = over || !view.can_undo;
    this.buttons.hint.disabled = over;
    this.buttons.next.disabled = over || this.hintShown === null;
    this.buttons.deal.disabled = over || view.deals_left === 0;
  }

  /** @param {Game} s  the state drawn (a move drawn ahead of the answer counts already) */
  renderStats(s = this.view) {
    let elapsed = s.elapsed_ms;
    if (s.status === 'in_progress' && s.started_at) elapsed += performance.now() - this.receivedAt;
    let kind = '';
    if (s.kind === 'daily') kind = ` · daily ${s.ranked ? 'ranked' : 'practice'}`;
    else if (s.kind === 'race') kind = ' · race';
    const mode = `${SUIT_LABEL[s.suits]}${kind}`;
    /** @type {[string, string | number][]} */
    const items = [
      ['Game', mode], ['Score', s.score], ['Moves', s.actions], ['Time', formatTime(elapsed)],
    ];
    if (!this.race) items.push(['Hints', s.hints]); // always there: the bar keeps its width
    // The table rule, said on the table: a deal over a gap is allowed near the end.
    if (s.deal_over_gap) items.push(['Rules', 'GameLake end game']);
    // Built once; after that only the figures that changed are written (a tap redraws little).
    const key = items.map(([k]) => k).join();
    if (this.statsKey !== key) {
      this.statsKey = key;
      clear(this.stats, items.map(([k, v]) =>
        h('div', { class: `stat stat-${k.toLowerCase()}` }, h('dt', {}, k), h('dd', {}, v))));
      return;
    }
    items.forEach(([, v], i) => {
      const dd = /** @type {HTMLElement} */ (this.stats.children[i].lastElementChild);
      if (dd.textContent !== String(v)) dd.textContent = String(v);
    });
  }

  renderNotice() {
    const s = this.state;
    const stuck = s.status === 'in_progress' && (s.stuck || Boolean(this.noUseful));
    this.table.el.classList.toggle('stuck', stuck);
    if (!stuck) this.stuckShown = false;
    if (this.race) {
      // The race screen says how the race ended; here only what the server says of the deal.
      clear(this.notice, s.stuck && s.status === 'in_progress'
        ? h('div', { class: 'notice stuck', role: 'alert' },
          h('p', {}, 'No move can help any more: this deal is stuck. '
            + 'Play on, offer a draw or resign.'))
        : null);
    } else if (s.status === 'lost') {
      clear(this.notice, h('div', { class: 'notice', role: 'status' },
        h('p', {}, `This game is over (${s.end_reason}). Score ${s.score}.`),
        this.replayButtons(), ' ', analysable(s) ? analyseLink(s.id) : null));
    } else if (stuck) {
      // The server's word (the state's `stuck`, or a hint with no useful move): said on the
      // board with the ways out, and once in the live region.
      const why = s.stuck ? 'No move can help any more: this deal is stuck.'
        : `${this.noUseful} You are stuck here.`;
      const ways = s.can_undo
        ? 'Undo to try another way, replay this deal or start a new one.'
        : 'Replay this deal or start a new one.';
      clear(this.notice, h('div', { class: 'notice stuck', role: 'alert' },
        h('p', {}, h('strong', { class: 'stuck-badge' }, 'Stuck'), ' ', why, ' ', ways),
        h('div', { class: 'buttons' },
          s.can_undo
            ? h('button', { type: 'button', onclick: () => this.send({ type: 'undo' }) }, 'Undo')
            : null,
          this.replayButtons())));
      if (!this.stuckShown) this.announce(`Stuck. ${why} ${ways}`, true);
      this.stuckShown = true;
    } else {
      clear(this.notice);
    }
  }

  replayButtons() {
    const newDeal = () => this.newGame({ suits: this.state.suits });
    const sameDeal = () => this.newGame({
      replay_of: this.state.id, deal_over_gap: this.state.deal_over_gap,
    });
    return h('span', { class: 'buttons' },
      h('button', { type: 'button', onclick: newDeal }, 'New deal'),
      h('button', { type: 'button', onclick: sameDeal }, 'Replay this deal'));
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
  async askNewGame() {
    const s = this.state;
    const live = s.status === 'in_progress' && s.kind === 'casual' && s.actions > 0;
    if (live && !await confirmDialog('Start a new game?',
      'The game in play ends and counts as a loss.', `New ${SUIT_LABEL[s.suits]} game`)) return;
    await this.newGame({ suits: s.suits });
  }

  /** @param {({suits: number} | {replay_of: string}) & {deal_over_gap?: boolean}} body */
  async newGame(body) {
    try {
      const state = await startGame(body);
      this.ctx.navigate(`/play/${state.id}`);
    } catch (err) {
      this.failed(err);
    }
  }

  async resign() {
    this.toggleMenu(false);
    if (!await confirmDialog('Resign this game?', 'It ends now and counts as a loss.',
      'Resign')) return;
    try {
      await this.idle();
      this.reset(await api.resign(this.state.id));
    } catch (err) {
      this.failed(err);
    }
  }

  /** Draw the server's state again, changed or not (a race's cards turning over). */
  async reload() {
    try {
      this.reset(await api.getGame(this.state.id));
    } catch { /* the next event or action tries again */ }
  }

  async refresh() {
    if (this.busy) return;
    try {
      const state = await api.getGame(this.state.id);
      if (state.version !== this.state.version) this.reset(state);
    } catch { /* a failed refresh changes nothing; the next action reports errors */ }
  }

  /**
   * One action, drawn at once when the table tells what it does (a move, a one-tap, a deal
   * as ten face-down cards, an undo of a move or deal this screen saw), then sent in its
   * turn: actions queue up, each sent once the one before is answered, with the version
   * that answer gave. A refusal rolls the table back to the server's.
   * @param {Action} action
   */
  send(action) {
    if (this.view.status !== 'in_progress') return;
    this.clearHint();
    /** @type {Pending} */
    const item = { action, drawn: false };
    const last = this.pending[this.pending.length - 1];
    const step = !last || last.drawn ? predict(this.view, this.viewPast, action, this.deepUndo)
      : null;
    this.pending.push(item);
    if (step) {
      item.drawn = true;
      this.view = step.state;
      this.viewPast = step.past;
      this.draw(step.moved);
      play(action.type === 'deal' ? 'deal' : 'move'); // heard with the cards drawn
    }
    this.pump();
  }

  /** Send the queued actions one after the other, each with the version it expects. */
  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    const release = this.claim();
    try {
      // A move drawn ahead of its answer is on screen before its request is made: making
      // one costs a slow phone a few ms, which the drawing would otherwise wait for.
      if (this.pending[0]?.drawn) await afterNextPaint();
      while (this.pending.length && this.state.status === 'in_progress') {
        const item = this.pending[0];
        // The head is always drawn on the server's own table: send what was drawn.
        const head = item.drawn ? predict(this.state, this.past, item.action, this.deepUndo)
          : null;
        const body = { ...(head ? head.send : item.action), version: this.state.version };
        if ('count' in body && body.count === undefined) delete body.count;
        /** @type {Game} */
        let next;
        try {
          next = await api.act(this.state.id, body);
        } catch (err) {
          this.rollback(item, head ? head.send : item.action, err);
          return;
        }
        this.pending.shift();
        this.confirm(item, next);
      }
      this.pending = []; // the game is over: the rest would be refused
    } finally {
      this.pumping = false;
      release();
    }
  }

  /**
   * The server's answer to the head of the queue: drawn, with the actions still waiting
   * drawn again on it (a card it turned over, a run it removed, the faces of a deal).
   * @param {Pending} item
   * @param {Game} next
   */
  confirm(item, next) {
    const before = this.state;
    const done = next.outcome?.action;
    if (item.action.type === 'undo') {
      if (this.past.length) this.past = this.past.slice(0, -1);
      else this.deepUndo = next.can_undo;
    } else if (done?.type === 'move') {
      const move = { type: /** @type {const} */ ('move'), from: Number(done.from),
        to: Number(done.to), count: Number(done.count) };
      this.past = [...this.past, { before, action: move }];
    } else if (done?.type === 'deal') {
      this.past = [...this.past, { before, action: { type: 'deal' } }];
    }
    this.announce(said(item.action, before, next));
    const won = next.status === 'won' && !this.race; // the win has its own sound (showWin)
    if (won) { /* heard with the dialog */ } else if (next.outcome?.runs_removed?.length) {
      play('run');
    } else if (!item.drawn) play(item.action.type === 'deal' ? 'deal' : 'move');
    let view = next;
    let past = this.past;
    let chain = true;
    for (const p of this.pending) {
      const step = chain && p.drawn ? predict(view, past, p.action, this.deepUndo) : null;
      if (!step) {
        chain = false;
        p.drawn = false;
        continue;
      }
      view = step.state;
      past = step.past;
    }
    // Drawn already if predicted; else (an action the table could not tell) slide it now.
    const slide = !item.drawn && done?.type === 'move' && !next.outcome?.runs_removed?.length
      ? { from: Number(done.from), to: Number(done.to), count: Number(done.count) } : null;
    this.show(next, next.outcome, slide, view, past);
  }

  /**
   * A refused or failed action: the queue is dropped and the table goes back, visibly, to
   * the server's (a single move drawn ahead slides back), then the refusal is said.
   * @param {Pending} item
   * @param {Action} sent
   * @param {unknown} err
   */
  rollback(item, sent, err) {
    const alone = this.pending.length === 1;
    this.pending = [];
    const conflict = /** @type {api.ApiError} */ (err).status === 409;
    const back = item.drawn && alone && sent.type === 'move' && sent.to !== undefined
      && sent.count !== undefined ? { from: sent.to, to: sent.from, count: sent.count } : null;
    if (!conflict) this.show(this.state, null, back);
    this.failed(err, sent);
  }

  /** Wait for the actions and hint in flight (one at a time, in the order asked). */
  async idle() {
    while (this.busy) await this.inflight;
  }

  /** Mark actions or a hint in flight; returns what ends it. */
  claim() {
    this.busy = true;
    /** @type {() => void} */
    let done = () => {};
    this.inflight = new Promise((resolve) => { done = () => resolve(undefined); });
    return () => {
      this.busy = false;
      done();
    };
  }

  /** @param {number} n  which of the ranked moves (0: the best) */
  async askHint(n) {
    await this.idle();
    if (this.state.status !== 'in_progress') return;
    const release = this.claim();
    try {
      const hint = await api.hint(this.state.id, n, this.state.version);
      this.hintN = hint.n;
      this.hintShown = hint;
      const counted = { version: hint.version, hints: hint.hints, perfect: false };
      this.state = { ...this.state, ...counted };
      this.view = { ...this.view, ...counted };
      this.renderStats();
      // The server never suggests a way back (docs/rules.md#hints); should one come, the
      // client does not walk in a circle either: it says so instead of suggesting it.
      const loop = hint.action && this.leadsBack(hint.action);
      const a = loop ? null : hint.action;
      // Nothing useful, and not even a deal (the server's reason would end "deal"): stuck.
      if (!a && hint.n === 0 && !/deal$/.test(hint.reason)) {
        this.noUseful = loop ? 'Every useful move leads back to a position already seen.'
          : 'No useful move.';
      }
      if (!a) this.table.setHighlight(null);
      else if (a.type === 'deal') this.table.setHighlight({ deal: true });
      else {
        const [to, count] = [a.to ?? undefined, a.count ?? undefined];
        this.table.setHighlight({ from: a.from, to, count });
      }
      const of = hint.alternatives ? ` of ${hint.alternatives}` : '';
      // With a move: the move, then why. Without: the server's reason alone ("No useful
      // move: ..."), said once.
      const text = a ? `${api.sentence(describe(a))} ${loop ? '' : api.sentence(hint.reason)}`
        : api.sentence(loop ? 'No useful move: every useful move leads back.' : hint.reason);
      const dataset = {
        type: a ? a.type : 'none',
        from: String(a?.from ?? ''),
        to: String(a?.to ?? ''),
        count: String(a?.count ?? ''),
        n: String(hint.n),
      };
      // Beside the move, its chance to win where the server says one.
      const chance = a && hint.chance ? ` (${api.sentence(hint.chance.sentence)})` : '';
      clear(this.hintBox, h('div', { class: 'hint', dataset },
        h('strong', {}, `Hint ${hint.n + 1}${of}: `), text + chance));
      this.renderNotice();
      this.buttons.next.disabled = !a || hint.n + 1 >= hint.alternatives;
    } catch (err) {
      this.failed(err);
    } finally {
      release();
    }
  }

  /** After an action: the hint shown, and a "no useful move", are old news. */
  clearHint() {
    this.noUseful = '';
    this.hintN = 0;
    this.hintShown = null;
    this.table.setHighlight(null);
    clear(this.hintBox);
  }

  /**
   * A refused or failed action, said the way its status calls for; a refused move shakes
   * its cards and marks the column that refused them (or the empty ones blocking a deal).
   * @param {unknown} error
   * @param {Action | null} action
   */
  failed(error, action = null) {
    const err = /** @type {api.ApiError} */ (error);
    if (err.status === 409 && err.body.game) {
      this.clearHint();
      this.reset(err.body.game);
      toast('This game had moved on (another tab or device?): here is where it stands now.',
        'warn', 6000);
    } else if (err.status === 401) {
      this.ctx.toLogin();
    } else if (err.status === 422) {
      play('refusal');
      toast(err.detail, 'error', 6000);
      if (action && action.type === 'move') {
        this.table.shake(action.from, action.count ?? 1);
        if (action.to !== undefined) this.table.flash([action.to], 'refused', 1200);
      } else if (err.code === 'empty_column_blocks_deal') {
        const empty = this.state.columns.flatMap((c, i) => (c.hidden || c.cards.length ? [] : [i]));
        this.table.flash(empty, 'refused', 1500);
      }
      if (err.code === 'game_over') this.refresh();
    } else {
      toast(err.detail, 'error', 8000);
    }
  }

  /**
   * Whether a suggested move leads to a position this game has shown already (a move that
   * turns a card over never does: face-down counts never grow again).
   * @param {LoggedAction} a
   */
  leadsBack(a) {
    if (a.type !== 'move' || a.from == null || a.to == null) return false;
    const next = predictMove(this.state, a.from, a.to, a.count ?? 1);
    if (!next) return false;
    const left = next.columns[a.from];
    if (left.hidden && !left.cards.length) return false; // turns a card over: a new position
    return this.seen.has(positionKey(next));
  }

  async showWin() {
    const s = this.state;
    const place = h('p', { class: 'place' });
    const close = () => { this.overlay.hidden = true; };
    const closeBtn = h('button', { type: 'button', onclick: close }, 'Look at the table');
    const coins = s.coins && s.coins.eligible ? s.coins : null;
    clear(this.overlay, h('div', {
      class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'win-title',
    },
      h('h2', { id: 'win-title' }, 'You won!'),
      h('dl', { class: 'win-stats' },
        h('div', {}, h('dt', {}, 'Score'), h('dd', { class: 'win-score' }, s.score)),
        h('div', {}, h('dt', {}, 'Time'), h('dd', {}, formatTime(s.elapsed_ms))),
        h('div', {}, h('dt', {}, 'Moves'), h('dd', {}, s.actions)),
        coins
          ? h('div', {}, h('dt', {}, 'Coins'), h('dd', { class: 'win-coins' }, `+${coins.earned}`))
          : null),
      coins ? h('p', { class: 'coins-note' }, coinsNote(coins)) : null,
      s.perfect ? h('p', { class: 'perfect' }, 'Perfect: no undo, no hint.') : null,
      place,
      h('div', { class: 'buttons' },
        newGameButtons(this.ctx, null),
        link(`/replay/${s.id}`, 'Watch the replay', { class: 'button' }),
        analysable(s) ? analyseLink(s.id) : null,
        closeBtn)));
    this.overlay.hidden = false;
    closeBtn.focus();
    // The run's toast is old news under the dialog; the win itself is celebrated (unless the
    // player asked for reduced motion: then the dialog alone).
    const toastEl = document.getElementById('toast');
    if (toastEl) toastEl.className = 'toast';
    if (!matchMedia('(prefers-reduced-motion: reduce)').matches) this.overlay.append(celebration());
    this.announce(`You won! Score ${s.score}.`);
    play('win');
    this.personalNews(s);
    if (!s.ranked && api.session.guest) {
      // A guest's games never rank (docs/rules.md#guests): say so, and how to change it.
      place.append('This game does not rank because you play as a guest. ',
        link('/signup', 'Sign up', { class: 'claim' }),
        ' to keep your games: from then on your wins enter the leaderboards.');
      return;
    }
    if (!s.ranked) {
      place.textContent = s.kind === 'daily'
        ? 'This game does not rank: it is a practice game of the daily.'
        : 'This game does not rank: a replay, a practice game, a deal you were dealt before '
          + 'or a staff deal.';
      return;
    }
    try {
      const p = await api.gamePlaces(s.id);
      const parts = [`${ordinal(p.places.all)} on the ${SUIT_LABEL[s.suits]} leaderboard`];
      if (p.places.day) parts.push(`${ordinal(p.places.day)} today`);
      if (p.daily) parts.push(`${ordinal(p.daily.rank)} on the daily board of ${p.daily.date}`);
      place.textContent = `${parts.join(', ')}.`;
      place.append(' ', link(`/leaderboard?suits=${s.suits}`, 'See the board'));
    } catch {
      place.textContent = 'Your place on the leaderboard will show on the board shortly.';
    }
  }

  /**
   * A personal best or a winning streak, from the player's statistics, under the win.
   * @param {Game} s
   */
  async personalNews(s) {
    try {
      const me = await api.me();
      const mode = (me.stats || []).find((/** @type {{suits: number}} */ m) => m.suits === s.suits);
      if (!mode) return;
      const news = [];
      if (mode.best_score === s.score && mode.wins > 1) news.push('A personal best score!');
      if (mode.current_win_streak > 1) news.push(`${mode.current_win_streak} wins in a row.`);
      const dialog = this.overlay.querySelector('.dialog');
      if (news.length && dialog) {
        dialog.querySelector('.win-stats')?.after(h('p', { class: 'news' }, news.join(' ')));
      }
    } catch { /* the win stands without its news */ }
  }

  /** @param {KeyboardEvent} e */
  globalKey(e) {
    const target = /** @type {Element} */ (e.target);
    if (target.closest('input, textarea, select') || e.metaKey || e.altKey) return;
    const key = e.key.toLowerCase();
    if (this.race) {
      if (e.ctrlKey) return;
      if (key === 'd') this.send({ type: 'deal' });
      else if (key === 'escape') this.table.select(null);
      else return;
      e.preventDefault();
      return;
    }
    if (e.ctrlKey && key === 'z') this.send({ type: 'undo' });
    else if (e.ctrlKey) return;
    else if (key === 'z' || key === 'u') this.send({ type: 'undo' });
    else if (key === 'd') this.send({ type: 'deal' });
    else if (key === 'h' && e.shiftKey) {
      if (!this.buttons.next.disabled) this.askHint(this.hintN + 1);
    } else if (key === 'h') this.askHint(0);
    else if (key === 'n') this.askNewGame();
    else if (key === 'escape') {
      this.table.select(null);
      this.toggleMenu(false);
    } else return;
    e.preventDefault();
  }
}

/**
 * What an action did, for the live region: "9 of spades to column 1; column 2 turns over the
 * queen of spades".
 * @param {Action} action
 * @param {Game} before
 * @param {Game} after
 */
function said(action, before, after) {
  if (action.type === 'undo') return 'Undone.';
  if (action.type !== 'move') return 'Dealt ten cards.';
  const done = after.outcome?.action;
  const from = Number(done?.from ?? action.from);
  const to = Number(done?.to);
  const count = Number(done?.count ?? 1);
  const moved = before.columns[from]?.cards.slice(-count)[0];
  const parts = [moved ? `${cardName(moved)}${count > 1 ? ` and ${count - 1} more` : ''} `
    + `to column ${to + 1}` : 'Moved'];
  const shown = after.columns[from];
  if (shown && before.columns[from] && shown.hidden < before.columns[from].hidden) {
    parts.push(`column ${from + 1} turns over the ${cardName(shown.cards[0])}`);
  }
  if (after.outcome?.runs_removed?.length) parts.push('a run is complete');
  return `${parts.join('; ')}.`;
}

/** Cards of every suit falling past the win dialog (CSS animations; not drawn at all when
 * reduced motion is asked for). */
function celebration() {
  const layer = h('div', { class: 'celebrate', 'aria-hidden': 'true' });
  const signs = ['♠', '♥', '♦', '♣'];
  for (let i = 0; i < 24; i += 1) {
    const bit = h('span', { class: `fall s${i % 4}` }, signs[i % 4]);
    bit.style.left = `${(i * 37) % 100}%`;
    bit.style.animationDelay = `${(i % 8) * 0.18}s`;
    bit.style.animationDuration = `${2.2 + (i % 5) * 0.35}s`;
    layer.append(bit);
  }
  return layer;
}

// What the win paid, what the daily limit cut and what is left today (docs/rules.md#coins).
/** @param {Coins} c */
function coinsNote(c) {
  const parts = [`${c.base} for the win` + (c.bonus ? ` + ${c.bonus} perfect bonus` : '')];
  if (c.cut) parts.push(`${c.cut} over today's limit of ${c.daily_limit}`);
  parts.push(`${c.left_today} left today; balance ${c.balance}`);
  return `Coins: ${parts.join('; ')}.`;
}
