// @ts-check
// Cards drawn with CSS and SVG made here (no font or image is fetched): a corner with the
// rank and suit, read on every card of a column; on a card's face its pips laid out as on
// real cards, or a double-ended court figure for J, Q and K, drawn in the suit's colour (a
// four-colour deck if chosen: spades black, hearts red, diamonds blue, clubs green). On a
// table too narrow for them (a phone) a face shows one big pip instead (style.css).
// Face-down cards are a CSS pattern. Nothing here knows a rule.

import { h } from './dom.js';
import { SUIT_NAMES, cardName } from './words.js';

/** @type {Record<string, {symbol: string}>} */
export const SUITS = {
  s: { symbol: '♠' },
  h: { symbol: '♥' },
  d: { symbol: '♦' },
  c: { symbol: '♣' },
};
export { SUIT_LABEL } from './words.js';
export { cardName };
/** @type {Record<string, string>} */
const RANKS = { A: 'A', T: '10', J: 'J', Q: 'Q', K: 'K' };

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

/**
 * The card given its face's art, if it has none yet. Only a column's top card shows its face
 * (style.css), so the table gives it to that card alone: a column of SVG faces no one sees
 * was most of a slow phone's time to build a column.
 * @param {HTMLElement} card  a face-up card (faceUp)
 */
export function withFace(card) {
  if (card.lastElementChild?.classList.contains('face')) return card;
  card.append(faceArt(/** @type {string} */ (card.dataset.card)));
  return card;
}

// --- the faces: SVG in a 60 x 84 box (a card's proportions) ---------------------------------

/** Each suit's shape in a 100 x 100 box. */
const SHAPES = {
  s: 'M50 4C38 24 6 40 6 64c0 17 20 25 38 12l-7 22h26l-7-22c18 13 38 5 38-12C94 40 62 24 50 4z',
  h: 'M50 94C22 70 4 54 4 31 4 14 17 5 31 5c10 0 16 6 19 14 3-8 9-14 19-14 14 0 27 9 27 26'
    + ' 0 23-18 39-46 63z',
  d: 'M50 2 88 50 50 98 12 50z',
  c: 'M50 6a20 20 0 0 1 18 29 20 20 0 1 1 2 36c-7 0-13-3-16-8l6 35H40l6-35c-3 5-9 8-16 8a20'
    + ' 20 0 1 1 2-36A20 20 0 0 1 50 6z',
};
const LEFT = 17;
const MID = 30;
const RIGHT = 43;
/** The pip field, centred on the card (42 of 84) between the two indices. */
const TOP = 21;
const CENTRE = 42;
const BOTTOM = 63;
/** @param {number} i  0 (top) .. 3 (bottom): the rows of a 9 or a 10 */
const row4 = (i) => TOP + ((BOTTOM - TOP) * i) / 3;
const UPPER = (TOP + CENTRE) / 2;
const LOWER = (CENTRE + BOTTOM) / 2;
/** @type {Record<string, [number, number][]>} where each pip sits, as on real cards */
const PIPS = {
  A: [[MID, CENTRE]],
  2: [[MID, TOP], [MID, BOTTOM]],
  3: [[MID, TOP], [MID, CENTRE], [MID, BOTTOM]],
  4: [[LEFT, TOP], [RIGHT, TOP], [LEFT, BOTTOM], [RIGHT, BOTTOM]],
  5: [[LEFT, TOP], [RIGHT, TOP], [MID, CENTRE], [LEFT, BOTTOM], [RIGHT, BOTTOM]],
  6: [[LEFT, TOP], [RIGHT, TOP], [LEFT, CENTRE], [RIGHT, CENTRE], [LEFT, BOTTOM],
    [RIGHT, BOTTOM]],
  7: [[LEFT, TOP], [RIGHT, TOP], [MID, UPPER], [LEFT, CENTRE], [RIGHT, CENTRE],
    [LEFT, BOTTOM], [RIGHT, BOTTOM]],
  8: [[LEFT, TOP], [RIGHT, TOP], [MID, UPPER], [LEFT, CENTRE], [RIGHT, CENTRE],
    [MID, LOWER], [LEFT, BOTTOM], [RIGHT, BOTTOM]],
  9: [[LEFT, row4(0)], [RIGHT, row4(0)], [LEFT, row4(1)], [RIGHT, row4(1)], [MID, CENTRE],
    [LEFT, row4(2)], [RIGHT, row4(2)], [LEFT, row4(3)], [RIGHT, row4(3)]],
  T: [[LEFT, row4(0)], [RIGHT, row4(0)], [MID, (row4(0) + row4(1)) / 2], [LEFT, row4(1)],
    [RIGHT, row4(1)], [LEFT, row4(2)], [RIGHT, row4(2)], [MID, (row4(2) + row4(3)) / 2],
    [LEFT, row4(3)], [RIGHT, row4(3)]],
};

