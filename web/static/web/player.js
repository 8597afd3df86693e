// @ts-check
// A player's page: stats per suit mode, places, games and races.

import * as api from './api.js';
import { SUIT_LABEL } from './cards.js';
import { calendarCells, streakWords } from './dailystate.js';
import { h, clear, formatTime, link, ordinal, toast } from './dom.js';
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
  const [profile, places, races, history, dailies] = await Promise.all([
    api.player(username), api.playerPlaces(username), api.playerRaces(username),
    gameHistory(username), dailyCalendar(username)]);
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
    dailies,
    history,
    raceStats(races)));
  return null;
}

/**
 * The player's dailies month by month (won, lost, missed; a practice link for each closed
 * day: the day's page offers it) and their streaks.
 * @param {string} username
 */
async function dailyCalendar(username) {
  const section = h('section', { class: 'calendar', 'aria-labelledby': 'calendar-title' },
    h('h2', { id: 'calendar-title' }, 'Dailies'));
  const body = h('div', {});
  /** @param {string | null} month */
  const show = async (month) => {
    const got = await api.playerDaily(username, month);
    const [year, m] = got.month.split('-').map(Number);
    const before = new Date(Date.UTC(year, m - 2, 1)).toISOString().slice(0, 7);
    const older = h('button', { type: 'button', class: 'older',
      onclick: () => show(before).catch((err) => toast(err.detail, 'error')) }, `← ${before}`);
    const cells = calendarCells(got.days);
    clear(body,
      h('p', { class: 'streaks' }, streakWords(got.streaks)),
      h('h3', {}, got.month),
      cells.length
        ? h('ul', { class: 'days calendar-days' }, cells.map((c) => h('li', { class: c.status },
          c.practice ? link(`/daily/${c.date}`, c.date) : c.date, ` · ${c.text}`)))
        : h('p', { class: 'small empty' }, 'No dailies this month.'),
      older);
  };
  await show(null);
  section.append(body);
  return section;
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
