// @ts-check
// What a tap on the table means (no DOM): pick cards up, put them down, move them, or a
// one-tap. tableinput.js turns the pointer's events into these calls and does what they
// answer; the table draws the selection.
//
// With one-tap on (the default), a tap on a face-up card moves it and the cards on it to the
// best place (the page decides; the server picks when there are several). With it off, a tap
// picks the cards up and a tap on another column moves them there, and a double-tap asks for
// one-tap. Either way: drag the card onto a column.

/** Two taps on the same cards within this many ms are a double-tap. */
export const DOUBLE_TAP_MS = 350;

/**
 * @typedef {{col: number, count: number}} Selection  the cards picked up
 * @typedef {{type: 'move', from: number, to: number, count: number}
 *   | {type: 'oneTap', from: number, count: number | undefined}} Intent
 *   what the player asked for (oneTap: the server picks where to; count undefined: how many)
 * @typedef {object} Pick  what a gesture does
 * @property {Selection | null} [select]  the selection it leaves (absent: unchanged)
 * @property {Intent} [intent]  asked for once the selection is set
 */

/**
 * @param {number} from
 * @param {number} to
 * @param {number} count
 * @returns {Intent}
 */
export const move = (from, to, count) => ({ type: 'move', from, to, count });

/**
 * @param {number} from
 * @param {number | undefined} count
 * @returns {Intent}
 */
export const oneTap = (from, count) => ({ type: 'oneTap', from, count });

/**
 * What a pointer coming down on column `col` starts: nothing (cards still face down from a
 * deal cover it), a tap on the column as a destination (a face-down card, an empty column, or
 * any column but the one of the cards picked up: moved to as the finger comes down, not when
 * it lifts), or a press on face-up cards (a tap or a drag, known when it lifts).
 * @param {Selection | null} selection
 * @param {number} col
 * @param {boolean} onCard  on a face-up card
 * @param {boolean} covered  the column's faces are not known yet (dealt)
 * @returns {'none' | 'column' | 'cards'}
 */
export function pressOn(selection, col, onCard, covered) {
  if (onCard && covered) return 'none';
  if (!onCard || (selection && selection.col !== col)) return 'column';
  return 'cards';
}

/** The taps' memory: the one-tap setting and the last tap, for a double-tap. */
export class Taps {
  constructor() {
    /** One tap on a card moves it (false: it picks the card up). */
    this.oneTap = false;
    /** @type {(Selection & {at: number}) | null} */
    this.last = null;
  }

  /**
   * A tap on face-up cards: `count` of them, on top of column `col`, at `now` ms.
   * @param {Selection | null} selection
   * @param {number} col
   * @param {number} count
   * @param {number} now
   * @returns {Pick}
   */
  cards(selection, col, count, now) {
    const last = this.last;
    this.last = { col, count, at: now };
    if (last && last.col === col && last.count === count && now - last.at < DOUBLE_TAP_MS) {
      this.last = null;
      return { select: null, intent: oneTap(col, count) };
    }
    if (selection && selection.col !== col) {
      this.last = null; // this tap was a destination, not the first half of a double-tap
      return { select: null, intent: move(selection.col, col, selection.count) };
    }
    if (this.oneTap) {
      this.last = null;
      return { select: null, intent: oneTap(col, count) };
    }
    if (selection && selection.count === count) return { select: null };
    return { select: { col, count } };
  }

  /**
   * A tap on column `col` as a destination: the cards picked up move there.
   * @param {Selection | null} selection
   * @param {number} col
   * @returns {Pick}
   */
  column(selection, col) {
    this.last = null;
    if (selection && selection.col !== col) {
      return { select: null, intent: move(selection.col, col, selection.count) };
    }
    return {};
  }
}

/**
 * Cards dragged from column `from` and let go over column `to` (null: over none).
 * @param {number} from
 * @param {number | null} to
 * @param {number} count
 * @returns {Pick}
 */
export function dropped(from, to, count) {
  if (to === null || to === from) return { select: null };
  return { select: null, intent: move(from, to, count) };
}
