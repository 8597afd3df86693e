// @ts-check
// The replay of a finished game, with its analysis.

import * as api from './api.js';
import { SUIT_LABEL } from './cards.js';
import { h, clear, toast, formatTime } from './dom.js';
import { describe } from './game.js';
import { Table } from './table.js';

/**
 * @import { Analysis, AnalysisResult, LoggedAction, SolverLine, Step, TurningPoint }
 *   from './api.js'
 * @import { Highlight } from './table.js'
 * @import { Ctx } from './app.js'
 */

/**
 * The replay of a finished game, step by step; with its analysis, the turning point and the
 * solver's way through from there, stepped with the same controls. The tables along that
 * line come from the server: the client keeps no rules of its own.
 * @param {HTMLElement} root
 * @param {Ctx} _ctx
 * @param {string} gameId
 */
export async function replayScreen(root, _ctx, gameId) {
  const [game, first, log] = await Promise.all([
    api.getGame(gameId), api.position(gameId, 0),
    api.gameLog(gameId).catch(() => ({ actions: [] }))]);
  // Hint steps change nothing on the table: stepping and autoplay pass over them, and the
  // slider marks where they were asked for. (Step n is the position after log entry n.)
  /** @type {{type: string}[]} */
  const entries = log.actions || [];
  /** @param {number} n */
  const isHint = (n) => entries[n - 1]?.type === 'hint';
  const table = new Table({ readOnly: true });
  const caption = h('p', { class: 'replay-step', 'aria-live': 'polite' });
  const stats = h('p', { class: 'small' });
  /** @type {Map<number, Promise<Step>>} */
  const cache = new Map([[0, Promise.resolve(first)]]);
  const steps = first.steps;
  let target = 0; // the step asked for last; clicks step from it, not from the one drawn
  /** @type {SolverLine | null} the way through, while it is the one stepped through */
  let way = null;
  /** @type {TurningPoint | null} */
  let turn = null;
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let poll = null;
  let left = false; // the screen was left: no more polling
  const last = () => (way ? way.length : steps);
  const slider = h('input', {
    type: 'range', min: '0', max: String(steps), value: '0', 'aria-label': 'Step',
  });
  /** @param {number} n */
  const fetchStep = (n) => {
    let pending = cache.get(n);
    if (!pending) {
      pending = api.position(gameId, n);
      pending.catch(() => cache.delete(n));
      cache.set(n, pending);
    }
    return pending;
  };
  /** @param {number} n  a step of the way through */
  const showWay = (n) => {
    const line = /** @type {SolverLine} */ (way);
    const pos = line.positions[n];
    table.render(pos);
    const a = n ? line.actions[n - 1] : null;
    const ahead = line.actions[n];
    // Where the last action put its cards; at the start, the first one to play.
    table.setHighlight(a ? mark(a, false) : ahead ? mark(ahead, true) : null);
    caption.textContent = n
      ? `Way through, step ${n} of ${line.length}: ${describe(/** @type {LoggedAction} */ (a))}`
        + (pos.won ? ' · won' : '')
      : `The way through from step ${line.from_seq}: ${line.length} actions to a win`;
    stats.textContent = pos.won ? 'Won: every run is off the table.'
      : `Runs off the table ${pos.runs_removed} · deals left ${pos.deals_left}`;
    if (n === line.length) stop();
  };
  /** @param {number} n */
  const show = async (n) => {
    n = Math.max(0, Math.min(last(), n));
    target = n;
    slider.value = String(n);
    if (way) {
      showWay(n);
      return;
    }
    const pos = await fetchStep(n);
    if (n !== target || way) return; // a later step was asked for meanwhile
    table.render(pos);
    const a = pos.action;
    if (turn && n === turn.step) {
      const lost = turn.action;
      table.setHighlight(mark(lost, true));
      caption.textContent = `Turning point, step ${n} of ${steps}: the last position a win `
        + `was found from. The move that lost it: ${describe(lost)}.`;
    } else {
      table.setHighlight(n && a && a.type === 'move' ? { to: a.to } : null); // where cards went
      caption.textContent = n && pos.action
        ? `Step ${n} of ${steps}: ${describe(pos.action)}`
        : `The deal (${steps} steps follow)`;
    }
    stats.textContent = `Score ${pos.score} · moves ${pos.actions}${pos.won ? ' · won' : ''}`;
    if (n === steps) stop();
    else fetchStep(next(n)).catch(() => {}); // the next one is ready before it is asked for
  };
  /** @param {number} n  the step after n that is not a hint (or the last) */
  const next = (n) => {
    if (way) return Math.min(n + 1, last());
    let k = n + 1;
    while (k < steps && isHint(k)) k += 1;
    return Math.min(k, steps);
  };
  /** @param {number} n */
  const previous = (n) => {
    if (way) return Math.max(n - 1, 0);
    let k = n - 1;
    while (k > 0 && isHint(k)) k -= 1;
    return Math.max(k, 0);
  };
  const stop = () => {
    if (timer !== null) clearInterval(timer);
    timer = null;
    playBtn.textContent = 'Play';
  };
  const playOrPause = () => {
    if (timer) {
      stop();
      return;
    }
    playBtn.textContent = 'Pause';
    timer = setInterval(() => show(next(target)).catch(stop), 600);
  };
  const playBtn = h('button', { type: 'button', onclick: playOrPause }, 'Play');
  /**
   * @param {string} label
   * @param {() => number} fn  the step to show
   * @param {string} aria
   */
  const btn = (label, fn, aria) => h('button', {
    type: 'button', 'aria-label': aria,
    onclick: () => show(fn()).catch((e) => toast(e.detail, 'error')),
  }, label);
  slider.addEventListener('input', () => show(Number(slider.value))); // while it moves
  const hintSteps = entries.flatMap((e, i) => (e.type === 'hint' ? [i + 1] : []));
  const marks = h('div', { class: 'hint-marks', 'aria-hidden': 'true' },
    hintSteps.map((n) => {
      const mark = h('span', { class: 'hint-mark', title: `Hint asked at step ${n}` });
      mark.style.left = `${(100 * n) / Math.max(steps, 1)}%`;
      return mark;
    }));
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (/** @type {Element} */ (e.target).closest('input:not([type=range]), textarea')) return;
    const moves = { ArrowRight: () => next(target), ArrowLeft: () => previous(target),
      Home: () => 0, End: () => last() };
    const to = moves[/** @type {keyof typeof moves} */ (e.key)];
    if (!to) {
      if (e.key === ' ') {
        e.preventDefault();
        playOrPause();
      }
      return;
    }
    e.preventDefault();
    show(to()).catch(() => {});
  };
  document.addEventListener('keydown', onKey);

  // The analysis: asked for once, then read until it is done or failed.
  const status = h('p', { class: 'analysis-status', 'aria-live': 'polite' });
  const wayBtn = h('button', { type: 'button', hidden: true }, 'Play the way through');
  const gameBtn = h('button', { type: 'button', hidden: true }, 'Back to the game');
  const turnBtn = h('button', { type: 'button', hidden: true }, 'The turning point');
  const analyseBtn = h('button', { type: 'button', class: 'primary' }, 'Analyse');
  const summary = h('div', { class: 'analysis-summary' });
  /** @param {SolverLine | null} line  the way through to step, or null: the game's own */
  const stepThrough = (line) => {
    stop();
    way = line;
    marks.hidden = Boolean(line);
    slider.max = String(last());
    wayBtn.hidden = Boolean(line) || !lineOf;
    gameBtn.hidden = !line;
  };
  /** @type {SolverLine | null} */
  let lineOf = null;
  /** @param {Analysis} a */
  const shown = (a) => {
    if (a.status === 'pending') {
      status.textContent = 'Analysing: the solver is searching this game… (pending)';
      poll = setTimeout(() => { poll = null; if (!left) read(); }, 1000);
      return;
    }
    analyseBtn.hidden = true;
    if (a.status === 'failed' || !a.result) {
      status.textContent = `The analysis failed: ${a.reason || 'no reason given'}.`;
      status.classList.add('error');
      return;
    }
    const r = a.result;
    status.textContent = `Analysed: ${a.nodes} positions searched`
      + `${a.seconds === null ? '' : ` in ${a.seconds.toFixed(1)} s`}.`;
    turn = r.turning_point;
    lineOf = r.solver_line;
    clear(summary, h('p', {}, analysisSummary(r)));
    turnBtn.hidden = !turn;
    wayBtn.hidden = !lineOf;
    if (turn) {
      stepThrough(null);
      show(turn.step).catch(() => {});
    } else if (lineOf) {
      stepThrough(null);
      show(lineOf.from_seq).catch(() => {});
    }
  };
  /** @param {unknown} err */
  const refused = (err) => {
    const e = /** @type {Partial<api.ApiError>} */ (err);
    status.textContent = e.status === 401 ? 'Log in to ask for the analysis.'
      : e.detail || 'The analysis could not be read.';
    status.classList.add('error');
    analyseBtn.disabled = false;
  };
  const read = () => api.analysis(gameId).then(shown, refused);
  const ask = () => {
    analyseBtn.disabled = true;
    status.classList.remove('error');
    status.textContent = 'Asking for the analysis…';
    api.askAnalysis(gameId).then(shown, refused);
  };
  analyseBtn.addEventListener('click', ask);
  wayBtn.addEventListener('click', () => {
    stepThrough(lineOf);
    show(0).catch(() => {});
  });
  gameBtn.addEventListener('click', () => {
    const from = way ? way.from_seq : 0;
    stepThrough(null);
    show(turn ? turn.step : from).catch(() => {});
  });
  turnBtn.addEventListener('click', () => {
    stepThrough(null);
    if (turn) show(turn.step).catch(() => {});
  });

  const when = game.finished_at || game.created_at;
  const daily = game.daily ? ` · daily ${game.daily}` : '';
  const rule = game.deal_over_gap ? ' · GameLake end game' : '';
  const seed = game.deal && game.deal.seed
    ? `Seed ${game.deal.seed} (deal version ${game.deal.deal_version}). `
    : '';
  clear(root, h('section', { class: 'replay' },
    h('h1', {}, `Replay · ${SUIT_LABEL[game.suits]}${daily}${rule} · ${game.status}, `
      + `score ${game.score}`),
    h('p', { class: 'small' }, seed, `Time ${formatTime(game.elapsed_ms)}.`,
      when ? ` Played ${new Date(when).toLocaleDateString()}.` : '',
      hintSteps.length ? ` ${hintSteps.length} hints asked (marked; stepping skips them).` : '',
      ' Keys: ←/→ step, Home/End, Space play.'),
    h('section', { class: 'analysis', 'aria-label': 'Analysis' },
      h('div', { class: 'buttons' }, analyseBtn, turnBtn, wayBtn, gameBtn), status, summary),
    h('div', { class: 'controls' },
      btn('«', () => 0, 'First step'), btn('◀', () => previous(target), 'Previous step'), playBtn,
      btn('▶', () => next(target), 'Next step'), btn('»', () => last(), 'Last step'),
      h('div', { class: 'slider' }, slider, marks)),
    caption, stats, table.el));
  await show(0);
  if (new URLSearchParams(location.search).has('analyse')) ask(); // from the end-of-game screen
  return () => {
    left = true;
    stop();
    if (poll !== null) clearTimeout(poll);
    document.removeEventListener('keydown', onKey);
    table.destroy();
  };
}

