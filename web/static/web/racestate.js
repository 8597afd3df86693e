// @ts-check
// A race table's state apart from its page (race.js): the table as last described and the
// server's clock (RaceTableState), what each kind of the table's events does to it (EVENTS)
// and the line the page says of it, and what the page shows of it: the settings line, the
// seats, the controls, the racers, the clock's text, the result and the notation of a
// laid-open table. No DOM: tests/js hold it without a browser.

import { SUIT_LABEL, formatTime } from './words.js';

/**
 * @import { EventData, Position, Race, RaceEvent, RaceTable, Racer, Seat, SeatRef } from './api.js'
 */

/** Where the lobby remembers the last table this device went to. */
export const LAST_TABLE_KEY = 'spider.race';

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

/** @type {Record<string, string>} */
const END_REASON = {
  won: 'the first to win the deal takes the race',
  time: 'the time ran out: most runs removed, then most cards turned, then fewest actions',
  draw: 'every racer still racing agreed to a draw',
  last_left: 'the others resigned or left',
};
/** @type {Record<string, string>} */
const STATE_LABEL = { racing: 'racing', out: 'out', won: 'won', lost: 'lost', draw: 'draw' };
// The counts a phone's result table keeps (the others hide under 600 px).
const NARROW = new Set(['runs_removed', 'moves', 'score']);
const NO_SEED = 'The deal: a fixed layout (no seed)';

/**
 * A race table as the page holds it: the table as the server last described it (plus the
 * events since), the server's clock as the events tell it, whether the opener's settings
 * form is open, and the race whose cards were read at the end of its countdown.
 */
export class RaceTableState {
  /**
   * @param {RaceTable} table
   * @param {string | null} me  the player looking
   */
  constructor(table, me) {
    this.table = table;
    this.me = me;
    /** Local clock minus the server's, from the events' `at`. */
    this.offset = 0;
    this.settingsOpen = false;
    /** @type {number | null} the race whose cards were read at the end of its countdown */
    this.revealed = null;
  }

  /**
   * A whole table the server sent (an answer, a `table` frame, a read): taken unless an
   * event newer than it was applied already.
   * @param {RaceTable} table
   */
  take(table) {
    if (table.seq >= this.table.seq) this.table = table;
  }

  /**
   * An event of the stream, done as EVENTS says (a `table` frame is the whole table).
   * @param {RaceEvent} event
   * @returns {Applied}
   */
  apply(event) {
    if (event.event === 'table') {
      this.take(/** @type {RaceTable} */ (event.data));
      return { status: 'patched', news: null, turnOver: false };
    }
    return applyEvent(this.table, event, this.me);
  }

  /**
   * An event was sent at `at` (the server's time), heard at `now` (the local clock).
   * @param {string} at
   * @param {number} now
   */
  heard(at, now) {
    this.offset = now - Date.parse(at);
  }

  /** @param {number} now  the local clock */
  serverNow(now) { return now - this.offset; }

  /** What the player may do now (controlsOf). */
  controls() { return controlsOf(this.table, this.me, this.settingsOpen); }

  /**
   * The clock at `now` (the local clock), on the server's time (clockOf).
   * @param {number} now
   */
  clock(now) { return clockOf(this.table.race, this.serverNow(now)); }

  /**
   * Whether the racer's own table is to be read again now its cards have turned over: once
   * a race.
   * @param {number} race  the race whose cards turned over
   */
  reveal(race) {
    if (this.revealed === race) return false;
    this.revealed = race;
    return true;
  }
}

/**
 * The line under the table's title: suits, time limit, rule, opener, watchers, a staff deal.
 * @param {RaceTable} m
 */
export function settingsLineOf(m) {
  const limit = m.time_limit_s ? `${formatTime(m.time_limit_s * 1000)} time limit`
    : 'no time limit';
  const rule = m.deal_over_gap ? ' · GameLake end game' : '';
  return `${SUIT_LABEL[m.suits]} · ${limit}${rule} · opened by ${m.opener}`
    + `${m.watchers ? ` · ${m.watchers} watching` : ''}`
    + `${m.staff_deal ? ' · a deal chosen by staff' : ''}`;
}

/**
 * A seat as the page shows it: free (with "Sit here" when the player may sit), or taken
 * (the player, "you", its tags: opener, ready or not ready while the table is open).
 * @typedef {{seat: number, free: true, canSit: boolean}
 *   | {seat: number, free: false, player: string, mine: boolean, ready: boolean,
 *      connected: boolean, tags: string[], wins: number, draws: number}} SeatShown
 */

/**
 * The table's four seats.
 * @param {RaceTable} m
 * @param {string | null} me
 * @returns {SeatShown[]}
 */
