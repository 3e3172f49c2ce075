// The page's pure modules (state, receive, actions) without a browser: `node --test web/test/`
// (run by `cargo test -p boardcast-server --test web_js`). No DOM is touched by these modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as i18n from '../js/i18n.js';
import { initialState, parseRoute } from '../js/state.js';
import { receive, graceLeft } from '../js/receive.js';
import * as actions from '../js/actions.js';
import { summaryPlayers, playerText } from '../js/format.js';

// The page speaks from its catalogue; these tests read English, as a browser would by default.
i18n.use('en', ['en.ftl', 'pages-en.ftl'].map((file) => readFileSync(new URL(`../i18n/${file}`, import.meta.url), 'utf8')).join('\n'));

const START = 'W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20:H0:F1:+0+0';
const SEAT = { match_id: 'm1', token: 'st.secret', side: 'white', invite_code: 'ABCDEF' };

function snapshot(overrides = {}) {
  return {
    match_id: 'm1', v: 2, white: { name: 'A', connected: true }, black: { name: 'B', connected: true },
    time_control: { initial_ms: 300000, increment_ms: 3000 }, public: true, phase: 'playing',
    start_fen: START, fen: START, moves: [], turn: 'white',
    clock: { white_ms: 300000, black_ms: 300000, running: 'white' },
    legal_moves: [
      { notation: '9x18x16', route: [9, 18, 16], captures: [13, 17] },
      { notation: '9x20x16', route: [9, 20, 16], captures: [14, 19] },
      { notation: '10-15', route: [10, 15], captures: [] },
    ],
    king_counters: { white: null, black: null }, draw_offer: null, rematch_offer: null,
    absent: [], result: null, rematch: null, ...overrides,
  };
}

/** A seated white player on /m/m1 who has received the snapshot. */
function seated(nextId = 40) {
  const state = initialState(parseRoute('/m/m1'), { name: 'A', nextId, seats: { m1: SEAT } });
  receive(state, { welcome: { protocol: 1, server: 't', limits: {} } }, 0);
  receive(state, { seat: { id: nextId + 1, ...SEAT } }, 0);
  receive(state, { match_snapshot: snapshot() }, 0);
  return state;
}

const sent = (effects) => effects.filter((e) => e.send).map((e) => e.send);

test('resumed (the match moved to another server) keeps the seat and the move waiting', () => {
  const state = seated();
  const [move] = sent(actions.move(state, [31, 26]));
  const before = JSON.stringify({ seat: state.seat, seats: state.seats, notice: state.notice, route: state.route });
  assert.deepEqual(receive(state, { resumed: { match_id: 'm1', side: 'white' } }, 0), []);
  assert.deepEqual(receive(state, { resumed: { match_id: 'm1', side: null } }, 0), []);
  assert.equal(JSON.stringify({ seat: state.seat, seats: state.seats, notice: state.notice, route: state.route }), before);
  assert.equal(state.pending[move.id].kind, 'move', 'the move still waits for its answer');
});

test('routes', () => {
  assert.deepEqual(parseRoute('/'), { page: 'lobby', id: null });
  assert.deepEqual(parseRoute('/m/m7Kq2Xw9'), { page: 'match', id: 'm7Kq2Xw9' });
  assert.deepEqual(parseRoute('/i/FRJ4KD'), { page: 'invite', id: 'FRJ4KD' });
  assert.deepEqual(parseRoute('/tv/2'), { page: 'tv', id: 'tv2' });
  assert.deepEqual(parseRoute('/g/g4712'), { page: 'game', id: 'g4712' });
  assert.equal(parseRoute('/m/a/b').page, 'missing');
});

