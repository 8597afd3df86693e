// @ts-check
// The one module that talks to the JSON API (/api/v1). Every call the client makes is here,
// so a change of the API (a method, a pagination shape) is a one-place fix.
//
// Errors come back as ApiError {status, code, detail, body}. 429 and 503 are waited out
// (Retry-After) and retried a few times; state-changing POSTs carry an Idempotency-Key, so a
// retry is applied once. A 401 on a call that needs a token forgets the token.

import { sentence } from './words.js';

// The shapes of the answers are the OpenAPI schema's (web/types/api.d.ts, generated from it:
// `make api-types`); below, the names the client gives them and what it adds of its own.

/** @import { components } from '../../types/api.d.ts' */
/** @typedef {components['schemas']} Schemas */

/**
 * @typedef {{type: 'move', from: number, to?: number, count?: number} | {type: 'deal' | 'undo'}}
 *   Action  a body of POST /games/{id}/actions (without `version`)
 * @typedef {{type: string, from?: number, to?: number | null, count?: number | null,
 *   n?: number}} LoggedAction  an action as a log, a hint or an action's answer names it
 * @typedef {Schemas['Column'] & {down?: string[], dealt?: number}} Column  face-down cards as
 *   a count (`down`, the client's: names them on a laid-open table), then the face-up ones,
 *   bottom to top; `dealt` (the client's own): cards dealt on top, drawn face down until the
 *   server's answer says them
 * @typedef {{columns: Column[], deals_left: number, removed_suits?: string[]}} Position  what
 *   the table draws
 * @typedef {Schemas['CoinAward']} Coins  what a win paid, and what is left today
 * @typedef {Omit<Schemas['GameState'], 'columns'> & {columns: Column[],
 *   coins?: Coins | null, outcome?: Partial<Schemas['Outcome']>}} Game  a game as
 *   GET /games/{id} answers it; an action's answer adds what it did and what a win paid
 * @typedef {Schemas['Hint']} Hint
 * @typedef {Omit<Schemas['Position'], 'columns'> & {columns: Column[]}} Step  a replay's
 *   position after `step` log entries
 */

/**
 * @typedef {Pick<Schemas['Racer'], 'runs_removed' | 'turned' | 'moves' | 'deals' | 'actions'
 *   | 'score'>} Counts  what the others may know of a racer's table
 * @typedef {Schemas['Racer']} Racer
 * @typedef {Schemas['Race']} Race
 * @typedef {Schemas['LaidOpen']} LaidOpen  once the race is over: every table and the deal
 * @typedef {Schemas['Seat']} Seat
 * @typedef {Schemas['Table']} RaceTable  a race table as GET /races/{code} answers it
 * @typedef {Schemas['SeatData']} SeatRef
 * @typedef {object} EventData  what each kind of table event carries
 * @property {Schemas['SeatedEvent']['data']} seated
 * @property {Schemas['StoodEvent']['data']} stood
 * @property {Schemas['ReadyEvent']['data']} ready
 * @property {Schemas['GoneEvent']['data']} gone
 * @property {Schemas['BackEvent']['data']} back
 * @property {Schemas['SettingsEvent']['data']} settings
 * @property {Schemas['CountdownEvent']['data']} countdown
 * @property {Schemas['StartedEvent']['data']} started
 * @property {Schemas['ProgressEvent']['data']} progress
 * @property {Schemas['DrawOfferedEvent']['data']} draw_offered
 * @property {Schemas['DrawDeclinedEvent']['data']} draw_declined
 * @property {Schemas['OutEvent']['data']} out
 * @property {Schemas['FinishedEvent']['data']} finished
 * @property {Schemas['AgainEvent']['data']} again
 *
 * @typedef {{seq: number, event: string, at: string, data: any}} RaceEvent  one frame of the
 *   table's stream: an event of its log, or (`table`, first) the whole table at `seq`
 */

