// @ts-check
// The rules page (/rules): the project's rulebook, docs/rules.md, as the server renders it
// (GET /rules), with a table of contents. The rulebook stays the one source: nothing of it
// is copied here.

import * as api from './api.js';
import { h, clear } from './dom.js';

/**
 * @param {HTMLElement} root
 */
export async function rulesScreen(root) {
  const book = await api.rulebook();
  // The server's own rendering of its own file (raw HTML in the source is escaped there), so
  // it is the one HTML this client takes as markup; parsed inertly (DOMParser runs no
  // script, and the page's CSP allows none inline).
  const parsed = new DOMParser().parseFromString(book.html, 'text/html');
  const article = h('article', { class: 'rulebook' });
  article.append(...Array.from(parsed.body.childNodes));
  // A code block or table wider than a phone scrolls sideways: by keyboard too.
  article.querySelectorAll('pre, table').forEach((el) => el.setAttribute('tabindex', '0'));
  const contents = h('nav', { class: 'rules-contents', 'aria-label': 'Sections' },
    h('h2', {}, 'Sections'),
    h('ol', {}, book.sections.filter((s) => s.level === 2).map((s) =>
      h('li', {}, h('a', { href: `#${s.anchor}` }, s.title)))));
  clear(root, h('section', { class: 'panel rules-page' }, contents, article));
  document.title = `${book.title} · Spider Solitaire`;
  const anchor = decodeURIComponent(location.hash.slice(1));
  if (anchor) document.getElementById(anchor)?.scrollIntoView();
  return () => { document.title = 'Spider Solitaire'; };
}