test('an invite link typed in lower case without the dash finds the seat this browser holds', () => {
  const held = { ...SEAT, invite_code: 'FRJ4K-D7MQX' };
  for (const typed of ['frj4kd7mqx', 'frj4k-d7mqx', 'FRJ4KD7MQX', 'FRJ4K-D7MQX']) {
    const state = initialState(parseRoute(`/i/${typed}`), { name: 'A', nextId: 1, seats: { m1: held } });
    assert.deepEqual(actions.follow(state), [{ navigate: '/m/m1', replace: true }], typed);
  }
  // A code of another length (an older match's) is only upper-cased.
  assert.deepEqual(parseRoute('/i/frj4kd'), { page: 'invite', id: 'FRJ4KD' });
});

test('welcome resumes a held seat with the last version, a watcher watches', () => {
  const state = initialState(parseRoute('/m/m1'), { name: 'Sietske', nextId: 7, seats: { m1: SEAT } });
  const out = sent(receive(state, { welcome: {} }, 0));
  assert.deepEqual(out, [
    { id: 7, msg: { hello: { protocol: 1, client: 'boardcast-web/0.1.0', name: 'Sietske', bot: false } } },
    { id: 8, msg: { resume: { token: 'st.secret', since_v: null } } },
  ]);
  const watcher = initialState(parseRoute('/m/m1'), { name: '', nextId: 1, seats: {} });
  assert.deepEqual(sent(receive(watcher, { welcome: {} }, 0)), [
    { id: 1, msg: { watch: { target: { match: 'm1' }, since_v: null } } },
  ]);
});

test('a refused name is explained and never replaces the name in use', () => {
  const state = initialState(parseRoute('/'), { name: 'Sietske', nextId: 1, seats: {} });
  // Refused here: nothing is sent, the reason is shown, the name stays.
  assert.deepEqual(actions.rename(state, 'tab\there'), []);
  assert.equal(state.name, 'Sietske');
  assert.equal(state.notice.text, 'a name cannot hold control characters such as tabs or line breaks');
  assert.deepEqual(actions.rename(state, '   '), []);
  assert.equal(state.name, 'Sietske');
  // Emoji sequences with joiners go to the server as typed, in NFC.
  const [{ send }] = actions.rename(state, ' 👩\u200d💻 Zoe\u0308 ');
  assert.equal(send.msg.hello.name, '👩\u200d💻 Zoë');
  assert.equal(state.notice.text, '');
  // Refused by the server (its finer rules): the previous name comes back, with the reason.
  const [{ send: refused }] = actions.rename(state, 'Siet\u00adske');
  const effects = receive(state, { error: { id: refused.id, code: 'invalid_argument', message: 'invalid message: name: character 5 of the name is a soft hyphen (U+00AD), which does not show and could make the name look like someone else\'s: remove it' } }, 0);
  assert.equal(state.name, '👩\u200d💻 Zoë');
  assert.deepEqual(effects, [{ saveName: '👩\u200d💻 Zoë' }]);
  assert.equal(state.notice.text, 'name not accepted: character 5 of the name is a soft hyphen (U+00AD), which does not show and could make the name look like someone else\'s: remove it');
});

test('an ambiguous capture waits for the route, which is then sent as the server listed it', () => {
  const state = seated();
  assert.deepEqual(actions.clickSquare(state, 9), []);
  assert.deepEqual([...actions.destinations(state)].sort((a, b) => a - b), [16, 18, 20]);
  assert.deepEqual(actions.clickSquare(state, 16), [{ focus: '#chooser [data-route]' }],
    'two routes end on 16: nothing sent yet, the chooser takes the focus');
  assert.deepEqual(state.ui.choices, [[9, 18, 16], [9, 20, 16]]);
  const out = sent(actions.chooseRoute(state, [9, 20, 16]));
  assert.deepEqual(out, [{ id: 42, msg: { move: { match_id: 'm1', token: 'st.secret', route: [9, 20, 16], lag_ms: null } } }]);
  assert.equal(state.outbox.length, 1);
  assert.equal(actions.movable(state).size, 0, 'no second move while one waits for its ack');
});

