// @ts-check
// The table drawn: ten columns, the stock and the removed runs, from a position the server
// sent, with the selection and the hint marked and the cards' moves animated. It decides
// nothing about legality: the player's gestures (tableinput.js: the pointer and the keys,
// what they mean in picking.js and keys.js) become intents its owner sends to the server,
// which accepts or refuses them. Where each card goes is tablelayout.js's.

import { h, clear } from './dom.js';
import { cardName, faceDown, faceUp, runBadge, withFace } from './cards.js';
import { keptCards, shownCards } from './columnview.js';
import { dismissRefusal, showRefusal } from './refusal.js';
import { fitTable } from './tablelayout.js';
import { TableInput } from './tableinput.js';

/**
 * @import { Column, Position } from './api.js'
 * @import { Selection } from './picking.js'
 */

/**
 * What the player asked for (the table decides nothing: the owner sends it to the server).
 * @typedef {object} Intents
 * @property {(from: number, to: number, count: number) => void} [move]
 * @property {(from: number, count: number | undefined) => void} [oneTap]  the server picks
 *   where to (count undefined: its own choice of how many)
 * @property {() => void} [deal]
 * @property {(text: string) => void} [announce]  a pick-up, for the live region
 *
 * @typedef {{width: number, top: number, left: number}} Box  the columns' on the page
 * @typedef {{from?: number, to?: number, count?: number, deal?: boolean}} Highlight  a hint
 */

export class Table {
  /**
   * @param {{handlers?: Intents, readOnly?: boolean}} options  readOnly: no input
   */
  constructor({ handlers = {}, readOnly = false } = {}) {
    this.handlers = handlers;
    this.readOnly = readOnly;
    this.drawn = 0;
    this.topKey = '';
    /** The card size and gap last set (set again only when they change). */
    this.sizeKey = '';
    /** From one column to the next, in CSS px (a card and a gap). */
    this.pitch = 0;
    /** @type {string[][]} what each column shows now, card by card (columnview.js) */
    this.keys = [];
    /** @type {Box | null} the columns' box when last drawn */
    this.box = null;
    this.remeasuring = false;
    /** @type {(string | null)[]} each column's marks as last painted (paintMarks) */
    this.marks = [];
    /** @type {WeakMap<Element, number>} each card's top as last written (layout) */
    this.tops = new WeakMap();
    /** @type {number[]} each column's cards dealt face down, awaiting their faces */
    this.dealt = [];
    /** @type {Position | null} */
    this.state = null;
    /** @type {Selection | null} */
    this.selection = null;
    /** @type {Highlight | null} */
    this.highlight = null;

    this.stock = h('button', {
      class: 'stock', type: 'button', onclick: () => this.handlers.deal?.(),
    });
    this.runs = h('div', { class: 'runs', role: 'group', 'aria-label': 'Runs removed' });
    this.columns = h('div', { class: 'columns', role: 'group', 'aria-label': 'Table' });
    this.el = h('section', { class: 'table' + (readOnly ? ' read-only' : '') },
      h('div', { class: 'table-top' }, this.stock, this.runs), this.columns);
    /** @type {HTMLDivElement[]} */
    this.cols = [];
    for (let i = 0; i < 10; i += 1) {
      // A list of cards, named with what it holds (a screen reader says "list, 6 items").
      const col = h('div', {
        class: 'column',
        role: 'list',
        tabindex: readOnly ? null : (i === 0 ? '0' : '-1'),
        dataset: { col: String(i) },
      });
      this.cols.push(col);
      this.columns.append(col);
    }
    if (readOnly) this.stock.disabled = true;
    /** The pointer and the keys (none on a table only read). */
    this.input = readOnly ? null : new TableInput(this);
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(this.columns);
  }

  destroy() {
    this.resizeObserver.disconnect();
    this.input?.destroy();
    dismissRefusal();
  }

  /**
   * One tap on a card moves it (false: it picks the card up); a change drops the selection.
   * @param {boolean} on
   */
  setOneTap(on) {
    if (!this.input) return;
    if (this.input.taps.oneTap !== on) this.select(null);
    this.input.taps.oneTap = on;
  }

