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
    { findMine: () => myPlace(suits, period) });
  return null;
}

/**
 * The signed-in player's place on the board of `suits` and `period`: their best win's (GET
 * /players/{me}/places, then that game's place in the period); null when they have none there
 * (no ranked win, or their best is older than the period).
 * @param {string} suits
 * @param {string} period
 * @returns {Promise<number | null>}
 */
async function myPlace(suits, period) {
  const me = api.session.username;
  if (!me || api.session.guest) return null;
  const places = await api.playerPlaces(me);
  const best = places.modes.find((m) => String(m.suits) === suits);
  if (!best || !best.game) return null;
  if (period === 'all') return best.rank ?? null;
  const game = await api.gamePlaces(best.game);
  return /** @type {Record<string, number | null>} */ (game.places)[period] ?? null;
}

/**
 * A paged board: rank, player, score, moves, time, and a replay link per row; the player's
 * own rows marked "you", and with `findMine` a "My place" button that turns to the page of
 * their place and shows its row.
 * @param {HTMLElement} holder
 * @param {(page: number) => Promise<BoardPage>} fetchPage
 * @param {Ctx} ctx
 * @param {number} [page]
 * @param {{findMine?: (() => Promise<number | null>) | null, place?: number | null,
 *   open?: boolean}} [opts]  the player's place on this board (found on asking), the place to
 *   show once drawn, and whether this is the board of a day still open (its games show after
 *   the close)
 */
export async function boardTable(holder, fetchPage, ctx, page = 1, opts = {}) {
  const { findMine = null, place = null, open = false } = opts;
  const { results, hasNext, pageSize } = await fetchPage(page);
  if (!results.length && page === 1) {
    clear(holder, h('p', { class: 'empty' }, 'No wins here yet.'));
    return;
  }
  const me = api.session.username;
  const rows = results.map((r) => {
    const mine = Boolean(me) && r.player === me;
    // A game shows once it is public (a daily win once its day closed), or to its player.
    const replay = r.public || mine
      ? link(`/replay/${r.game}`, 'Replay',
        { 'aria-label': `Replay ${r.player}'s game, rank ${r.rank}` })
      : h('span', { class: 'small' }, open ? 'after the close' : '');
    return h('tr', {
      class: mine ? 'mine' : null,
      'aria-current': place !== null && r.rank === place ? 'true' : null,
    },
      h('td', {}, r.rank),
      h('td', {}, link(`/players/${encodeURIComponent(r.player)}`, r.player),
        mine ? h('span', { class: 'tag you' }, 'you') : null),
      h('td', {}, r.score),
      h('td', { class: 'wide' }, r.actions),
      h('td', {}, formatTime(r.elapsed_ms)),
      h('td', { class: 'wide' }, hintsNote(r)),
      h('td', { class: 'links' }, replay,
        r.public ? analyseLink(r.game, `Analyse ${r.player}'s game, rank ${r.rank}`, false)
          : null));
  });
  /**
   * @param {number} p
   * @param {number | null} [at]  the place to show on it
   */
  const go = (p, at = null) => boardTable(holder, fetchPage, ctx, p, { ...opts, place: at })
    .catch((err) => toast(err.detail, 'error'));
  const jump = async () => {
    try {
      const place = findMine ? await findMine() : null;
      if (place === null) {
        toast('You have no place on this board yet: a ranked win puts you on it.');
        return;
      }
      await go(Math.ceil(place / (pageSize || results.length || 1)), place);
    } catch (err) {
      toast(/** @type {api.ApiError} */ (err).detail, 'error');
    }
  };
  const canJump = Boolean(findMine && me && !api.session.guest);
  clear(holder,
    canJump ? h('p', { class: 'my-place' },
      h('button', { type: 'button', onclick: jump }, 'My place')) : null,
    h('table', { class: 'board' },
      h('thead', {}, h('tr', {}, ['#', 'Player', 'Score', 'Moves', 'Time', '', ''].map((t, i) =>
        h('th', { scope: 'col', class: [3, 5].includes(i) ? 'wide' : null }, t)))),
      h('tbody', {}, rows)),
    h('div', { class: 'pager' },
      h('button', { type: 'button', disabled: page <= 1, onclick: () => go(page - 1) },
        '← Previous'),
      h('span', {}, `Page ${page}`),
      h('button', { type: 'button', disabled: !hasNext, onclick: () => go(page + 1) }, 'Next →')));
  const shown = /** @type {HTMLElement | null} */ (holder.querySelector('tr[aria-current]'));
  if (shown) {
    shown.scrollIntoView({ block: 'center' });
    shown.querySelector('a')?.focus({ preventScroll: true });
  }
}
