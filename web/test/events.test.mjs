// The club event page's pure parts without a browser (issue 33): following an event over the
// socket (actions.follow, receive) and the create form's checks (pages/event-form.js
// eventBody). Run by `cargo test -p boardcast-server --test web_js`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as i18n from '../js/i18n.js';
import { initialState, parseRoute } from '../js/state.js';
import { receive } from '../js/receive.js';
import { eventBody, ERRORS } from '../js/pages/event-form.js';
import { eventRefusal, offers, requestIds } from '../js/pages/events.js';

i18n.use('en', ['en.ftl', 'pages-en.ftl'].map((file) => readFileSync(new URL(`../i18n/${file}`, import.meta.url), 'utf8')).join('\n'));

const welcome = { welcome: { protocol: 1, server: 't', limits: {} } };
const event = (v, players) => ({ club_event: { id: 'k3v9q2xa', v, name: 'Club Swiss', kind: 'swiss', status: 'waiting', players, standings: [], rounds: [] } });
const sent = (effects) => effects.filter((e) => e.send).map((e) => e.send.msg);

test('an event page follows its event over the socket, and again from the version it has after a reconnect', () => {
  const state = initialState(parseRoute('/e/k3v9q2xa'), { name: '', nextId: 1, seats: {} });
  assert.deepEqual(sent(receive(state, welcome, 0)), [{ watch: { target: { event: 'k3v9q2xa' }, since_v: null } }]);
  receive(state, event(3, []), 0);
  receive(state, event(4, ['Sietske']), 0);
  assert.equal(state.event.v, 4);
  assert.deepEqual(state.event.players, ['Sietske']);
  // Another event's push (none is expected) changes nothing.
  receive(state, { club_event: { ...event(9, []).club_event, id: 'other123' } }, 0);
  assert.equal(state.event.id, 'k3v9q2xa');
  // The socket dropped and opened again: watched from the version shown.
  state.conn = 'offline';
  assert.deepEqual(sent(receive(state, welcome, 0)), [{ watch: { target: { event: 'k3v9q2xa' }, since_v: 4 } }]);
});

