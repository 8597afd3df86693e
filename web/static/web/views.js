// @ts-check
// The screens other than the game table: sign-in, the daily challenge, the leaderboards, a
// replay and a player's page. Each is `async (root, ctx, ...params) => cleanup | null`.

import { analyseLink } from './analyse.js';
import * as api from './api.js';
import { SUIT_LABEL } from './cards.js';
import { h, clear, confirmDialog, toast, formErrors, formatTime, link, ordinal } from './dom.js';
import { Table } from './table.js';
import { describe } from './game.js';
import { gameHistory } from './history.js';

/**
 * @import { Analysis, AnalysisResult, BoardPage, Daily, DailyDay, LoggedAction, PlayerRaces,
 *   SolverLine, Step, TurningPoint } from './api.js'
 * @import { Highlight } from './table.js'
 * @import { Ctx } from './app.js'
 */

/** @type {Record<string, string>} */
const PERIODS = { all: 'All time', day: 'Today', week: 'This week', month: 'This month' };

// --- sign up, log in ------------------------------------------------------------------------
/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 * @param {'login' | 'signup'} mode
 */
export async function authScreen(root, ctx, mode) {
  const signup = mode === 'signup';
  const next = new URLSearchParams(location.search).get('next') || '/play';
  const safeNext = next.startsWith('/') && !next.startsWith('//') ? next : '/play';
  // Each field says its rules up front and its errors under it (aria-describedby), and is
  // marked aria-invalid while the server refuses it.
  const userHelp = h('p', { id: 'username-help', class: 'small field-help' },
    signup ? '3 to 30 letters, digits, _ or -.' : '');
  const passHelp = h('p', { id: 'password-help', class: 'small field-help' },
    signup ? 'At least 8 characters, not only digits, not a common password, '
      + 'not like the username.' : '');
  const userError = h('p', { id: 'username-error', class: 'field-error' });
  const passError = h('p', { id: 'password-error', class: 'field-error' });
  const user = h('input', {
    id: 'username', name: 'username', autocomplete: 'username', required: true,
    minlength: signup ? '3' : null, maxlength: '150',
    'aria-describedby': 'username-help username-error',
  });
  const pass = h('input', {
    id: 'password', name: 'password', type: 'password', required: true,
    autocomplete: signup ? 'new-password' : 'current-password',
    'aria-describedby': 'password-help password-error',
  });
  /** @param {api.ApiError | null} err */
  const showFieldErrors = (err) => {
    const fields = err?.body?.errors || {};
    /** @type {[HTMLInputElement, HTMLElement, string][]} */
    const pairs = [[user, userError, 'username'], [pass, passError, 'password']];
    let first = null;
    for (const [input, box, name] of pairs) {
      const messages = [...new Set(fields[name] || [])]; // each said once
      box.textContent = messages.join(' ');
      if (messages.length) {
        input.setAttribute('aria-invalid', 'true');
        first ??= input;
      } else input.removeAttribute('aria-invalid');
    }
    if (err && err.code === 'username_taken') {
      userError.textContent = err.detail;
      user.setAttribute('aria-invalid', 'true');
      first = user;
    }
    first?.focus();
    return Boolean(first);
  };
  const errors = h('div', { class: 'form-errors', role: 'alert' });
  const submit = h('button', { type: 'submit', class: 'primary' }, signup ? 'Sign up' : 'Log in');
  const form = h('form', { class: 'panel auth', novalidate: true },
    h('h1', {}, signup ? 'Sign up' : 'Log in'),
    signup && api.session.guest
      ? h('p', { class: 'small' }, 'Your games as a guest stay yours; from now on your '
        + 'games are ranked, earn coins and enter the leaderboards.')
      : null,
    h('label', { for: 'username' }, 'Username'), user, userHelp, userError,
    h('label', { for: 'password' }, 'Password'), pass, passHelp, passError,
    errors, submit,
    h('p', { class: 'small' }, signup ? 'Have an account? ' : 'New here? ',
      link(signup ? '/login' : '/signup', signup ? 'Log in' : 'Sign up')),
    signup ? null : h('p', { class: 'small' }, link('/forgot', 'Forgot your password?')));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    clear(errors);
    showFieldErrors(null);
    submit.disabled = true;
    try {
      const username = user.value.trim();
      const token = api.session.token;
      if (signup && token && api.session.guest) {
        // A guest signs up by claiming its account: the same token, the games kept.
        const claimed = await api.claim(username, pass.value);
        api.session.set(token, claimed.username);
      } else {
        const answer = signup
          ? await api.register(username, pass.value)
          : await api.login(username, pass.value);
        api.session.set(answer.token, answer.username || username);
      }
      ctx.navigate(safeNext);
    } catch (error) {
      const err = /** @type {api.ApiError} */ (error);
      if (!showFieldErrors(err)) formErrors(errors, err);
    } finally {
      submit.disabled = false;
    }
  });
  clear(root, form);
  user.focus();
  return null;
}

