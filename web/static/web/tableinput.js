// @ts-check
// The table's input: the pointer (a tap, a tap on a destination, a drag and its drop, a
// double-tap) and the keys on a column, turned into what picking.js and keys.js say they
// mean: the table's selection set, then the owner's intent called (table.js holds both).

import { h } from './dom.js';
import { columnKey } from './keys.js';
import { Taps, dropped, pressOn } from './picking.js';

/**
 * @import { Table } from './table.js'
 * @import { Pick } from './picking.js'
 */

/** A pointer moved this far (CSS px) while down on a card drags it. */
const DRAG_START_PX = 6;

/**
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

export class TableInput {
  /** @param {Table} table  listened to on its columns */
  constructor(table) {
    this.table = table;
    this.taps = new Taps();
    /** @type {Drag | null} */
    this.drag = null;
    table.columns.addEventListener('pointerdown', (e) => this.pointerDown(e));
    table.columns.addEventListener('keydown', (e) => this.keyDown(e));
    table.columns.addEventListener('dblclick', (e) => e.preventDefault());
  }

  destroy() {
    this.endDrag();
  }

  /**
   * Do what a gesture means: the selection first (drawn, announced), then the intent.
   * @param {Pick} pick
   */
  apply(pick) {
    const { table } = this;
    if (pick.select !== undefined) table.select(pick.select);
    const intent = pick.intent;
    if (intent?.type === 'move') table.handlers.move?.(intent.from, intent.to, intent.count);
    else if (intent?.type === 'oneTap') table.handlers.oneTap?.(intent.from, intent.count);
  }

  /** @param {PointerEvent} e */
  pointerDown(e) {
    if (e.button !== undefined && e.button !== 0) return;
    const target = /** @type {Element} */ (e.target);
    const card = /** @type {HTMLElement | null} */ (target.closest('.card.up'));
    const col = /** @type {HTMLElement | null} */ (target.closest('.column'));
    if (!col) return;
    const from = Number(col.dataset.col);
    const { selection, state } = this.table;
    const press = pressOn(selection, from, Boolean(card), Boolean(state?.columns[from]?.dealt));
    if (press === 'none') return;
    if (press === 'column' || !card) {
      this.apply(this.taps.column(selection, from));
      return;
    }
    e.preventDefault();
    this.drag = {
      from,
      count: Number(card.dataset.count),
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
    const cards = Array.from(this.table.cols[from].querySelectorAll('.card.up')).slice(-count);
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
    this.table.el.append(ghost);
    return ghost;
  }

  /** @param {PointerEvent} e */
  pointerUp(e) {
    const drag = this.drag;
    if (!drag || e.pointerId !== drag.pointerId) return;
    const dragged = Boolean(drag.ghost);
    this.endDrag();
    if (!dragged) {
      this.apply(this.taps.cards(this.table.selection, drag.from, drag.count, performance.now()));
      return;
    }
    const target = /** @type {HTMLElement | null | undefined} */ (
      document.elementFromPoint(e.clientX, e.clientY)?.closest('.column'));
    this.apply(dropped(drag.from, target ? Number(target.dataset.col) : null, drag.count));
  }

  endDrag() {
    const drag = this.drag;
    if (!drag) return;
    window.removeEventListener('pointermove', drag.move);
    window.removeEventListener('pointerup', drag.up);
    window.removeEventListener('pointercancel', drag.cancel);
    drag.ghost?.remove();
    this.table.el.querySelectorAll('.lifted').forEach((c) => c.classList.remove('lifted'));
    this.drag = null;
  }

  /** @param {KeyboardEvent} e */
  keyDown(e) {
    const target = /** @type {Element} */ (e.target);
    const col = /** @type {HTMLElement | null} */ (target.closest('.column'));
    if (!col || e.ctrlKey || e.metaKey || e.altKey) return;
    const i = Number(col.dataset.col);
    const column = this.table.state?.columns[i];
    const size = column && !column.dealt ? column.cards.length : 0; // dealt: faces unknown
    const said = columnKey(e.key, i, this.table.selection, size);
    if (!said) return;
    e.preventDefault();
    if (said.focus !== undefined) {
      const to = said.focus;
      this.table.cols.forEach((c, k) => c.setAttribute('tabindex', k === to ? '0' : '-1'));
      this.table.cols[to].focus();
    }
    this.apply(said);
  }
}
