// @ts-check
// The game screen's page: one game's table, its counters and controls, drawn from the
// game's session (gamestate.js: the state, the queue of actions, the hint, what the notices
// say), whose commands the page's buttons, keys and taps call. Every action is sent with the
// version it was decided on; whatever the server says (a new state, a refusal, a conflict) is
// what the screen shows. A legal-looking move is drawn at once (rules.js) and rolled back,
// visibly, if the server refuses it.

import { analysable, analyseLink } from './analyse.js';
import * as api from './api.js';
import { SUIT_LABEL, cardName } from './cards.js';
import {
  afterNextPaint, h, clear, confirmDialog, keepFocus, toast, formatTime, link, ordinal,
} from './dom.js';
import {
  GameSession, buttonsOf, coinsNote, emptyColumns, newGameEnds, statsOf,
} from './gamestate.js';
import { onSettings, settings, settingsPanel } from './settings.js';
import { play } from './sound.js';
import { Table } from './table.js';

/**
 * @import { Action, Game } from './api.js'
 * @import { Ctx } from './app.js'
 * @import { HintSaid, Pending, Slide } from './gamestate.js'
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
        play(action.type === 'deal' ? 'deal' : 'move'); // heard with the cards drawn
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
      undo: button('Undo', () => session.send({ type: 'undo' }), 'Z'),
      hint: button('Hint', () => session.askHint(0), 'H'),
      next: button('Next hint', () => session.askHint(session.hintN + 1), 'Shift+H'),
      deal: button('Deal', () => session.send({ type: 'deal' }), 'D'),
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
    session.show(state);
  }

  /** The server's latest state. */
  get state() { return this.session.state; }

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
    if (state.status === 'in_progress' && !this.race) {
      localStorage.setItem(api.LAST_GAME_KEY, state.id);
    }
    this.receivedAt = performance.now();
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
   * The server answered an action: said in the live region, and heard.
   * @param {Pending} item
   * @param {Game} before
   * @param {Game} next
   */
  confirmed(item, before, next) {
    this.announce(said(item.action, before, next));
    const won = next.status === 'won' && !this.race; // the win has its own sound (showWin)
    if (won) { /* heard with the dialog */ } else if (next.outcome?.runs_removed?.length) {
      play('run');
    } else if (!item.drawn) play(item.action.type === 'deal' ? 'deal' : 'move');
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
  }

  renderStats() {
    const items = statsOf(this.session.view, performance.now() - this.receivedAt, this.race);
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

  /** The notice under the table, as the session says it (noticeOf). */
  renderNotice() {
    const s = this.session.state;
    const n = this.session.notice();
    this.table.el.classList.toggle('stuck', n.stuck);
    if (n.kind === 'race-stuck') {
      clear(this.notice, h('div', { class: 'notice stuck', role: 'alert' }, h('p', {}, n.text)));
    } else if (n.kind === 'lost') {
      clear(this.notice, h('div', { class: 'notice', role: 'status' },
        h('p', {}, n.text),
        this.replayButtons(), ' ', analysable(s) ? analyseLink(s.id) : null));
    } else if (n.kind === 'stuck') {
      // The server's word (the state's `stuck`, or a hint with no useful move): said on the
      // board with the ways out, and once in the live region.
      clear(this.notice, h('div', { class: 'notice stuck', role: 'alert' },
        h('p', {}, h('strong', { class: 'stuck-badge' }, 'Stuck'), ' ', n.text, ' ', n.ways),
        h('div', { class: 'buttons' },
          n.canUndo
            ? h('button', {
              type: 'button', onclick: () => this.session.send({ type: 'undo' }),
            }, 'Undo')
            : null,
          this.replayButtons())));
      if (n.announce) this.announce(`Stuck. ${n.text} ${n.ways}`, true);
    } else {
      clear(this.notice);
    }
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

  replayButtons() {
    const s = this.session.state;
    const newDeal = () => this.newGame({ suits: s.suits });
    const sameDeal = () => this.newGame({ replay_of: s.id, deal_over_gap: s.deal_over_gap });
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
    if (newGameEnds(s) && !await confirmDialog('Start a new game?',
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
    const err = /** @type {api.ApiError} */ (error);
    if (err.status === 409 && err.body.game) {
      this.session.clearHint();
      this.session.reset(err.body.game);
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
        this.table.flash(emptyColumns(this.state), 'refused', 1500);
      }
      if (err.code === 'game_over') this.refresh();
    } else {
      toast(err.detail, 'error', 8000);
    }
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
      // A daily attempt's board is its day's; any other win's, its suit mode's.
      const board = p.daily ? `/daily/${p.daily.date}` : `/leaderboard?suits=${s.suits}`;
      place.append(' ', link(board, 'See the board'));
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
      if (key === 'd') this.session.send({ type: 'deal' });
      else if (key === 'escape') this.table.select(null);
      else return;
      e.preventDefault();
      return;
    }
    if (e.ctrlKey && key === 'z') this.session.send({ type: 'undo' });
    else if (e.ctrlKey) return;
    else if (key === 'z' || key === 'u') this.session.send({ type: 'undo' });
    else if (key === 'd') this.session.send({ type: 'deal' });
    else if (key === 'h' && e.shiftKey) {
      if (!this.buttons.next.disabled) this.session.askHint(this.session.hintN + 1);
    } else if (key === 'h') this.session.askHint(0);
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
