// @ts-check
// A first visit's guest account and its first deal, asked for in one request while the other
// modules load (docs/rules.md#guests): the page needs nothing else to show a table, so the
// visitor waits for one round trip of the network after the page, not three. It imports
// nothing, so it runs as soon as it arrives; game.js takes what it got (or asks itself if it
// got nothing, or if it ran first).

/**
 * @typedef {{guest: {token: string, username: string}, game: object | null}} FirstVisit
 */

/**
 * @param {string} path
 * @param {unknown} body
 */
async function post(path, body) {
  const response = await fetch(`/api/v1${path}`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

/** @returns {Promise<FirstVisit | null>} */
async function firstVisit() {
  // One request: the guest and its first deal come back together (POST /auth/guest {suits}).
  const { game, ...guest } = await post('/auth/guest', { suits: 1 });
  return { guest, game: game || null };
}

// Only where a first visit deals at once (the play route), with nothing stored, and only if
// game.js has not asked already: this module is async, so on a slow machine the router may
// run first; one first visit makes one guest.
const w = /** @type {any} */ (window);
if (!w.spiderFirstVisit && !localStorage.getItem('spider.token')
  && /^\/(?:play)?$/.test(location.pathname)) {
  w.spiderFirstVisit = firstVisit().catch(() => null);
}
