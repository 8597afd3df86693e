// @ts-check
// The counters above a game's table, as gamestate.js's statsOf says them: built once, then
// only the figures that changed are written (a tap or the clock's tick redraws little).

import { h, clear } from './dom.js';

export class StatsBar {
  constructor() {
    this.el = h('dl', { class: 'stats', 'aria-label': 'Game' });
    /** The labels drawn, in order: built again only when they change. */
    this.key = '';
  }

  /** @param {[string, string | number][]} items  label and value */
  write(items) {
    const key = items.map(([k]) => k).join();
    if (this.key !== key) {
      this.key = key;
      clear(this.el, items.map(([k, v]) =>
        h('div', { class: `stat stat-${k.toLowerCase()}` }, h('dt', {}, k), h('dd', {}, v))));
      return;
    }
    items.forEach(([, v], i) => {
      const dd = /** @type {HTMLElement} */ (this.el.children[i].lastElementChild);
      if (dd.textContent !== String(v)) dd.textContent = String(v);
    });
  }
}
