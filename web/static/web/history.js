// @ts-check
// A player's finished games on their page (GET /players/{username}/games), newest first, a
// page at a time, each a link to its replay. Public, like the page: only games anyone may
// replay are listed (never one in play).

import * as api from './api.js';
import { SUIT_LABEL } from './cards.js';
import { h, formatTime, link, toast } from './dom.js';

/** @import { GameSummary } from './api.js' */

const PAGE_SIZE = 10;

/** @type {Record<string, string>} */
const ENDINGS = {
  won: 'won', resigned: 'resigned', abandoned: 'abandoned', expired: 'expired',
  day_closed: 'the day closed',
};

/** @param {GameSummary} g */
function row(g) {
  const when = new Date(g.finished_at || g.created_at);
  const kind = g.kind === 'daily' ? ' · daily' : '';
  const result = g.status === 'won'
    ? `Won${g.perfect ? ', perfect' : ''}`
    : `Lost (${ENDINGS[g.end_reason || ''] || g.end_reason || 'over'})`;
  return h('tr', { class: `game-row ${g.status}`, dataset: { game: g.id } },
    h('td', {}, h('time', { datetime: when.toISOString() }, when.toLocaleDateString())),
    h('td', {}, `${SUIT_LABEL[g.suits]}${kind}`),
    h('td', { class: 'result' }, result),
    h('td', {}, g.score),
    h('td', { class: 'wide' }, g.actions),
    h('td', { class: 'wide' }, formatTime(g.elapsed_ms)),
    h('td', {}, link(`/replay/${g.id}`, 'Replay',
      { 'aria-label': `Replay the ${SUIT_LABEL[g.suits]} game of ${when.toLocaleDateString()}` })));
}

/**
 * The player's game history: the first page, and a button for older games.
 * @param {string} username
 */
export async function gameHistory(username) {
  const first = await api.playerGames(username, 1, PAGE_SIZE);
  const section = h('section', { class: 'history', 'aria-labelledby': 'history-title' },
    h('h2', { id: 'history-title' }, 'Games'));
  if (!first.results.length) {
    section.append(h('p', { class: 'small empty' }, 'No finished games yet. '
      + 'A daily game shows here once its day has closed (00:00 UTC).'));
    return section;
  }
  const body = h('tbody', {}, first.results.map(row));
  let page = 1;
  const more = h('button', { type: 'button', class: 'more', hidden: !first.hasNext },
    'Older games');
  more.addEventListener('click', async () => {
    more.disabled = true;
    try {
      const next = await api.playerGames(username, page + 1, PAGE_SIZE);
      page += 1;
      body.append(...next.results.map(row));
      more.hidden = !next.hasNext;
    } catch (err) {
      toast(/** @type {api.ApiError} */ (err).detail, 'error');
    } finally {
      more.disabled = false;
    }
  });
  const head = ['Date', 'Game', 'Result', 'Score', 'Moves', 'Time', ''];
  section.append(h('table', { class: 'board games' },
    h('thead', {}, h('tr', {}, head.map((t, i) =>
      h('th', { scope: 'col', class: i === 4 || i === 5 ? 'wide' : null }, t)))),
    body), more);
  return section;
}