/**
 * The highlight of an action: where a move's cards went (and, `whole`, where from), or the
 * stock for a deal.
 * @param {LoggedAction} a
 * @param {boolean} whole
 * @returns {Highlight}
 */
function mark(a, whole) {
  if (a.type !== 'move') return { deal: true };
  const to = a.to ?? undefined;
  return whole ? { from: a.from, to, count: a.count ?? undefined } : { to };
}

/**
 * What the analysis found, in a sentence or two (docs/rules.md#after-the-game-the-analysis).
 * @param {AnalysisResult} r
 */
function analysisSummary(r) {
  if (r.outcome === 'won') {
    const par = r.par === null ? '' : `; the deal's par is ${r.par}`
      + (r.over_par ? ` (${r.over_par > 0 ? '+' : ''}${r.over_par})` : ' (on par)');
    return `Won in ${r.length} actions${par}.`;
  }
  const way = `The way through from there: ${r.solver_line ? r.solver_line.length : 0} actions.`;
  const t = r.turning_point;
  if (t) { // the last win and the first proved loss meet: this move lost it, for certain
    return `Winnable for ${r.winnable_actions} of ${r.line_length} actions. At step ${t.step} `
      + `the move that lost it: ${describe(t.action)}; after it, every reachable position `
      + `was searched and none wins. ${way}`;
  }
  if (r.winnable_at_end) {
    return 'A win was still there when the game ended: the way through from the end is '
      + `${r.solver_line ? r.solver_line.length : 0} actions.`;
  }
  const win = r.last_win;
  if (win) { // a stretch the budget did not settle: say so, never guess a turning point
    const loss = r.proved_loss;
    const lost = loss
      ? `From step ${loss.step} on it was lost: every reachable position was searched and `
        + 'none wins.'
      : 'No loss was proved after it.';
    const open = r.unsettled === 1 ? 'The position' : `The ${r.unsettled} positions`;
    return `A win was found from step ${win.step} (${r.winnable_actions} of ${r.line_length} `
      + `actions). ${lost} ${open} between stayed unsettled within the solver's budget: `
      + `a win may still have been there. ${way}`;
  }
  const start = r.start;
  return start && start.exhaustive
    ? 'No win from the deal itself: every reachable position was searched.'
    : `The solver found no win from the deal itself within ${start ? start.nodes : 0} `
      + 'positions (its budget; there may still be one).';
}