test('clicking through the route settles the capture too', () => {
  const state = seated();
  actions.clickSquare(state, 9);
  const out = sent(actions.clickSquare(state, 18));
  assert.deepEqual(out[0].msg.move.route, [9, 18, 16]);
});

test('only legal origins and destinations are taken', () => {
  const state = seated();
  actions.clickSquare(state, 31);
  assert.deepEqual(state.ui.hops, [], 'a piece without a legal move is not picked');
  actions.clickSquare(state, 10);
  assert.deepEqual([...actions.destinations(state)], [15]);
  assert.deepEqual(actions.clickSquare(state, 14), [], 'not a destination: nothing sent');
  assert.deepEqual(state.ui.hops, []);
});

test('typed moves: unique legal ones get their full route, others go as typed for the server to judge', () => {
  const state = seated();
  assert.deepEqual(sent(actions.typedMove(state, '10-15'))[0].msg.move.route, [10, 15]);
  state.outbox = [];
  assert.deepEqual(sent(actions.typedMove(state, '9x16')), []);
  assert.equal(state.ui.choices.length, 2);
  assert.deepEqual(sent(actions.typedMove(state, '3228'))[0].msg.move.route, [32, 28]);
  assert.deepEqual(actions.typedMove(state, 'e2-e4'), []);
  assert.equal(state.notice.code, 'input');
});

test('a piece that may not move says which must capture', () => {
  const state = seated();
  const legal = state.match.legal_moves;
  state.match.legal_moves = legal.filter((m) => !m.captures.length);
  actions.clickSquare(state, 31);
  assert.deepEqual(state.notice, { text: '31 has no legal move', code: 'must_capture' });
  state.match.legal_moves = legal.filter((m) => m.captures.length);
  actions.clickSquare(state, 31);
  assert.deepEqual(state.notice, { text: '9 must capture', code: 'must_capture' });
  actions.clickSquare(state, 9);
  assert.equal(state.notice.text, '', 'picking the capturing piece clears the word');
  actions.clickSquare(state, 5);
  assert.equal(state.notice.text, '', "nothing said about the opponent's pieces");
  assert.equal(actions.orList([28, 33, 37]), '28, 33 or 37');
});

test('a typed ambiguous move goes to the chooser with the focus, and back to the box once chosen', () => {
  const state = seated();
  assert.deepEqual(actions.typedMove(state, '9x16'), [{ focus: '#chooser [data-route]' }]);
  const out = actions.chooseRoute(state, [9, 18, 16]);
  assert.deepEqual(sent(out)[0].msg.move.route, [9, 18, 16]);
  assert.deepEqual(out.at(-1), { focus: '#move-input' });
});

test('a move typed while browsing the list is for the live position', () => {
  const state = seated();
  state.match.moves = [{ ply: 0, side: 'white', notation: '32-28', route: [32, 28], captures: [], promotes: false }];
  state.ui.viewPly = 0;
  actions.typedMove(state, '9x16');
  assert.equal(state.ui.viewPly, null, 'back to the live position');
  assert.deepEqual(sent(actions.chooseRoute(state, [9, 20, 16]))[0].msg.move.route, [9, 20, 16]);
});

test('an invite link takes its seat only after the friend has named themselves', () => {
  const state = initialState(parseRoute('/i/FRJ4KD'), { name: 'Wytze', nextId: 1, seats: {} });
  assert.deepEqual(sent(receive(state, { welcome: {} }, 0)).map((e) => Object.keys(e.msg)[0]), ['hello'],
    'no join before the name is given');
  assert.deepEqual(actions.acceptInvite(state, '  '), []);
  assert.equal(state.notice.code, 'input');
  const out = actions.acceptInvite(state, 'Sietske');
  assert.deepEqual(sent(out).map((e) => e.msg), [
    { hello: { protocol: 1, client: 'boardcast-web/0.1.0', name: 'Sietske', bot: false } },
    { join_match: { code: 'FRJ4KD' } },
  ]);
  assert.ok(out.some((e) => e.saveName === 'Sietske'), 'the name is remembered');
  assert.equal(sent(receive(state, { welcome: {} }, 0)).at(-1).msg.join_match.code, 'FRJ4KD',
    'after a reconnect the join is asked again');
});