/**
 * @typedef {Schemas['BoardRow']} BoardRow  `public`: anyone may replay and analyse it (a daily
 *   win only once its day closed)
 * @typedef {{results: BoardRow[], hasNext: boolean, pageSize?: number}} BoardPage
 * @typedef {Schemas['Daily']} Daily  GET /daily: the day's challenge (seed and nonce once it
 *   closed)
 * @typedef {Schemas['DailyDay']} DailyDay  a day that had a challenge
 * @typedef {Schemas['PlayerDaily']} PlayerDaily  a player's month of dailies and streaks
 * @typedef {Schemas['ModeStats']} ModeStats
 * @typedef {Schemas['PlayerPublic']} Player
 * @typedef {Schemas['PlayerPlaces']} Places
 * @typedef {Schemas['GamePlaces']} GamePlaces
 * @typedef {Schemas['PlayerRaces']} PlayerRaces
 */

const BASE = '/api/v1';
const TOKEN_KEY = 'spider.token';
const USER_KEY = 'spider.user';
const GUEST_KEY = 'spider.guest';
/** The game this device showed last (game.js resumes it; signing out forgets it). */
export const LAST_GAME_KEY = 'spider.game';
const MAX_RETRIES = 3;

/**
 * An answer that is not a success, or no answer (status 0).
 * @typedef {{code?: string, detail?: string, errors?: Record<string, string[]>,
 *   retry_after?: number, game?: Game}} ErrorBody
 */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {ErrorBody} body
   */
  constructor(status, body) {
    super(body.detail || `HTTP ${status}`);
    this.status = status;
    this.code = body.code || 'error';
    this.detail = said(body, status);
    this.body = body;
  }
}

// How the fields the API names are said to people (a refusal never shows `current_password`).
/** @type {Record<string, string>} */
const FIELD_WORDS = {
  username: 'the username', password: 'the password', current_password: 'your current password',
  new_password: 'the new password', email: 'the email address', name: 'the name',
  scopes: 'the scopes', expires_in_days: 'the expiry', redirect_uris: 'the redirect URIs',
  suits: 'the number of suits', date: 'the date',
};

export { sentence };

/**
 * What an error answer says, in words for people: a refused form's messages (each field's,
 * "This field" named as the field; never a field's API name), else its detail; sentence case.
 * @param {ErrorBody} body
 * @param {number} status
 */
function said(body, status) {
  const fields = body.errors ? Object.entries(body.errors) : [];
  if (fields.length) {
    return fields.map(([field, messages]) => fieldSaid(field, messages[0] || '')).join(' ');
  }
  return sentence(body.detail || `The server answered ${status}.`);
}

/**
 * One field's message: "This field is required." about `current_password` is "Your current
 * password is required."
 * @param {string} field
 * @param {string} message
 */
export function fieldSaid(field, message) {
  const name = FIELD_WORDS[field.split('.')[0]] || 'this field';
  return sentence(message.replace(/^this field\b/i, name).replace(/\bthis field\b/g, name));
}

// --- the token ---------------------------------------------------------------------------
// Kept in localStorage so a reload or a new tab stays signed in (the reasoning:
// docs/architecture.md#the-web-client). Listeners hear sign-in and sign-out.
/** @type {Set<() => void>} */
const listeners = new Set();
export const session = {
  get token() { return localStorage.getItem(TOKEN_KEY); },
  get username() { return localStorage.getItem(USER_KEY); },
  /** A guest (docs/rules.md#guests): plays unranked until the account is claimed. */
  get guest() { return localStorage.getItem(GUEST_KEY) === '1'; },
  /**
   * @param {string} token
   * @param {string} username
   * @param {boolean} [guest]
   */
  set(token, username, guest = false) {
    localStorage.setItem(TOKEN_KEY, token);
    localStorage.setItem(USER_KEY, username);
    if (guest) localStorage.setItem(GUEST_KEY, '1');
    else localStorage.removeItem(GUEST_KEY);
    listeners.forEach((fn) => fn());
  },
  clear() {
    const had = this.token !== null;
    localStorage.removeItem(TOKEN_KEY);
    localStorage.removeItem(USER_KEY);
    localStorage.removeItem(GUEST_KEY);
    localStorage.removeItem(LAST_GAME_KEY);
    if (had) listeners.forEach((fn) => fn());
  },
  /** @param {() => void} fn */
  onChange(fn) { listeners.add(fn); },
};

// Another tab signed in or out: follow it.
window.addEventListener('storage', (e) => {
  if (e.key === TOKEN_KEY) listeners.forEach((fn) => fn());
});

