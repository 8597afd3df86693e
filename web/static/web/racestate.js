// @ts-check
// A race table's state apart from its page (race.js): what each kind of the table's events
// does to the table as last described (EVENTS), the line the page says of it, and the
// notation of a laid-open table. No DOM: tests/js hold it without a browser.

import { SUIT_LABEL } from './words.js';

/**
 * @import { EventData, Position, RaceEvent, RaceTable, Racer, Seat, SeatRef } from './api.js'
 */

/** The counts the others may know of a racer's table, and their column headings. */
/** @type {[keyof import('./api.js').Counts, string][]} */
export const COUNTS = [['runs_removed', 'Runs'], ['turned', 'Turned'], ['moves', 'Moves'],
  ['deals', 'Deals'], ['score', 'Score']];

/**
 * What the table looked like to an event of a player's: their seat, and their racer in the
 * race under way (none once it is over).
 * @typedef {object} Target
 * @property {RaceTable} table  as last described; a `patch` changes it in place
 * @property {Seat | undefined} seat
 * @property {Racer | null | undefined} racer
 */

/**
 * What one kind of event does (lila's round socket keeps its handlers the same way: one map
 * keyed by the event's type). `patch`: the change, made to the table in place, from the
 * event alone; a kind without one has the whole table read again (so does a kind not here).
 * `news`: the line the screen says (`who`: "You" or the player's name). `turnOver`: the
 * racer's own table is read again (its cards have turned over).
 * @template D
 * @typedef {object} EventHandler
 * @property {(d: D, at: Target) => void} [patch]
 * @property {(d: D, who: string) => string} [news]
 * @property {boolean} [turnOver]
 */

/**
 * @param {boolean} connected
 * @returns {EventHandler<SeatRef>['patch']}
 */
const connection = (connected) => (_d, { seat, racer }) => {
  if (!seat) return;
  seat.connected = connected;
  if (racer) racer.connected = connected;
};

/** @type {{[K in keyof EventData]: EventHandler<EventData[K]>}} */
const EVENTS = {
  seated: { news: (_d, who) => `${who} sat down.` },
  stood: { news: (_d, who) => `${who} stood up.` },
  ready: {
    patch: (d, { seat }) => { if (seat) seat.ready = d.ready; },
    news: (d, who) => `${who} ${d.ready ? 'is ready' : 'is not ready'}.`,
  },
  gone: { patch: connection(false), news: (_d, who) => `${who} lost the connection.` },
  back: { patch: connection(true), news: (_d, who) => `${who} is connected.` },
  settings: {
    news: (d) => {
      const limit = d.time_limit_s ? `${d.time_limit_s / 60} min` : 'no time limit';
      return `New settings: ${SUIT_LABEL[d.suits]}, ${limit}`
        + `${d.deal_over_gap ? ', GameLake end game' : ''}.`;
    },
  },
  countdown: {
    news: () => 'The race is about to start: the cards turn over for everyone at once.',
  },
  started: {
    patch: (d, { table }) => {
      if (!table.race || table.race.number !== d.race) return;
      table.race.status = 'racing';
      table.status = 'racing';
    },
    news: () => 'Go!',
    turnOver: true,
  },
  progress: {
    patch: (d, { racer }) => {
      if (!racer) return;
      for (const [key] of COUNTS) racer[key] = d[key];
      racer.actions = d.actions;
    },
  },
  draw_offered: {
    patch: (d, { table }) => { if (table.race) table.race.draw_offer = { accepted: d.accepted }; },
    news: (d, who) => `${who} ${d.accepted.length > 1 ? 'accepted' : 'offered'} a draw.`,
  },
  draw_declined: {
    patch: (_d, { table }) => { if (table.race) table.race.draw_offer = null; },
    news: (d, who) => (d.reason === 'action'
      ? `The draw is off: ${who} played on.`
      : `${who} declined the draw.`),
  },
  out: {
    patch: (d, { racer }) => {
      if (!racer) return;
      racer.state = 'out';
      racer.out_reason = d.reason;
    },
    news: (d, who) => `${who} ${d.reason === 'resigned' ? 'resigned' : 'left and is out'}.`,
  },
  finished: { news: () => 'The race is over.' },
  again: { news: () => 'Again! The seats have moved round by one.' },
};

/**
 * The handler of an event's kind (none for a kind this client does not know).
 * @param {string} kind
 * @returns {EventHandler<any> | undefined}
 */
function handlerOf(kind) {
  return Object.hasOwn(EVENTS, kind) ? EVENTS[/** @type {keyof EventData} */ (kind)] : undefined;
}

/**
 * What an event of the stream did to the table.
 * @typedef {object} Applied
 * @property {'old' | 'patched' | 'read'} status  `old`: already in the table; `patched`: done
 *   in place from the event alone; `read`: the whole table is to be read again
 * @property {string | null} news  the line the page says
 * @property {boolean} turnOver  the racer's own table is to be read again
 */

/**
 * One event of the table's stream, done to the table as EVENTS says.
 * @param {RaceTable} table  as last described; patched in place
 * @param {RaceEvent} event
 * @param {string | null} me  the player looking: "You" in the news
 * @returns {Applied}
 */
