/**
 * The form that creates a club event, on `/events` for a member who may (a club admin, or a
 * member with the organiser right: `GET /api/events` says `can_create`). Loaded only then, by
 * pages/events.js, so nobody else downloads it.
 *
 * It posts `POST /api/events` (PROTOCOL.md §20) from the page itself (same origin, with the
 * session cookie). Every field is checked here first against the server's own limits, each
 * error shown beside its field in the page's language; a refusal the server still gives
 * (a start that passed meanwhile, the right taken back) is shown in words too, beside the
 * field it names when it names one.
 * @module pages/event-form
 */

import { h, show, text } from '../render/dom.js';
import { t, refusal } from '../i18n.js';

/** The server's limits (server/src/events/http.rs `validate`). */
export const LIMITS = {
  name: 60, minutes: [1, 180], increment: [0, 60], arena: [20, 180], rounds: [1, 20],
  password: [4, 64], minRatedGames: 10000, rating: 4000,
  /** How far ahead an event may be announced. */
  leadDays: 90,
};

const whole = (value) => (value.trim() === '' ? null : Number(value));
const within = (n, [low, high]) => Number.isInteger(n) && n >= low && n <= high;

/** Each field's error: its words' catalogue id and what they name. */
export const ERRORS = {
  name: ['event-form-error-name', { max: LIMITS.name }],
  time: ['event-form-error-time', { max: LIMITS.minutes[1], increment: LIMITS.increment[1] }],
  length: ['event-form-error-length', { min: LIMITS.arena[0], max: LIMITS.arena[1] }],
  rounds: ['event-form-error-rounds', { max: LIMITS.rounds[1] }],
  start: ['event-form-error-start', { days: LIMITS.leadDays }],
  password: ['event-form-error-password', { min: LIMITS.password[0], max: LIMITS.password[1] }],
  minGames: ['event-form-error-min-games', { max: LIMITS.minRatedGames }],
  rating: ['event-form-error-rating', { max: LIMITS.rating }],
};

/**
 * The request body for the form's `values` (the inputs' strings, the boxes' booleans), or
 * the errors by field ([`ERRORS`]); `now` is Unix ms.
 * @param {Record<string, string|boolean>} values
 * @param {number} now
 * @returns {{body: object|null, errors: Record<string, [string, object]>}}
 */
export function eventBody(values, now) {
  const errors = {};
  const str = (key) => String(values[key] ?? '');
  const name = str('name').trim();
  if (!name || [...name].length > LIMITS.name) errors.name = ERRORS.name;
  const minutes = whole(str('minutes'));
  const increment = whole(str('increment'));
  if (!within(minutes, LIMITS.minutes) || !within(increment, LIMITS.increment)) errors.time = ERRORS.time;
  const kind = str('kind');
  const body = { name, kind, time_control: `${minutes}+${increment}`, rated: Boolean(values.rated) };
  if (kind === 'arena') {
    body.minutes = whole(str('length'));
    if (!within(body.minutes, LIMITS.arena)) errors.length = ERRORS.length;
  } else if (kind === 'swiss') {
    body.rounds = whole(str('rounds'));
    if (!within(body.rounds, LIMITS.rounds)) errors.rounds = ERRORS.rounds;
  } else {
    body.double = Boolean(values.double);
  }
  if (str('start')) {
    const at = new Date(str('start')).getTime();
    // A minute's grace, as the server gives: "now" typed a moment ago is still now.
    if (!Number.isFinite(at) || at < now - 60000 || at > now + LIMITS.leadDays * 86400000) errors.start = ERRORS.start;
    else body.starts_at = at;
  }
  const password = str('password');
  if (password) {
    if (!within([...password].length, LIMITS.password)) errors.password = ERRORS.password;
    body.password = password;
  }
  const games = whole(str('minGames')) ?? 0;
  if (!within(games, [0, LIMITS.minRatedGames])) errors.minGames = ERRORS.minGames;
  body.min_rated_games = games;
  const low = whole(str('ratingMin'));
  const high = whole(str('ratingMax'));
  if (low !== null || high !== null) {
    const min = low ?? 0;
    if (!within(min, [0, LIMITS.rating]) || !within(high ?? LIMITS.rating, [min, LIMITS.rating])) errors.rating = ERRORS.rating;
    if (low !== null) body.rating_min = low;
    if (high !== null) body.rating_max = high;
  }
  return { body: Object.keys(errors).length ? null : body, errors };
}

/** The form's field a server refusal names (`minutes: …` is an arena's length). */
const SERVER_FIELDS = {
  name: 'name', time_control: 'time', minutes: 'length', rounds: 'rounds', starts_at: 'start',
  password: 'password', min_rated_games: 'minGames', rating_min: 'rating', rating_max: 'rating',
};