  /**
   * Draw a position; `moved`: the cards of this move slide from where they were.
   * @param {Position} state
   * @param {{from: number, to: number, count: number} | null} moved
   */
  render(state, moved = null) {
    // Nothing is read of the page here but where the table was when last drawn (`box`, read
    // in the frame after, when the page is laid out anyway): a read after a change makes the
    // browser lay the page out at once, a third of a slow phone's time to draw a move.
    const box = this.box ?? this.measure();
    if (!this.box && box.width) this.box = box;
    const before = moved ? this.topsOf(moved.from, moved.count) : null;
    const dealing = Boolean(this.state && !this.readOnly
      && state.deals_left !== this.state.deals_left);
    const stockAt = dealing ? this.stock.getBoundingClientRect() : null;
    // The page's scroll, read with it (a read of it after a change lays the page out too).
    const scroll = dealing ? { x: window.scrollX, y: window.scrollY } : { x: 0, y: 0 };
    // A deal undone: its ten cards go back to the stock (copies fly there, face down).
    const undealt = dealing && state.deals_left === (this.state?.deals_left ?? 0) + 1
      ? this.cols.map((col) => /** @type {HTMLElement | null} */ (col.lastElementChild))
        .filter((card) => card && card.classList.contains('card'))
        .map((card) => /** @type {HTMLElement} */ (card).getBoundingClientRect())
      : [];
    /** @type {number[]} */
    const arriving = [];
    /** @type {[number, number][]} */
    const turning = [];
    this.state = state;
    if (this.selection && !this.selectionStillValid()) this.selection = null;
    const deals = state.deals_left;
    const suits = state.removed_suits || [];
    // The stock and the runs are built again only when they change (a move changes neither).
    const topKey = `${deals}|${suits.join('')}`;
    if (this.topKey !== topKey) {
      this.topKey = topKey;
      this.renderTop(deals, suits);
    }

    state.columns.forEach((column, i) => {
      const dealt = column.dealt || 0;
      if (dealt > (this.dealt[i] || 0)) arriving.push(i);
      else if (!dealt && this.dealt[i]) turning.push([i, this.dealt[i]]);
      this.dealt[i] = dealt;
      this.renderColumn(i, column);
    });
    this.paintMarks();
    this.layout(box);
    if (moved && before) this.slide(before, moved.from, moved.to, moved.count);
    if (arriving.length && stockAt) this.dealFrom(stockAt, arriving, scroll);
    if (stockAt && undealt.length === this.cols.length) this.undealTo(stockAt, undealt);
    turning.forEach(([i, n]) => Array.from(this.cols[i].children).slice(-n)
      .forEach((card) => card.classList.add('turning')));
    this.drawn += 1;
    this.el.dataset.drawn = String(this.drawn); // the bench times tap to board with this
    this.remeasure();
  }

  /**
   * One column drawn: the cards it showed before that still stand are kept, the rest built
   * (a move builds only the cards it moves, and the card it turns).
   * @param {number} i
   * @param {Column} column
   */
  renderColumn(i, column) {
    const col = this.cols[i];
    const shown = shownCards(column);
    const keys = shown.map((card) => card.key);
    const was = this.keys[i];
    const keep = was ? keptCards(was, keys) : 0;
    if (was && keep === was.length && keep === keys.length) return;
    this.keys[i] = keys;
    this.marks[i] = null;
    const kept = was && was.length ? keep : 0; // an empty column's child is its slot
    while (col.children.length > kept) /** @type {Element} */ (col.lastElementChild).remove();
    const cards = shown.slice(kept).map((card) => {
      if (card.kind === 'up') return faceUp(/** @type {string} */ (card.code));
      if (card.kind === 'was-down') return faceUp(/** @type {string} */ (card.code), 'was-down');
      return faceDown(card.kind === 'dealt' ? 'dealt' : '');
    });
    if (cards.length) col.append(...cards);
    else if (!shown.length) col.append(h('div', { class: 'slot', 'aria-hidden': 'true' }));
    // What a tap on each face-up card picks up: it and the cards on it.
    const up = col.querySelectorAll('.card.up:not(.was-down)');
    up.forEach((el, k) => {
      const card = /** @type {HTMLElement} */ (el);
      const count = String(up.length - k);
      if (card.dataset.count !== count) card.dataset.count = count;
      card.dataset.col = String(i);
    });
    // Only the top card's face is drawn (style.css): only it is given one.
    const top = /** @type {HTMLElement | null} */ (col.lastElementChild);
    if (top && top.classList.contains('up')) withFace(top);
    col.setAttribute('aria-label', columnLabel(i, column));
  }

