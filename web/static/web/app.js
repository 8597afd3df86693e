// @ts-check
// The client's entry: a router over History API paths, the account corner, and the one
// place that shows "waiting" when the server asks us to (429, 503 with Retry-After).
// A screen is `async (root, ctx, ...params) => cleanup | null`; a new one is a line in SCREENS
// and its path a line in web/routes.py.

import * as api from './api.js';
import { h, clear, toast, link } from './dom.js';
import { playScreen } from './game.js';
import * as settings from './settings.js';

// The play screen (a first visit's) comes with the page (index.html preloads its modules);
// the other screens' modules are fetched when one is first shown, and in idle time once the
// first screen is drawn: a first visit waits for no module it does not need.
const auth = () => import('./auth.js');
const daily = () => import('./daily.js');
const leaderboard = () => import('./leaderboard.js');
const replay = () => import('./replay.js');
const players = () => import('./player.js');
const account = () => import('./account.js');
const oauth = () => import('./oauth.js');
const lobby = () => import('./lobby.js');
const races = () => import('./race.js');
const rulebook = () => import('./rulebook.js');
const reset = () => import('./reset.js');
const LATER = [
  auth, daily, leaderboard, replay, players, account, oauth, lobby, races, rulebook, reset,
];

/**
 * What a screen may ask of the router.
 * @typedef {object} Ctx
 * @property {(path: string, replace?: boolean) => void} navigate  go there (replace: in place
 *   of this page in the history)
 * @property {(replace?: boolean) => void} toLogin  to log-in, and back here after it
 * @property {() => boolean} needLogin  signed out: to log-in in place of this page, and true
 *
 * @typedef {(() => void) | null} Cleanup  what a screen leaves to run when it is left
 * @typedef {(root: HTMLElement, ctx: Ctx, ...params: string[]) => Promise<Cleanup>} Screen
 */

/**
 * Each screen by the name the route table gives it; a route's groups are its parameters.
 * @type {Record<string, Screen>}
 */
const SCREENS = {
  play: (root, ctx, id) => playScreen(root, ctx, id),
  login: async (root, ctx) => (await auth()).authScreen(root, ctx, 'login'),
  signup: async (root, ctx) => (await auth()).authScreen(root, ctx, 'signup'),
  forgot: async (root, ctx) => (await reset()).forgotScreen(root, ctx),
  reset: async (root, ctx) => (await reset()).resetScreen(root, ctx),
  account: async (root, ctx) => (await account()).accountScreen(root, ctx),
  tokenNew: async (root, ctx) => (await account()).tokenNewScreen(root, ctx),
  daily: async (root, ctx, date) => (await daily()).dailyScreen(root, ctx, date),
  leaderboard: async (root, ctx) => (await leaderboard()).leaderboardScreen(root, ctx),
  rules: async (root) => (await rulebook()).rulesScreen(root),
  lobby: async (root, ctx) => (await lobby()).lobbyScreen(root, ctx),
  race: async (root, ctx, code) => (await races()).raceScreen(root, ctx, code.toUpperCase()),
  replay: async (root, ctx, id) => (await replay()).replayScreen(root, ctx, id),
  player: async (root, ctx, name) =>
    (await players()).playerScreen(root, ctx, decodeURIComponent(name)),
  authorize: async (root, ctx) => (await oauth()).authorizeScreen(root, ctx),
  apps: async (root, ctx) => (await oauth()).appsScreen(root, ctx),
};

/**
 * The routes, defined once (web/routes.py; the server serves the page at each): the page
 * carries them as (pattern, screen name) pairs, first match wins.
 * @type {[RegExp, Screen][]}
 */
const ROUTES = /** @type {[string, string][]} */ (
  JSON.parse(document.getElementById('routes')?.textContent || '[]')
).map(([pattern, name]) => [new RegExp(pattern), SCREENS[name]]);

const main = /** @type {HTMLElement} */ (document.getElementById('main'));
/** @type {Cleanup} */
let cleanup = null;
let renderId = 0;
/** The path and query drawn last: a link to a heading on the same page redraws nothing. */
let shown = '';

/** @type {Ctx} */
const ctx = {
  navigate(path, replace = false) {
    if (replace) history.replaceState(null, '', path);
    else history.pushState(null, '', path);
    render();
  },
  toLogin(replace = false) {
    this.navigate(`/login?next=${encodeURIComponent(location.pathname)}`, replace);
  },
  needLogin() {
    if (api.session.token) return false;
    this.toLogin(true);
    return true;
  },
};

