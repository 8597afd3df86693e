// @ts-check
// The game screen's state and commands, apart from its page (game.js): what an action does
// to the table drawn before the server answers, with the actions that may be undone; the
// session that queues actions, confirms them in order or rolls back to the server's table,
// and keeps the hint; what the counters, buttons and notices say. No DOM, and the network
// only through what it is given: tests/js drive it without a browser.

import { oneTapChoice, predictDeal, predictMove, predictUndo, targets } from './rules.js';
import { SUIT_LABEL, describe, formatTime, sentence } from './words.js';

/**
 * @import { Action, Coins, Game, Hint, LoggedAction, Position } from './api.js'
 */

/**
 * @typedef {{before: Game, action: Action}} Done  an action that may be undone, and the
 *   table before it
 */

/**
 * What an action does to the table drawn, as far as it is known before the answer: the table
 * after it, the undoable actions after it, the cards to slide, and the action to send (a
 * one-tap with its destination worked out). Null when the table cannot tell (the server's
 * answer is drawn instead).
 * @param {Game} view
 * @param {Done[]} past
 * @param {Action} action
 * @param {boolean} deep  the server may undo actions before `past`
 * @returns {{state: Game, past: Done[], moved: {from: number, to: number, count: number} | null,
 *   send: Action} | null}
 */
export function predict(view, past, action, deep) {
  if (view.status !== 'in_progress') return null;
  if (action.type === 'deal') {
    const state = predictDeal(view);
    return state && { state, past: [...past, { before: view, action }], moved: null, send: action };
  }
  if (action.type === 'undo') {
    const last = past[past.length - 1];
    if (!last || !view.can_undo) return null;
    const state = predictUndo(view, last.before, past.length > 1 || deep);
    const a = last.action;
    const runs = (/** @type {Game} */ g) => (g.removed_suits || []).length;
    const moved = a.type === 'move' && a.to !== undefined && a.count !== undefined
      && runs(view) === runs(last.before) ? { from: a.to, to: a.from, count: a.count } : null;
    return { state, past: past.slice(0, -1), moved, send: action };
  }
  if (action.type !== 'move') return null;
  let { to, count } = action;
  const from = action.from;
  if (to === undefined) {
    const choice = oneTapChoice(view, from, count);
    if (!choice) return null;
    ({ to, count } = choice);
  }
  if (count === undefined) return null;
  const state = predictMove(view, from, to, count);
  if (!state) return null;
  /** @type {Action} */
  const move = { type: 'move', from, to, count };
  return { state, past: [...past, { before: view, action: move }], moved: { from, to, count },
    send: move };
}

/**
 * A position as the player sees it (docs/rules.md#hints): face-up cards, face-down counts,
 * deals left and runs removed.
 * @param {Position} p
 */
export function positionKey(p) {
  const cols = p.columns.map((c) => `${c.hidden}:${c.cards.join('')}`).join('/');
  return `${cols}|${p.deals_left}|${(p.removed_suits || []).length}`;
}

/**
 * @typedef {{action: Action, drawn: boolean}} Pending  an action awaiting its answer;
 *   `drawn`: drawn already on the table (predicted)
 */

/** @typedef {{from: number, to: number, count: number}} Slide  cards to slide */

/**
 * What the session tells its page. `predicted`: an action is drawn ahead of its answer
 * (`view` changed). `confirmed`: the server answered an action (said before it is shown).
 * `shown`: a state the server sent is the table now (`outcome`: what the action did).
 * `hinted`: a hint came (`null`: the hint was cleared). `failed`: an action or a hint was
 * refused or failed (`action`: the action sent).
 * @typedef {object} SessionEvents
 * @property {(moved: Slide | null, action: Action) => void} predicted
 * @property {(item: Pending, before: Game, next: Game) => void} confirmed
 * @property {(outcome: Game['outcome'] | null, moved: Slide | null) => void} shown
 * @property {(said: HintSaid | null) => void} hinted
 * @property {(error: unknown, action: Action | null) => void} failed
 */

