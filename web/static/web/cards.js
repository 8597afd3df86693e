// @ts-check
// Cards drawn with CSS: a rank and a suit symbol, and a colour per suit (a four-colour
// deck: spades black, hearts red, diamonds blue, clubs green), so suits differ by colour
// and by symbol. Face-down cards are a CSS pattern. Nothing here knows a rule.

import { h } from './dom.js';

/** @type {Record<string, {symbol: string, name: string}>} */
export const SUITS = {
  s: { symbol: '♠', name: 'spades' },
  h: { symbol: '♥', name: 'hearts' },
  d: { symbol: '♦', name: 'diamonds' },
  c: { symbol: '♣', name: 'clubs' },
};
export { SUIT_LABEL } from './words.js';
/** @type {Record<string, string>} */
const RANKS = { A: 'A', T: '10', J: 'J', Q: 'Q', K: 'K' };
/** @type {Record<string, string>} */
const RANK_NAMES = { A: 'ace', T: '10', J: 'jack', Q: 'queen', K: 'king' };

/**
 * A card by name, for screen readers: `Ts` is "10 of spades".
 * @param {string} code  rank and suit, as the API writes a card
 */
export function cardName(code) {
  const rank = code[0];
  return `${RANK_NAMES[rank] || rank} of ${SUITS[code[1]].name}`;
}

/**
 * @param {string} code
 * @param {string} extra  more classes
 */
export function faceUp(code, extra = '') {
  const rank = RANKS[code[0]] || code[0];
  const suit = SUITS[code[1]];
  return h(
    'div',
    {
      class: `card up suit-${code[1]}${extra ? ` ${extra}` : ''}`, dataset: { card: code },
      role: 'listitem', 'aria-label': cardName(code),
    },
    h('span', { class: 'corner', 'aria-hidden': 'true' }, rank, h('b', {}, suit.symbol)),
    h('span', { class: 'pip', 'aria-hidden': 'true' }, suit.symbol),
  );
}

/** @param {string} extra  more classes */
export function faceDown(extra = '') {
  return h('div', {
    class: `card back${extra ? ` ${extra}` : ''}`, role: 'listitem', 'aria-label': 'face-down card',
  });
}

/**
 * A removed run, shown as its king.
 * @param {string} suit  s, h, d or c
 */
export function runBadge(suit) {
  return h(
    'div',
    { class: `run suit-${suit}`, title: `A run of ${SUITS[suit].name}` },
    h('span', { 'aria-hidden': 'true' }, 'K', SUITS[suit].symbol),
  );
}
