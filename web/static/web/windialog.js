// @ts-check
// The win dialog: score, time, moves, coins, "perfect", the places on the boards (or why the
// game does not rank) and the player's news, over a shower of cards. Modal: the focus goes
// round its controls, Esc closes it. What it says is winstate.js's.

import * as api from './api.js';
import { analysable, analyseLink } from './analyse.js';
import { h, clear, keepFocus, formatTime, link } from './dom.js';
import { coinsNote } from './gamestate.js';
import { play } from './sound.js';
import { placesSaid, unranked, winNews } from './winstate.js';

/** @import { Game } from './api.js' */

export class WinDialog {
  constructor() {
    this.el = h('div', { class: 'overlay', hidden: true });
    this.el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') this.el.hidden = true;
      else keepFocus(this.el, e);
    });
  }

  /**
   * Show the win of `s`; `newGame`: the new-game buttons it offers.
   * @param {Game} s
   * @param {HTMLElement} newGame
   * @param {(text: string) => void} announce  for the live region
   */
  async show(s, newGame, announce) {
    const place = h('p', { class: 'place' });
    const closeBtn = h('button', { type: 'button', onclick: () => { this.el.hidden = true; } },
      'Look at the table');
    const coins = s.coins && s.coins.eligible ? s.coins : null;
    clear(this.el, h('div', {
      class: 'dialog', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'win-title',
    },
      h('h2', { id: 'win-title' }, 'You won!'),
      h('dl', { class: 'win-stats' },
        h('div', {}, h('dt', {}, 'Score'), h('dd', { class: 'win-score' }, s.score)),
        h('div', {}, h('dt', {}, 'Time'), h('dd', {}, formatTime(s.elapsed_ms))),
        h('div', {}, h('dt', {}, 'Moves'), h('dd', {}, s.actions)),
        coins
          ? h('div', {}, h('dt', {}, 'Coins'), h('dd', { class: 'win-coins' }, `+${coins.earned}`))
          : null),
      coins ? h('p', { class: 'coins-note' }, coinsNote(coins)) : null,
      s.perfect ? h('p', { class: 'perfect' }, 'Perfect: no undo, no hint.') : null,
      place,
      h('div', { class: 'buttons' },
        newGame,
        link(`/replay/${s.id}`, 'Watch the replay', { class: 'button' }),
        analysable(s) ? analyseLink(s.id) : null,
        closeBtn)));
    this.el.hidden = false;
    closeBtn.focus();
    // The run's toast is old news under the dialog; the win itself is celebrated (unless the
    // player asked for reduced motion: then the dialog alone).
    const toastEl = document.getElementById('toast');
    if (toastEl) toastEl.className = 'toast';
    if (!matchMedia('(prefers-reduced-motion: reduce)').matches) this.el.append(celebration());
    announce(`You won! Score ${s.score}.`);
    play('win');
    this.personalNews(s);
    const why = unranked(s, api.session.guest);
    if (why === 'guest') {
      // A guest's games never rank (docs/rules.md#guests): say so, and how to change it.
      place.append('This game does not rank because you play as a guest. ',
        link('/signup', 'Sign up', { class: 'claim' }),
        ' to keep your games: from then on your wins enter the leaderboards.');
      return;
    }
    if (why) {
      place.textContent = why;
      return;
    }
    try {
      place.textContent = placesSaid(s, await api.gamePlaces(s.id));
      place.append(' ', link(`/leaderboard?suits=${s.suits}`, 'See the board'));
    } catch {
      place.textContent = 'Your place on the leaderboard will show on the board shortly.';
    }
  }

  /**
   * A personal best or a winning streak, from the player's statistics, under the win.
   * @param {Game} s
   */
  async personalNews(s) {
    try {
      const me = await api.me();
      const news = winNews(s, (me.stats || []).find(
        (/** @type {{suits: number}} */ m) => m.suits === s.suits));
      const dialog = this.el.querySelector('.dialog');
      if (!news || !dialog) return;
      dialog.querySelector('.win-stats')?.after(h('p', { class: 'news' }, news));
    } catch { /* the win stands without its news */ }
  }
}

/** Cards of every suit falling past the win dialog (CSS animations; not drawn at all when
 * reduced motion is asked for). */
function celebration() {
  const layer = h('div', { class: 'celebrate', 'aria-hidden': 'true' });
  const signs = ['♠', '♥', '♦', '♣'];
  for (let i = 0; i < 24; i += 1) {
    const bit = h('span', { class: `fall s${i % 4}` }, signs[i % 4]);
    bit.style.left = `${(i * 37) % 100}%`;
    bit.style.animationDelay = `${(i % 8) * 0.18}s`;
    bit.style.animationDuration = `${2.2 + (i % 5) * 0.35}s`;
    layer.append(bit);
  }
  return layer;
}