// --- daily ----------------------------------------------------------------------------------
/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 * @param {string | null} date  a past day (YYYY-MM-DD); null: today
 */
export async function dailyScreen(root, ctx, date = null) {
  const today = !date;
  let info;
  try {
    info = await api.daily(date);
  } catch (error) {
    const err = /** @type {api.ApiError} */ (error);
    if (!today || err.code !== 'daily_not_ready') throw err;
    // The worker makes each day's challenge ahead; if it has not yet, playing makes it.
    clear(root, h('section', { class: 'panel daily' },
      h('h1', {}, "Today's challenge"),
      h('p', {}, err.detail),
      await attemptControls({ attempt: null }, ctx)));
    return null;
  }
  const section = h('section', { class: 'panel daily' });
  clear(root, section);
  const title = today ? `Today's challenge · ${info.date}` : `Daily challenge of ${info.date}`;
  section.append(
    h('h1', {}, title),
    h('p', {}, `${SUIT_LABEL[info.suits]}, the same deal for everyone. One ranked attempt; `
      + 'practice as often as you like after it.'),
    h('p', { class: 'commitment' }, 'Commitment (SHA-256 of the seed, published in advance): ',
      h('code', { class: 'hash' }, info.commitment)));
  if (info.closed) {
    const result = h('span', { class: 'check-result', role: 'status' });
    section.append(
      h('p', {}, 'Revealed seed: ', h('code', { class: 'seed' }, info.seed),
        ' nonce: ', h('code', {}, info.nonce)),
      info.par == null ? '' : h('p', { class: 'par' },
        `Par: ${info.par} actions, the shortest winning line our solver found for this deal.`),
      h('p', {}, h('button', {
        type: 'button', class: 'check', onclick: () => checkCommitment(info, result),
      }, 'Check it'), ' ', result),
      h('div', { class: 'practice' },
        h('button', { type: 'button', class: 'primary', onclick: () => practise(info.date, ctx) },
          'Practice this deal'),
        h('p', { class: 'small' }, 'An unranked game on this day\'s deal: no leaderboard, '
          + 'no coins.')),
      attemptAnalysis(info.attempt) || '');
  } else {
    const closes = new Date(info.closes_at).toLocaleString();
    section.append(h('p', { class: 'small' }, `Closes at ${closes}; the seed is revealed then. `
      + `Winners so far: ${info.winners}.`));
  }
  if (today) section.append(await attemptControls(info, ctx));
  section.append(h('h2', {}, `The board of ${info.date}`));
  const board = h('div', { class: 'board-holder' });
  section.append(board);
  await boardTable(board, (page) => api.dailyBoard(info.date, page), ctx);
  section.append(await dayNavigation(info.date, today));
  return null;
}

/**
 * A closed day's own attempt, over: its analysis (never before the day closes: the server
 * refuses it, `daily_open`, as the solver sees every card of the day's deal).
 * @param {Daily['attempt']} a
 */
function attemptAnalysis(a) {
  if (!a || a.status === 'in_progress') return null;
  return h('p', { class: 'attempt-analysis' },
    `Your ${a.ranked ? 'ranked attempt' : 'game'}: ${a.status}, score ${a.score}. `,
    analyseLink(a.game, 'Analyse your attempt'));
}

/**
 * Practise a closed day's deal (asked first when it ends a casual game in play: a loss).
 * @param {string} date
 * @param {Ctx} ctx
 */
