// @ts-check
// The replay of a finished game, with its analysis: the page. What it steps through and what
// each step says is the state's (replaystate.js); this draws it and wires the controls.

import * as api from './api.js';
import { SUIT_LABEL } from './cards.js';
import { h, clear, toast, formatTime } from './dom.js';
import { ReplayState, reviewSummary } from './replaystate.js';
import { chanceGraph } from './reviewgraph.js';
import { Table } from './table.js';

/**
 * @import { Analysis, Step } from './api.js'
 * @import { Frame } from './replaystate.js'
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
  // slider marks where they were asked for.
  const state = new ReplayState(log.actions || [], first.steps);
  const steps = state.steps;
  const table = new Table({ readOnly: true });
  const caption = h('p', { class: 'replay-step', 'aria-live': 'polite' });
  const reviewLine = h('p', { class: 'review-move' });
  const stats = h('p', { class: 'small' });
  /** @type {Map<number, Promise<Step>>} */
  const cache = new Map([[0, Promise.resolve(first)]]);
  /** @type {ReturnType<typeof setInterval> | null} */
  let timer = null;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let poll = null;
  let left = false; // the screen was left: no more polling
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
  /** @param {Frame} frame */
  const draw = (frame) => {
    table.render(frame.table);
    table.setHighlight(frame.highlight);
    caption.textContent = frame.caption;
    reviewLine.textContent = frame.review || '';
    stats.textContent = frame.stats;
    if (frame.end) stop();
  };
  /** @param {number} asked */
  const show = async (asked) => {
    const n = state.goTo(asked);
    slider.value = String(n);
    if (state.way) {
      draw(state.wayFrame(n));
      return;
    }
    const pos = await fetchStep(n);
    if (!state.wanted(n)) return; // a later step was asked for meanwhile
    draw(state.gameFrame(n, pos));
    if (n < steps) fetchStep(state.next(n)).catch(() => {}); // ready before it is asked for
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
    timer = setInterval(() => show(state.next()).catch(stop), 600);
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
  const hintSteps = state.hintSteps;
  const marks = h('div', { class: 'hint-marks', 'aria-hidden': 'true' },
    hintSteps.map((n) => {
      const mark = h('span', { class: 'hint-mark', title: `Hint asked at step ${n}` });
      mark.style.left = `${(100 * n) / Math.max(steps, 1)}%`;
      return mark;
    }));
  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    if (/** @type {Element} */ (e.target).closest('input:not([type=range]), textarea')) return;
    const moves = { ArrowRight: () => state.next(), ArrowLeft: () => state.previous(),
      Home: () => 0, End: () => state.last };
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
  const review = h('div', { class: 'move-review' });
  /** The controls as the state has them: what is stepped through, what the analysis found. */
  const controls = () => {
    marks.hidden = Boolean(state.way);
    slider.max = String(state.last);
    turnBtn.hidden = !state.turn;
    wayBtn.hidden = Boolean(state.way) || !state.line;
    gameBtn.hidden = !state.way;
    analyseBtn.hidden = state.answered;
  };
  /** @param {number | null} n  the step to show after a change of what is stepped through */
  const switched = (n) => {
    stop();
    controls();
    if (n !== null) show(n).catch(() => {});
  };
  /** @param {Analysis} a */
  const shown = (a) => {
    const news = state.analysis(a);
    status.textContent = news.status;
    status.classList.toggle('error', news.error);
    if (news.poll) poll = setTimeout(() => { poll = null; if (!left) read(); }, 1000);
    if (news.summary !== null) clear(summary, h('p', {}, news.summary));
    if (state.review) {
      const { points, marks: graded } = state.chanceGraph();
      const go = (/** @type {number} */ n) => switched(state.toStep(n));
      clear(review, h('p', {}, reviewSummary(state.review)),
        chanceGraph(points, graded, steps, go));
    }
    if (news.show !== null) switched(news.show);
    else controls();
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
  wayBtn.addEventListener('click', () => switched(state.playWay()));
  gameBtn.addEventListener('click', () => switched(state.backToGame()));
  turnBtn.addEventListener('click', () => switched(state.toTurn()));

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
      h('span', { class: 'keys-help' }, ' Keys: ←/→ step, Home/End, Space play.')),
    h('section', { class: 'analysis', 'aria-label': 'Analysis' },
      h('div', { class: 'buttons' }, analyseBtn, turnBtn, wayBtn, gameBtn), status, summary,
      review),
    h('div', { class: 'controls' },
      btn('«', () => 0, 'First step'), btn('◀', () => state.previous(), 'Previous step'),
      playBtn, btn('▶', () => state.next(), 'Next step'), btn('»', () => state.last, 'Last step'),
      h('div', { class: 'slider' }, slider, marks)),
    caption, reviewLine, stats, table.el));
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