// --- waiting (429, 503) ------------------------------------------------------------------
/** @typedef {(seconds: number, error: ApiError) => Promise<void>} WaitHandler */
/** @type {WaitHandler} */
let waitHandler = async () => {};
/**
 * fn(seconds, error) is awaited before each retry: the UI shows a countdown.
 * @param {WaitHandler} fn
 */
export function onWait(fn) { waitHandler = fn; }

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export function newKey() {
  if (crypto.randomUUID) return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * @typedef {object} RequestOptions
 * @property {unknown} [body]  sent as JSON
 * @property {Record<string, string | number | boolean | null | undefined>} [query]  null and
 *   undefined values are left out
 * @property {string} [key]  the Idempotency-Key
 * @property {boolean} [token]  send the token (default true)
 * @property {boolean} [fresh]  revalidate a cached answer
 * @property {boolean} [retry]  wait out 429 and 503 (default true)
 */

/**
 * One call: the answer's JSON, or an ApiError.
 * @param {string} method
 * @param {string} path
 * @param {RequestOptions} options
 * @returns {Promise<any>}
 */
async function request(method, path, options = {}) {
  const { body, query, key, token = true, fresh = false, retry = true } = options;
  let url = BASE + path;
  if (query) {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) {
      if (v !== undefined && v !== null) params.set(k, String(v));
    }
    const text = params.toString();
    if (text) url += `?${text}`;
  }
  /** @type {Record<string, string>} */
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
    if (response.status === 204) return null; // done, nothing to say (sign-out, revoke)
    let data;
    try {
      data = await response.json();
    } catch {
      const detail = `The server answered ${response.status} without JSON.`;
      data = { code: 'bad_response', detail };
    }
    if (response.ok) return data;
    /** @type {ErrorBody} */
    const failure = data;
    const error = new ApiError(response.status, failure);
    const retryable = response.status === 429 || response.status === 503;
    if (retryable && retry && attempt < MAX_RETRIES) {
      const seconds = Number(response.headers.get('Retry-After') || failure.retry_after || 1);
      await waitHandler(seconds, error);
      await sleep(seconds * 1000);
      continue;
    }
    if (response.status === 401 && bearer) session.clear();
    throw error;
  }
}

/**
 * A page of any paged answer ({page, page_size, has_next, results}) as {results, hasNext,
 * pageSize}.
 * @template T
 * @param {{results: T[], has_next: boolean, page_size?: number}} data
 */
function paged(data) {
  return {
    results: data.results, hasNext: Boolean(data.has_next), pageSize: data.page_size, raw: data,
  };
}

// --- accounts ----------------------------------------------------------------------------
/** @typedef {{token: string, username?: string}} SignedIn */
/**
 * @param {string} username
 * @param {string} password
 * @param {string} [email]  where a password reset is sent (optional: left out when empty)
 * @returns {Promise<SignedIn>}
 */
export const register = (username, password, email = '') =>
  request('POST', '/auth/register', {
    body: email ? { username, password, email } : { username, password }, token: false,
  });
/**
 * @param {string} username
 * @param {string} password
 * @returns {Promise<SignedIn>}
 */
export const login = (username, password) =>
  request('POST', '/auth/token', { body: { username, password }, token: false });
export const me = () => request('GET', '/me');
/**
 * The account's email, where a password reset is sent (`""`: none).
 * @param {string} email
 */
export const setEmail = (email) => request('PATCH', '/me', { body: { email }, retry: false });
/**
 * A guest account, so a first visit plays at once (its games are unranked); with `suits`, its
 * first deal comes back with it.
 * @param {{suits?: number}} [body]
 * @returns {Promise<Schemas['GuestCreate']>}
 */
export const guest = (body = {}) => request('POST', '/auth/guest', { body, token: false });
/**
 * The signed-in guest names its account: same token, same games.
 * @param {string} username
 * @param {string} password
 * @returns {Promise<Schemas['UserClaim']>}
 */
export const claim = (username, password) =>
  request('POST', '/auth/claim', { body: { username, password } });
/**
 * The signed-in guest chooses the name it plays under; it stays a guest.
 * @param {string} username
 * @returns {Promise<{username: string, is_guest: boolean}>}
 */
export const nameGuest = (username) =>
  request('POST', '/me/name', { body: { username }, retry: false });