  /**
   * The stock (its deals left) and the runs removed.
   * @param {number} deals
   * @param {string[]} suits
   */
  renderTop(deals, suits) {
    clear(this.stock,
      h('span', { class: 'stock-cards', 'aria-hidden': 'true' },
        Array.from({ length: Math.max(deals, 0) }, () => h('span', { class: 'card back mini' }))),
      h('span', { class: 'stock-label' },
        !deals ? 'Stock empty' : this.readOnly ? `${deals} deals left` : `Deal (${deals} left)`));
    this.stock.setAttribute('aria-label', deals
      ? `Stock: ${deals} deal${deals === 1 ? '' : 's'} left. Deal ten cards.`
      : 'Stock: empty');
    this.stock.classList.toggle('empty', !deals);
    clear(this.runs, Array.from({ length: 8 }, (_, i) =>
      (suits[i] ? runBadge(suits[i]) : h('div', { class: 'run empty', 'aria-hidden': 'true' }))));
    this.runs.setAttribute('aria-label', `Runs removed: ${suits.length} of 8`);
  }

  /**
   * Where the last `count` face-up cards of column `col` are on screen.
   * @param {number} col
   * @param {number} count
   */
  topsOf(col, count) {
    return Array.from(this.cols[col].querySelectorAll('.card.up')).slice(-count)
      .map((c) => parseFloat(/** @type {HTMLElement} */ (c).style.top) || 0);
  }

  /** The columns' width and top on the page, read while nothing has changed since drawn. */
  measure() {
    const rect = this.columns.getBoundingClientRect();
    return {
      width: this.columns.clientWidth,
      top: rect.top + window.scrollY,
      left: rect.left + window.scrollX,
    };
  }

  /**
   * Where the columns are, read once the frame after a drawing is on screen (the page is
   * laid out then: the read costs nothing), for the next drawing; laid out again if they
   * moved or changed width in between.
   */
  remeasure() {
    if (this.remeasuring) return;
    this.remeasuring = true;
    requestAnimationFrame(() => setTimeout(() => {
      this.remeasuring = false;
      if (!this.columns.isConnected) return;
      const was = this.box;
      const box = this.measure();
      this.box = box.width ? box : null;
      if (box.width && (!was || was.width !== box.width || was.top !== box.top)) this.layout(box);
    }, 0));
  }

  /**
   * Slide the last cards of column `to` from where they were in column `from` (FLIP: drawn
   * in place at once, moved back by a transform, then let go; reduced motion: no
   * transition). Where they were and are is worked out, not read: columns are a card and a
   * gap apart, and each card's top is the one `layout` gave it.
   * @param {number[]} before  the cards' tops in column `from`
   * @param {number} from
   * @param {number} to
   * @param {number} count
   */
  slide(before, from, to, count) {
    const cards = /** @type {HTMLElement[]} */ (
      Array.from(this.cols[to].querySelectorAll('.card.up')).slice(-count));
    if (cards.length !== before.length) return;
    const dx = (from - to) * this.pitch;
    cards.forEach((card, k) => {
      const dy = before[k] - (parseFloat(card.style.top) || 0);
      card.style.transform = `translate(${dx}px, ${dy}px)`;
      card.classList.add('sliding');
    });
    requestAnimationFrame(() => requestAnimationFrame(() => cards.forEach((card) => {
      card.style.transform = '';
      const done = () => card.classList.remove('sliding');
      card.addEventListener('transitionend', done, { once: true });
    })));
  }