async function practise(date, ctx) {
  try {
    if (!api.session.token) {
      const made = await api.guest(); // play at once, as on a first visit
      api.session.set(made.token, made.username, true);
    } else {
      const { results } = await api.gamesInProgress();
      const live = results.find((g) => g.kind === 'casual' && g.actions > 0);
      if (live && !await confirmDialog('Practice this deal?',
        'The game in play ends and counts as a loss.', 'Practice')) return;
    }
    const state = await api.dailyPractice(date);
    ctx.navigate(`/play/${state.id}`);
  } catch (err) {
    toast(/** @type {api.ApiError} */ (err).detail, 'error', 8000);
  }
}

/**
 * The days around this one that had a challenge: the newer and older one to step to, and a
 * list of the days before it, a page at a time (GET /daily/days lists only days that exist).
 * @param {string} date
 * @param {boolean} today  the page is today's: nothing newer
 */
async function dayNavigation(date, today) {
  /** @param {DailyDay} d */
  const href = (d) => (d.closed ? `/daily/${d.date}` : '/daily');
  const [older, newer] = await Promise.all([
    api.dailyDays({ before: date, page_size: 7 }),
    today ? null : api.dailyDays({ after: date, page_size: 1 }),
  ]);
  const prev = older.results[0];
  const next = newer?.results[0];
  const nav = h('nav', { class: 'day-nav', 'aria-label': 'Days' },
    prev ? link(href(prev), `← ${prev.date}`, { class: 'button older', rel: 'prev' }) : null,
    next ? link(href(next), `${next.closed ? next.date : 'Today'} →`,
      { class: 'button newer', rel: 'next' }) : null);
  const list = h('ul', { class: 'days' });
  /** @param {DailyDay[]} days */
  const add = (days) => list.append(...days.map((d) => h('li', {},
    link(href(d), d.date), ` · ${d.winners} winner${d.winners === 1 ? '' : 's'}`)));
  add(older.results);
  let page = 1;
  const more = h('button', { type: 'button', class: 'more', hidden: !older.hasNext }, 'Older days');
  more.addEventListener('click', async () => {
    try {
      page += 1;
      const got = await api.dailyDays({ before: date, page_size: 7, page });
      add(got.results);
      more.hidden = !got.hasNext;
    } catch (err) {
      toast(/** @type {api.ApiError} */ (err).detail, 'error');
    }
  });
  return h('div', { class: 'past-days' }, nav,
    h('h2', {}, 'Past days'),
    older.results.length ? list : h('p', { class: 'empty' }, 'No earlier days.'),
    more);
}

/**
 * Play today's deal: the ranked attempt, resume it, or practise after it.
 * @param {{attempt: Daily['attempt']}} info
 * @param {Ctx} ctx
 */
async function attemptControls(info, ctx) {
  const box = h('div', { class: 'attempt' });
  /** @param {boolean} unranked */
  const play = async (unranked) => {
    try {
      if (!api.session.token) {
        const made = await api.guest(); // play at once, as on a first visit
        api.session.set(made.token, made.username, true);
      }
      const state = await api.dailyPlay(unranked);
      ctx.navigate(`/play/${state.id}`);
    } catch (err) {
      toast(/** @type {api.ApiError} */ (err).detail, 'error', 8000);
    }
  };
  const a = info.attempt;
  if (!api.session.token || api.session.guest) {
    // A guest's daily game is practice, never the ranked attempt (docs/rules.md#guests).
    const resume = a && a.status === 'in_progress';
    box.append(
      h('p', {}, api.session.token ? 'You play as a guest: ' : 'Play it now as a guest: ',
        'today\'s deal is practice for you (a guest\'s games do not rank). ',
        link('/signup?next=/daily', 'Sign up'), ' or ',
        link('/login?next=/daily', 'log in'), ' to play your ranked attempt.'),
      a && !resume ? h('p', {}, `Your practice game: ${a.status}, score ${a.score}.`) : '',
      h('button', { type: 'button', class: 'primary', onclick: () => play(Boolean(a && !resume)) },
        resume ? 'Resume your practice game' : 'Play as practice'));
  } else if (!a) {
    box.append(h('button', { type: 'button', class: 'primary', onclick: () => play(false) },
      'Play your ranked attempt'));
  } else if (a.status === 'in_progress') {
    const what = a.ranked ? 'ranked attempt' : 'practice game';
    box.append(h('p', {}, `Your ${what} is in progress (score ${a.score}).`),
      h('button', { type: 'button', class: 'primary', onclick: () => play(false) }, 'Resume'));
  } else {
    box.append(h('p', {}, `Your ${a.ranked ? 'ranked attempt' : 'game'}: ${a.status}, `
      + `score ${a.score}.`),
      h('button', { type: 'button', onclick: () => play(true) }, 'Practice this deal'));
  }
  return box;
}