test('an unacknowledged move is re-sent with its id after a reconnect, then forgotten on its ack', () => {
  const state = seated();
  const [move] = sent(actions.typedMove(state, '10-15'));
  const again = sent(receive(state, { welcome: {} }, 0));
  assert.deepEqual(again.at(-1), move, 'same envelope, same id');
  assert.deepEqual(again.at(-2).msg, { resume: { token: 'st.secret', since_v: 2 } });
  receive(state, { ack: { id: move.id, duplicate: true } }, 0);
  assert.equal(state.outbox.length, 0);
});

test('events fold in order: repeats ignored, a gap asks again from the last version', () => {
  const state = seated();
  const moved = (v, ply) => ({ match_event: { match_id: 'm1', v, event: { moved: {
    played: { ply, side: ply % 2 ? 'black' : 'white', notation: '10-15', route: [10, 15], captures: [], promotes: false },
    fen: `B:fen${v}`, clock: { white_ms: 1, black_ms: 2, running: 'black' }, legal_moves: [], king_counters: { white: null, black: null },
  } } } });
  receive(state, moved(3, 0), 10);
  assert.equal(state.match.v, 3);
  assert.equal(state.match.turn, 'black');
  assert.equal(state.fens[1], 'B:fen3');
  receive(state, moved(3, 0), 11);
  assert.equal(state.match.moves.length, 1, 'a repeat is ignored');
  const out = sent(receive(state, moved(5, 2), 12));
  assert.deepEqual(out[0].msg, { resume: { token: 'st.secret', since_v: 3 } });
  assert.equal(state.match.v, 3);
});

test('the first-move time is kept with when it arrived, renewed by White\'s first move, gone after Black\'s', () => {
  const state = initialState(parseRoute('/m/m1'), { name: '', nextId: 1, seats: {} });
  receive(state, { welcome: {} }, 0);
  receive(state, { match_snapshot: snapshot({ clock: null, first_move_in_ms: 23000 }) }, 100);
  assert.deepEqual(state.match.firstMove, { ms: 23000, at: 100 });
  const moved = (v, ply, firstMoveInMs) => ({ match_event: { match_id: 'm1', v, event: { moved: {
    played: { ply, side: ply % 2 ? 'black' : 'white', notation: '10-15', route: [10, 15], captures: [], promotes: false },
    fen: `B:fen${v}`, clock: null, legal_moves: [], king_counters: { white: null, black: null },
    first_move_in_ms: firstMoveInMs,
  } } } });
  receive(state, moved(3, 0, 30000), 5000);
  assert.deepEqual(state.match.firstMove, { ms: 30000, at: 5000 }, 'Black\'s wait starts with White\'s move');
  receive(state, moved(4, 1, null), 9000);
  assert.equal(state.match.firstMove, null);
});

test('the second player joining makes the seated creator ask for a snapshot with legal moves', () => {
  const state = initialState(parseRoute('/m/m1'), { name: '', nextId: 1, seats: { m1: SEAT } });
  receive(state, { welcome: {} }, 0);
  receive(state, { seat: { id: 1, ...SEAT } }, 0);
  receive(state, { match_snapshot: snapshot({ v: 1, black: null, phase: 'waiting', legal_moves: [], clock: null }) }, 0);
  const out = sent(receive(state, { match_event: { match_id: 'm1', v: 2, event: { player_joined: { side: 'black', name: 'B' } } } }, 0));
  assert.deepEqual(out[0].msg, { resume: { token: 'st.secret', since_v: null } });
  assert.equal(state.match.phase, 'playing');
  assert.deepEqual(state.match.black, { name: 'B', connected: true, bot: false, account: false });
});

