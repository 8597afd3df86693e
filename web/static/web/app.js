// @ts-check
// The client's entry: a router over History API paths, the account corner, and the one
// place that shows "waiting" when the server asks us to (429, 503 with Retry-After).
// A screen is `async (root, ctx, ...params) => cleanup | null`; a new one is a line in ROUTES.

import * as api from './api.js';
import { accountScreen, tokenNewScreen } from './account.js';
import { h, clear, toast, link } from './dom.js';
import { playScreen } from './game.js';
import { appsScreen, authorizeScreen } from './oauth.js';
import { lobbyScreen, raceScreen } from './race.js';
import { rulesScreen } from './rulebook.js';
import * as settings from './settings.js';
import { forgotScreen, resetScreen } from './reset.js';
import { authScreen, dailyScreen, leaderboardScreen, playerScreen, replayScreen } from './views.js';

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

const UUID = '([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})';
/** @type {[RegExp, Screen][]} */
const ROUTES = [
  [/^\/(?:play)?$/, (root, ctx) => playScreen(root, ctx)],
  [new RegExp(`^/play/${UUID}$`), (root, ctx, id) => playScreen(root, ctx, id)],
  [/^\/login$/, (root, ctx) => authScreen(root, ctx, 'login')],
  [/^\/signup$/, (root, ctx) => authScreen(root, ctx, 'signup')],
  [/^\/forgot$/, forgotScreen],
  [/^\/reset$/, resetScreen],
  [/^\/account$/, accountScreen],
  [/^\/account\/tokens\/new$/, tokenNewScreen],
  [/^\/daily$/, (root, ctx) => dailyScreen(root, ctx)],
  [/^\/daily\/(\d{4}-\d{2}-\d{2})$/, (root, ctx, date) => dailyScreen(root, ctx, date)],
  [/^\/leaderboard$/, leaderboardScreen],
  [/^\/rules$/, (root) => rulesScreen(root)],
  [/^\/race$/, (root, ctx) => lobbyScreen(root, ctx)],
  [/^\/race\/([A-Za-z0-9]{1,16})$/, (root, ctx, code) => raceScreen(root, ctx, code.toUpperCase())],
  [new RegExp(`^/replay/${UUID}$`), (root, ctx, id) => replayScreen(root, ctx, id)],
  [/^\/players\/([^/]+)$/, (root, ctx, name) => playerScreen(root, ctx, decodeURIComponent(name))],
  [/^\/oauth\/authorize$/, (root, ctx) => authorizeScreen(root, ctx)],
  [/^\/apps$/, (root, ctx) => appsScreen(root, ctx)],
];

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
}

function renderAccount() {
  const el = /** @type {HTMLElement} */ (document.getElementById('account'));
  const name = api.session.username;
  if (api.session.token && name && api.session.guest) {
    // A guest: unranked until the account is claimed (sign up keeps the games).
    clear(el, h('span', { class: 'me guest', title: 'Games as a guest are unranked' }, 'Guest'),
      link('/signup', 'Sign up to keep your games', { class: 'claim' }), link('/login', 'Log in'));
  } else if (api.session.token && name) {
    const logOut = async () => {
      await api.logout().catch(() => null); // revoke this device's token; gone already: fine
      api.session.clear();
      toast('Logged out.');
      ctx.navigate('/login');
    };
    clear(el, link(`/players/${encodeURIComponent(name)}`, name, { class: 'me' }),
      link('/account', 'Account', { class: 'account-link' }),
      h('button', { type: 'button', class: 'link', onclick: logOut }, 'Log out'));
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
