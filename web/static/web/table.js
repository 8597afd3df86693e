// @ts-check
// The table: ten columns, the stock and the removed runs, drawn from a position the server
// sent, and the player's gestures turned into intents. It decides nothing about legality:
// a move goes to the server, which accepts or refuses it.
//
// Gestures: with one-tap on (the default), a tap on a face-up card moves it and the cards on
// it to the best place (the owner decides; the server picks when there are several). With
// it off, a tap picks the cards up and a tap on another column moves them there, and a
// double-tap asks for one-tap. Either way: drag the card onto a column.
// Keyboard: arrows or 1-9/0 pick a column, Enter picks up
// its top card (Up/Down: more or fewer cards) and Enter on another column moves there,
// "." sends a one-tap, Esc drops the selection.

import { h, clear } from './dom.js';
import { cardName, faceDown, faceUp, runBadge, withFace } from './cards.js';
import { keptCards, shownCards } from './columnview.js';

/** @import { Column, Position } from './api.js' */

const DOUBLE_TAP_MS = 350;
const DRAG_START_PX = 6;
/** The foot of the screen kept free of cards for a hint or a notice, in CSS px. */
const MESSAGE_ROOM = 84;
const SMALL_CARD_PX = 48; // narrower cards show one big pip, not a laid-out face

/**
 * What the player asked for (the table decides nothing: the owner sends it to the server).
 * @typedef {object} Intents
 * @property {(from: number, to: number, count: number) => void} [move]
 * @property {(from: number, count: number | undefined) => void} [oneTap]  the server picks
 *   where to (count undefined: its own choice of how many)
 * @property {() => void} [deal]
 * @property {(text: string) => void} [announce]  a pick-up, for the live region
 *
 * @typedef {{col: number, count: number}} Selection  the cards picked up
 * @typedef {{width: number, top: number, left: number}} Box  the columns' on the page
 * @typedef {{from?: number, to?: number, count?: number, deal?: boolean}} Highlight  a hint
 * @typedef {object} Drag  a pointer held down on a card
 * @property {number} from
 * @property {number} count
 * @property {number} x
 * @property {number} y
 * @property {number} pointerId
 * @property {HTMLElement | null} ghost  the cards under the pointer, once it moved
 * @property {(e: PointerEvent) => void} move
 * @property {(e: PointerEvent) => void} up
 * @property {() => void} cancel
 */

export class Table {
  /**
   * @param {{handlers?: Intents, readOnly?: boolean}} options  readOnly: no input
   */
  constructor({ handlers = {}, readOnly = false } = {}) {
    this.handlers = handlers;
    this.readOnly = readOnly;
    /** One tap on a card moves it (false: it picks the card up). */
    this.oneTap = false;
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
    /** @type {(Selection & {at: number}) | null} */
    this.lastTap = null;
    /** @type {Drag | null} */
    this.drag = null;

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
    if (!readOnly) {
      this.columns.addEventListener('pointerdown', (e) => this.pointerDown(e));
      this.columns.addEventListener('keydown', (e) => this.keyDown(e));
      this.columns.addEventListener('dblclick', (e) => e.preventDefault());
    }
    this.resizeObserver = new ResizeObserver(() => this.layout());
    this.resizeObserver.observe(this.columns);
  }