test('moves taken back bring a whole snapshot, for a seat and for a watcher', () => {
  const state = initialState(parseRoute('/m/m1'), { name: '', nextId: 1, seats: { m1: SEAT } });
  receive(state, { welcome: {} }, 0);
  receive(state, { seat: { id: 1, ...SEAT } }, 0);
  receive(state, { match_snapshot: snapshot({ v: 3 }) }, 0);
  const out = sent(receive(state, { match_event: { match_id: 'm1', v: 4, event: { taken_back: { plies: 0 } } } }, 0));
  assert.deepEqual(out[0].msg, { resume: { token: 'st.secret', since_v: null } });
  const watcher = initialState(parseRoute('/m/m1'), { name: '', nextId: 1, seats: {} });
  receive(watcher, { welcome: {} }, 0);
  receive(watcher, { match_snapshot: snapshot({ v: 3 }) }, 0);
  const asked = sent(receive(watcher, { match_event: { match_id: 'm1', v: 4, event: { taken_back: { plies: 0 } } } }, 0));
  assert.deepEqual(asked.at(-1).msg, { watch: { target: { match: 'm1' }, since_v: null } });
});

test('a seat a program plays is marked, from the join event and in lobby lines', () => {
  const state = initialState(parseRoute('/m/m1'), { name: '', nextId: 1, seats: {} });
  receive(state, { welcome: {} }, 0);
  receive(state, { match_snapshot: snapshot({ v: 1, black: null, phase: 'waiting', legal_moves: [], clock: null }) }, 0);
  receive(state, { match_event: { match_id: 'm1', v: 2, event: { player_joined: { side: 'black', name: 'Scan', bot: true } } } }, 0);
  assert.deepEqual(state.match.black, { name: 'Scan', connected: true, bot: true, account: false });
  assert.deepEqual(summaryPlayers({ white: 'Scan', black: null, white_bot: true, black_bot: false, white_account: true }), [
    { name: 'Scan', bot: true, account: true }, null,
  ]);
  // A line from a server without the flags reads as people, and as guests.
  assert.deepEqual(summaryPlayers({ white: 'A', black: 'B' }), [
    { name: 'A', bot: false, account: false }, { name: 'B', bot: false, account: false },
  ]);
  assert.equal(playerText({ name: 'Scan', bot: true, account: true }), 'BOT Scan');
  assert.equal(playerText({ name: 'A', bot: false, account: true }), 'A');
  assert.equal(playerText({ name: 'A', bot: false }), 'A (guest)');
});

test('a refusal shows the server reason and code', () => {
  const state = seated();
  const [move] = sent(actions.typedMove(state, '3228'));
  receive(state, { error: { id: move.id, code: 'illegal_move', message: 'illegal move: a capture is compulsory' } }, 0);
  // Without arguments the notice is the server's text; it has no reason to link a rule to.
  assert.deepEqual(state.notice, { text: 'illegal move: a capture is compulsory', code: 'illegal_move', reason: '' });
  assert.equal(state.outbox.length, 0);
});

test('a refusal worded in the pages file is worded once that file has come', async () => {
  const read = (file) => readFileSync(new URL(`../i18n/${file}`, import.meta.url), 'utf8');
  const realFetch = globalThis.fetch;
  let asked = '';
  globalThis.fetch = async (url) => {
    asked = String(url);
    return { ok: true, status: 200, text: async () => read('pages-nl.ftl') };
  };
  try {
    // The match page speaks Dutch from nl.ftl alone: the pages' words are not fetched yet.
    i18n.use('nl', read('nl.ftl'));
    const state = seated();
    const [more] = sent(actions.typedMove(state, '3228'));
    receive(state, { error: { id: more.id, code: 'not_allowed', message: 'more time at most once every 10 s',
      args: { reason: 'chat_full', numbers: { limit: 1000 }, words: {} } } }, 0);
    const notice = state.notice;
    assert.equal(notice.text, 'Dat mag nu niet.', 'the code line until the words come');
    await new Promise((resolve) => setTimeout(resolve, 10));
    assert.match(asked, /pages-nl[.]ftl$/);
    assert.equal(notice.text, 'De chat van deze partij is vol (1.000 regels).');
  } finally {
    globalThis.fetch = realFetch;
    i18n.use('en', ['en.ftl', 'pages-en.ftl'].map(read).join('\n'));
  }
});

