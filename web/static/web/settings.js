// @ts-check
// The player's settings (four colours, the look, one-tap, sound, the table rule of new
// games: GameLake's end game), kept with the account
// (GET/PATCH /me/settings; guests too: a guest is a player with a token) and mirrored in
// localStorage, so a page draws with them before the server answers. A change applies at
// once (classes on <html>, and every listener), then is saved; a change made signed out, or
// whose saving failed, waits in `pending` and is saved when a token is there.

import * as api from './api.js';
import { h } from './dom.js';

/** @typedef {import('./api.js').Settings} Settings */

const KEY = 'spider.settings'; // this device's copy of the account's settings
const PENDING = 'spider.settings.pending'; // changes not saved with the account yet
// Before settings were kept with the account, one-tap was this device's own: a value found
// there is taken over as a change to save (then the key is dropped).
const LEGACY_ONE_TAP = 'spider.onetap';

/** @type {Settings} */
export const DEFAULTS = Object.freeze({
  four_colours: false, look: 'felt', one_tap: true, sound: false, deal_over_gap: false,
});

/**
 * @param {string} key
 * @returns {Partial<Settings>}
 */
function read(key) {
  try {
    const value = JSON.parse(localStorage.getItem(key) || '{}');
    return value && typeof value === 'object' ? value : {};
  } catch {
    return {};
  }
}

/** @returns {Partial<Settings>} */
function pendingChanges() {
  const pending = read(PENDING);
  const legacy = localStorage.getItem(LEGACY_ONE_TAP);
  if (legacy === 'on' || legacy === 'off') {
    pending.one_tap = legacy === 'on';
    localStorage.removeItem(LEGACY_ONE_TAP);
    localStorage.setItem(PENDING, JSON.stringify(pending));
  }
  return pending;
}

/** @type {Settings} */
let current = { ...DEFAULTS, ...read(KEY), ...pendingChanges() };
/** @type {Set<(s: Settings) => void>} */
const listeners = new Set();

/** The settings in force now. */
export const settings = () => current;

/**
 * Hear every change (made here, in another tab, or read from the server).
 * @param {(s: Settings) => void} fn
 * @returns {() => void}  stops listening
 */
export function onSettings(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** @param {Settings} next */
function adopt(next) {
  current = { ...DEFAULTS, ...next };
  localStorage.setItem(KEY, JSON.stringify(current));
  apply();
  listeners.forEach((fn) => fn(current));
}

/** The look, on the page: the stylesheet keys off these (style.css, "Settings"). */
function apply() {
  const root = document.documentElement;
  root.classList.toggle('four-colours', current.four_colours);
  root.dataset.look = current.look;
}

/**
 * Change some settings: applied at once, then saved with the account.
 * @param {Partial<Settings>} changes
 */
export function change(changes) {
  localStorage.setItem(PENDING, JSON.stringify({ ...pendingChanges(), ...changes }));
  adopt({ ...current, ...changes });
  save();
}

let saving = Promise.resolve();
/** Send the pending changes (one request at a time, in order). */
function save() {
  saving = saving.then(async () => {
    const pending = pendingChanges();
    if (!api.session.token || !Object.keys(pending).length) return;
    try {
      const answer = await api.updateSettings(pending);
      // Whatever was changed meanwhile stays pending for the next round.
      const now = pendingChanges();
      const left = Object.fromEntries(Object.entries(now).filter(
        ([k, v]) => pending[/** @type {keyof Settings} */ (k)] !== v));
      if (Object.keys(left).length) localStorage.setItem(PENDING, JSON.stringify(left));
      else localStorage.removeItem(PENDING);
      adopt({ ...answer, ...left });
      if (Object.keys(left).length) save();
    } catch { /* kept pending: saved with the next change or sign-in */ }
  });
  return saving;
}

/** The account's settings, read (or, with changes waiting, written) once signed in. */
export async function sync() {
  if (!api.session.token) return;
  if (Object.keys(pendingChanges()).length) {
    await save();
    return;
  }
  try {
    const answer = await api.settings();
    if (!Object.keys(pendingChanges()).length) adopt(answer);
  } catch { /* the copy on this device stands */ }
}

/** Draw with this device's copy now, then follow the account, the session and other tabs. */
export function start() {
  apply();
  api.session.onChange(() => { sync(); });
  window.addEventListener('storage', (e) => {
    if (e.key === KEY) adopt({ ...DEFAULTS, ...read(KEY) });
  });
  sync();
}

/** The settings panel: each control applies its setting at once. */
export function settingsPanel() {
  /**
   * @param {string} id
   * @param {'four_colours' | 'one_tap' | 'sound' | 'deal_over_gap'} key
   * @param {string} label
   */
  const toggle = (id, key, label) => {
    const box = h('input', { type: 'checkbox', id, name: id, dataset: { setting: key } });
    box.checked = current[key];
    box.addEventListener('change', () => change({ [key]: box.checked }));
    return h('label', { for: id }, box, label);
  };
  const look = h('select', { id: 'look', name: 'look', dataset: { setting: 'look' } },
    h('option', { value: 'felt' }, 'Felt (lit green)'),
    h('option', { value: 'classic' }, 'Classic (flat baize, red backs)'));
  look.value = current.look;
  look.addEventListener('change', () => change({
    look: look.value === 'classic' ? 'classic' : 'felt',
  }));
  const panel = h('details', { class: 'settings' }, h('summary', {}, 'Settings'),
    toggle('one-tap', 'one_tap', 'One tap moves a card to the best place'),
    toggle('four-colours', 'four_colours',
      'Four colours (♠ black, ♥ red, ♦ blue, ♣ green); off: two'),
    toggle('sound', 'sound', 'Sound'),
    toggle('gamelake-end-game', 'deal_over_gap', 'GameLake end game'),
    h('p', { class: 'small setting-note' }, 'New games let you deal over empty columns once '
      + 'fewer than ten cards are left on the table (the daily keeps the standard rules).'),
    h('label', { for: 'look' }, 'Look ', look),
    h('p', { class: 'small' }, api.session.token
      ? `Kept with your account${api.session.guest ? ' (as a guest too)' : ''}.`
      : 'Kept on this device until you sign in.'));
  // Follow changes from elsewhere (another tab, the server) while the panel is shown.
  const stop = onSettings((s) => {
    if (!panel.isConnected) {
      stop();
      return;
    }
    panel.querySelectorAll('input[data-setting]').forEach((el) => {
      const input = /** @type {HTMLInputElement} */ (el);
      input.checked = Boolean(s[/** @type {'sound'} */ (input.dataset.setting)]);
    });
    look.value = s.look;
  });
  return panel;
}