  destroy() {
    this.resizeObserver.disconnect();
    this.endDrag();
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
   * Card overlap fitted to the space: long columns squeeze so the table stays on screen.
   * @param {Box} [box]  measured already (render), else read now
   */
  layout(box = undefined) {
    if (!this.state) return;
    const read = box || this.measure();
    const { width, top } = read;
    if (!width) return;
    if (!box) this.box = read; // read now: as good as the frame after
    const gap = width < 600 ? 3 : Math.min(10, width * 0.012); // a phone: cards first
    const cardW = (width - gap * 9) / 10;
    this.pitch = cardW + gap; // from one column to the next
    const cardH = cardW * 1.4;
    const sizeKey = `${cardW}|${gap}`;
    if (this.sizeKey !== sizeKey) {
      this.sizeKey = sizeKey;
      this.el.style.setProperty('--card-w', `${cardW}px`);
      this.el.style.setProperty('--card-h', `${cardH}px`);
      this.el.style.setProperty('--gap', `${gap}px`);
      // Too narrow for a face's pips and figures (a phone): one big pip (cards.js).
      this.el.classList.toggle('small-cards', cardW < SMALL_CARD_PX);
    }
    // A table played on keeps the foot of the screen for hints and notices (game.js).
    const foot = this.readOnly ? 12 : MESSAGE_ROOM;
    const room = Math.max(cardH * 3.5, window.innerHeight - top - foot);
    // A phone's cards are narrow: the strips of covered cards stay big enough to tap.
    const narrow = width < 600;
    const downStep = Math.max(narrow ? 8 : 4, cardH * 0.12);
    const minUp = narrow ? 24 : 17;
    // The corner's rank is this tall (style.css: clamp(11px, 0.3 card, 19px); a phone's at
    // least 14px); a step less than that and a few pixels more cuts it (Q reads as O).
    const rank = width < 600 ? Math.max(14, cardW * 0.42) : Math.min(19, Math.max(11, cardW * 0.3));
    const readable = rank + 6;
    let tallest = cardH;
    this.state.columns.forEach((column, i) => {
      // A laid-open column's face-down cards are spaced like face-up ones, to be read.
      const down = column.down ? 0 : column.hidden;
      const up = column.cards.length + column.hidden - down + (column.dealt || 0);
      let upStep = Math.max(cardH * 0.26, minUp);
      const need = down * downStep + Math.max(up - 1, 0) * upStep + cardH;
      // A laid-open column (a race's end, below the result) is read, not played: it keeps
      // its full steps and the page scrolls (on a phone a squeezed one cut every rank).
      if (need > room && up > 1 && !column.down) {
        // Never so tight that a rank is unreadable (Q read as O at 10 px): the page scrolls.
        upStep = Math.max(readable, (room - cardH - down * downStep) / (up - 1));
      }
      let y = 0;
      const children = /** @type {HTMLCollectionOf<HTMLElement>} */ (this.cols[i].children);
      for (let k = 0; k < children.length; k += 1) {
        // Written only where it changed: a kept card keeps its place (and its style).
        if (this.tops.get(children[k]) !== y) {
          this.tops.set(children[k], y);
          children[k].style.top = `${y}px`;
        }
        y += k < down ? downStep : upStep;
      }
      const last = children.length > down ? upStep : downStep; // the step after the last card
      const height = children.length ? y - last + cardH : cardH;
      tallest = Math.max(tallest, height);
    });
    // A table played on is as tall as the room it has, whatever its columns: a column growing
    // never moves what is below it (cumulative layout shift 0 while playing).
    const height = `${this.readOnly ? tallest + 4 : Math.max(tallest + 4, room)}px`;
    if (this.columns.style.height !== height) this.columns.style.height = height;
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

  // --- pointer: tap-tap, drag and drop, double-tap ---------------------------------------
  /** @param {PointerEvent} e */
  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    const target = /** @type {Element} */ (e.target);
    const card = target.closest('.card.up');
    const col = target.closest('.column');
    if (!col) return;
    const from = Number(/** @type {HTMLElement} */ (col).dataset.col);
    if (card && this.state?.columns[from]?.dealt) return; // covered by cards still face down
    if (!card || (this.selection && this.selection.col !== from)) {
      // A face-down card, an empty column, or any column but the one of the cards picked
      // up: a destination only, moved to as the finger comes down, not when it lifts.
      this.lastTap = null;
      this.tapColumn(from);
      return;
    }
    e.preventDefault();
    this.drag = {
      from,
      count: Number(/** @type {HTMLElement} */ (card).dataset.count),
      x: e.clientX,
      y: e.clientY,
      pointerId: e.pointerId,
      ghost: null,
      move: (ev) => this.pointerMove(ev),
      up: (ev) => this.pointerUp(ev),
      cancel: () => this.endDrag(),
    };
    window.addEventListener('pointermove', this.drag.move);
    window.addEventListener('pointerup', this.drag.up);
    window.addEventListener('pointercancel', this.drag.cancel);
  }

  /** @param {PointerEvent} e */
  pointerMove(e) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!drag.ghost && Math.hypot(dx, dy) < DRAG_START_PX) return;
    drag.ghost ??= this.makeGhost(drag.from, drag.count);
    drag.ghost.style.transform = `translate(${dx}px, ${dy}px)`;
  }

  /**
   * The cards being dragged, drawn under the pointer (the originals fade).
   * @param {number} from
   * @param {number} count
   */
  makeGhost(from, count) {
    const cards = Array.from(this.cols[from].querySelectorAll('.card.up')).slice(-count);
    const first = cards[0].getBoundingClientRect();
    const ghost = h('div', { class: 'ghost', 'aria-hidden': 'true' });
    ghost.style.left = `${first.left}px`;
    ghost.style.top = `${first.top}px`;
    cards.forEach((card) => {
      const copy = /** @type {HTMLElement} */ (card.cloneNode(true));
      copy.style.top = `${card.getBoundingClientRect().top - first.top}px`;
      ghost.append(copy);
      card.classList.add('lifted');
    });
    this.el.append(ghost);
    return ghost;
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    const dragged = Boolean(drag.ghost);
    this.endDrag();
    if (!dragged) {
      this.tapCard(drag.from, drag.count);
      return;
    }
    const target = /** @type {HTMLElement | null | undefined} */ (
      document.elementFromPoint(e.clientX, e.clientY)?.closest('.column'));
    const to = target ? Number(target.dataset.col) : null;
    this.select(null);
    if (to !== null && to !== drag.from) this.handlers.move?.(drag.from, to, drag.count);
  }

  endDrag() {
    const drag = this.drag;
    if (!drag) return;
    window.removeEventListener('pointermove', drag.move);
    window.removeEventListener('pointerup', drag.up);
    window.removeEventListener('pointercancel', drag.cancel);
    drag.ghost?.remove();
    this.el.querySelectorAll('.lifted').forEach((c) => c.classList.remove('lifted'));
    this.drag = null;
  }

  /**
   * @param {number} col
   * @param {number} count
   */
  tapCard(col, count) {
    const now = performance.now();
    const last = this.lastTap;
    this.lastTap = { col, count, at: now };
    if (last && last.col === col && last.count === count && now - last.at < DOUBLE_TAP_MS) {
      this.lastTap = null;
      this.select(null);
      this.handlers.oneTap?.(col, count);
      return;
    }
    const sel = this.selection;
    if (sel && sel.col !== col) {
      this.lastTap = null; // this tap was a destination, not the first half of a double-tap
      this.select(null);
      this.handlers.move?.(sel.col, col, sel.count);
    } else if (this.oneTap) {
      this.lastTap = null;
      this.select(null);
      this.handlers.oneTap?.(col, count);
    } else if (sel && sel.count === count) {
      this.select(null);
    } else {
      this.select({ col, count });
    }
  }

  /** @param {number} col */
  tapColumn(col) {
    const sel = this.selection;
    if (sel && sel.col !== col) {
      this.select(null);
      this.handlers.move?.(sel.col, col, sel.count);
    }
  }

  // --- keyboard ----------------------------------------------------------------------------
  /** @param {KeyboardEvent} e */
  keyDown(e) {
    const target = /** @type {Element} */ (e.target);
    const col = /** @type {HTMLElement | null} */ (target.closest('.column'));
    if (!col || e.ctrlKey || e.metaKey || e.altKey) return;
    const i = Number(col.dataset.col);
    /** @param {number} j */
    const focus = (j) => {
      this.cols.forEach((c, k) => c.setAttribute('tabindex', k === j ? '0' : '-1'));
      this.cols[j].focus();
    };
    const column = this.state?.columns[i];
    const size = column && !column.dealt ? column.cards.length : 0; // dealt: faces unknown
    const sel = this.selection;
    let handled = true;
    if (e.key === 'ArrowRight') focus((i + 1) % 10);
    else if (e.key === 'ArrowLeft') focus((i + 9) % 10);
    else if (/^[0-9]$/.test(e.key)) focus((Number(e.key) + 9) % 10);
    else if (e.key === 'ArrowUp' && sel && sel.col === i) {
      this.select({ col: i, count: Math.min(sel.count + 1, size) });
    } else if (e.key === 'ArrowDown' && sel && sel.col === i && sel.count > 1) {
      this.select({ col: i, count: sel.count - 1 });
    } else if (e.key === 'Enter' || e.key === ' ') {
      if (sel && sel.col !== i) {
        this.select(null);
        this.handlers.move?.(sel.col, i, sel.count);
      } else if (sel) this.select(null);
      else if (size) this.select({ col: i, count: 1 });
    } else if (e.key === '.') {
      this.select(null);
      this.handlers.oneTap?.(i, sel && sel.col === i ? sel.count : undefined);
    } else if (e.key === 'Escape') this.select(null);
    else handled = false;
    if (handled) e.preventDefault();
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
