// @ts-check
// The replay's state and commands, apart from the page that draws it (replay.js): the step
// asked for, the game's own steps or the solver's way through, the analysis's turning point,
// and what each step shows and says. No DOM and no network: the page hands it what the
// server answered, and tests/js drive it as the buttons and keys do.

import { describe } from './words.js';

/**
 * @import { Analysis, AnalysisResult, LoggedAction, MoveReview, Position, ReviewedMove,
 *   SolverLine, Step, TurningPoint } from './api.js'
 * @import { Highlight } from './table.js'
 */

/**
 * What the page draws for one step.
 * @typedef {object} Frame
 * @property {Position} table  the position to draw
 * @property {Highlight | null} highlight
 * @property {string} caption  the step in words
 * @property {string} stats
 * @property {boolean} end  the last step: autoplay stops here
 * @property {string | null} review  the move review's sentence for the move played from
 *   here (an estimate from the cards the player could see), or null
 *
 * What an answer about the analysis makes of the page.
 * @typedef {object} AnalysisNews
 * @property {string} status  the line that says where the analysis is
 * @property {boolean} error
 * @property {boolean} poll  pending: read it again in a second
 * @property {string | null} summary  done: what it found
 * @property {number | null} show  done: the step to show (the turning point, or where the
 *   way through starts), or null to stay
 */

export class ReplayState {
  /**
   * @param {{type: string}[]} entries  the game's log (step n is the position after entry n)
   * @param {number} steps
   */
  constructor(entries, steps) {
    this.entries = entries;
    this.steps = steps;
    /** The step asked for last: clicks and keys step from it, not from the one drawn. */
    this.target = 0;
    /** @type {SolverLine | null} the way through, while it is the one stepped through */
    this.way = null;
    /** @type {TurningPoint | null} */
    this.turn = null;
    /** @type {SolverLine | null} the analysis's way through, once it is read */
    this.line = null;
    /** The analysis has answered for good (done or failed): no more asking. */
    this.answered = false;
    /** @type {MoveReview | null} the move review, once the analysis is read */
    this.review = null;
    /** @type {Map<number, ReviewedMove>} the reviewed moves by the step played from */
    this.reviewed = new Map();
  }

  /** The last step of what is stepped through. */
  get last() { return this.way ? this.way.length : this.steps; }

  /** The steps at which a hint was asked: they change nothing on the table. */
  get hintSteps() { return this.entries.flatMap((e, i) => (e.type === 'hint' ? [i + 1] : [])); }

  /** @param {number} n */
  isHint(n) { return this.entries[n - 1]?.type === 'hint'; }

  /** The step after n that is not a hint (or the last). */
  next(n = this.target) {
    if (this.way) return Math.min(n + 1, this.last);
    let k = n + 1;
    while (k < this.steps && this.isHint(k)) k += 1;
    return Math.min(k, this.steps);
  }

  /** The step before n that is not a hint (or the first). */
  previous(n = this.target) {
    if (this.way) return Math.max(n - 1, 0);
    let k = n - 1;
    while (k > 0 && this.isHint(k)) k -= 1;
    return Math.max(k, 0);
  }

  /**
   * Ask for step n (kept within the steps); the step asked for.
   * @param {number} n
   */
  goTo(n) {
    this.target = Math.max(0, Math.min(this.last, n));
    return this.target;
  }

  /**
   * Whether a game's step fetched for n is still the one to draw (nothing asked since).
   * @param {number} n
   */
  wanted(n) { return n === this.target && !this.way; }

  /**
   * Step through the way (its step 0 first), or, null, the game's own steps.
   * @param {SolverLine | null} line
   */
  stepThrough(line) { this.way = line; }

  /** "Play the way through": the step to show. */
  playWay() {
    this.stepThrough(this.line);
    return 0;
  }

  /** "Back to the game": the step to show (the turning point, else where the way began). */
  backToGame() {
    const from = this.way ? this.way.from_seq : 0;
    this.stepThrough(null);
    return this.turn ? this.turn.step : from;
  }

  /**
   * A step of the game's own (a graded move's, from the graph): the step to show.
   * @param {number} n
   */
  toStep(n) {
    this.stepThrough(null);
    return n;
  }

  /** "The turning point": the step to show, or null. */
  toTurn() {
    this.stepThrough(null);
    return this.turn ? this.turn.step : null;
  }

  /**
   * An answer about the analysis.
   * @param {Analysis} a
   * @returns {AnalysisNews}
   */
  analysis(a) {
    const news = { error: false, poll: false, summary: null, show: null };
    if (a.status === 'pending') {
      return { ...news, status: 'Analysing: the solver is searching this game… (pending)',
        poll: true };
    }
    this.answered = true;
    if (a.status === 'failed' || !a.result) {
      return { ...news, status: `The analysis failed: ${a.reason || 'no reason given'}.`,
        error: true };
    }
    const r = a.result;
    this.review = r.review || null;
    this.reviewed = new Map((this.review ? this.review.moves : []).map((m) => [m.step, m]));
    this.turn = r.turning_point;
    this.line = r.solver_line;
    const status = `Analysed: ${a.nodes} positions searched`
      + `${a.seconds === null ? '' : ` in ${a.seconds.toFixed(1)} s`}.`;
    /** @type {number | null} */
    let show = null;
    if (this.turn) show = this.turn.step;
    else if (this.line) show = this.line.from_seq;
    if (show !== null) this.stepThrough(null);
    return { ...news, status, summary: analysisSummary(r), show };
  }