export function seatsOf(m, me) {
  const mine = m.seats.some((s) => s.player === me);
  // After a race nobody new sits down until the opener changes the settings (the table
  // opens again): Play again is for the players who raced (docs/rules.md#play-again).
  const canSit = !mine && m.status === 'open';
  return [0, 1, 2, 3].map((n) => {
    const s = m.seats.find((x) => x.seat === n);
    if (!s) return { seat: n, free: /** @type {const} */ (true), canSit };
    const tags = [];
    if (s.player === m.opener) tags.push('opener');
    else if (m.status === 'open') tags.push(s.ready ? 'ready' : 'not ready');
    return { seat: n, free: /** @type {const} */ (false), player: s.player,
      mine: s.player === me, ready: s.ready, connected: s.connected, tags,
      wins: s.score.wins, draws: s.score.draws };
  });
}

/**
 * Who races now: the player's own racer (their table is played on the page), and the
 * others, under their title. Nobody before the countdown or after the race.
 * @param {RaceTable} m
 * @param {string | null} me
 */
export function racersOf(m, me) {
  const race = m.race;
  const running = Boolean(race && (race.status === 'countdown' || race.status === 'racing'));
  const mine = running && race ? race.racers.find((r) => r.player === me) || null : null;
  const others = running && race ? race.racers.filter((r) => r.player !== me) : [];
  return { running, mine, others, title: mine ? 'The others' : 'The racers' };
}

/**
 * A racer's state in words: "racing", "out (left)".
 * @param {Racer} r
 */
export function racerStateOf(r) {
  return r.state === 'out' ? `out (${r.out_reason === 'gone' ? 'left' : 'resigned'})`
    : STATE_LABEL[r.state] || r.state;
}

/**
 * The countdown and the race's clock at `now` (the server's time). `countdown`: the seconds
 * left before the cards turn over (null once they have); `turned`: the race whose cards have
 * turned over (null before).
 * @param {Race | null} race
 * @param {number} now
 * @returns {{countdown: number | null, text: string, turned: number | null}}
 */
export function clockOf(race, now) {
  if (!race || race.status === 'finished') return { countdown: null, text: '', turned: null };
  const left = Date.parse(race.starts_at) - now;
  if (race.status === 'countdown' && left > 0) {
    const seconds = Math.ceil(left / 1000);
    return { countdown: seconds, text: `Race ${race.number}: the cards turn over in ${seconds} s.`,
      turned: null };
  }
  const parts = [`Race ${race.number}`];
  if (race.ends_at) parts.push(`time left ${formatTime(Date.parse(race.ends_at) - now)}`);
  else parts.push(`racing for ${formatTime(now - Date.parse(race.starts_at))}`);
  return { countdown: null, text: parts.join(' · '), turned: race.number };
}

/**
 * What the result shows changes with the race's number and the match score only (it is
 * drawn again only then, not for every event); null while no race is finished.
 * @param {RaceTable} m
 */
export function resultKeyOf(m) {
  const race = m.race;
  const scores = m.seats.map((s) => `${s.player}:${s.score.wins}:${s.score.draws}`).join(',');
  return race && race.status === 'finished' ? `${race.number}:${scores}` : null;
}

/**
 * A finished race's result as the page shows it: the title, why it ended, each racer's row
 * (its counts, and whether a phone hides them), the match score, the deal, and every table
 * laid open with its caption. Null while no race is finished and laid open.
 * @param {RaceTable} m
 * @param {string | null} me
 */
export function resultOf(m, me) {
  const race = m.race;
  if (!race || race.status !== 'finished' || !race.laid_open) return null;
  let title;
  if (race.result === 'draw') title = 'A draw';
  else if (race.winner === me) title = 'You won the race!';
  else if (race.winner) title = `${race.winner} won the race`;
  else title = 'The race is over';
  const mine = race.racers.find((r) => r.player === me);
  const laid = race.laid_open;
  /** @param {number} n @param {string} word */
  const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return {
    title,
    good: Boolean(mine && mine.state === 'won'),
    reason: `Race ${race.number}: ${END_REASON[race.end_reason || ''] || race.end_reason}.`,
    columns: COUNTS.map(([key, label]) => ({ key, label, wide: !NARROW.has(key) })),
    rows: race.racers.map((r) => ({
      player: r.player,
      state: r.state === 'out' ? `out (${r.out_reason})` : r.state,
      counts: COUNTS.map(([key]) => r[key]),
    })),
    match: m.seats
      .map((s) => `${s.player} ${plural(s.score.wins, 'win')}, ${plural(s.score.draws, 'draw')}`)
      .join(' · '),
    deal: laid.deal.seed ? `The deal: seed ${laid.deal.seed}` : NO_SEED,
    tables: laid.tables.map((t) => {
      const racer = race.racers.find((r) => r.player === t.player);
      return {
        player: t.player,
        game: t.game,
        position: parsePosition(t.position),
        title: t.player === me ? 'Your table' : `${t.player}'s table`,
        line: ` · ${racer ? STATE_LABEL[racer.state] : ''} · ${plural(t.log.length, 'action')} `,
        // Laid open: the race is over, so every racer's game is public and analysable.
        analyse: `Analyse ${t.player === me ? 'your' : `${t.player}'s`} game`,
      };
    }),
  };
}