async function render() {
  const id = ++renderId;
  if (cleanup) cleanup();
  cleanup = null;
  const path = location.pathname.replace(/\/+$/, '') || '/';
  shown = location.pathname + location.search;
  const route = ROUTES.find(([pattern]) => pattern.test(path));
  document.querySelectorAll('nav a').forEach((a) => {
    const href = a.getAttribute('href');
    const here = path === href || path.startsWith(`${href}/`) || (href === '/play' && path === '/');
    if (here) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  if (!route) {
    clear(main, h('section', { class: 'panel' },
      h('h1', {}, 'Not found'), h('p', {}, link('/', 'Back to the game'))));
    return;
  }
  const [pattern, screen] = route;
  const params = /** @type {RegExpMatchArray} */ (path.match(pattern)).slice(1);
  try {
    const done = await screen(main, ctx, ...params);
    if (id === renderId) cleanup = done;
    else if (done) done();
  } catch (err) {
    if (id !== renderId) return;
    const failure = /** @type {Partial<api.ApiError>} */ (err);
    if (failure.status === 401) {
      ctx.toLogin(true);
      return;
    }
    clear(main, h('section', { class: 'panel error', role: 'alert' },
      h('h1', {}, failure.status === 404 ? 'Not found' : 'Something went wrong'),
      h('p', {}, failure.detail || String(err)),
      h('p', {}, h('button', { type: 'button', onclick: render }, 'Try again'), ' ',
        link('/', 'Back to the game'))));
  }
  if (id !== renderId) return; // the screen navigated elsewhere meanwhile
  document.body.dataset.ready = path; // tests and the bench wait for this
  performance.mark('spider:ready');
  if (id === 1) {
    // The first screen is drawn: the others' modules now, while nothing waits for them.
    /** @param {() => void} fn */
    const later = (fn) => setTimeout(fn, 200);
    const idle = window.requestIdleCallback || later;
    idle(() => LATER.forEach((load) => load().catch(() => null)));
  }
}

function renderAccount() {
  const el = /** @type {HTMLElement} */ (document.getElementById('account'));
  const name = api.session.username;
  if (api.session.token && name && api.session.guest) {
    // A guest: unranked until the account is claimed (sign up keeps the games). Its name
    // (made up until it chooses one on the account page) opens its statistics.
    const chosen = !name.startsWith('guest-');
    clear(el, link(`/players/${encodeURIComponent(name)}`, chosen ? name : 'Guest',
      { class: 'me guest', title: 'Your statistics (games as a guest are unranked)' }),
    link('/account', 'Account', { class: 'account-link' }),
    // On a phone the header is one row: "Sign up" alone (style.css hides the rest).
    link('/signup', ['Sign up', h('span', { class: 'claim-more' }, '\u00a0to keep your games')],
      { class: 'claim' }));
  } else if (api.session.token && name) {
    const signOut = async () => {
      await api.logout().catch(() => null); // revoke this device's token; gone already: fine
      api.session.clear();
      toast('Signed out.');
      ctx.navigate('/login');
    };
    clear(el, link(`/players/${encodeURIComponent(name)}`, name, { class: 'me' }),
      link('/account', 'Account', { class: 'account-link' }),
      h('button', { type: 'button', class: 'link sign-out', onclick: signOut }, 'Sign out'));
  } else {
    clear(el, link('/login', 'Log in'), link('/signup', 'Sign up'));
  }
}

api.onWait(async (seconds, error) => {
  const why = error.code === 'throttled' ? 'Too many requests' : 'The server is busy';
  toast(`${why}: trying again in ${seconds} s…`, 'warn', seconds * 1000 + 500);
});
api.session.onChange(renderAccount);

document.addEventListener('click', (e) => {
  const a = /** @type {Element} */ (e.target).closest('a[data-link]');
  if (!a || e.ctrlKey || e.metaKey || e.shiftKey || e.button !== 0) return;
  e.preventDefault();
  ctx.navigate(/** @type {string} */ (a.getAttribute('href')));
});
window.addEventListener('popstate', () => {
  if (location.pathname + location.search !== shown) render(); // else only the #fragment moved
});

settings.start(); // the player's settings: drawn with at once, then the account's
renderAccount();
render();