  /**
   * The graph of the chance over the game: points (step, share; share null where no world
   * was decided) and the graded moves to mark, for the page to draw.
   * @returns {{points: {step: number, share: number | null}[],
   *   marks: {step: number, grade: string}[]}}
   */
  chanceGraph() {
    const review = this.review;
    if (!review) return { points: [], marks: [] };
    return {
      points: review.chances.map((c) => ({ step: c.step, share: c.chance.share })),
      marks: review.moves.flatMap((m) => (m.grade ? [{ step: m.step, grade: m.grade }] : [])),
    };
  }

  /**
   * Step n of the way through.
   * @param {number} n
   * @returns {Frame}
   */
  wayFrame(n) {
    const line = /** @type {SolverLine} */ (this.way);
    const pos = line.positions[n];
    const a = n ? line.actions[n - 1] : null;
    const ahead = line.actions[n];
    return {
      table: pos,
      // Where the last action put its cards; at the start, the first one to play.
      highlight: a ? mark(a, false) : ahead ? mark(ahead, true) : null,
      review: null,
      caption: a
        ? `Way through, step ${n} of ${line.length}: ${describe(a)}${pos.won ? ' · won' : ''}`
        : `The way through from step ${line.from_seq}: ${line.length} actions to a win`,
      stats: pos.won
        ? 'Won: every run is off the table.'
        : `Runs off the table ${pos.runs_removed} · deals left ${pos.deals_left}`,
      end: n === line.length,
    };
  }

  /**
   * Step n of the game, as the server answered it.
   * @param {number} n
   * @param {Step} pos
   * @returns {Frame}
   */
  gameFrame(n, pos) {
    const reviewed = this.reviewed.get(n) || null;
    const frame = {
      table: pos,
      stats: `Score ${pos.score} · moves ${pos.actions}${pos.won ? ' · won' : ''}`,
      end: n === this.steps,
      review: reviewed ? reviewSentence(reviewed) : null,
    };
    const turn = this.turn;
    if (turn && n === turn.step) {
      return { ...frame, highlight: mark(turn.action, true),
        caption: `Turning point, step ${n} of ${this.steps}: the last position a win `
          + `was found from. The move that lost it: ${describe(turn.action)}.` };
    }
    if (reviewed && reviewed.grade && reviewed.better) { // the better move, on the table
      return { ...frame, highlight: mark(reviewed.better.action, true),
        caption: `Step ${n} of ${this.steps}: the move played next was ${
          GRADE_WORDS[reviewed.grade]}; the better move is marked.` };
    }
    const a = pos.action;
    return {
      ...frame,
      highlight: n && a && a.type === 'move' ? { to: a.to } : null, // where the cards went
      caption: n && a ? `Step ${n} of ${this.steps}: ${describe(a)}`
      : `The deal (${this.steps} steps follow)`,
    };
  }
}

/**
 * The highlight of an action: where a move's cards went (and, `whole`, where from), or the
 * stock for a deal.
 * @param {LoggedAction} a
 * @param {boolean} whole
 * @returns {Highlight}
 */
export function mark(a, whole) {
  if (a.type !== 'move') return { deal: true };
  const to = a.to ?? undefined;
  return whole ? { from: a.from, to, count: a.count ?? undefined } : { to };
}

/**
 * What the analysis found, in a sentence or two (docs/rules.md#after-the-game-the-analysis).
 * @param {AnalysisResult} r
 */
export function analysisSummary(r) {
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

/** The grades in a player's words. */
export const GRADE_WORDS = /** @type {Record<string, string>} */ ({
  inaccuracy: 'an inaccuracy', mistake: 'a mistake', blunder: 'a blunder',
});

/**
 * A reviewed move in a player's words: its grade (if any), then the server's sentence
 * ("This move left a win in about 3 of 10 ways the hidden cards could lie; ..."). Always
 * called an estimate: the move review judges by the cards the player could see.
 * @param {ReviewedMove} m
 */
export function reviewSentence(m) {
  const grade = m.grade ? `${GRADE_WORDS[m.grade][0].toUpperCase()}${
    GRADE_WORDS[m.grade].slice(1)} (estimate). ` : 'Estimate: ';
  return `${grade}${m.sentence}`;
}

/**
 * The move review in a sentence (docs/rules.md#the-move-review).
 * @param {MoveReview} review
 */
export function reviewSummary(review) {
  const graded = review.moves.filter((m) => m.grade);
  const count = (/** @type {string} */ g) => graded.filter((m) => m.grade === g).length;
  const parts = ['blunder', 'mistake', 'inaccuracy'].flatMap((g) => {
    const k = count(g);
    return k ? [`${k} ${g}${k === 1 ? '' : 's'}`] : [];
  });
  const found = parts.length ? parts.join(', ') : 'no move graded';
  const part = review.complete ? '' : ` (${review.reviewed} of ${review.actions} moves reviewed`
    + ' within the budget)';
  return `Move review, an estimate from the cards you could see: ${found}${part}.`;
}