test('the answer to a draw offer is told once: a new offer clears it, the opponent moving lapses it', () => {
  const state = seated();
  const event = (v, e) => receive(state, { match_event: { match_id: 'm1', v, event: e } }, 0);
  event(3, { draw_offered: 'white' });
  event(4, { draw_declined: 'black' });
  assert.equal(state.notice.text, 'your draw offer was declined');
  event(5, { draw_offered: 'white' });
  assert.equal(state.notice.text, '', 'the old answer is gone with the new offer');
  assert.equal(state.match.draw_offer, 'white');
  event(6, 'draw_offer_cancelled');
  assert.match(state.notice.text, /lapsed/);
  assert.equal(state.match.draw_offer, null);
});

test('predictions: only the legal moves of the coming ply can be picked', () => {
  const state = initialState(parseRoute('/tv/1'), { name: '', nextId: 1, seats: {} });
  receive(state, { channel_snapshot: { channel: 'tv1', v: 5, kind: 'tv', next_game_in_ms: null, game: {
    header: { game_id: 1, serial: 'CH3SS5', white: 'L4', black: 'K7' }, start_board: '', start_ply: 0, promoted: [],
    revealed: [], board: 'kqbnrppppp..........PPPPPRNBQK', next_ply: 0, move_number: 1, next_reveal_in_ms: 2000,
    ply_interval_ms: 2000, result: null, legal: ['a2-a3', 'b1-a3', 'b1-c3'] } } }, 0);
  assert.deepEqual(actions.minitClick(state, 'c2'), []);
  assert.equal(state.ui.minitFrom, null, 'no legal move from c2');
  actions.minitClick(state, 'b1');
  assert.deepEqual(actions.minitClick(state, 'b3'), [], 'b1-b3 is not legal');
  actions.minitClick(state, 'b1');
  const out = sent(actions.minitClick(state, 'c3'));
  assert.deepEqual(out[0].msg, { predict: { channel: 'tv1', ply: 0, from: 'b1', to: 'c3' } });
  receive(state, { channel_event: { channel: 'tv1', v: 6, event: { ply_revealed: { ply: 0, mv: 'b1-c3', board: 'x', next_reveal_in_ms: 2000, legal: ['e5-e4'] } } } }, 1);
  receive(state, { prediction_result: { channel: 'tv1', ply: 0, guess: 'b1-c3', actual: 'b1-c3', correct: true, correct_total: 1, strikes: 0 } }, 1);
  assert.equal(state.prediction.state, 'correct');
  assert.deepEqual(state.standing, { correct: 1, strikes: 0 });
  assert.deepEqual(actions.minitLegal(state), ['e5-e4']);
});

test('a stale id refusal moves the id counter past the last id the seat carried out', () => {
  const state = seated(3);
  const [move] = sent(actions.typedMove(state, '10-15'));
  // The field decides, not the words: this message's largest number is not the last id.
  receive(state, { error: { id: move.id, code: 'stale_id', message: 'id 99999 is not above 917, the last id this seat carried out', last_id: 917 } }, 0);
  assert.equal(state.nextId, 918);
  assert.equal(state.outbox.length, 0);
});

