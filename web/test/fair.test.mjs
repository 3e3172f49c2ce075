// Takebacks and premoves on the match page (issue 32) without a browser: what receive keeps
// of a takeback proposal, and what render/premove.js does when the opponent's move comes.
// The modules' pure parts only; the browser tests (tests/tests/browser/fair.rs) click them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as i18n from '../js/i18n.js';
import { initialState, parseRoute } from '../js/state.js';
import { receive } from '../js/receive.js';
import * as actions from '../js/actions.js';
import * as premove from '../js/render/premove.js';
import '../js/render/takeback.js';

i18n.use('en', ['en.ftl', 'pages-en.ftl'].map((file) => readFileSync(new URL(`../i18n/${file}`, import.meta.url), 'utf8')).join('\n'));

const START = 'W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20:H0:F1:+0+0';
const SEAT = { match_id: 'm1', token: 'st.secret', side: 'white', invite_code: 'ABCDEF' };

/** White's seat in a casual match after 32-28, Black to move. */
function waiting() {
  const state = initialState(parseRoute('/m/m1'), { name: 'A', nextId: 40, seats: { m1: SEAT } });
  receive(state, { welcome: {} }, 0);
  receive(state, { seat: { id: 41, ...SEAT } }, 0);
  const fen = 'B:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20:H0:F1:+0+0';
  receive(state, {
    match_snapshot: {
      match_id: 'm1', v: 3, white: { name: 'A', connected: true }, black: { name: 'B', connected: true },
      time_control: null, public: false, phase: 'playing', start_fen: START, fen,
      moves: [{ ply: 0, side: 'white', notation: '32-28', route: [32, 28], captures: [], promotes: false }],
      turn: 'black', clock: null, legal_moves: [{ notation: '19-23', route: [19, 23], captures: [] }],
      king_counters: { white: null, black: null }, draw_offer: null, rematch_offer: null, absent: [],
      result: null, rematch: null, takeback_offer: null, takebacks: true,
    },
  }, 0);
  return state;
}

/** Black's move 19-23 arrives, after which White may play `legal`. */
const blackMoves = (state, legal) => receive(state, {
  match_event: {
    match_id: 'm1', v: state.match.v + 1, event: {
      moved: {
        played: { ply: 1, side: 'black', notation: '19-23', route: [19, 23], captures: [], promotes: false },
        fen: 'W:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23:H0:F1:+0+0',
        clock: null, legal_moves: legal, king_counters: { white: null, black: null }, first_move_in_ms: null, lag_ms: null,
      },
    },
  },
}, 0);

const sent = (effects) => effects.filter((e) => e.send).map((e) => e.send.msg);
const event = (state, body) => receive(state, { match_event: { match_id: 'm1', v: state.match.v + 1, event: body } }, 0);

test('a proposal stands until declined or a move is played, and a decline of ours is said', () => {
  const state = waiting();
  assert.equal(state.match.takebacks, true);
  event(state, { takeback_proposed: 'white' });
  assert.equal(state.match.takeback_offer, 'white');
  event(state, { takeback_declined: 'black' });
  assert.equal(state.match.takeback_offer, null);
  assert.deepEqual(state.notice, { text: 'your takeback was declined', code: 'takeback' });
  state.notice = { text: '', code: '' };
  event(state, { takeback_proposed: 'black' });
  assert.equal(state.match.takeback_offer, 'black');
  event(state, 'takeback_cancelled');
  assert.equal(state.match.takeback_offer, null);
  event(state, { takeback_proposed: 'black' });
  event(state, { takeback_declined: 'white' });
  assert.equal(state.notice.text, '', 'our own decline is no news to us');
});

test('the takeback buttons send the seat commands', () => {
  const state = waiting();
  for (const [action, kind] of [['takeback', 'propose_takeback'], ['accept-takeback', 'accept_takeback'], ['decline-takeback', 'decline_takeback']]) {
    assert.deepEqual(sent(actions.hooks[action](state)), [{ [kind]: { match_id: 'm1', token: 'st.secret' } }]);
  }
});

test('a premove is played when the opponent has moved and it is legal', () => {
  const state = waiting();
  premove.pick(state, 19);
  assert.equal(state.ui.premove, null, "the opponent's piece is not picked");
  premove.pick(state, 33);
  premove.pick(state, 29);
  assert.deepEqual(state.ui.premove, { match: 'm1', ply: 1, from: 33, to: 29 });
  const out = sent(blackMoves(state, [
    { notation: '33-29', route: [33, 29], captures: [] },
    { notation: '28-22', route: [28, 22], captures: [] },
  ]));
  assert.deepEqual(out, [{ move: { match_id: 'm1', token: 'st.secret', route: [33, 29], lag_ms: null } }]);
  assert.equal(state.ui.premove, null);
});

test('a premove a compulsory capture rules out is dropped with a notice', () => {
  const state = waiting();
  premove.drop(state, 33, 29);
  const out = blackMoves(state, [{ notation: '28x19', route: [28, 19], captures: [23] }]);
  assert.deepEqual(sent(out), []);
  assert.deepEqual(state.notice, { text: 'premove 33-29 dropped: capturing is compulsory (28 must capture)', code: 'premove' });
  assert.equal(state.ui.premove, null);
});

