// The one module that talks to the JSON API (/api/v1). Every call the client makes is here,
// so a change of the API (a method, a pagination shape) is a one-place fix.
//
// Errors come back as ApiError {status, code, detail, body}. 429 and 503 are waited out
// (Retry-After) and retried a few times; state-changing POSTs carry an Idempotency-Key, so a
// retry is applied once. A 401 on a call that needs a token forgets the token.

const BASE = '/api/v1';
const TOKEN_KEY = 'spider.token';
const USER_KEY = 'spider.user';
const MAX_RETRIES = 3;

export class ApiError extends Error {
  constructor(status, body) {
    super(body.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || 'error';
    this.detail = body.detail || `The server answered ${status}.`;
    this.body = body;
  }
}

// --- the token ---------------------------------------------------------------------------
// Kept in localStorage so a reload or a new tab stays signed in; README ("Web client") gives
// the reasoning. Listeners hear sign-in and sign-out.
const listeners = new Set();
export const session = {
  get token() { return localStorage.getItem(TOKEN_KEY); },
  get username() { return localStorage.getItem(USER_KEY); },
  set(token, username) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, username);
    listeners.forEach((fn) => fn());
  },
  clear() {
    const had = this.token !== null;
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
    localStorage.removeItem('spider.game');
    if (had) listeners.forEach((fn) => fn());
  },
  onChange(fn) { listeners.add(fn); },
};

// Another tab signed in or out: follow it.
window.addEventListener('storage', (e) => {
  if (e.key === TOKEN_KEY) listeners.forEach((fn) => fn());
});

// --- waiting (429, 503) ------------------------------------------------------------------
let waitHandler = async () => {};
/** fn(seconds, error) is awaited before each retry: the UI shows a countdown. */
export function onWait(fn) { waitHandler = fn; }

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

async function request(method, path, { body, query, key, token = true, fresh = false, retry = true } = {}) {
  let url = BASE + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) params.set(k, v);
    const text = params.toString();
    if (text) url += `?${text}`;
  }
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (key) headers['Idempotency-Key'] = key;
  const bearer = token ? session.token : null;
  if (bearer) headers.Authorization = `Bearer ${bearer}`;

  for (let attempt = 0; ; attempt += 1) {
    let response;
    try {
      response = await fetch(url, {
        method,
        headers,
        // Boards say max-age=5; `fresh` revalidates (ETag, a cheap 304) so a win shows at once.
        cache: fresh ? 'no-cache' : 'default',
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiError(0, {
        code: 'network',
        detail: 'The server cannot be reached: check your connection and try again.',
      });
    }
    let data = {};
    try {
      data = await response.json();
    } catch {
      data = { code: 'bad_response', detail: `The server answered ${response.status} without JSON.` };
    }
    if (response.ok) return data;
    const error = new ApiError(response.status, data);
    const retryable = response.status === 429 || response.status === 503;
    if (retryable && retry && attempt < MAX_RETRIES) {
      const seconds = Number(response.headers.get('Retry-After') || data.retry_after || 1);
      await waitHandler(seconds, error);
      await sleep(seconds * 1000);
      continue;
    }
    if (response.status === 401 && bearer) session.clear();
    throw error;
  }
}

/** A page of any paged answer ({page, page_size, has_next, results}) as {results, hasNext}. */
function paged(data) {
  return { results: data.results, hasNext: Boolean(data.has_next), raw: data };
}

// --- accounts ----------------------------------------------------------------------------
export const register = (username, password) =>
  request('POST', '/auth/register', { body: { username, password }, token: false });
export const login = (username, password) =>
  request('POST', '/auth/token', { body: { username, password }, token: false });
export const me = () => request('GET', '/me');

// --- games -------------------------------------------------------------------------------
export const gamesInProgress = async () =>
  paged(await request('GET', '/games', { query: { status: 'in_progress', page_size: 10 } }));
export const createGame = (body) => request('POST', '/games', { body, key: newKey() });
export const getGame = (id) => request('GET', `/games/${id}`);
export const gameLog = (id) => request('GET', `/games/${id}/actions`);
export const act = (id, action) =>
  request('POST', `/games/${id}/actions`, { body: action, key: newKey() });
// A POST: a hint served is counted and logged. `version`: only about the position we show.
export const hint = (id, n, version) =>
  request('POST', `/games/${id}/hint`, { body: { n, version } });
export const resign = (id) => request('POST', `/games/${id}/resign`, { key: newKey() });
export const position = (id, step) => request('GET', `/games/${id}/positions/${step}`);

// --- daily, boards, players --------------------------------------------------------------
// No waiting here: the daily page has something better to say when the day is not ready.
export const daily = (date) => request('GET', '/daily', { query: { date }, retry: false });
export const dailyPlay = (unranked = false) =>
  request('POST', '/daily/play', { body: { unranked }, key: newKey() });
export const dailyBoard = async (date, page = 1) =>
  paged(await request('GET', `/daily/${date}/leaderboard`, { query: { page }, token: false, fresh: true }));
export const leaderboard = async (suits, period, page = 1) =>
  paged(await request('GET', '/leaderboard', { query: { suits, period, page }, token: false, fresh: true }));
export const gamePlaces = (id) => request('GET', `/leaderboard/games/${id}`, { token: false });
export const player = (username) =>
  request('GET', `/players/${encodeURIComponent(username)}`, { token: false });
export const playerPlaces = (username) =>
  request('GET', `/players/${encodeURIComponent(username)}/places`, { token: false });

// --- races -------------------------------------------------------------------------------
// Table commands answer the whole table. They take no Idempotency-Key (the server ignores
// it): a retried command is refused by the table's state instead (`already_seated`, ...).
const raceUrl = (code, what = '') => `/races/${encodeURIComponent(code)}${what ? `/${what}` : ''}`;
export const openRace = (body) => request('POST', '/races', { body });
export const race = (code) => request('GET', raceUrl(code));
export const raceCommand = (code, what, body = {}) => request('POST', raceUrl(code, what), { body });
// A single-use ticket for the EventSource (which cannot send Authorization): {events_url}.
export const raceTicket = (code) => request('POST', raceUrl(code, 'ticket'), { retry: false });
export const playerRaces = (username) =>
  request('GET', `/players/${encodeURIComponent(username)}/races`, { token: false });
