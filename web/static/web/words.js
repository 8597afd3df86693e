// @ts-check
// What the client says in words: a suit mode, a card, an action (the game's notices, a hint,
// a replay's steps), a sentence, a time, a place. No DOM: the screens' state modules say it too.

/** @import { LoggedAction } from './api.js' */

/**
 * A game's or a table's suit mode (1, 2 or 4 suits), as the screens name it.
 * @type {Record<string, string>}
 */
export const SUIT_LABEL = { 1: '1 suit', 2: '2 suits', 4: '4 suits' };

/**
 * An action in words: "move 3 cards from column 2 to column 5".
 * @param {LoggedAction} action
 */
export function describe(action) {
  if (action.type === 'deal') return 'deal from the stock';
  if (action.type === 'undo') return 'undo';
  if (action.type === 'hint') return 'asked for a hint';
  const cards = (action.count ?? 0) > 1 ? `${action.count} cards` : 'the card';
  return `move ${cards} from column ${Number(action.from) + 1} to column ${Number(action.to) + 1}`;
}

/** @type {Record<string, string>} */
export const SUIT_NAMES = { s: 'spades', h: 'hearts', d: 'diamonds', c: 'clubs' };
/** @type {Record<string, string>} */
const RANK_NAMES = { A: 'ace', T: '10', J: 'jack', Q: 'queen', K: 'king' };

/**
 * A card by name, for screen readers: `Ts` is "10 of spades".
 * @param {string} code  rank and suit, as the API writes a card
 */
export function cardName(code) {
  const rank = code[0];
  return `${RANK_NAMES[rank] || rank} of ${SUIT_NAMES[code[1]]}`;
}

/** @type {Record<number, string>} */
const ORDINAL_TAIL = { 1: 'st', 2: 'nd', 3: 'rd' };

/** 1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, ... 21st. @param {number} n */
export function ordinal(n) {
  const tail = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (ORDINAL_TAIL[n % 10] || 'th');
  return `${n}${tail}`;
}

/**
 * A sentence as people write one: a capital first, a full stop last.
 * @param {string} text
 */
export function sentence(text) {
  const t = text.trim();
  if (!t) return t;
  const capital = t[0].toUpperCase() + t.slice(1);
  return /[.!?…)]$/.test(capital) ? capital : `${capital}.`;
}

/**
 * A duration as m:ss, or h:mm:ss from an hour on.
 * @param {number | null | undefined} ms
 */
export function formatTime(ms) {
  const total = Math.max(0, Math.floor((ms || 0) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * A moment in words, relative to `now` while it is near ("just now", "5 minutes ago",
 * "in 3 hours", "yesterday", "in 6 days"), else its date without the time ("12 Mar 2027");
 * no seconds anywhere. `null`: "never".
 * @param {string | number | Date | null | undefined} at
 * @param {number} [now]  ms since the epoch (tests pass one)
 */
export function relativeTime(at, now = Date.now()) {
  if (at === null || at === undefined || at === '') return 'never';
  const when = new Date(at).getTime();
  if (Number.isNaN(when)) return 'never';
  const delta = when - now;
  const ahead = delta > 0;
  const span = Math.abs(delta);
  /** @param {number} n  @param {string} unit */
  const say = (n, unit) => {
    const words = `${n} ${unit}${n === 1 ? '' : 's'}`;
    return ahead ? `in ${words}` : `${words} ago`;
  };
  if (span < MINUTE) return ahead ? 'in a moment' : 'just now';
  if (span < HOUR) return say(Math.round(span / MINUTE), 'minute');
  if (span < DAY) return say(Math.round(span / HOUR), 'hour');
  const days = Math.round(span / DAY);
  if (days === 1) return ahead ? 'tomorrow' : 'yesterday';
  if (days < 14) return say(days, 'day');
  return new Date(when).toLocaleDateString(undefined,
    { day: 'numeric', month: 'short', year: 'numeric' });
}
