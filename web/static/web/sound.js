// @ts-check
// The game's sounds, made with the Web Audio API (no audio file): a move, a deal, a
// completed run, a refusal, a win. Silent unless the player turned sound on (settings.js);
// turned off, nothing plays from the next sound on. The audio context is made on the first
// sound, which always follows a tap or a key (browsers start audio only after a gesture).

import { settings } from './settings.js';

/** @typedef {'move' | 'deal' | 'run' | 'refusal' | 'win'} Sound */

/** @type {AudioContext | null} */
let context = null;

/**
 * One note: an oscillator through a short attack-and-decay envelope.
 * @param {AudioContext} ac
 * @param {{type: OscillatorType, from: number, to?: number, at?: number, length: number,
 *   volume: number}} note  frequencies in Hz, times in seconds from now
 */
function tone(ac, { type, from, to = from, at = 0, length, volume }) {
  const start = ac.currentTime + at;
  const osc = ac.createOscillator();
  const gain = ac.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(from, start);
  if (to !== from) osc.frequency.exponentialRampToValueAtTime(to, start + length);
  gain.gain.setValueAtTime(0.0001, start);
  gain.gain.exponentialRampToValueAtTime(volume, start + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(gain).connect(ac.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

/**
 * A card's rustle: a burst of noise, band-passed.
 * @param {AudioContext} ac
 * @param {number} at
 */
function rustle(ac, at) {
  const length = 0.05;
  const buffer = ac.createBuffer(1, Math.ceil(ac.sampleRate * length), ac.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i += 1) {
    data[i] = (Math.random() * 2 - 1) * (1 - i / data.length);
  }
  const source = ac.createBufferSource();
  source.buffer = buffer;
  const filter = ac.createBiquadFilter();
  filter.type = 'bandpass';
  filter.frequency.value = 2400;
  const gain = ac.createGain();
  gain.gain.value = 0.25;
  source.connect(filter).connect(gain).connect(ac.destination);
  source.start(ac.currentTime + at);
}

/** @type {Record<Sound, (ac: AudioContext) => void>} */
const SOUNDS = {
  move: (ac) => tone(ac, { type: 'triangle', from: 700, to: 480, length: 0.07, volume: 0.18 }),
  deal: (ac) => [0, 0.05, 0.1, 0.15].forEach((at) => rustle(ac, at)),
  run: (ac) => [523.25, 659.25, 783.99, 1046.5].forEach((f, k) => tone(ac, {
    type: 'sine', from: f, at: k * 0.07, length: 0.16, volume: 0.16,
  })),
  refusal: (ac) => tone(ac, { type: 'square', from: 160, to: 110, length: 0.16, volume: 0.06 }),
  win: (ac) => {
    [392, 523.25, 659.25, 783.99, 1046.5].forEach((f, k) => tone(ac, {
      type: 'triangle', from: f, at: k * 0.09, length: 0.22, volume: 0.16,
    }));
    [523.25, 659.25, 783.99].forEach((f) => tone(ac, {
      type: 'sine', from: f, at: 0.5, length: 0.9, volume: 0.09,
    }));
  },
};

/**
 * Play a sound, if sound is on.
 * @param {Sound} name
 */
export function play(name) {
  if (!settings().sound) return;
  try {
    context ??= new AudioContext();
    if (context.state === 'suspended') context.resume().catch(() => {});
    SOUNDS[name](context);
    // What was played last, for the tests (nothing here is read back by the client).
    const root = document.documentElement;
    root.dataset.sound = name;
    root.dataset.sounds = String(Number(root.dataset.sounds || 0) + 1);
  } catch { /* no audio on this device: the game goes on silently */ }
}
