// @ts-check
// The leaderboards, and the paged board the daily challenge shows too.

import { analyseLink } from './analyse.js';
import * as api from './api.js';
import { PERIODS, SUIT_MODES, boardChoice, hintsNote } from './boardstate.js';
import { SUIT_LABEL } from './cards.js';
import { h, clear, toast, formatTime, link } from './dom.js';

/**
 * @import { BoardPage } from './api.js'
 * @import { Ctx } from './app.js'
 */

/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 */
export async function leaderboardScreen(root, ctx) {
  const { suits, period } = boardChoice(location.search);
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
      SUIT_MODES.map((s) => tab('suits', s, SUIT_LABEL[s], s === suits))),
    h('nav', { class: 'tabs', 'aria-label': 'Period' },
      Object.entries(PERIODS).map(([p, label]) => tab('period', p, label, p === period))),
    holder));
  await boardTable(holder, (page) => api.leaderboard(suits, period, page), ctx, 1,
    { mine: api.session.username });
  return null;
}

/**
 * A paged board: rank, player, score, moves, time, and a replay link per row.
 * @param {HTMLElement} holder
 * @param {(page: number) => Promise<BoardPage>} fetchPage
 * @param {Ctx} ctx
 * @param {number} [page]
 * @param {{mine?: string | null, open?: boolean}} [opts]  the viewer's name (their row marked);
 *   the board of a day still open (its games show after the close)
 */
export async function boardTable(holder, fetchPage, ctx, page = 1, opts = {}) {
  const { results, hasNext } = await fetchPage(page);
  if (!results.length && page === 1) {
    clear(holder, h('p', { class: 'empty' }, 'No wins here yet.'));
    return;
  }
  const rows = results.map((r) => {
    const mine = Boolean(opts.mine) && r.player === opts.mine;
    // A game shows once it is public (a daily win once its day closed), or to its player.
    const replay = r.public || mine
      ? link(`/replay/${r.game}`, 'Replay',
        { 'aria-label': `Replay ${r.player}'s game, rank ${r.rank}` })
      : h('span', { class: 'small' }, opts.open ? 'after the close' : '');
    return h('tr', { class: mine ? 'mine' : null, 'aria-current': mine ? 'true' : null },
      h('td', {}, r.rank),
      h('td', {}, link(`/players/${encodeURIComponent(r.player)}`, r.player),
        mine ? h('span', { class: 'you' }, ' (you)') : null),
      h('td', {}, r.score),
      h('td', { class: 'wide' }, r.actions),
      h('td', {}, formatTime(r.elapsed_ms)),
      h('td', { class: 'wide' }, hintsNote(r)),
      h('td', { class: 'links' }, replay,
        r.public
          ? analyseLink(r.game, `Analyse ${r.player}'s game, rank ${r.rank}`, false)
          : null));
  });
  /** @param {number} p */
  const go = (p) => boardTable(holder, fetchPage, ctx, p, opts)
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
