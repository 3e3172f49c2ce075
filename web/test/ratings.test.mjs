// Ratings in the web client without a browser (issue 31): the ladder's request and answer,
// the rating texts, and where the profile's chart puts each day's point.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { initialState, parseRoute } from '../js/state.js';
import * as actions from '../js/actions.js';
import { receive } from '../js/receive.js';
import * as account from '../js/account.js';
import { ratingText, ratingChangeText, ratingChangesText } from '../js/format.js';
import { readFileSync } from 'node:fs';
import * as i18n from '../js/i18n.js';
import { chartPoints, CHART } from '../js/pages/profile.js';

i18n.use('en', ['en.ftl', 'pages-en.ftl'].map((file) => readFileSync(new URL(`../i18n/${file}`, import.meta.url), 'utf8')).join('\n'));

const fresh = (path) => initialState(parseRoute(path), { name: '', nextId: 1, seats: {} });

test('the ladder page asks for /api/ladder and keeps its rungs', () => {
  assert.deepEqual(parseRoute('/ladder'), { page: 'ladder', id: null });
  const state = fresh('/ladder');
  const [ladder] = actions.follow(state).map((e) => e.http);
  assert.deepEqual([ladder.method, ladder.path], ['GET', '/api/ladder']);
  assert.equal(state.ladder.rungs, null, 'loading until the answer');
  const rungs = [{ rank: 1, name: 'Anne', bot: false, rating: 1720, rd: 61.2, rated_games: 30 }];
  account.answered(state, ladder, { status: 200, body: rungs, retryAfter: 0 });
  assert.deepEqual(state.ladder.rungs, rungs);
});

test('a rating reads 1500? while provisional, and a change as 1532 (+12)', () => {
  assert.equal(ratingText(1500, true), '1500?');
  assert.equal(ratingText(1531.6, false), '1532');
  assert.equal(ratingChangeText(1531.6, 11.7), '1532 (+12)');
  assert.equal(ratingChangeText(1488.2, -11.7), '1488 (−12)');
  assert.equal(ratingChangeText(1500, 0.2), '1500 (±0)');
  assert.equal(ratingChangeText(1662.3, 162.3, true), '1662? (+162)');
});

test('a rated result shows both new ratings with their change, a casual one none', () => {
  const rated = {
    outcome: 'white_wins',
    rating_change: {
      white: { before: 1520, after: 1532, diff: 12, provisional: false },
      black: { before: 1500, after: 1488, diff: -12, provisional: false },
    },
  };
  assert.equal(ratingChangesText(rated), 'White 1532 (+12) · Black 1488 (−12)');
  assert.equal(ratingChangesText({ outcome: 'draw', rating_change: null }), '');
  assert.equal(ratingChangesText(null), '');
});

test('the chart puts days apart by date and higher ratings higher', () => {
  const history = [
    { date: '2026-11-01', rating: 1500, rd: 300 },
    { date: '2026-11-02', rating: 1560, rd: 250 },
    { date: '2026-11-11', rating: 1530, rd: 200 },
  ];
  const { points, low, high } = chartPoints(history);
  assert.deepEqual(points.map((p) => [p.date, p.rating]), history.map((p) => [p.date, p.rating]));
  assert.ok(low <= 1500 && high >= 1560 && high - low >= 100, `${low}..${high}`);
  assert.equal(points[0].x, CHART.left, 'the first day at the left');
  assert.equal(points[2].x, CHART.width - CHART.right, 'the last day at the right');
  // Day 2 is a tenth of the way from day 1 to day 11.
  const tenth = CHART.left + (CHART.width - CHART.left - CHART.right) / 10;
  assert.ok(Math.abs(points[1].x - tenth) < 0.1, `${points[1].x} vs ${tenth}`);
  assert.ok(points[1].y < points[2].y && points[2].y < points[0].y, 'higher rating, higher point');
  const one = chartPoints([{ date: '2026-11-01', rating: 1500, rd: 300 }]).points;
  assert.equal(one.length, 1, 'one day, one point, in the middle');
});

test('a rated seek with a range is only sent for a member; a guest creates casual', () => {
  const form = { time: '5+3', color: 'white', private: false, mode: 'rated', range: '200' };
  const guest = fresh('/');
  const [asGuest] = actions.createMatch(guest, form).map((e) => e.send.msg.create_match);
  assert.deepEqual([asGuest.rated, asGuest.rating_range], [false, null]);
  const member = fresh('/');
  member.account = { name: 'Anne', bot: false, admin: false };
  const [rated] = actions.createMatch(member, form).map((e) => e.send.msg.create_match);
  assert.deepEqual([rated.rated, rated.rating_range], [true, 200]);
  const [open] = actions.createMatch(member, { ...form, range: 'open' }).map((e) => e.send.msg.create_match);
  assert.deepEqual([open.rated, open.rating_range], [true, null]);
  const [hidden] = actions.createMatch(member, { ...form, private: true }).map((e) => e.send.msg.create_match);
  assert.deepEqual([hidden.rated, hidden.rating_range], [true, null], 'a private match has no range');
});

test('play now waits, can be cancelled, and goes to the match when paired', () => {
  const guest = fresh('/');
  assert.deepEqual(actions.playNow(guest, '3+2'), [], 'members only');
  assert.equal(guest.notice.code, 'members_only');

  const state = fresh('/');
  state.account = { name: 'Anne', bot: false, admin: false };
  const [ask] = actions.playNow(state, '3+2').map((e) => e.send);
  assert.deepEqual(ask.msg, { play_now: { preset: '3+2' } });
  assert.deepEqual(state.playNow, { preset: '3+2' });
  const [cancel] = actions.cancelPlayNow(state).map((e) => e.send);
  assert.equal(cancel.msg, 'cancel_play_now');
  assert.equal(state.playNow, null);

  const [again] = actions.playNow(state, '5+3').map((e) => e.send);
  receive(state, { ack: { id: again.id } }, 0);
  assert.deepEqual(state.playNow, { preset: '5+3' }, 'still waiting after the ack');
  const seat = { id: again.id, match_id: 'm9', invite_code: 'ABCDE-FGHIJ', side: 'black', token: 'st.x' };
  const effects = receive(state, { paired: { preset: '5+3', seat, opponent: 'Wytze', opponent_rating: { rating: 1512, provisional: true } } }, 0);
  assert.equal(state.playNow, null);
  assert.deepEqual(state.paired, { opponent: 'Wytze', rating: '1512?' });
  assert.deepEqual(state.route, { page: 'match', id: 'm9' });
  assert.ok(effects.some((e) => e.navigate === '/m/m9'), JSON.stringify(effects));
  assert.ok(effects.some((e) => e.saveSeat && e.saveSeat.token === 'st.x'));
});

test('a refused play now stops waiting; a reconnect waits again', () => {
  const state = fresh('/');
  state.account = { name: 'Anne', bot: false, admin: false };
  const [ask] = actions.playNow(state, '1+1').map((e) => e.send);
  receive(state, { error: { id: ask.id, code: 'members_only', message: 'members only' } }, 0);
  assert.equal(state.playNow, null);
  actions.playNow(state, '1+1');
  const effects = receive(state, { welcome: { account: state.account } }, 0);
  assert.ok(effects.some((e) => e.send && e.send.msg.play_now && e.send.msg.play_now.preset === '1+1'));
});