/**
 * The server's side of a game, as the session calls it (api.js in the page).
 * @typedef {object} GameIO
 * @property {(id: string, body: Action & {version: number}) => Promise<Game>} act
 * @property {(id: string, n: number, version: number) => Promise<Hint>} hint
 * @property {() => Promise<void>} [painted]  settles once what was drawn is on screen
 */

/**
 * A hint as the page says and marks it.
 * @typedef {object} HintSaid
 * @property {number} n  which of the ranked moves (0: the best)
 * @property {string} title  "Hint 1 of 3: "
 * @property {string} text  the move and why, or the server's reason alone
 * @property {{deal: true} | {from: number, to?: number, count?: number} | null} highlight
 * @property {Record<string, string>} dataset  the move, for tests and styles
 * @property {boolean} nextDisabled  no next hint to ask for
 */

/**
 * One game as the player plays it, without the page: the server's state, the table drawn
 * ahead of the answers, the queue of actions sent in order with the version each answer gave,
 * the undo bookkeeping, the hint shown and what the notices say. The page (game.js) draws
 * what it hears through `on` and calls the commands (`send`, `askHint`, `reset`).
 */
export class GameSession {
  /**
   * @param {Game} state
   * @param {GameIO} io
   * @param {SessionEvents} on
   * @param {{race?: boolean}} options  a racer's own table: no undo, no hint
   */
  constructor(state, io, on, { race = false } = {}) {
    this.io = io;
    this.on = on;
    this.race = race;
    /** The server's latest state. */
    this.state = state;
    /** The table drawn: the server's state with the actions awaiting answers drawn on it. */
    this.view = state;
    /**
     * The moves and deals this session saw and may undo, last last, each with the table
     * before it (an undo is drawn from it at once). @type {Done[]}
     */
    this.past = [];
    /** The same, as drawn (`view`). @type {Done[]} */
    this.viewPast = [];
    /** The server may undo actions made before this session knew the game. */
    this.deepUndo = state.can_undo;
    /** Actions sent or waiting to be, in order (the first is in flight). @type {Pending[]} */
    this.pending = [];
    this.pumping = false;
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
    /** The stuck notice is up (announced once when it comes up). */
    this.stuckShown = false;
  }

  /**
   * A state the server sent becomes the table; `view`: the table drawn, which is the server's
   * state with the actions still waiting for their answers drawn on it.
   * @param {Game} state
   * @param {Game['outcome'] | null} outcome
   * @param {Slide | null} moved
   * @param {Game} view
   * @param {Done[]} viewPast
   */
  show(state, outcome = null, moved = null, view = state, viewPast = this.past) {
    this.state = state;
    this.view = view;
    this.viewPast = viewPast;
    this.seen.add(positionKey(state));
    this.on.shown(outcome, moved);
  }

  /**
   * A state from elsewhere (a reload, another device, a resignation): what this session had
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
   * One action, drawn at once when the table tells what it does (a move, a one-tap, a deal
   * as ten face-down cards, an undo of a move or deal this session saw), then sent in its
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
      this.on.predicted(step.moved, action);
    }
    this.pump();
  }

  /**
   * One tap: the hinted card goes where the hint says; any other goes where the server's rule
   * puts it (docs/rules.md#one-tap-destination, worked out before sending, so it is drawn at
   * once). The action to send, and the columns the card could go to when there are several
   * (they glow); null when the game is over.
   * @param {number} from
   * @param {number | undefined} count
   * @returns {{action: Action, glow: number[]} | null}
   */
  oneTap(from, count) {
    const view = this.view;
    if (view.status !== 'in_progress') return null;
    const hinted = this.hintShown?.action;
    if (hinted && hinted.type === 'move' && hinted.from === from && hinted.to != null
      && hinted.count != null && (count === undefined || count === hinted.count)) {
      return { action: { type: 'move', from, to: hinted.to, count: hinted.count }, glow: [] };
    }
    const places = count === undefined ? [] : targets(view, from, count);
    return { action: { type: 'move', from, count }, glow: places.length > 1 ? places : [] };
  }

