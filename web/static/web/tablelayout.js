// @ts-check
// The table's geometry, worked out from numbers (no DOM): the cards' size for the columns'
// width, and each card's top so that long columns squeeze to stay on screen while every rank
// stays readable. table.js measures the page, asks this, and writes what it answers.

/** @import { Column } from './api.js' */

/** Narrower cards show one big pip, not a laid-out face (cards.js). */
export const SMALL_CARD_PX = 48;
/** The foot of the screen kept free of cards for a hint or a notice, in CSS px. */
export const MESSAGE_ROOM = 84;
/** Below this width the table is a phone's: cards first, bigger strips to tap. */
const NARROW_PX = 600;
/** A long run, for the grown face-up step: twelve face-up cards under five face-down. */
const GROWN_RUN = 12;
const GROWN_DOWN = 5;
/** The grown face-up step at most, as a share of the card's height. */
const GROWN_SHARE_NARROW = 0.6;
const GROWN_SHARE = 0.3;

/**
 * @typedef {object} CardSize
 * @property {number} gap  between two columns
 * @property {number} cardW
 * @property {number} cardH
 * @property {number} pitch  from one column to the next: a card and a gap
 * @property {boolean} small  too narrow for a face's pips and figures
 *
 * @typedef {object} Room  where the table is and what is around it
 * @property {number} width  the columns' width
 * @property {number} top  the columns' top on the page
 * @property {number} viewHeight  the window's inner height
 * @property {boolean} readOnly  a table read, not played on (no room kept for messages)
 *
 * @typedef {object} Fitted
 * @property {CardSize} size
 * @property {number[][]} tops  each column's cards' tops, in CSS px from the column's top
 * @property {number} height  the columns' height
 */

/**
 * The cards' size for columns `width` px wide: ten cards and nine gaps.
 * @param {number} width
 * @returns {CardSize}
 */
export function cardSize(width) {
  const gap = width < NARROW_PX ? 3 : Math.min(10, width * 0.012); // a phone: cards first
  const cardW = (width - gap * 9) / 10;
  return { gap, cardW, cardH: cardW * 1.4, pitch: cardW + gap, small: cardW < SMALL_CARD_PX };
}

/**
 * Card overlap fitted to the space: each column's cards' tops and the columns' height.
 * @param {Column[]} columns  the position drawn
 * @param {number[]} drawn  how many elements each column holds (cards, or an empty slot)
 * @param {Room} room
 * @returns {Fitted}
 */
export function fitTable(columns, drawn, { width, top, viewHeight, readOnly }) {
  const size = cardSize(width);
  const { cardW, cardH } = size;
  // A table played on keeps the foot of the screen for hints and notices (game.js).
  const foot = readOnly ? 12 : MESSAGE_ROOM;
  const space = Math.max(cardH * 3.5, viewHeight - top - foot);
  // A phone's cards are narrow: the strips of covered cards stay big enough to tap.
  const narrow = width < NARROW_PX;
  const downStep = Math.max(narrow ? 8 : 4, cardH * 0.12);
  const minUp = narrow ? 24 : 17;
  // The corner's rank is this tall (style.css: clamp(11px, 0.3 card, 19px); a phone's at
  // least 14px); a step less than that and a few pixels more cuts it (Q reads as O).
  const rank = narrow ? Math.max(14, cardW * 0.42) : Math.min(19, Math.max(11, cardW * 0.3));
  const readable = rank + 6;
  // The step between face-up cards grows with the free height: as far as a run of GROWN_RUN
  // face-up cards under GROWN_DOWN face-down ones still fits the room, up to a share of the
  // card (a phone's: its corner and the top of its big pip; a desktop's: the corner and a
  // margin). A column needing more room than that squeezes alone, below.
  const free = (space - cardH - GROWN_DOWN * downStep) / (GROWN_RUN - 1);
  const fullUp = Math.max(cardH * 0.26, minUp,
    Math.min(free, cardH * (narrow ? GROWN_SHARE_NARROW : GROWN_SHARE)));
  let tallest = cardH;
  const tops = columns.map((column, i) => {
    // A laid-open column's face-down cards are spaced like face-up ones, to be read.
    const down = column.down ? 0 : column.hidden;
    const up = column.cards.length + column.hidden - down + (column.dealt || 0);
    let upStep = fullUp;
    const need = down * downStep + Math.max(up - 1, 0) * upStep + cardH;
    // A laid-open column (a race's end, below the result) is read, not played: it keeps
    // its full steps and the page scrolls (on a phone a squeezed one cut every rank).
    if (need > space && up > 1 && !column.down) {
      // Never so tight that a rank is unreadable (Q read as O at 10 px): the page scrolls.
      upStep = Math.max(readable, (space - cardH - down * downStep) / (up - 1));
    }
    const count = drawn[i] ?? 0;
    /** @type {number[]} */
    const at = [];
    let y = 0;
    for (let k = 0; k < count; k += 1) {
      at.push(y);
      y += k < down ? downStep : upStep;
    }
    const last = count > down ? upStep : downStep; // the step after the last card
    tallest = Math.max(tallest, count ? y - last + cardH : cardH);
    return at;
  });
  // A table played on is as tall as the room it has, whatever its columns: a column growing
  // never moves what is below it (cumulative layout shift 0 while playing).
  const height = readOnly ? tallest + 4 : Math.max(tallest + 4, space);
  return { size, tops, height };
}
