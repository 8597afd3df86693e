// @ts-check
// The daily challenge: today's or a past day's, its attempt, its board and the check of
// its commitment.

import { analyseLink } from './analyse.js';
import * as api from './api.js';
import { SUIT_LABEL } from './cards.js';
import { h, clear, confirmDialog, toast, link } from './dom.js';
import {
  attemptOffer, checkCommitment, shareMessage, standingLines, streakWords, untilWords,
} from './dailystate.js';
import { boardTable } from './leaderboard.js';

/**
 * @import { Daily, DailyDay } from './api.js'
 * @import { Ctx } from './app.js'
 */

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
  // The date in one piece: a narrow screen breaks the title before it, never inside it.
  const title = h('h1', {}, today ? "Today's challenge · " : 'Daily challenge of ',
    h('span', { class: 'nowrap' }, info.date));
  section.append(
    title,
    h('p', {}, `${SUIT_LABEL[info.suits]}, the same deal for everyone. One ranked attempt; `
      + 'practice as often as you like after it.'),
    h('details', { class: 'fair' }, h('summary', {}, 'Why it is fair'),
      h('p', { class: 'small' }, 'The deal was fixed before the day began: its seed\'s SHA-256 '
        + 'commitment was published then, and the seed is revealed when the day closes, so '
        + 'anyone can check it.'),
      h('p', { class: 'commitment small' }, 'Commitment: ',
        h('code', { class: 'hash' }, info.commitment))));
  if (info.closed) {
    const result = h('span', { class: 'check-result', role: 'status' });
    section.append(
      h('p', {}, 'Revealed seed: ', h('code', { class: 'seed' }, info.seed),
        ' nonce: ', h('code', {}, info.nonce)),
      info.par == null ? '' : h('p', { class: 'par' },
        `Par: ${info.par} actions, the shortest winning line our solver found for this deal.`),
      h('p', {}, h('button', {
        type: 'button', class: 'check', onclick: () => showCheck(info, result),
      }, 'Check it'), ' ', result),
      h('div', { class: 'practice' },
        h('button', { type: 'button', class: 'primary', onclick: () => practise(info.date, ctx) },
          'Practice this deal'),
        h('p', { class: 'small' }, 'An unranked game on this day\'s deal: no leaderboard, '
          + 'no coins.')),
      attemptAnalysis(info.attempt) || '');
  } else {
    section.append(closeClock(info));
  }
  if (today) section.append(await attemptControls(info, ctx));
  if (info.attempt?.standing) section.append(attemptSummary(info.attempt));
  if (info.streaks) section.append(h('p', { class: 'streaks' }, streakWords(info.streaks)));
  section.append(h('h2', { id: 'day-board' }, `The board of ${info.date}`));
  const board = h('div', { class: 'board-holder' });
  section.append(board);
  await boardTable(board, (page) => api.dailyBoard(info.date, page), ctx, 1,
    { open: !info.closed });
  section.append(await dayNavigation(info.date, today));
  return null;
}

/**
 * When the day closes, in the player's own time zone, and a countdown to it (the next daily
 * starts then), ticking each second while the page shows it.
 * @param {Daily} info
 */
function closeClock(info) {
  const closes = new Date(info.closes_at);
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const at = closes.toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' });
  const left = h('span', { class: 'close-countdown' });
  const box = h('p', { class: 'small close-clock' },
    `Closes at ${at} (${zone}), in `, left,
    '; the seed is revealed then and the next daily starts. ',
    `Winners so far: ${info.winners}.`);
  const tick = () => {
    if (!box.isConnected && left.textContent) { clearInterval(timer); return; }
    left.textContent = untilWords(closes.getTime() - Date.now());
  };
  const timer = setInterval(tick, 1000);
  tick();
  return box;
}

/**
 * An ended ranked attempt: where it stands among the day's (aggregates only while the day is
 * open), the day's scores in bins with the player's marked, and the spoiler-free share.
 * @param {NonNullable<Daily['attempt']>} a
 */
function attemptSummary(a) {
  const s = /** @type {NonNullable<typeof a.standing>} */ (a.standing);
  const most = Math.max(1, ...s.distribution.map((b) => b.players));
  const bins = h('ol', { class: 'distribution', 'aria-label': "The day's scores" },
    s.distribution.map((b) => {
      const bar = h('span', { class: 'bar' });
      bar.style.width = `${Math.round((b.players / most) * 100)}%`; // CSSOM: allowed by the CSP
      return h('li', { class: b.mine ? 'mine' : null },
        h('span', { class: 'bin' }, b.to == null ? `${b.from}+` : `${b.from}–${b.to}`),
        h('span', { class: 'track' }, bar),
        h('span', { class: 'count' }, `${b.players}${b.mine ? ' (you)' : ''}`));
    }));
  const share = a.share ? h('button', { type: 'button', class: 'share',
    onclick: () => shareAttempt(/** @type {NonNullable<typeof a.share>} */ (a.share)) },
  'Share your result') : null;
  return h('div', { class: 'standing' },
    standingLines(s).map((line) => h('p', {}, line)), bins, share);
}

/**
 * Send the share on a phone (navigator.share), else copy it to the clipboard.
 * @param {{text: string, path: string}} share
 */
async function shareAttempt(share) {
  const text = shareMessage(share, window.location.origin);
  try {
    if (navigator.share && matchMedia('(pointer: coarse)').matches) {
      await navigator.share({ text });
      return;
    }
    await navigator.clipboard.writeText(text);
    toast('Copied: paste it anywhere. It names no card and no move.');
  } catch (err) {
    if (/** @type {Error} */ (err).name !== 'AbortError') toast(text, 'info', 15000);
  }
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
 * Play today's deal: the ranked attempt, resume it, or practise after it (attemptOffer).
 * @param {{attempt: Daily['attempt']}} info
 * @param {Ctx} ctx
 */
async function attemptControls(info, ctx) {
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
  const offer = attemptOffer(info.attempt,
    { signedIn: Boolean(api.session.token), guest: api.session.guest });
  const button = h('button', { type: 'button', class: offer.kind === 'over' ? null : 'primary',
    onclick: () => play(offer.unranked) }, offer.button);
  const note = offer.note ? h('p', {}, offer.note) : '';
  if (offer.kind !== 'guest') return h('div', { class: 'attempt' }, note, button);
  return h('div', { class: 'attempt' },
    h('p', {}, api.session.token ? 'You play as a guest: ' : 'Play it now as a guest: ',
      'today\'s deal is practice for you (a guest\'s games do not rank). ',
      link('/signup?next=/daily', 'Sign up'), ' or ',
      link('/login?next=/daily', 'log in'), ' to play your ranked attempt.'),
    note, button);
}

/**
 * Recompute the commitment in the browser and say whether it matches.
 * @param {Daily} info
 * @param {HTMLElement} out
 */
async function showCheck(info, out) {
  const { good, said } = await checkCommitment(info);
  out.className = `check-result ${good ? 'good' : 'bad'}`;
  out.textContent = said;
}