// --- games -------------------------------------------------------------------------------
/**
 * @returns {Promise<{results: GameSummary[], hasNext: boolean}>}
 */
export const gamesInProgress = async () =>
  paged(await request('GET', '/games', { query: { status: 'in_progress', page_size: 10 } }));
/**
 * @param {({suits: number} | {replay_of: string}) & {deal_over_gap?: boolean}} body
 * @returns {Promise<Game>}
 */
export const createGame = (body) => request('POST', '/games', { body, key: newKey() });
/** @param {string} id @returns {Promise<Game>} */
export const getGame = (id) => request('GET', `/games/${id}`);
/** @param {string} id @returns {Promise<Schemas['GameLog']>} */
export const gameLog = (id) => request('GET', `/games/${id}/actions`);
/**
 * @param {string} id
 * @param {Action & {version: number}} action
 * @returns {Promise<Game>}
 */
export const act = (id, action) =>
  request('POST', `/games/${id}/actions`, { body: action, key: newKey() });
// A POST: a hint served is counted and logged. `version`: only about the position we show.
/**
 * @param {string} id
 * @param {number} n
 * @param {number} version
 * @returns {Promise<Hint>}
 */
export const hint = (id, n, version) =>
  request('POST', `/games/${id}/hint`, { body: { n, version } });
/** @param {string} id @returns {Promise<Game>} */
export const resign = (id) => request('POST', `/games/${id}/resign`, { key: newKey() });
/**
 * @param {string} id
 * @param {number} step
 * @returns {Promise<Step>}
 */
export const position = (id, step) => request('GET', `/games/${id}/positions/${step}`);

// --- the post-game analysis (docs/rules.md#after-the-game-the-analysis) -------------------
/**
 * @typedef {Schemas['AnalysisVerdict']} Verdict
 * @typedef {Schemas['LinePlace']} LinePlace  a final line's position
 * @typedef {Schemas['TurningPoint']} TurningPoint
 * @typedef {Schemas['SolverLine']} SolverLine
 * @typedef {Schemas['AnalysisResult']} AnalysisResult
 * @typedef {Schemas['GameAnalysis']} Analysis
 * @typedef {Schemas['MoveReview']} MoveReview  the move review: an estimate, not a claim
 * @typedef {Schemas['ReviewedMove']} ReviewedMove
 * @typedef {Schemas['Chance']} Chance
 */
// Asked for once per game, ever (asking again answers the same one). No waiting out a 429:
// a quota may last hours, the page says so instead.
/** @param {string} id @returns {Promise<Analysis>} */
export const askAnalysis = (id) => request('POST', `/games/${id}/analysis`, { retry: false });
/** @param {string} id @returns {Promise<Analysis>} */
export const analysis = (id) => request('GET', `/games/${id}/analysis`, { fresh: true });

// --- daily, boards, players --------------------------------------------------------------
// No waiting here: the daily page has something better to say when the day is not ready.
/** @param {string | null} date  null: today @returns {Promise<Daily>} */
export const daily = (date) => request('GET', '/daily', { query: { date }, retry: false });
/** @returns {Promise<Game>} */
export const dailyPlay = (unranked = false) =>
  request('POST', '/daily/play', { body: { unranked }, key: newKey() });
/**
 * Practise a closed day's deal: a casual game that never ranks (docs/rules.md#daily-challenge).
 * @param {string} date
 * @returns {Promise<Game>}
 */
export const dailyPractice = (date) =>
  request('POST', '/daily/play', { body: { date }, key: newKey() });
/**
 * The days that had a challenge, nearest the bound first (newest first; oldest first with
 * `after` alone).
 * @param {{before?: string, after?: string, page?: number, page_size?: number}} query
 * @returns {Promise<{results: DailyDay[], hasNext: boolean}>}
 */
export const dailyDays = async (query) =>
  paged(await request('GET', '/daily/days', { query, token: false }));
/**
 * @param {string} date
 * @returns {Promise<BoardPage>}
 */
export const dailyBoard = async (date, page = 1) => paged(await request(
  'GET', `/daily/${date}/leaderboard`, { query: { page }, token: false, fresh: true }));
/**
 * @param {string} suits
 * @param {string} period
 * @returns {Promise<BoardPage>}
 */