  /**
   * The cards just dealt onto `cols` fly there from the stock, one column after the other
   * (their faces come later, with the answer: see render).
   * @param {DOMRect} from  where the stock is
   * @param {number[]} cols
   * @param {{x: number, y: number}} scroll  the page's, when `from` was read
   */
  dealFrom(from, cols, scroll) {
    // Where each card lands is worked out (its column's place, the top `layout` gave it), not
    // read: a read after the cards were added would lay the page out at once.
    const box = this.box;
    if (!box) return;
    cols.forEach((i, n) => {
      const card = /** @type {HTMLElement | null} */ (this.cols[i].lastElementChild);
      if (!card) return;
      const left = box.left - scroll.x + i * this.pitch;
      const top = box.top - scroll.y + (this.tops.get(card) ?? 0);
      card.style.transform = `translate(${from.left - left}px, ${from.top - top}px)`;
      card.style.transitionDelay = `${n * 18}ms`;
      card.classList.add('sliding');
      requestAnimationFrame(() => requestAnimationFrame(() => {
        card.style.transform = '';
        card.addEventListener('transitionend', () => {
          card.classList.remove('sliding');
          card.style.transitionDelay = '';
        }, { once: true });
      }));
    });
  }

  /**
   * Face-down copies fly from where the cards of an undone deal lay (`from`) to the stock.
   * @param {DOMRect} stock
   * @param {DOMRect[]} from
   */
  undealTo(stock, from) {
    if (matchMedia('(prefers-reduced-motion: reduce)').matches) return;
    from.forEach((rect, n) => {
      const copy = h('div', { class: 'card back flying', 'aria-hidden': 'true' });
      Object.assign(copy.style, {
        position: 'fixed', left: `${rect.left}px`, top: `${rect.top}px`,
        width: `${rect.width}px`, height: `${rect.height}px`, transitionDelay: `${n * 18}ms`,
      });
      this.el.append(copy);
      requestAnimationFrame(() => requestAnimationFrame(() => {
        copy.style.transform = `translate(${stock.left - rect.left}px, ${stock.top - rect.top}px)`
          + ' scale(0.4)';
        copy.style.opacity = '0';
      }));
      setTimeout(() => copy.remove(), 400 + n * 18);
    });
  }

  /**
   * Columns glowing for a moment: where a card may go, or (`kind` "refused") what refused.
   * @param {number[]} cols
   * @param {'glow' | 'refused'} kind
   * @param {number} ms
   */
  flash(cols, kind = 'glow', ms = 900) {
    cols.forEach((i) => {
      const col = this.cols[i];
      col.classList.remove(kind);
      void col.offsetWidth; // restart the animation
      col.classList.add(kind);
      setTimeout(() => col.classList.remove(kind), ms);
    });
  }

  /**
   * A refusal said beside column `col` (refusal.js): gone at the next action.
   * @param {number} col
   * @param {string} text
   */
  refuse(col, text) {
    const column = this.cols[col];
    if (column) showRefusal(this.el, column, text);
  }

  /**
   * The last `count` cards of column `col` shake: the server refused to move them.
   * @param {number} col
   * @param {number} count
   */
  shake(col, count) {
    const cards = Array.from(this.cols[col]?.querySelectorAll('.card') || [])
      .slice(-Math.max(count, 1));
    cards.forEach((card) => {
      card.classList.remove('shake');
      void (/** @type {HTMLElement} */ (card)).offsetWidth;
      card.classList.add('shake');
      setTimeout(() => card.classList.remove('shake'), 1200); // a moment to be seen
    });
  }

  selectionStillValid() {
    if (!this.state || !this.selection) return false;
    const column = this.state.columns[this.selection.col];
    return column && column.cards.length >= this.selection.count;
  }