/**
 * Recompute the commitment in the browser (SubtleCrypto) and compare.
 * @param {Daily} info
 * @param {HTMLElement} out
 */
async function checkCommitment(info, out) {
  const text = `spider-daily:v1:${info.date}:${info.suits}:${info.deal_version}:`
    + `${info.seed}:${info.nonce}`;
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
  const good = hex === info.commitment;
  out.className = `check-result ${good ? 'good' : 'bad'}`;
  out.textContent = good
    ? `✓ sha256("${text}") matches the commitment: the deal was fixed before the day began.`
    : `✗ sha256 gives ${hex}, not the commitment.`;
}

// --- leaderboards ---------------------------------------------------------------------------
/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 */
export async function leaderboardScreen(root, ctx) {
  const params = new URLSearchParams(location.search);
  const asked = { suits: params.get('suits') || '', period: params.get('period') || '' };
  const suits = ['1', '2', '4'].includes(asked.suits) ? asked.suits : '1';
  const period = PERIODS[asked.period] ? asked.period : 'all';
  /**
   * @param {'suits' | 'period'} key
   * @param {string} value
   * @param {string} label
   * @param {boolean} current
   */
  const tab = (key, value, label, current) => {
    const query = new URLSearchParams({ suits, period, [key]: value });
    return link(`/leaderboard?${query}`, label,
      { class: `tab${current ? ' current' : ''}`, 'aria-current': current ? 'page' : null });
  };
  const holder = h('div', { class: 'board-holder' });
  clear(root, h('section', { class: 'panel leaderboard' },
    h('h1', {}, 'Leaderboard'),
    h('nav', { class: 'tabs', 'aria-label': 'Suits' },
      ['1', '2', '4'].map((s) => tab('suits', s, SUIT_LABEL[s], s === suits))),
    h('nav', { class: 'tabs', 'aria-label': 'Period' },
      Object.entries(PERIODS).map(([p, label]) => tab('period', p, label, p === period))),
    holder));
  await boardTable(holder, (page) => api.leaderboard(suits, period, page), ctx);
  return null;
}

/**
 * A paged board: rank, player, score, moves, time, and a replay link per row.
 * @param {HTMLElement} holder
 * @param {(page: number) => Promise<BoardPage>} fetchPage
 * @param {Ctx} ctx
 */
async function boardTable(holder, fetchPage, ctx, page = 1) {
  const { results, hasNext } = await fetchPage(page);
  if (!results.length && page === 1) {
    clear(holder, h('p', { class: 'empty' }, 'No wins here yet.'));
    return;
  }
  const rows = results.map((r) => h('tr', {},
    h('td', {}, r.rank),
    h('td', {}, link(`/players/${encodeURIComponent(r.player)}`, r.player)),
    h('td', {}, r.score),
    h('td', { class: 'wide' }, r.actions),
    h('td', {}, formatTime(r.elapsed_ms)),
    h('td', { class: 'wide' }, hintsNote(r)),
    h('td', { class: 'links' }, link(`/replay/${r.game}`, 'Replay',
      { 'aria-label': `Replay ${r.player}'s game, rank ${r.rank}` }),
    // Only a public game: a daily win stays its player's until the day closes.
    r.public ? analyseLink(r.game, `Analyse ${r.player}'s game, rank ${r.rank}`, false) : null)));
  /** @param {number} p */
  const go = (p) => boardTable(holder, fetchPage, ctx, p)
    .catch((err) => toast(err.detail, 'error'));
  clear(holder,
    h('table', { class: 'board' },
      h('thead', {}, h('tr', {}, ['#', 'Player', 'Score', 'Moves', 'Time', '', ''].map((t, i) =>
        h('th', { scope: 'col', class: [3, 5].includes(i) ? 'wide' : null }, t)))),
      h('tbody', {}, rows)),
    h('div', { class: 'pager' },
      h('button', { type: 'button', disabled: page <= 1, onclick: () => go(page - 1) },
        '← Previous'),
      h('span', {}, `Page ${page}`),
      h('button', { type: 'button', disabled: !hasNext, onclick: () => go(page + 1) }, 'Next →')));
}