test('a premove that is no move now is dropped; several routes open the chooser', () => {
  const state = waiting();
  premove.drop(state, 33, 24);
  blackMoves(state, [{ notation: '33-29', route: [33, 29], captures: [] }]);
  assert.equal(state.notice.text, 'premove 33-24 dropped: it is not a legal move now');
  const twice = waiting();
  premove.drop(twice, 28, 17);
  const out = blackMoves(twice, [
    { notation: '28x17', route: [28, 19, 17], captures: [23, 18] },
    { notation: '28x17', route: [28, 30, 17], captures: [23, 22] },
  ]);
  assert.deepEqual(sent(out), []);
  assert.deepEqual(twice.ui.choices, [[28, 19, 17], [28, 30, 17]]);
});

test('a premove is cancelled by a click on the board or its button, and a second click puts the piece down', () => {
  const state = waiting();
  premove.pick(state, 33);
  premove.pick(state, 33);
  assert.equal(state.ui.premove, null);
  premove.pick(state, 33);
  premove.pick(state, 29);
  premove.pick(state, 24);
  assert.equal(state.ui.premove, null, 'a click elsewhere cancels');
  premove.drop(state, 33, 29);
  actions.hooks['cancel-premove'](state);
  assert.equal(state.ui.premove, null);
  assert.deepEqual(sent(blackMoves(state, [{ notation: '33-29', route: [33, 29], captures: [] }])), []);
});

/**
 * The snapshot a reconnect brings when the server no longer held the events missed: the match
 * after `moves` (White to move once Black has answered), with `legal` for White.
 */
const snapshotAfter = (state, moves, legal) => receive(state, {
  match_snapshot: {
    ...state.match, v: state.match.v + 5, moves, turn: moves.length % 2 ? 'black' : 'white',
    fen: [START, state.match.fen, AFTER_OPENING][moves.length], legal_moves: legal, absent: [],
  },
}, 0);
const AFTER_OPENING = 'W:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23:H0:F1:+0+0';
const OPENING = [
  { ply: 0, side: 'white', notation: '32-28', route: [32, 28], captures: [], promotes: false },
  { ply: 1, side: 'black', notation: '19-23', route: [19, 23], captures: [], promotes: false },
];

test("a premove is played when a reconnect's snapshot brings the opponent's move, or dropped with the same notice", () => {
  const state = waiting();
  premove.drop(state, 33, 29);
  const out = sent(snapshotAfter(state, OPENING, [
    { notation: '33-29', route: [33, 29], captures: [] },
    { notation: '28-22', route: [28, 22], captures: [] },
  ]));
  assert.deepEqual(out, [{ move: { match_id: 'm1', token: 'st.secret', route: [33, 29], lag_ms: null } }]);
  assert.equal(state.ui.premove, null);

  const dropped = waiting();
  premove.drop(dropped, 33, 29);
  assert.deepEqual(sent(snapshotAfter(dropped, OPENING, [{ notation: '28x19', route: [28, 19], captures: [23] }])), []);
  assert.deepEqual(dropped.notice, { text: 'premove 33-29 dropped: capturing is compulsory (28 must capture)', code: 'premove' });
  assert.equal(dropped.ui.premove, null);
});

test('a snapshot of the same turn keeps the premove; one of another position forgets it unsaid', () => {
  const state = waiting();
  premove.drop(state, 33, 29);
  assert.deepEqual(sent(snapshotAfter(state, OPENING.slice(0, 1), [{ notation: '19-23', route: [19, 23], captures: [] }])), []);
  assert.deepEqual(state.ui.premove, { match: 'm1', ply: 1, from: 33, to: 29 }, "Black has not moved yet");
  // A takeback brought the start back, White to move: the premove answered no move of this.
  assert.deepEqual(sent(snapshotAfter(state, [], [{ notation: '33-29', route: [33, 29], captures: [] }])), []);
  assert.equal(state.ui.premove, null);
  assert.equal(state.notice.code, '');
});

test('the premove is not marked while an earlier position is shown, and is again at the live one', () => {
  const state = waiting();
  premove.pick(state, 33);
  assert.deepEqual(premove.marked(state), [33]);
  premove.pick(state, 29);
  assert.deepEqual(premove.marked(state), [33, 29]);
  actions.viewPly(state, -1);
  assert.equal(state.ui.viewPly, 0);
  assert.deepEqual(premove.marked(state), [], 'browsing the moves');
  assert.deepEqual(state.ui.premove, { match: 'm1', ply: 1, from: 33, to: 29 }, 'the premove stands');
  actions.viewPly(state, 1);
  assert.deepEqual(premove.marked(state), [33, 29]);
  // Played even if the opponent's move comes while an earlier position is shown.
  actions.viewPly(state, -1);
  assert.deepEqual(sent(blackMoves(state, [{ notation: '33-29', route: [33, 29], captures: [] }])).map((m) => m.move.route), [[33, 29]]);
});

test('no premove on one\'s own turn', () => {
  const state = waiting();
  blackMoves(state, [{ notation: '33-29', route: [33, 29], captures: [] }]);
  premove.pick(state, 33);
  premove.drop(state, 33, 29);
  assert.equal(state.ui.premove ?? null, null);
});
