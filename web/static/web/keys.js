// @ts-check
// What a key means (no DOM): on a column of the table (choose a column, pick up, put down,
// one-tap), and on the game's page (deal, undo, hint, a new game). tableinput.js and game.js
// hear the keys and do what these answer.

import { move, oneTap } from './picking.js';

/** @import { Pick, Selection } from './picking.js' */

/**
 * @typedef {Pick & {focus?: number}} ColumnKey  a pick, or the column to move the focus to
 * @typedef {'undo' | 'deal' | 'hint' | 'next-hint' | 'new-game' | 'cancel'} GameCommand
 * @typedef {{key: string, ctrlKey: boolean, shiftKey: boolean, metaKey: boolean,
 *   altKey: boolean}} KeyPress
 */

/**
 * A key on column `col`: arrows or 1-9/0 choose a column, Enter (or Space) picks up its top
 * card (Up/Down: more or fewer cards) and Enter on another column moves there, "." sends a
 * one-tap, Esc drops the selection. null: not the table's key.
 * @param {string} key
 * @param {number} col
 * @param {Selection | null} selection
 * @param {number} size  the face-up cards that may be picked up (0 while a deal's are unknown)
 * @returns {ColumnKey | null}
 */
export function columnKey(key, col, selection, size) {
  const sel = selection;
  if (key === 'ArrowRight') return { focus: (col + 1) % 10 };
  if (key === 'ArrowLeft') return { focus: (col + 9) % 10 };
  if (/^[0-9]$/.test(key)) return { focus: (Number(key) + 9) % 10 };
  if (key === 'ArrowUp' && sel && sel.col === col) {
    return { select: { col, count: Math.min(sel.count + 1, size) } };
  }
  if (key === 'ArrowDown' && sel && sel.col === col && sel.count > 1) {
    return { select: { col, count: sel.count - 1 } };
  }
  if (key === 'Enter' || key === ' ') {
    if (sel && sel.col !== col) return { select: null, intent: move(sel.col, col, sel.count) };
    if (sel) return { select: null };
    return size ? { select: { col, count: 1 } } : {};
  }
  if (key === '.') {
    return { select: null, intent: oneTap(col, sel && sel.col === col ? sel.count : undefined) };
  }
  if (key === 'Escape') return { select: null };
  return null;
}

/**
 * A key on the game's page: D deal, Z, U or Ctrl+Z undo, H hint, Shift+H next hint, N new
 * game, Esc cancel; a race has only D and Esc. null: not the page's key.
 * @param {KeyPress} e
 * @param {boolean} race
 * @returns {GameCommand | null}
 */
export function gameKey(e, race) {
  if (e.metaKey || e.altKey) return null;
  const key = e.key.toLowerCase();
  if (race) {
    if (e.ctrlKey) return null;
    if (key === 'd') return 'deal';
    return key === 'escape' ? 'cancel' : null;
  }
  if (e.ctrlKey) return key === 'z' ? 'undo' : null;
  if (key === 'z' || key === 'u') return 'undo';
  if (key === 'd') return 'deal';
  if (key === 'h') return e.shiftKey ? 'next-hint' : 'hint';
  if (key === 'n') return 'new-game';
  return key === 'escape' ? 'cancel' : null;
}

/**
 * The keys, as the page's help says them.
 * @param {boolean} race
 */
export function keysHelp(race) {
  return race
    ? 'Keys: ←/→ or 1–9, 0 pick a column; Enter picks up its top card (↑/↓ more or fewer) '
      + 'and Enter on another column moves; "." lets the server choose; D deal, Esc cancel. '
      + 'A race has no undo and no hints.'
    : 'Keys: ←/→ or 1–9, 0 pick a column; Enter picks up its top card (↑/↓ more or '
      + 'fewer) and Enter on another column moves; "." lets the server choose; D deal, '
      + 'Z (or U) undo, H hint, Shift+H next hint, N new game, Esc cancel.';
}
