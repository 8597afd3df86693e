// @ts-check
// The race lobby (docs/rules.md#races): open a table (suits, an optional time limit, the
// table rule) or go to one by its invite code or link. A screen of its own; the table's page
// is race.js, which takes the same settings fields for the opener's settings form.

import * as api from './api.js';
import { SUIT_LABEL } from './cards.js';
import { h, clear, formErrors, link } from './dom.js';
import { LAST_TABLE_KEY, codeFrom } from './racestate.js';

/** @import { Ctx } from './app.js' */

const LIMITS = [[0, 'No time limit'], [60, '1 minute'], [180, '3 minutes'], [300, '5 minutes'],
  [600, '10 minutes'], [900, '15 minutes'], [1800, '30 minutes'], [3600, '60 minutes']];
/**
 * The suits, time-limit and table-rule fields of the lobby's and the settings' forms.
 * @param {string} prefix  of the fields' ids and names
 * @param {number} suits
 * @param {number | null} limit
 * @param {boolean} gap  the table rule deal_over_gap (GameLake's end game)
 */
export function settingsFields(prefix, suits = 1, limit = null, gap = false) {
  const radios = [1, 2, 4].map((s) => h('label', { class: 'radio' },
    h('input', {
      type: 'radio', name: `${prefix}-suits`, value: String(s), checked: s === suits,
    }), ` ${SUIT_LABEL[s]}`));
  const select = h('select', { id: `${prefix}-limit`, name: 'time_limit_s' },
    LIMITS.map(([v, label]) =>
      h('option', { value: String(v), selected: v === (limit || 0) }, label)));
  const rule = h('input', {
    type: 'checkbox', id: `${prefix}-gap`, name: 'deal_over_gap', checked: gap,
  });
  /** @param {HTMLFormElement} form */
  const read = (form) => {
    const checked = /** @type {HTMLInputElement} */ (
      form.querySelector(`input[name="${prefix}-suits"]:checked`));
    return {
      suits: Number(checked.value),
      time_limit_s: Number(select.value) || null,
      deal_over_gap: rule.checked,
    };
  };
  return {
    nodes: [h('fieldset', { class: 'suits-choice' }, h('legend', {}, 'Suits'), radios),
      h('label', { for: `${prefix}-limit` }, 'Time limit'), select,
      h('label', { for: `${prefix}-gap` }, rule, ' GameLake end game: deal over empty columns '
        + 'once fewer than ten cards are left on the table')],
    read,
  };
}

/**
 * @param {HTMLElement} root
 * @param {Ctx} ctx
 */
export async function lobbyScreen(root, ctx) {
  if (ctx.needLogin()) return null;
  const open = settingsFields('open');
  const openErrors = h('div', { class: 'form-errors', role: 'alert' });
  const openButton = h('button', { type: 'submit', class: 'primary' }, 'Open a table');
  const openForm = h('form', { class: 'panel race-form', 'aria-labelledby': 'open-title' },
    h('h2', { id: 'open-title' }, 'Open a table'),
    h('p', { class: 'small' }, 'Two to four players race on the same deal, each at their own '
      + 'table. Share the invite code; the first to win the deal takes the race.'),
    open.nodes, openErrors, openButton);
  openForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    clear(openErrors);
    openButton.disabled = true;
    try {
      const table = await api.openRace(open.read(openForm));
      ctx.navigate(`/race/${table.code}`);
    } catch (err) {
      formErrors(openErrors, /** @type {api.ApiError} */ (err));
    } finally {
      openButton.disabled = false;
    }
  });

  const code = h('input', {
    id: 'invite-code', name: 'code', autocomplete: 'off', autocapitalize: 'characters',
    spellcheck: 'false', required: true, maxlength: '200', placeholder: 'e.g. K7QX2M9A',
  });
  const joinErrors = h('div', { class: 'form-errors', role: 'alert' });
  const joinButton = h('button', { type: 'submit', class: 'primary' }, 'Go to the table');
  const joinForm = h('form', { class: 'panel race-form', 'aria-labelledby': 'join-title' },
    h('h2', { id: 'join-title' }, 'Join a table'),
    h('label', { for: 'invite-code' }, 'Invite code or link'), code, joinErrors, joinButton);
  joinForm.addEventListener('submit', async (e) => {
    e.preventDefault();
    clear(joinErrors);
    const wanted = codeFrom(code.value);
    if (!wanted) {
      clear(joinErrors, h('p', {}, 'Type the invite code you were given.'));
      return;
    }
    joinButton.disabled = true;
    try {
      const table = await api.race(wanted);
      ctx.navigate(`/race/${table.code}`);
    } catch (err) {
      formErrors(joinErrors, /** @type {api.ApiError} */ (err));
    } finally {
      joinButton.disabled = false;
    }
  });
  const last = localStorage.getItem(LAST_TABLE_KEY);
  clear(root, h('section', { class: 'race-lobby' },
    h('h1', {}, 'Race a friend'),
    h('div', { class: 'lobby-forms' }, openForm, joinForm),
    last ? h('p', { class: 'small' }, 'Your last table: ', link(`/race/${last}`, last)) : null));
  return null;
}