test('leaving a watched page unwatches it; a held seat stays followed', () => {
  const watcher = initialState(parseRoute('/tv/1'), { name: '', nextId: 1, seats: {} });
  assert.deepEqual(sent(actions.leave(watcher)), [{ id: 1, msg: { unwatch: { channel: 'tv1' } } }]);
  assert.deepEqual(actions.leave(seated()), []);
});

test('leaving the waiting page of ones own public seek unwatches it; a private one stays followed', () => {
  const state = seated();
  const id = state.route.id;
  receive(state, { match_snapshot: snapshot({ match_id: id, phase: 'waiting', public: true, black: null }) }, 0);
  assert.equal(state.match.phase, 'waiting');
  assert.deepEqual(sent(actions.leave(state)).map((e) => e.msg), [{ unwatch: { match: id } }]);
  const private_ = seated();
  receive(private_, { match_snapshot: snapshot({ match_id: id, phase: 'waiting', public: false, black: null }) }, 0);
  assert.deepEqual(actions.leave(private_), []);
});

test('Frisian TV watches each featured match like any match and leaves the one before', () => {
  const state = initialState(parseRoute('/ftv'), { name: '', nextId: 1, seats: {} });
  assert.deepEqual(state.route, { page: 'ftv', id: null });
  assert.deepEqual(sent(receive(state, { welcome: {} }, 0)), [
    { id: 1, msg: { watch: { target: { channel: 'ftv' }, since_v: null } } },
  ]);
  // Nothing live yet: nothing to watch.
  assert.deepEqual(receive(state, { featured: { channel: 'ftv', match_id: null } }, 0), []);
  assert.deepEqual(sent(receive(state, { featured: { channel: 'ftv', match_id: 'm1' } }, 0)), [
    { id: 2, msg: { watch: { target: { match: 'm1' }, since_v: null } } },
  ]);
  assert.deepEqual(state.route, { page: 'ftv', id: 'm1' });
  receive(state, { match_snapshot: snapshot({ v: 5 }) }, 0);
  assert.equal(state.match.match_id, 'm1');
  // The same match named again changes nothing; a reconnect asks for TV and the match from v 5.
  assert.deepEqual(receive(state, { featured: { channel: 'ftv', match_id: 'm1' } }, 0), []);
  assert.deepEqual(sent(actions.follow(state)), [
    { id: 3, msg: { watch: { target: { channel: 'ftv' }, since_v: null } } },
    { id: 4, msg: { watch: { target: { match: 'm1' }, since_v: 5 } } },
  ]);
  // TV moves on: the old match is unwatched, the new one shown from its snapshot.
  assert.deepEqual(sent(receive(state, { featured: { channel: 'ftv', match_id: 'm2' } }, 0)), [
    { id: 5, msg: { unwatch: { match: 'm1' } } },
    { id: 6, msg: { watch: { target: { match: 'm2' }, since_v: null } } },
  ]);
  assert.equal(state.match, null);
  receive(state, { match_snapshot: snapshot({ match_id: 'm1', v: 9 }) }, 0);
  assert.equal(state.match, null, 'a late snapshot of the old match is not shown');
  // Leaving the page stops both.
  assert.deepEqual(sent(actions.leave(state)), [
    { id: 7, msg: { unwatch: { channel: 'ftv' } } },
    { id: 8, msg: { unwatch: { match: 'm2' } } },
  ]);
  // A match page never follows TV.
  const other = initialState(parseRoute('/m/m1'), { name: '', nextId: 1, seats: {} });
  assert.deepEqual(receive(other, { featured: { channel: 'ftv', match_id: 'm2' } }, 0), []);
});

