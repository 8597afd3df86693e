// @ts-check
// A race table's event stream, followed for the race screen: an EventSource opened with a
// single-use ticket (an EventSource cannot send Authorization). EventSource's own retry would
// present the spent ticket again, so when the connection drops a new ticket reopens it with
// `since` = the last event seen, after a back-off (1 s, doubling up to 10 s): no event is lost
// or seen twice. Each event goes to `receive`, in order; what it means is the screen's.

import * as api from './api.js';

/** @import { RaceEvent } from './api.js' */

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 10000;

export class RaceStream {
  /**
   * @param {string} code  the table's invite code
   * @param {object} on
   * @param {(event: RaceEvent) => void} on.receive  each event once, in order
   * @param {(live: boolean) => void} on.live  connected, or dropped (and reconnecting)
   */
  constructor(code, { receive, live }) {
    this.code = code;
    this.receive = receive;
    this.live = live;
    /** @type {number | null} the last event received: where a reconnection resumes */
    this.lastSeq = null;
    this.backoff = FIRST_RETRY_MS;
    this.closed = false;
    /** @type {EventSource | null} */
    this.source = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.retryTimer = undefined;
    this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.retryTimer);
    if (this.source) this.source.close();
  }

  async connect() {
    if (this.closed) return;
    let ticket;
    try {
      ticket = await api.raceTicket(this.code);
    } catch (err) {
      // Signed out: the app goes to log-in.
      if (/** @type {api.ApiError} */ (err).status === 401) return;
      this.retry();
      return;
    }
    if (this.closed) return;
    let url = ticket.events_url;
    if (this.lastSeq !== null) url += `&since=${this.lastSeq}`;
    const source = new EventSource(url);
    this.source = source;
    source.onopen = () => {
      this.backoff = FIRST_RETRY_MS;
      this.live(true);
    };
    source.onmessage = (e) => {
      /** @type {RaceEvent} */
      const event = JSON.parse(e.data);
      // A `table` (the whole table) opens every connection without `since`: always taken.
      if (event.event !== 'table' && this.lastSeq !== null && event.seq <= this.lastSeq) return;
      this.lastSeq = event.seq;
      this.receive(event);
    };
    source.onerror = () => {
      source.close();
      if (this.source === source) this.source = null;
      this.live(false);
      this.retry();
    };
  }

  retry() {
    if (this.closed) return;
    clearTimeout(this.retryTimer);
    this.retryTimer = setTimeout(() => this.connect(), this.backoff);
    this.backoff = Math.min(this.backoff * 2, LAST_RETRY_MS);
  }
}