  /** Send the queued actions one after the other, each with the version it expects. */
  async pump() {
    if (this.pumping) return;
    this.pumping = true;
    const release = this.claim();
    try {
      // A move drawn ahead of its answer is on screen before its request is made: making
      // one costs a slow phone a few ms, which the drawing would otherwise wait for.
      if (this.pending[0]?.drawn && this.io.painted) await this.io.painted();
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
          next = await this.io.act(this.state.id, body);
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
   * The server's answer to the head of the queue: shown, with the actions still waiting
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
    this.on.confirmed(item, before, next);
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
    const conflict = /** @type {{status?: number}} */ (err).status === 409;
    const back = item.drawn && alone && sent.type === 'move' && sent.to !== undefined
      && sent.count !== undefined ? { from: sent.to, to: sent.from, count: sent.count } : null;
    if (!conflict) this.show(this.state, null, back);
    this.on.failed(err, sent);
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
      const hint = await this.io.hint(this.state.id, n, this.state.version);
      this.hintN = hint.n;
      this.hintShown = hint;
      const counted = { version: hint.version, hints: hint.hints, perfect: false };
      this.state = { ...this.state, ...counted };
      this.view = { ...this.view, ...counted };
      // The server never suggests a way back (docs/rules.md#hints); should one come, the
      // client does not walk in a circle either: it says so instead of suggesting it.
      const loop = Boolean(hint.action && this.leadsBack(hint.action));
      const a = loop ? null : hint.action;
      // Nothing useful, and not even a deal (the server's reason would end "deal"): stuck.
      if (!a && hint.n === 0 && !/deal$/.test(hint.reason)) {
        this.noUseful = loop ? 'Every useful move leads back to a position already seen.'
          : 'No useful move.';
      }
      this.on.hinted(hintSaid(hint, loop));
    } catch (err) {
      this.on.failed(err, null);
    } finally {
      release();
    }
  }