export const leaderboard = async (suits, period, page = 1) => paged(await request(
  'GET', '/leaderboard', { query: { suits, period, page }, token: false, fresh: true }));
/** @param {string} id @returns {Promise<GamePlaces>} */
export const gamePlaces = (id) => request('GET', `/leaderboard/games/${id}`, { token: false });
/** @param {string} username @returns {Promise<Player>} */
export const player = (username) =>
  request('GET', `/players/${encodeURIComponent(username)}`, { token: false });
/**
 * A player's month of dailies (won, lost, missed) and streaks; their own open day to them alone.
 * @param {string} username
 * @param {string | null} month  YYYY-MM; null: this month
 * @returns {Promise<PlayerDaily>}
 */
export const playerDaily = (username, month) =>
  request('GET', `/players/${encodeURIComponent(username)}/daily`, { query: { month } });
/** @param {string} username @returns {Promise<Places>} */
export const playerPlaces = (username) =>
  request('GET', `/players/${encodeURIComponent(username)}/places`, { token: false });

// --- races -------------------------------------------------------------------------------
// Table commands answer the whole table. They take no Idempotency-Key (the server ignores
// it): a retried command is refused by the table's state instead (`already_seated`, ...).
/**
 * @param {string} code
 * @param {string} what
 */
const raceUrl = (code, what = '') => `/races/${encodeURIComponent(code)}${what ? `/${what}` : ''}`;
/**
 * @param {{suits: number, time_limit_s: number | null, deal_over_gap?: boolean}} body
 * @returns {Promise<RaceTable>}
 */
export const openRace = (body) => request('POST', '/races', { body });
/** @param {string} code @returns {Promise<RaceTable>} */
export const race = (code) => request('GET', raceUrl(code));
/**
 * @param {string} code
 * @param {string} what  sit, stand, ready, unready, start, draw, resign, again, settings
 * @param {object} body
 * @returns {Promise<RaceTable>}
 */
export const raceCommand = (code, what, body = {}) =>
  request('POST', raceUrl(code, what), { body });
// A single-use ticket for the EventSource (which cannot send Authorization): {events_url}.
/** @param {string} code @returns {Promise<Schemas['Ticket']>} */
export const raceTicket = (code) => request('POST', raceUrl(code, 'ticket'), { retry: false });
/** @param {string} username @returns {Promise<PlayerRaces>} */
export const playerRaces = (username) =>
  request('GET', `/players/${encodeURIComponent(username)}/races`, { token: false });

// --- third-party apps (OAuth2) ---------------------------------------------------------------
/**
 * @typedef {Schemas['App']} App  an OAuth2 app of yours
 * @typedef {Schemas['Authorization']} AuthorizationRequest  what an app's authorization
 *   request asks
 */
/** @returns {Promise<{results: App[], hasNext: boolean}>} */
export const apps = async () => paged(await request('GET', '/apps', { query: { page_size: 100 } }));
/**
 * @param {{name: string, redirect_uris: string[], confidential: boolean}} body
 * @returns {Promise<Schemas['Apps']>}  with the secret, this once
 */
export const createApp = (body) => request('POST', '/apps', { body });
/** @param {string} clientId */
export const deleteApp = (clientId) => request('DELETE', `/apps/${encodeURIComponent(clientId)}`);
/**
 * The authorization request in `search` (the authorization page's query string, as it came).
 * @param {string} search
 * @returns {Promise<AuthorizationRequest>}
 */
export const authorization = (search) =>
  request('GET', `/oauth/authorization${search}`, { retry: false });
/**
 * The player's answer: where to send the browser (the app's redirect URI, with the code or
 * `error=access_denied`).
 * @param {string} search
 * @param {boolean} allow
 * @returns {Promise<Schemas['AuthorizationDecision']>}
 */
export const decide = (search, allow) =>
  request('POST', `/oauth/authorization${search}`, { body: { allow }, retry: false });

// --- the account's life (account.js, reset.js) --------------------------------------------
/**
 * @typedef {Schemas['Token']} ApiToken  a token that acts for the player, never its secret
 *   (GET /me/tokens); `current`: the token of this request, this device
 * @typedef {Schemas['Tokens']} NewToken  the secret, shown this once
 */