export function applyEvent(table, event, me) {
  if (event.seq <= table.seq) return { status: 'old', news: null, turnOver: false };
  const handler = handlerOf(event.event);
  const d = event.data;
  /** @type {Applied['status']} */
  let status = 'read';
  if (handler?.patch) {
    const race = table.race;
    handler.patch(d, {
      table,
      seat: table.seats.find((s) => s.player === d.player),
      racer: race && race.status !== 'finished'
        ? race.racers.find((r) => r.player === d.player)
        : null,
    });
    table.seq = event.seq;
    status = 'patched';
  }
  return {
    status,
    news: handler?.news ? handler.news(d, d.player === me ? 'You' : d.player) : null,
    turnOver: Boolean(handler?.turnOver),
  };
}

/**
 * One of the table's controls, in the order shown: a command's button (`command` and `body`
 * as POST /races/{code}/{command} takes them), a line of text, the resign pair (asked twice),
 * or the opener's settings toggle (`settings`: the form is open).
 * @typedef {{command: string, label: string, body: object, cls: string}
 *   | {text: string, cls: string} | {resign: true} | {settings: boolean}} Control
 */

/**
 * What the player may do at the table now.
 * @param {RaceTable} m  the table as last described
 * @param {string | null} me
 * @param {boolean} settingsOpen  the opener's settings form is open
 * @returns {Control[]}
 */
export function controlsOf(m, me, settingsOpen) {
  const race = m.race;
  const mine = m.seats.find((s) => s.player === me);
  const iOpened = m.opener === me;
  const myRacer = race && race.status !== 'finished'
    ? race.racers.find((r) => r.player === me)
    : null;
  /** @type {Control[]} */
  const out = [];
  /**
   * @param {string} label
   * @param {string} command
   * @param {object} body
   * @param {string} cls
   */
  const btn = (label, command, body = {}, cls = '') => out.push({ command, label, body, cls });
  /** @param {string} text */
  const note = (text) => out.push({ text, cls: 'small' });
  if (m.status === 'open' || m.status === 'finished') {
    if (!mine && m.seats.length < 4 && m.status === 'open') btn('Sit down', 'sit', {}, 'primary');
    if (!mine && m.status === 'finished') {
      note('Newcomers sit down once the opener changes the settings.');
    }
    if (mine && !iOpened && m.status === 'open') {
      if (mine.ready) btn('Not ready', 'unready');
      else btn('Ready', 'ready', {}, 'primary');
    }
    if (iOpened && m.status === 'open') btn('Start the race', 'start', {}, 'primary');
    if (iOpened && m.status === 'finished') btn('Play again', 'again', {}, 'primary');
    if (mine && !iOpened) btn('Stand up', 'stand');
    if (iOpened) out.push({ settings: settingsOpen });
    if (m.status === 'finished' && !iOpened) note(`${m.opener} may start the next race.`);
    if (m.status === 'open' && !iOpened && mine) {
      note(`${m.opener} starts the race when everyone is ready.`);
    }
  } else if (race && myRacer && myRacer.state === 'racing' && race.status === 'racing') {
    const offer = race.draw_offer;
    if (!offer) btn('Offer a draw', 'draw', { accept: true });
    else if (!offer.accepted.includes(me || '')) {
      out.push({ text: `A draw is offered (accepted by ${offer.accepted.join(', ')}).`,
        cls: 'draw-offer' });
      btn('Accept the draw', 'draw', { accept: true }, 'primary');
      btn('Decline', 'draw', { accept: false });
    } else {
      out.push({ text: 'You offered a draw: waiting for the others.', cls: 'draw-offer' });
      btn('Take it back', 'draw', { accept: false });
    }
    out.push({ resign: true });
  } else if (myRacer && myRacer.state === 'out') {
    note('You are out of this race: the others race on.');
  }
  return out;
}

/**
 * Whether two plain values (what a page drew, what it would draw now) are equal, member by
 * member.
 * @param {unknown} a
 * @param {unknown} b
 * @returns {boolean}
 */
export function same(a, b) {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.hasOwn(b, k)
    && same(/** @type {Record<string, unknown>} */ (a)[k],
      /** @type {Record<string, unknown>} */ (b)[k]));
}

/**
 * An invite code, typed or pasted (a whole link works too).
 * @param {string} text
 */
export function codeFrom(text) {
  const match = text.trim().match(/([A-Za-z0-9]+)\/?$/);
  return match ? match[1].toUpperCase() : '';
}

/**
 * A laid-open position's notation (`<suits> <down|up>/... <stock> <removed>`) to draw.
 * @param {string} text
 * @returns {Position}
 */
export function parsePosition(text) {
  const [, cols, stock, removed] = text.split(' ');
  /** @param {string} s */
  const cards = (s) => s.match(/../g) || [];
  return {
    columns: cols.split('/').map((col) => {
      const [down, up] = col.split('|');
      const d = cards(down);
      return { hidden: d.length, down: d, cards: cards(up) };
    }),
    deals_left: stock === '-' ? 0 : Math.ceil(cards(stock).length / 10),
    removed_suits: removed === '-' ? [] : removed.split(''),
  };
}