/**
 * A win's note: perfect (no undo, no hint), or how many hints it took.
 * @param {{perfect: boolean, hints: number}} r
 */
function hintsNote(r) {
  if (r.perfect) return 'perfect';
  return r.hints ? `${r.hints} hint${r.hints > 1 ? 's' : ''}` : '';
}

// --- replay ---------------------------------------------------------------------------------
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

// --- a player's page ------------------------------------------------------------------------
/**
 * @param {HTMLElement} root
 * @param {Ctx} _ctx
 * @param {string} username
 */
export async function playerScreen(root, _ctx, username) {
  const [profile, places, races, history] = await Promise.all([
    api.player(username), api.playerPlaces(username), api.playerRaces(username),
    gameHistory(username)]);
  const modes = profile.stats.map((m) => {
    const place = places.modes.find((p) => p.suits === m.suits);
    /** @type {[string, string | number][]} */
    const rows = [
      ['Played', m.played], ['Won', m.wins],
      ['Win rate', `${Math.round((m.win_rate || 0) * 100)}%`],
      ['Win streak (best)', `${m.current_win_streak} (${m.best_win_streak})`],
      ['Losing streak (longest)', `${m.current_loss_streak} (${m.worst_loss_streak})`],
      ['Fastest win', m.fastest_win_ms ? formatTime(m.fastest_win_ms) : '–'],
      ['Fewest moves', m.fewest_actions_win ?? '–'], ['Best score', m.best_score ?? '–'],
      ['Best place', place && place.rank ? ordinal(place.rank) : '–'],
    ];
    return h('article', { class: 'mode' },
      h('h2', {}, SUIT_LABEL[m.suits]),
      h('dl', {}, rows.map(([k, v]) => h('div', {}, h('dt', {}, k), h('dd', {}, v)))),
      m.best_wins.length ? h('ol', { class: 'best' }, m.best_wins.map((w) => h('li', {},
        link(`/replay/${w.game}`, `${w.score} in ${formatTime(w.elapsed_ms)}, `
          + `${w.actions} moves${w.perfect ? ', perfect' : ''}`)))) : null);
  });
  const c = profile.coins;
  const d = places.daily;
  clear(root, h('section', { class: 'panel player' },
    h('h1', {}, profile.username),
    c ? h('p', { class: 'coins' }, `Coins: ${c.balance} (${c.earned_today} earned today, `
      + `${c.left_today} left of ${c.daily_limit}).`) : null,
    d ? h('p', {}, `Best daily place: ${ordinal(d.rank)} on ${d.date}.`) : null,
    h('div', { class: 'modes' }, modes),
    history,
    raceStats(races)));
  return null;
}

/**
 * Races count apart from single games: per suit mode, played, won, drawn, lost.
 * @param {PlayerRaces} races
 */
function raceStats(races) {
  const played = races.races.filter((r) => r.played);
  return h('section', { class: 'race-stats' },
    h('h2', {}, 'Races'),
    played.length
      ? h('table', { class: 'board' },
        h('thead', {}, h('tr', {}, ['Suits', 'Raced', 'Won', 'Drawn', 'Lost']
          .map((t) => h('th', { scope: 'col' }, t)))),
        h('tbody', {}, played.map((r) => h('tr', {}, h('td', {}, SUIT_LABEL[r.suits]),
          h('td', {}, r.played), h('td', {}, r.wins), h('td', {}, r.draws),
          h('td', {}, r.losses)))))
      : h('p', { class: 'small' }, 'No races yet. ', link('/race', 'Race a friend')));
}