test('a request made before the socket is open waits for welcome, is sent once, and the queue is bounded', () => {
  const state = initialState(parseRoute('/'), { name: 'A', nextId: 10, seats: {} });
  const [create] = actions.createMatch(state, { time: 'none', color: 'white' });
  // The socket could not send it (main.js): it waits, and the page says so.
  actions.unsent(state, create.send);
  actions.unsent(state, create.send);
  assert.equal(state.unsent.length, 1);
  assert.match(state.notice.text, /connecting/);
  const out = sent(receive(state, { welcome: { protocol: 1, server: 't', limits: {} } }, 0));
  // After the name and the lobby, the create; the notice is gone, the queue empty.
  const kind = (msg) => (typeof msg === 'string' ? msg : Object.keys(msg)[0]);
  assert.deepEqual(out.map((e) => kind(e.msg)), ['hello', 'list_lobby', 'create_match']);
  assert.equal(out[2], create.send);
  assert.equal(state.pending[create.send.id].kind, 'create');
  assert.equal(state.notice.text, '');
  assert.equal(state.unsent.length, 0);
  assert.equal(sent(actions.enter(state)).filter((e) => e.msg.create_match).length, 0);

  // A match command waits in the outbox already, never twice.
  const seat = seated();
  seat.outbox.push({ id: 99, msg: { move: {} } });
  actions.unsent(seat, seat.outbox[0]);
  assert.equal(seat.unsent.length, 0);

  // Bounded: beyond UNSENT_MAX a request is refused in words and forgotten.
  let last = null;
  for (let n = 0; n <= actions.UNSENT_MAX; n += 1) {
    last = actions.listLobby(state).send;
    actions.unsent(state, last);
  }
  assert.equal(state.unsent.length, actions.UNSENT_MAX);
  assert.match(state.notice.text, /not sent/);
  assert.equal(state.pending[last.id], undefined);
});

test('a move carries the round trip measured from pings, averaged', () => {
  const state = seated();
  const first = sent(actions.move(state, [32, 28]));
  assert.equal(first[0].msg.move.lag_ms, null, 'nothing measured yet');
  receive(state, { ack: { id: first[0].id } }, 0);
  const ping = actions.ping(state, 1000).send;
  assert.deepEqual(Object.keys(ping.msg), ['ping']);
  receive(state, { pong: { nonce: 999999 } }, 1100); // not ours: ignored
  receive(state, { pong: { nonce: ping.msg.ping.nonce } }, 1200);
  const next = actions.ping(state, 2000).send;
  receive(state, { pong: { nonce: next.msg.ping.nonce } }, 2600);
  // 200 ms, then 600 ms weighing a quarter: 300 ms.
  assert.equal(sent(actions.move(state, [33, 28]))[0].msg.move.lag_ms, 300);
});

test('the opponent\'s connection is the round trip the server counted for their move', () => {
  const state = seated();
  const played = { ply: 0, side: 'white', notation: '32-28', route: [32, 28], captures: [], promotes: false };
  receive(state, { match_event: { match_id: 'm1', v: 3, event: { moved: {
    played, fen: START, clock: null, legal_moves: [], king_counters: { white: null, black: null },
    first_move_in_ms: null, lag_ms: 84,
  } } } }, 0);
  assert.deepEqual(state.match.lag, { white: 84, black: null });
});

test('an absent opponent\'s grace stands still on our turn and runs on theirs', () => {
  const state = seated();
  const m = state.match;
  receive(state, { match_event: { match_id: 'm1', v: 3, event: { player_left: { side: 'black', claim_in_ms: 30000 } } } }, 1000);
  assert.equal(graceLeft(m, m.absent[0], 21000), 30000, 'white (here) to move: paused');
  const played = { ply: 0, side: 'white', notation: '32-28', route: [32, 28], captures: [], promotes: false };
  receive(state, { match_event: { match_id: 'm1', v: 4, event: { moved: {
    played, fen: START, clock: null, legal_moves: [], king_counters: { white: null, black: null },
    first_move_in_ms: null, lag_ms: null,
  } } } }, 21000);
  assert.equal(graceLeft(m, m.absent[0], 31000), 20000, 'black (gone) to move: runs');
});
