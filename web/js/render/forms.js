/**
 * The two forms that start something: a new match (lobby) and an on-demand engine game
 * (lobby and TV page). Built once; the page reads them on submit.
 * @module render/forms
 */

import { h } from './dom.js';
import { t } from '../i18n.js';

const PRESETS = ['1+1', '3+2', '5+3', '10+5', '15+10'];
const RANGES = [100, 200, 300, 400, 500];
const ENGINES = ['D', 'K', 'L', 'M', 'S'];

const field = (label, control) => h('label', { class: 'field' }, h('span', {}, label), control);

export function createForm() {
  const time = h('select', { name: 'time' },
    ...PRESETS.map((p) => h('option', { value: p, selected: p === '5+3' }, `${p}${p === '5+3' ? ` (${t('form-blitz')})` : ''}`)),
    h('option', { value: 'custom' }, t('form-custom')),
    h('option', { value: 'none' }, t('tc-untimed')));
  const custom = h('div', { class: 'custom', hidden: true },
    field(t('form-minutes'), h('input', { name: 'minutes', type: 'number', min: '0.25', max: '180', step: 'any', value: '5', inputmode: 'decimal' })),
    field(t('form-increment'), h('input', { name: 'increment', type: 'number', min: '0', max: '180', step: '1', value: '3', inputmode: 'numeric' })));
  // Rated or casual: rated is for members only, so a guest's form offers casual alone
  // (lobby.js turns the choice on once the server says the page is a member's).
  const mode = h('select', { name: 'mode' },
    h('option', { value: 'casual' }, t('form-casual')),
    h('option', { value: 'rated', disabled: true }, t('form-rated-members')));
  const range = h('select', { name: 'range' },
    h('option', { value: 'open' }, t('form-range-open')),
    ...RANGES.map((r) => h('option', { value: String(r) }, `±${r}`)));
  const color = h('select', { name: 'color' },
    h('option', { value: 'random' }, t('form-random')),
    h('option', { value: 'white' }, t('side-white')),
    h('option', { value: 'black' }, t('side-black')));
  return h('form', { id: 'create', class: 'card', 'aria-labelledby': 'create-title' },
    h('h2', { id: 'create-title' }, t('form-new-match')),
    field(t('form-time-control'), time), custom,
    field(t('form-colour'), color),
    field(t('form-game'), mode),
    h('div', { class: 'rated-only', hidden: true }, field(t('form-opponent-rating'), range)),
    h('label', { class: 'check' }, h('input', { type: 'checkbox', name: 'private' }),
      h('span', {}, t('form-private'))),
    h('button', { type: 'submit', class: 'primary' }, t('form-create')),
    h('p', { class: 'hint' }, t('form-hint')));
}

/**
 * "Play now": one button per preset; pressing one waits in the server's pool until a member
 * of close rating is found (`#play-now-waiting`, with a cancel button), then the match opens.
 */
export function playNowPanel() {
  return h('section', { id: 'play-now', class: 'card', 'aria-labelledby': 'play-now-title' },
    h('h2', { id: 'play-now-title' }, t('play-now-title')),
    h('div', { class: 'presets', role: 'group', 'aria-label': t('form-time-control') },
      ...PRESETS.map((p) => h('button', { type: 'button', 'data-play-now': p }, p))),
    h('p', { id: 'play-now-waiting', class: 'waiting', role: 'status', hidden: true },
      h('span', {}), ' ', h('button', { type: 'button', 'data-action': 'cancel-play-now' }, t('play-now-cancel'))),
    h('p', { class: 'hint' }, t('play-now-hint')));
}

export function engineForm() {
  const engines = (name, chosen) => h('select', { name },
    ...ENGINES.flatMap((letter) => Array.from({ length: 10 }, (_, seed) => `${letter}${seed}`))
      .map((code) => h('option', { value: code, selected: code === chosen }, code)));
  return h('form', { id: 'engine-form', class: 'card', 'aria-labelledby': 'engine-title' },
    h('h2', { id: 'engine-title' }, t('form-engine-title')),
    field(t('form-serial'), h('input', {
      name: 'serial', required: true, maxlength: '6', pattern: '[A-Za-z0-9]{6}', value: 'CH3SS5',
      autocomplete: 'off', spellcheck: 'false',
    })),
    field(t('form-white-engine'), engines('white', 'L4')),
    field(t('form-black-engine'), engines('black', 'K7')),
    field(t('form-pace'), h('input', { name: 'pace', type: 'number', min: '0.1', max: '600', step: '0.1', value: '2', inputmode: 'decimal' })),
    field(t('form-reveal'), h('input', { name: 'from', type: 'number', min: '0', max: '80', step: '1', value: '0', inputmode: 'numeric' })),
    h('button', { type: 'submit' }, t('form-start')));
}
