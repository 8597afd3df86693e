// @ts-check
// A first visit's guest account and its first deal, asked for while the other modules load
// (docs/rules.md#guests): the page needs nothing else to show a table, so the visitor waits
// for one round trip of the network after the page, not three. It imports nothing, so it
// runs as soon as it arrives; game.js takes what it got (or asks itself if it got nothing).

/**
 * @typedef {{guest: {token: string, username: string}, game: object | null}} FirstVisit
 */

/**
 * @param {string} path
 * @param {unknown} body
 * @param {Record<string, string>} headers
 */
async function post(path, body, headers = {}) {
  const response = await fetch(`/api/v1${path}`, {
    method: 'POST',
    headers: { Accept: 'application/json', 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${path}: ${response.status}`);
  return response.json();
}

/** @returns {Promise<FirstVisit | null>} */
async function firstVisit() {
  const guest = await post('/auth/guest', {});
  const game = await post('/games', { suits: 1 }, {
    Authorization: `Bearer ${guest.token}`, 'Idempotency-Key': crypto.randomUUID(),
  }).catch(() => null);
  return { guest, game };
}

// Only where a first visit deals at once (the play route), with nothing stored.
if (!localStorage.getItem('spider.token') && /^\/(?:play)?$/.test(location.pathname)) {
  /** @type {any} */ (window).spiderFirstVisit = firstVisit().catch(() => null);
}