/**
 * Builds the form into `slot`; `post(body)` sends it and resolves to `{status, body}`, and
 * `created(id)` is called once the server has made the event.
 * @param {HTMLElement} slot
 * @param {(body: object) => Promise<{status: number, body: any}>} post
 * @param {(id: string) => void} created
 */
export function mountEventForm(slot, post, created) {
  /** Each value's control, each field's error (two controls share the time's, the range's),
   * and whose error each control's is. */
  const controls = {};
  const errors = {};
  const owner = {};
  const field = (key, control, { error = key, box = false } = {}) => {
    controls[key] = control;
    owner[key] = error;
    errors[error] = errors[error] || h('small', { class: 'field-error', id: `event-form-${error}-error`, hidden: true });
    control.setAttribute('aria-describedby', errors[error].id);
    const words = h('span', {}, t(`event-form-${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`));
    return box ? h('label', { class: 'check', 'data-field': key }, control, words, errors[error])
      : h('label', { class: 'field', 'data-field': key }, words, control, errors[error]);
  };
  const input = (key, attrs) => h('input', { id: `event-form-${key}`, name: key, ...attrs });
  const number = (key, attrs) => input(key, { type: 'number', inputmode: 'numeric', step: '1', ...attrs });
  const box = (key) => field(key, input(key, { type: 'checkbox' }), { box: true });
  const kind = h('select', { id: 'event-form-kind', name: 'kind' },
    ...['arena', 'swiss', 'round_robin'].map((k) => h('option', { value: k }, t(`event-form-kind-${k}`))));
  const length = field('length', number('length', { min: '20', max: '180', value: '60' }));
  const rounds = field('rounds', number('rounds', { min: '1', max: '20', value: '5' }));
  const double = box('double');
  const notice = h('p', { id: 'event-form-notice', class: 'notice', role: 'alert' });
  const done = h('p', { id: 'event-form-created', class: 'hint', role: 'status' });
  const submit = h('button', { type: 'submit', class: 'primary' }, t('event-form-create'));
  const form = h('form', { id: 'event-form', class: 'stack', novalidate: true },
    field('name', input('name', { maxlength: '60', autocomplete: 'off' })),
    field('kind', kind),
    h('div', { class: 'custom' },
      field('minutes', number('minutes', { min: '1', max: '180', value: '5' }), { error: 'time' }),
      field('increment', number('increment', { min: '0', max: '60', value: '3' }), { error: 'time' })),
    length, rounds, double, box('rated'),
    field('start', input('start', { type: 'datetime-local' })),
    field('password', input('password', { type: 'text', maxlength: '64', autocomplete: 'off' })),
    field('minGames', number('minGames', { min: '0', max: '10000', value: '0' })),
    h('div', { class: 'custom' },
      field('ratingMin', number('ratingMin', { min: '0', max: '4000' }), { error: 'rating' }),
      field('ratingMax', number('ratingMax', { min: '0', max: '4000' }), { error: 'rating' })),
    submit, notice, done);
  const shape = () => {
    show(length, kind.value === 'arena');
    show(rounds, kind.value === 'swiss');
    show(double, kind.value === 'round_robin');
  };
  kind.addEventListener('change', shape);
  shape();
  slot.replaceChildren(h('h2', {}, t('event-form-title')), form);

  /** Shows the errors `found` beside their fields, and no others. */
  const say = (found) => {
    for (const [key, el] of Object.entries(errors)) {
      text(el, found[key] ? t(...found[key]) : '');
      show(el, Boolean(found[key]));
    }
    for (const [key, control] of Object.entries(controls)) control.toggleAttribute('aria-invalid', Boolean(found[owner[key]]));
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const values = Object.fromEntries(Object.entries(controls).map(([key, c]) => [key, c.type === 'checkbox' ? c.checked : c.value]));
    const { body, errors: found } = eventBody(values, Date.now());
    say(found);
    text(notice, '');
    text(done, '');
    if (!body) {
      const first = Object.keys(found)[0];
      controls[Object.keys(owner).find((key) => owner[key] === first)]?.focus();
      return;
    }
    submit.disabled = true;
    const answer = await post(body);
    submit.disabled = false;
    if (answer.status === 201 && answer.body && answer.body.id) {
      form.reset();
      shape();
      text(done, t('event-form-created'));
      created(answer.body.id);
      return;
    }
    const error = answer.body && answer.body.error;
    text(notice, error ? refusal(error.code, error.message) : t('page-load-failed'));
    const named = error && error.code === 'invalid_argument' && SERVER_FIELDS[String(error.message).split(':')[0]];
    if (named) say({ [named]: ERRORS[named] });
  });
}