  /** After an action: the hint shown, and a "no useful move", are old news. */
  clearHint() {
    this.noUseful = '';
    this.hintN = 0;
    this.hintShown = null;
    this.on.hinted(null);
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

  /**
   * What the notice under the table says now (noticeOf), and whether the live region is to
   * hear it: a stuck notice is announced once, when it comes up.
   */
  notice() {
    const notice = noticeOf(this.state, this.noUseful, this.race);
    if (!notice.stuck) this.stuckShown = false;
    const announce = notice.kind === 'stuck' && !this.stuckShown;
    if (notice.kind === 'stuck') this.stuckShown = true;
    return { ...notice, announce };
  }
}

/**
 * A hint as the page says it: with a move, the move, then why; without, the server's reason
 * alone ("No useful move: ..."), said once; beside the move, its chance to win where the
 * server says one. `loop`: the move would lead back to a position shown already (not shown).
 * @param {Hint} hint
 * @param {boolean} loop
 * @returns {HintSaid}
 */
export function hintSaid(hint, loop) {
  const a = loop ? null : hint.action;
  /** @type {HintSaid['highlight']} */
  let highlight = null;
  if (a && a.type === 'deal') highlight = { deal: true };
  else if (a) {
    highlight = { from: Number(a.from), to: a.to ?? undefined, count: a.count ?? undefined };
  }
  const of = hint.alternatives ? ` of ${hint.alternatives}` : '';
  const text = a ? `${sentence(describe(a))} ${loop ? '' : sentence(hint.reason)}`
    : sentence(loop ? 'No useful move: every useful move leads back.' : hint.reason);
  const chance = a && hint.chance ? ` (${sentence(hint.chance.sentence)})` : '';
  return {
    n: hint.n,
    title: `Hint ${hint.n + 1}${of}: `,
    text: text + chance,
    highlight,
    dataset: {
      type: a ? a.type : 'none',
      from: String(a?.from ?? ''),
      to: String(a?.to ?? ''),
      count: String(a?.count ?? ''),
      n: String(hint.n),
    },
    nextDisabled: !a || hint.n + 1 >= hint.alternatives,
  };
}

/**
 * The notice under the table. `none`: nothing; `lost`: the game is over (its end reason and
 * score); `stuck`: stuck (the state's `stuck`, or a hint with no useful move), with the ways
 * out; `race-stuck`: a racer's table is stuck (the race screen says how the race ended).
 * `stuck`: the table is marked stuck.
 * @typedef {object} Notice
 * @property {'none' | 'lost' | 'stuck' | 'race-stuck'} kind
 * @property {boolean} stuck
 * @property {string} text
 * @property {string} ways  the ways out of being stuck
 * @property {boolean} canUndo  an Undo is offered
 */

/**
 * @param {Game} s  the server's state
 * @param {string} noUseful  what a hint said when no move was useful ('' when none did)
 * @param {boolean} race
 * @returns {Notice}
 */
export function noticeOf(s, noUseful, race) {
  const stuck = s.status === 'in_progress' && (s.stuck || Boolean(noUseful));
  const none = { kind: /** @type {const} */ ('none'), stuck, text: '', ways: '', canUndo: false };
  if (race) {
    // Here only what the server says of the deal.
    const text = 'No move can help any more: this deal is stuck. Play on, offer a draw or resign.';
    return s.stuck && s.status === 'in_progress' ? { ...none, kind: 'race-stuck', text } : none;
  }
  if (s.status === 'lost') {
    const text = `This game is over (${s.end_reason}). Score ${s.score}.`;
    return { ...none, kind: 'lost', text };
  }
  if (!stuck) return none;
  const text = s.stuck ? 'No move can help any more: this deal is stuck.'
    : `${noUseful} You are stuck here.`;
  const ways = s.can_undo ? 'Undo to try another way, replay this deal or start a new one.'
    : 'Replay this deal or start a new one.';
  return { kind: 'stuck', stuck, text, ways, canUndo: s.can_undo };
}

/**
 * Which of the game's buttons are disabled for the table drawn.
 * @param {Game} view
 * @param {boolean} hinted  a hint is shown
 */
export function buttonsOf(view, hinted) {
  const over = view.status !== 'in_progress';
  return {
    undo: over || !view.can_undo,
    hint: over,
    next: over || !hinted,
    deal: over || view.deals_left === 0,
  };
}

/**
 * The counters above the table, label and value: the clock is the server's `elapsed_ms`
 * plus the time since it was received while the game is on.
 * @param {Game} s  the state drawn (a move drawn ahead of the answer counts already)
 * @param {number} since  ms since the state was received
 * @param {boolean} race  a race has no hints to count
 * @returns {[string, string | number][]}
 */
export function statsOf(s, since, race) {
  let elapsed = s.elapsed_ms;
  if (s.status === 'in_progress' && s.started_at) elapsed += since;
  let kind = '';
  if (s.kind === 'daily') kind = ` · daily ${s.ranked ? 'ranked' : 'practice'}`;
  else if (s.kind === 'race') kind = ' · race';
  /** @type {[string, string | number][]} */
  const items = [['Game', `${SUIT_LABEL[s.suits]}${kind}`], ['Score', s.score],
    ['Moves', s.actions], ['Time', formatTime(elapsed)]];
  if (!race) items.push(['Hints', s.hints]); // always there: the bar keeps its width
  // The table rule, said on the table: a deal over a gap is allowed near the end.
  if (s.deal_over_gap) items.push(['Rules', 'GameLake end game']);
  return items;
}

/**
 * The empty columns, which block a deal.
 * @param {Game} s
 */
export function emptyColumns(s) {
  return s.columns.flatMap((c, i) => (c.hidden || c.cards.length ? [] : [i]));
}

/**
 * Whether a new game ends this one, as a loss (so the player is asked first): a casual game
 * in play with an action made.
 * @param {Game | null} s
 */
export function newGameEnds(s) {
  return Boolean(s && s.status === 'in_progress' && s.kind === 'casual' && s.actions > 0);
}

/**
 * What the win paid, what the daily limit cut and what is left today (docs/rules.md#coins).
 * @param {Coins} c
 */
export function coinsNote(c) {
  const parts = [`${c.base} for the win` + (c.bonus ? ` + ${c.bonus} perfect bonus` : '')];
  if (c.cut) parts.push(`${c.cut} over today's limit of ${c.daily_limit}`);
  parts.push(`${c.left_today} left today; balance ${c.balance}`);
  return `Coins: ${parts.join('; ')}.`;
}