/**
 * One suit shape of `size` centred on (x, y); below the middle it stands on its head, as
 * on real cards.
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
function shape(suit, x, y, size) {
  const turn = y > CENTRE ? ' rotate(180 50 50)' : '';
  const at = `translate(${(x - size / 2).toFixed(2)} ${(y - size / 2).toFixed(2)})`;
  const d = SHAPES[/** @type {'s'} */ (suit)];
  return `<path d="${d}" transform="${at} scale(${size / 100})${turn}"/>`;
}

const GOLD = '#d9a521';
const SKIN = '#f4d5b4';
const INK = '#2b2b2b';
/** The robe's front: red, blue and yellow, as on real court cards. */
const PANELS = { K: '#c8102e', Q: '#2f5fb3', J: '#e2b42c' };
/** Each figure's body, its own shape: a king's broad robe with an ermine collar, a queen's
 * narrow gown with a necklace, a jack's square-shouldered tunic. */
const BODIES = {
  K: '<path d="M11 52c0-9 7-13.5 19-13.5S49 43 49 52z" fill="currentColor"/>'
    + '<path d="M20 40.5q10 4 20 0" fill="none" stroke="#fff" stroke-width="2.2"/>'
    + `<path d="M45 52V30" stroke="${GOLD}" stroke-width="1.6"/>`
    + `<circle cx="45" cy="29" r="2" fill="${GOLD}" stroke="${INK}" stroke-width=".4"/>`,
  Q: '<path d="M17 52c1-7 5-11.5 13-11.5S42 45 43 52z" fill="currentColor"/>'
    + `<path d="M26 40.5q4 4 8 0" fill="none" stroke="${GOLD}" stroke-width="1"`
    + ' stroke-dasharray="1 1"/>',
  J: '<path d="M13 52l2-8.5 8-3.5h14l8 3.5 2 8.5z" fill="currentColor"/>'
    + '<path d="M24 40h12v2.5H24z" fill="#fff"/>'
    + `<path d="M46 52V27" stroke="${INK}" stroke-width="1"/>`
    + `<path d="M46 27l3.5 3-3.5 3z" fill="${GOLD}" stroke="${INK}" stroke-width=".4"/>`,
};
/** The upper half of each court figure's head (the lower is the same turned about the middle). */
const COURTS = {
  K: `<path d="M24 30v-6.5l3 3 3-4 3 4 3-3V30z" fill="${GOLD}" stroke="${INK}" stroke-width=".4"/>`
    + '<path d="M25 36q5 9 10 0-5 3-10 0z" fill="#7b5431"/>',
  Q: '<path d="M23.5 37q-1-10 6.5-10.5 7.5.5 6.5 10.5l-1.5 4h-10z" fill="#8a3f1c"/>'
    + `<path d="M25 30.5l1-3.5 2 2 2-3 2 3 2-2 1 3.5z" fill="${GOLD}" stroke="${INK}"`
    + ' stroke-width=".4"/><circle cx="39" cy="46" r="2.2" fill="#e5484d" stroke="#2b2b2b"'
    + ' stroke-width=".4"/>',
  J: `<path d="M23.5 31.5q.5-6.5 6.5-6.5t6.5 6.5z" fill="#23408e" stroke="${INK}"`
    + ` stroke-width=".4"/><path d="M35 27q6-7 9-3" fill="none" stroke="${GOLD}"`
    + ' stroke-width="1.4" stroke-linecap="round"/>',
};

