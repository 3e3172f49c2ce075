/**
 * The two forms that start something: a new match (lobby) and an on-demand engine game
 * (lobby and TV page). Built once; the page reads them on submit.
 * @module render/forms
 */

import { h } from './dom.js';

const PRESETS = ['1+1', '3+2', '5+3', '10+5', '15+10'];
const RANGES = [100, 200, 300, 400, 500];
const ENGINES = ['D', 'K', 'L', 'M', 'S'];

const field = (label, control) => h('label', { class: 'field' }, h('span', {}, label), control);

export function createForm() {
  const time = h('select', { name: 'time' },
    ...PRESETS.map((p) => h('option', { value: p, selected: p === '5+3' }, `${p}${p === '5+3' ? ' (blitz)' : ''}`)),
    h('option', { value: 'custom' }, 'custom…'),
    h('option', { value: 'none' }, 'untimed'));
  const custom = h('div', { class: 'custom', hidden: true },
    field('Minutes', h('input', { name: 'minutes', type: 'number', min: '0.25', max: '180', step: 'any', value: '5', inputmode: 'decimal' })),
    field('Increment (s)', h('input', { name: 'increment', type: 'number', min: '0', max: '180', step: '1', value: '3', inputmode: 'numeric' })));
  // Rated or casual: rated is for members only, so a guest's form offers casual alone
  // (lobby.js turns the choice on once the server says the page is a member's).
  const mode = h('select', { name: 'mode' },
    h('option', { value: 'casual' }, 'casual'),
    h('option', { value: 'rated', disabled: true }, 'rated (members)'));
  const range = h('select', { name: 'range' },
    h('option', { value: 'open' }, 'open to all'),
    ...RANGES.map((r) => h('option', { value: String(r) }, `±${r}`)));
  const color = h('select', { name: 'color' },
    h('option', { value: 'random' }, 'random'),
    h('option', { value: 'white' }, 'white'),
    h('option', { value: 'black' }, 'black'));
  return h('form', { id: 'create', class: 'card', 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, 'New match'),
    field('Time control', time), custom,
    field('Your colour', color),
    field('Game', mode),
    h('div', { class: 'rated-only', hidden: true }, field('Opponent rating', range)),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'private' }),
      h('span', {}, 'Private (only through its invite link)')),
    h('button', { type: 'submit', class: 'primary' }, 'Create match'),
    h('p', { class: 'hint' }, 'Frisian draughts: pieces also capture straight ahead and sideways.'));
}

/**
 * "Play now": one button per preset; pressing one waits in the server's pool until a member
 * of close rating is found (`#play-now-waiting`, with a cancel button), then the match opens.
 */
export function playNowPanel() {
  return h('section', { id: 'play-now', class: 'card', 'aria-labelledby': 'play-now-title' },
    h('h2', { id: 'play-now-title' }, 'Play now'),
    h('div', { class: 'presets', role: 'group', 'aria-label': 'Time control' },
      ...PRESETS.map((p) => h('button', { type: 'button', 'data-play-now': p }, p))),
    h('p', { id: 'play-now-waiting', class: 'waiting', role: 'status', hidden: true },
      h('span', {}), ' ', h('button', { type: 'button', 'data-action': 'cancel-play-now' }, 'Cancel')),
    h('p', { class: 'hint' }, 'A rated game against a member of close rating, found for you in seconds.'));
}

export function engineForm() {
  const engines = (name, chosen) => h('select', { name },
    ...ENGINES.flatMap((letter) => Array.from({ length: 10 }, (_, seed) => `${letter}${seed}`))
      .map((code) => h('option', { value: code, selected: code === chosen }, code)));
  return h('form', { id: 'engine-form', class: 'card', 'aria-labelledby': 'engine-title' },
    h('h2', { id: 'engine-title' }, 'Watch an engine game'),
    field('Serial', h('input', {
      name: 'serial', required: true, maxlength: '6', pattern: '[A-Za-z0-9]{6}', value: 'CH3SS5',
      autocomplete: 'off', spellcheck: 'false',
    })),
    field('White engine', engines('white', 'L4')),
    field('Black engine', engines('black', 'K7')),
    field('Seconds per ply', h('input', { name: 'pace', type: 'number', min: '0.1', max: '600', step: '0.1', value: '2', inputmode: 'decimal' })),
    field('Reveal from ply', h('input', { name: 'from', type: 'number', min: '0', max: '80', step: '1', value: '0', inputmode: 'numeric' })),
    h('button', { type: 'submit' }, 'Start'));
}
