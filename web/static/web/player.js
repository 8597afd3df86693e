// @ts-check
// A player's page: stats per suit mode, places, games and races.

import * as api from './api.js';
import { SUIT_LABEL } from './cards.js';
import { h, clear, formatTime, link, ordinal } from './dom.js';
import { gameHistory } from './history.js';

/**
 * @import { PlayerRaces } from './api.js'
 * @import { Ctx } from './app.js'
 */

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