/**
 * A court card's face: a framed figure, its upper half turned about the middle for the lower,
 * drawn about (30, 52) and set centred on the card (42 of 84), between the two indices.
 * @param {string} rank  J, Q or K
 * @param {string} suit
 */
function court(rank, suit) {
  const r = /** @type {'K'} */ (rank);
  const half = BODIES[r]
    + `<path d="M24 41l6 9 6-9z" fill="${PANELS[r]}"/>`
    + `<path d="M24 41l6 9 6-9" fill="none" stroke="${GOLD}" stroke-width="1.5"/>`
    + `${rank === 'Q' ? COURTS.Q : ''}`
    + `<circle cx="30" cy="34" r="5.5" fill="${SKIN}" stroke="${INK}" stroke-width=".5"/>`
    + `<circle cx="28" cy="33.5" r=".6" fill="${INK}"/><circle cx="32" cy="33.5" r=".6"`
    + ` fill="${INK}"/>${rank === 'Q' ? '' : COURTS[r]}`
    + shape(suit, 15.5, 29, 8);
  return '<g class="court" transform="translate(30 42) scale(.92) translate(-30 -52)">'
    + '<rect x="9.5" y="22" width="41" height="60" rx="2" fill="#fbf3dc"'
    + ' stroke="currentColor" stroke-width="1"/>'
    + `<g>${half}</g><g transform="rotate(180 30 52)">${half}</g>`
    + '<path d="M10 52h40" stroke="currentColor" stroke-width=".6"/></g>';
}

/**
 * The index again at the bottom right, upside down (the top-left one is the card's HTML
 * corner, read on every card of a column; this one only on the card whose face is drawn).
 * @param {string} rank
 * @param {string} suit
 */
function mirroredIndex(rank, suit) {
  const label = RANKS[rank] || rank;
  return '<g class="index" transform="rotate(180 30 42)" font-weight="700"'
    + ' font-family="inherit"><text x="2.5" y="11" font-size="11.5"'
    + ` letter-spacing="-.3">${label}<tspan font-size="10.9">${SUITS[suit].symbol}</tspan>`
    + '</text></g>';
}

/** @type {Map<string, SVGElement>} built once per card, then copied */
const FACES = new Map();

/**
 * A card's face (pips or court figure), hidden from screen readers: the card's label says it.
 * @param {string} code
 */
function faceArt(code) {
  let face = FACES.get(code);
  if (!face) {
    const [rank, suit] = code;
    const inner = (rank === 'J' || rank === 'Q' || rank === 'K' ? court(rank, suit)
      : (PIPS[rank] || []).map(([x, y]) => shape(suit, x, y, rank === 'A' ? 26
        : rank === '9' || rank === 'T' ? 10 : 11)).join('')) + mirroredIndex(rank, suit);
    const box = document.createElement('template');
    box.innerHTML = '<svg class="face" viewBox="0 0 60 84" aria-hidden="true" focusable="false"'
      + ` fill="currentColor">${inner}</svg>`;
    face = /** @type {SVGElement} */ (box.content.firstElementChild);
    FACES.set(code, face);
  }
  return /** @type {SVGElement} */ (face.cloneNode(true));
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
    { class: `run suit-${suit}`, title: `A run of ${SUIT_NAMES[suit]}` },
    h('span', { 'aria-hidden': 'true' }, 'K', SUITS[suit].symbol),
  );
}