test('the create form sends what the server takes, and names each field it would refuse', () => {
  const now = Date.UTC(2026, 10, 27, 4, 0);
  const arena = {
    name: ' Tuesday arena ', kind: 'arena', minutes: '3', increment: '2', length: '60', rounds: '5',
    double: false, rated: true, start: '', password: '', minGames: '', ratingMin: '', ratingMax: '',
  };
  assert.deepEqual(eventBody(arena, now), {
    body: { name: 'Tuesday arena', kind: 'arena', time_control: '3+2', rated: true, minutes: 60, min_rated_games: 0 },
    errors: {},
  });
  const swiss = eventBody({ ...arena, kind: 'swiss', rounds: '7', password: 'geheim', ratingMin: '1200', ratingMax: '1800', minGames: '10' }, now);
  assert.deepEqual(swiss.body, {
    name: 'Tuesday arena', kind: 'swiss', time_control: '3+2', rated: true, rounds: 7, password: 'geheim',
    min_rated_games: 10, rating_min: 1200, rating_max: 1800,
  });
  const start = new Date(now + 3600000);
  const local = new Date(start.getTime() - start.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
  assert.equal(eventBody({ ...arena, kind: 'round_robin', double: true, start: local }, now).body.starts_at, Math.floor((now + 3600000) / 60000) * 60000);
  const refused = (change) => Object.keys(eventBody({ ...arena, ...change }, now).errors);
  assert.deepEqual(refused({ length: '10' }), ['length']);
  assert.deepEqual(refused({ length: '181' }), ['length']);
  assert.deepEqual(refused({ name: '   ' }), ['name']);
  assert.deepEqual(refused({ minutes: '0', increment: '0' }), ['time']);
  assert.deepEqual(refused({ increment: '61' }), ['time']);
  assert.deepEqual(refused({ kind: 'swiss', rounds: '0' }), ['rounds']);
  assert.deepEqual(refused({ password: 'abc' }), ['password']);
  assert.deepEqual(refused({ ratingMin: '1800', ratingMax: '1200' }), ['rating']);
  assert.deepEqual(refused({ minGames: '-1' }), ['minGames']);
  assert.deepEqual(refused({ start: '2020-01-01T10:00' }), ['start']);
  // Each error in words, with the limits in them.
  assert.equal(i18n.t(...ERRORS.length), 'An arena lasts 20 to 180 minutes.');
  assert.equal(i18n.t(...ERRORS.password), 'A password has 4 to 64 characters.');
});

test('a refused event request reads in the page\'s language, and an invalid field keeps the server\'s detail in English', () => {
  const words = (lang) => ['', 'pages-'].map((p) => readFileSync(new URL(`../i18n/${p}${lang}.ftl`, import.meta.url), 'utf8')).join('\n');
  try {
    i18n.use('nl', words('nl'));
    assert.equal(eventRefusal({ code: 'round_in_progress', message: 'the last round is being played: the event takes no more players' }),
      'De laatste ronde wordt gespeeld: er kan niemand meer bij.');
    i18n.use('fy', words('fy'));
    assert.equal(eventRefusal({ code: 'not_organiser', message: 'only an admin…' }),
      'Allinnich in behearder of in lid mei organisatorrjocht makket toernoaien oan.');
    // A field the form could not check: the code's general line here, the detail in English.
    assert.equal(eventRefusal({ code: 'invalid_argument', message: 'the arena lasts 20 to 180 minutes' }),
      i18n.t('error-invalid_argument'));
  } finally {
    i18n.use('en', words('en'));
  }
  assert.equal(eventRefusal({ code: 'invalid_argument', message: 'the arena lasts 20 to 180 minutes' }),
    'the arena lasts 20 to 180 minutes');
});

test('a member who withdrew is offered the join again where the server takes them back, and nobody a round-robin that runs', () => {
  const line = (name, withdrawn) => ({ name, withdrawn });
  const playing = { games: [{ white: 'Anne', black: 'Catrijn', result: null }] };
  const swiss = { kind: 'swiss', status: 'playing', rounds_total: 3, players: ['Anne'], standings: [line('Anne', false), line('Bauke', true)], rounds: [{ round: 1, ...playing }] };
  assert.deepEqual(offers(swiss, 'Bauke'), { join: true, again: true, withdraw: false });
  assert.deepEqual(offers(swiss, 'Anne'), { join: false, again: false, withdraw: true });
  assert.deepEqual(offers(swiss, 'Catrijn'), { join: true, again: false, withdraw: false });
  assert.deepEqual(offers(swiss, null), { join: false, again: false, withdraw: false });
  assert.deepEqual(offers({ ...swiss, status: 'finished' }, 'Bauke'), { join: false, again: false, withdraw: false });
  // The last round of a Swiss being played: nobody joins any more.
  const last = { ...swiss, rounds: [{ round: 3, ...playing }] };
  assert.deepEqual(offers(last, 'Bauke'), { join: false, again: false, withdraw: false });
  assert.deepEqual(offers({ ...last, rounds: [{ round: 2, ...playing }] }, 'Bauke'), { join: true, again: true, withdraw: false });
  const waiting = { ...swiss, kind: 'round_robin', status: 'waiting', rounds: [] };
  assert.deepEqual(offers(waiting, 'Bauke'), { join: true, again: true, withdraw: false });
  const running = { ...waiting, status: 'playing', rounds: [{ round: 1, ...playing }] };
  assert.deepEqual(offers(running, 'Bauke'), { join: false, again: false, withdraw: false });
  assert.deepEqual(offers(running, 'Catrijn'), { join: false, again: false, withdraw: false });
  assert.deepEqual(offers(running, 'Anne'), { join: false, again: false, withdraw: true });
  assert.equal(i18n.t('event-rejoin'), 'Join again');
  assert.equal(eventRefusal({ code: 'left_for_good', message: '' }),
    'You withdrew from this round-robin after its start: you cannot join it again.');
});

test('a join sent again after no answer or a 503 keeps its request id; once answered the next request has a new one', () => {
  let made = 0;
  const ids = requestIds(() => `id${++made}`);
  const join = '/api/events/k3v9q2xa/join';
  const withdraw = '/api/events/k3v9q2xa/withdraw';
  assert.equal(ids.of(join), 'id1');
  ids.answered(join, 0); // no answer: it may have been done
  assert.equal(ids.of(join), 'id1', 'sent again as the same request');
  ids.answered(join, 503); // event_moving or busy
  assert.equal(ids.of(join), 'id1');
  ids.answered(join, 200);
  assert.equal(ids.of(withdraw), 'id2', 'a new request');
  ids.answered(withdraw, 409); // refused: done with
  assert.equal(ids.of(withdraw), 'id3');
  // Another request asked meanwhile is a request of its own.
  assert.equal(ids.of(join), 'id4');
  const real = requestIds();
  assert.match(real.of(join), /^[0-9a-f]{24}$/, 'what the server takes: letters and digits, at most 64');
});