/** @returns {Promise<ApiToken[]>} */
export const tokens = () => request('GET', '/me/tokens', { fresh: true });
/**
 * @param {string} name
 * @param {string[]} scopes
 * @param {number} expiresInDays
 * @returns {Promise<NewToken>}
 */
export const createToken = (name, scopes, expiresInDays) => request('POST', '/me/tokens', {
  body: { name, scopes, expires_in_days: expiresInDays }, retry: false,
});
/** @param {number} id */
export const revokeToken = (id) => request('DELETE', `/me/tokens/${id}`, { retry: false });
/**
 * An app the player approved that may still act for them (GET /me/approved-apps).
 * @typedef {object} Approval
 * @property {{client_id: string, name: string, owner: string | null}} app
 * @property {{name: string, description: string}[]} scopes
 * @property {string} approved
 * @property {string} last_used
 */
/** @returns {Promise<Approval[]>} */
export const approvedApps = () => request('GET', '/me/approved-apps', { fresh: true });
/** @param {string} clientId */
export const revokeApproval = (clientId) =>
  request('DELETE', `/me/approved-apps/${encodeURIComponent(clientId)}`, { retry: false });
export const logout = () => request('POST', '/auth/logout', { retry: false });
export const logoutEverywhere = () => request('POST', '/auth/logout-everywhere', { retry: false });
/**
 * @param {string} current
 * @param {string} next
 */
export const changePassword = (current, next) => request('POST', '/me/password', {
  body: { current_password: current, new_password: next }, retry: false,
});
/** @param {string} email */
export const askPasswordReset = (email) =>
  request('POST', '/auth/password-reset', { body: { email }, token: false, retry: false });
/**
 * @param {string} uid
 * @param {string} token
 * @param {string} password
 */
export const confirmPasswordReset = (uid, token, password) => request(
  'POST', '/auth/password-reset/confirm',
  { body: { uid, token, new_password: password }, token: false, retry: false },
);
/**
 * @param {string} password
 * @returns {Promise<Schemas['MeDelete']>}  the tombstone the results are kept under
 */
export const deleteAccount = (password) =>
  request('POST', '/me/delete', { body: { password }, retry: false });

/**
 * Your data (GET /me/export, NDJSON) as a file: fetched with the token (a plain link could
 * not send it), then handed to the browser as a download.
 * @returns {Promise<string>}  the file's name
 */
export async function downloadExport() {
  const response = await fetch(`${BASE}/me/export`, {
    headers: { Authorization: `Bearer ${session.token}`, Accept: 'application/x-ndjson' },
  });
  if (!response.ok) {
    let body;
    try {
      body = await response.json();
    } catch {
      body = { code: 'bad_response', detail: `The server answered ${response.status}.` };
    }
    throw new ApiError(response.status, body);
  }
  const disposition = response.headers.get('Content-Disposition') || '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] || 'spider-export.ndjson';
  const url = URL.createObjectURL(await response.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
// --- settings, history, the rulebook -----------------------------------------------------
/**
 * @typedef {Schemas['PlayerSettings']} Settings  kept with the account (GET/PATCH
 *   /me/settings); `deal_over_gap`: new games under GameLake's end game
 * @typedef {Schemas['GameSummary']} GameSummary
 * @typedef {Schemas['RulebookSection']} RulebookSection
 * @typedef {Schemas['Rulebook']} Rulebook
 */
/** @returns {Promise<Settings>} */
export const settings = () => request('GET', '/me/settings', { retry: false });
/**
 * Change some settings; the answer has all of them.
 * @param {Partial<Settings>} changes
 * @returns {Promise<Settings>}
 */
export const updateSettings = (changes) => request('PATCH', '/me/settings', { body: changes });
/**
 * A player's finished games, newest first (public).
 * @param {string} username
 * @returns {Promise<{results: GameSummary[], hasNext: boolean}>}
 */
export const playerGames = async (username, page = 1, pageSize = 10) => paged(await request(
  'GET', `/players/${encodeURIComponent(username)}/games`,
  { query: { page, page_size: pageSize }, token: false, fresh: true }));
/** The rulebook, docs/rules.md, as the server renders it. @returns {Promise<Rulebook>} */
export const rulebook = () => request('GET', '/rules', { token: false });