  /**
   * Card overlap fitted to the space (tablelayout.js), written where it changed.
   * @param {Box} [box]  measured already (render), else read now
   */
  layout(box = undefined) {
    if (!this.state) return;
    const read = box || this.measure();
    const { width, top } = read;
    if (!width) return;
    if (!box) this.box = read; // read now: as good as the frame after
    const { size, tops, height } = fitTable(this.state.columns,
      this.cols.map((col) => col.children.length),
      { width, top, viewHeight: window.innerHeight, readOnly: this.readOnly });
    this.pitch = size.pitch;
    const sizeKey = `${size.cardW}|${size.gap}`;
    if (this.sizeKey !== sizeKey) {
      this.sizeKey = sizeKey;
      this.el.style.setProperty('--card-w', `${size.cardW}px`);
      this.el.style.setProperty('--card-h', `${size.cardH}px`);
      this.el.style.setProperty('--gap', `${size.gap}px`);
      // Too narrow for a face's pips and figures (a phone): one big pip (cards.js).
      this.el.classList.toggle('small-cards', size.small);
    }
    tops.forEach((at, i) => {
      const children = /** @type {HTMLCollectionOf<HTMLElement>} */ (this.cols[i].children);
      at.forEach((y, k) => {
        // Written only where it changed: a kept card keeps its place (and its style).
        if (this.tops.get(children[k]) !== y) {
          this.tops.set(children[k], y);
          children[k].style.top = `${y}px`;
        }
      });
    });
    const px = `${height}px`;
    if (this.columns.style.height !== px) this.columns.style.height = px;
  }

  /** @param {Highlight | null} hint */
  setHighlight(hint) {
    this.highlight = hint;
    this.paintMarks();
  }

  /** @param {Selection | null} selection */
  select(selection) {
    const was = this.selection;
    this.selection = selection;
    this.paintMarks();
    const column = selection && this.state?.columns[selection.col];
    if (column && (!was || was.col !== selection.col || was.count !== selection.count)) {
      const first = column.cards[column.cards.length - selection.count];
      const more = selection.count > 1 ? ` and ${selection.count - 1} more` : '';
      this.handlers.announce?.(
        `Picked up ${cardName(first)}${more} from column ${selection.col + 1}.`);
    }
  }

  /** Selection and hint marks, as classes (and aria-pressed for the selected column). */
  paintMarks() {
    const state = this.state;
    if (!state) return;
    this.cols.forEach((col, i) => {
      const column = state.columns[i];
      const sel = this.selection && this.selection.col === i ? this.selection.count : 0;
      const hint = this.highlight;
      const hintFrom = hint && hint.from === i ? (hint.count ?? 0) : 0;
      const target = Boolean(hint && hint.to === i);
      // A column drawn again (renderColumn) forgets its marks; the rest keep theirs.
      const marks = `${sel}|${hintFrom}|${target}`;
      if (this.marks[i] === marks) return;
      this.marks[i] = marks;
      const ups = col.querySelectorAll('.card.up:not(.was-down)');
      ups.forEach((card, k) => {
        const fromTop = column.cards.length - k;
        card.classList.toggle('selected', fromTop <= sel);
        card.classList.toggle('hinted', fromTop <= hintFrom);
      });
      col.classList.toggle('target', target);
      col.classList.toggle('has-selection', sel > 0);
    });
    this.stock.classList.toggle('hinted', Boolean(this.highlight && this.highlight.deal));
  }
}

/**
 * A column for screen readers: "Column 3: 4 face-down: 9 of spades, 8 of hearts".
 * @param {number} i
 * @param {Column} column
 */
function columnLabel(i, column) {
  const parts = [`Column ${i + 1}`];
  if (!column.hidden && !column.cards.length) parts.push('empty');
  if (column.hidden) {
    parts.push(column.down
      ? `face-down ${column.down.map(cardName).join(', ')}`
      : `${column.hidden} face-down`);
  }
  if (column.cards.length) parts.push(column.cards.map(cardName).join(', '));
  return parts.join(': ');
}
