/**
 * Server messages folded into the state, in the manner of the terminal client's
 * `Game::fold`: stale events are dropped, a gap asks again from the last version seen
 * (PROTOCOL.md §8). Returns effects for main.js; never touches the DOM.
 * @module receive
 */

import { opposite, showsMatch, FRISIAN_TV } from './state.js';
import * as actions from './actions.js';
import { refusal, t } from './i18n.js';
import { ratingText } from './format.js';

/**
 * @param {object} state
 * @param {any} msg one decoded server message
 * @param {number} now performance.now() when it arrived
 * @returns {import('./actions.js').Effect[]}
 */
export function receive(state, msg, now) {
  if (typeof msg !== 'object' || msg === null) return [];
  const [type] = Object.keys(msg);
  const body = msg[type];
  switch (type) {
    case 'welcome':
      state.conn = 'online';
      // Who this page's session is: an account, or null for a guest (or a server without
      // accounts).
      state.account = body.account || null;
      state.accountKnown = true;
      if (state.notice.code === 'shutdown') state.notice = { text: '', code: '' };
      return actions.enter(state);
    case 'ack': return ack(state, body);
    case 'error': return refused(state, body);
    case 'lobby':
      // `lobby` names no id: it answers the oldest `list_lobby`.
      answered(state, Object.keys(state.pending).find((id) => state.pending[id].kind === 'lobby'));
      state.lobby = { ...body, loaded: true };
      return [];
    case 'seat': return seat(state, body);
    // The match moved to another server (a cluster) and kept this seat or watch there; the
    // events missed follow as after a resume. Nothing to do, nothing answered (PROTOCOL.md §3.5).
    case 'resumed': return [];
    case 'paired': return paired(state, body);
    case 'match_snapshot': return matchSnapshot(state, body, now);
    case 'match_event': return matchEvent(state, body, now);
    case 'channel_snapshot': return channelSnapshot(state, body, now);
    case 'channel_event': return channelEvent(state, body, now);
    case 'crowd': return crowd(state, body);
    case 'game_created':
      answered(state, body.id);
      return [{ navigate: `/g/${body.channel}` }];
    case 'prediction_result': return predictionResult(state, body);
    case 'leaderboard':
      answered(state, body.id);
      state.leaderboard = body.entries;
      return [];
    case 'shutdown':
      state.notice = { text: t('notice-server', { reason: body.reason }), code: 'shutdown' };
      return [{ reconnectAfter: body.reconnect_after_ms }];
    case 'featured': return featured(state, body);
    case 'club_event': // the event page's (pages/events.js)
      if (body.id === state.route.id) state.event = body;
      return [];
    case 'pong':
      pong(state, body, now);
      return [];
    case 'chat_history': case 'chat_line': case 'chat_deleted':
      chat(state, type, body);
      return [];
    default:
      return []; // messages of later servers (PROTOCOL.md §3.6)
  }
}

/**
 * A round trip: a moving average weighing each new one a quarter, as the server and the
 * terminal client reckon theirs, so one slow pong does not make the connection look bad.
 */
function pong(state, { nonce }, now) {
  const sent = state.lag.sent;
  if (!sent || sent.nonce !== nonce) return;
  const trip = now - sent.at;
  state.lag.sent = null;
  state.lag.rtt = state.lag.rtt === null ? trip : state.lag.rtt * 0.75 + trip * 0.25;
}

/** The chat of the match shown (PROTOCOL.md §19): the history replaces what was shown. */
function chat(state, type, body) {
  if (!state.match || body.match_id !== state.match.match_id) return;
  const c = state.chat;
  if (type === 'chat_history') {
    state.chat = { room: body.room, lines: body.lines };
  } else if (type === 'chat_line') {
    c.room = body.room;
    c.lines = [...c.lines.filter((l) => l.line !== body.line), body].slice(-100);
  } else {
    c.lines = c.lines.filter((l) => l.line !== body.line);
  }
}

/** The request `id` is answered: forget it, and its copy in the outbox. */
function answered(state, id) {
  const request = state.pending[id];
  delete state.pending[id];
  state.outbox = state.outbox.filter((e) => e.id !== id);
  return request;
}

function ack(state, { id }) {
  const request = answered(state, id);
  if (request && request.kind === 'predict' && state.prediction.state === 'none') {
    state.prediction.state = 'waiting';
  }
  return [];
}

function refused(state, { id, code, message, last_id: lastId, args }) {
  const request = id === null ? null : answered(state, id);
  const notice = state.notice = { text: refusal(code, message, args, (text) => (notice.text = text)), code, reason: (args && args.reason) || '' };
  if (!request) return [];
  if (request.kind === 'move') actions.clearInput(state);
  if (request.kind === 'play-now') state.playNow = null;
  // A refused invite (gone, or the seat taken) may be tried again from its page.
  if (request.kind === 'join' && state.route.page === 'invite') state.ui.inviteAccepted = false;
  // Ids must grow per seat (PROTOCOL.md §9); a stale id's refusal says the last one carried out.
  if (code === 'stale_id' && Number.isSafeInteger(lastId)) state.nextId = Math.max(state.nextId, lastId + 1);
  if (request.kind === 'reclaim') state.notice = { text: '', code: '' };
  if (request.kind === 'predict') state.prediction = { ply: -1, guess: '', state: 'none' };
  if (request.kind === 'hello' && code === 'invalid_argument') {
    // The server keeps the name it had: so does the page, and it says why in words.
    state.name = request.previous || '';
    state.notice = { text: t('notice-name-refused', { reason: String(message).replace(/^invalid message: name: /, '') }), code: 'name' };
    return [{ saveName: state.name }];
  }
  if (request.kind === 'resume' && code === 'invalid_token') {
    // The seat is gone (another server, or a wiped database): watch instead.
    const matchId = state.route.id;
    delete state.seats[matchId];
    state.seat = null;
    return [{ forgetSeat: matchId }, watch(state, { match: matchId }, null)];
  }
  return [];
}

/** Play now found an opponent: the seat in the new rated match, shown like any new seat. */
function paired(state, body) {
  state.playNow = null;
  const r = body.opponent_rating;
  state.paired = { opponent: body.opponent, rating: r ? ratingText(r.rating, r.provisional) : '' };
  return seat(state, body.seat);
}

function seat(state, body) {
  answered(state, body.id);
  const held = {
    match_id: body.match_id, token: body.token, side: body.side, invite_code: body.invite_code,
  };
  state.seats[body.match_id] = held;
  const effects = [{ saveSeat: held }];
  if (state.route.page !== 'match' || state.route.id !== body.match_id) {
    // A created, joined or rematch seat: show its match, in this same connection.
    const fromInvite = state.route.page === 'invite';
    state.route = { page: 'match', id: body.match_id };
    resetMatch(state);
    effects.push({ navigate: `/m/${body.match_id}`, replace: fromInvite, keepConnection: true });
  }
  state.seat = held;
  return effects;
}

/** Forgets the match shown, before another one is shown. */
export function resetMatch(state) {
  state.match = null;
  state.fens = {};
  state.watchers = 0;
  state.chat = { room: null, lines: [] };
  state.ui.viewPly = null;
  state.ui.confirm = null;
  actions.clearInput(state);
}

/**
 * Frisian TV moved on (or says what it shows): show that match, watched like any other.
 * The route's id becomes the match, so the page is built afresh for it.
 */
function featured(state, { channel, match_id }) {
  const { page, id } = state.route;
  if (page !== 'ftv' || channel !== FRISIAN_TV || !match_id || match_id === id) return [];
  const effects = id ? [actions.request(state, 'unwatch', { unwatch: { match: id } })] : [];
  state.route = { page: 'ftv', id: match_id };
  resetMatch(state);
  return [...effects, watch(state, { match: match_id }, null)];
}

function matchSnapshot(state, snap, now) {
  if (!showsMatch(state.route) || snap.match_id !== state.route.id) return [];
  if (state.match && snap.v < state.match.v) return [];
  state.match = {
    ...snap, absent: snap.absent.map((a) => ({ ...a, at: now })), firstMove: firstMove(snap.first_move_in_ms, now),
    lag: { white: null, black: null }, refuses: snap.refuses_more_time || {},
  };
  state.matchAt = now;
  state.fens = { [snap.moves.length]: snap.fen };
  actions.clearInput(state);
  state.seat = state.seats[snap.match_id] || null;
  // A guest's seat refuses more time if this browser says so (a member's account does).
  const refuse = state.noMoreTime && !state.account && state.seat && snap.phase !== 'finished' && state.ui.refusalSent !== snap.match_id;
  // A reconnect's snapshot may bring the opponent's move instead of its `moved` event (the
  // server no longer held the events missed): a premove waiting for it is played or dropped
  // as then.
  const premoved = actions.hooks.moved?.(state) || [];
  return [...reclaim(state, snap), ...(refuse ? actions.refuseMoreTime(state, true) : []), ...premoved];
}

/**
 * A member watching a match one of their seats is in, without its token here (another
 * browser or device): the seat is the account's, so take it back (`reclaim`, answered
 * like `resume`). Asked once per match page; a refusal leaves the page watching.
 */
function reclaim(state, snap) {
  const me = state.account && state.account.name.toLowerCase();
  const mine = me && state.route.page === 'match' && !state.seat && snap.phase !== 'finished'
    && ['white', 'black'].some((side) => snap[side] && snap[side].account && snap[side].name.toLowerCase() === me);
  if (!mine || state.ui.reclaimed === snap.match_id) return [];
  state.ui.reclaimed = snap.match_id;
  return [actions.request(state, 'reclaim', { reclaim: { match_id: snap.match_id, since_v: snap.v } })];
}

function matchEvent(state, { match_id, v, event }, now) {
  const m = state.match;
  if (!m || m.match_id !== match_id || v <= m.v) return [];
  if (v > m.v + 1) return refollow(state);
  m.v = v;
  const [type] = typeof event === 'string' ? [event] : Object.keys(event);
  const body = typeof event === 'string' ? null : event[type];
  switch (type) {
    case 'player_joined':
      m[body.side] = { name: body.name, connected: true, bot: Boolean(body.bot), account: Boolean(body.account) };
      m.firstMove = firstMove(body.first_move_in_ms, now);
      if (m.white && m.black && !m.result) {
        m.phase = 'playing';
        // player_joined carries no legal moves: a seated player asks for a snapshot.
        if (state.seat) return [rejoin(state)];
      }
      break;
    case 'moved': {
      const played = body.played;
      // An absent side's grace ran until now only if it was their turn (PROTOCOL.md §10).
      m.absent = m.absent.map((a) => ({ ...a, claim_in_ms: graceLeft(m, a, now), at: now }));
      if (body.lag_ms !== null && body.lag_ms !== undefined) m.lag[played.side] = body.lag_ms;
      m.moves.push(played);
      m.fen = body.fen;
      m.turn = opposite(played.side);
      m.clock = body.clock;
      m.legal_moves = body.legal_moves;
      m.king_counters = body.king_counters;
      m.firstMove = firstMove(body.first_move_in_ms, now);
      state.fens[m.moves.length] = body.fen;
      state.matchAt = now;
      if (state.ui.viewPly === null) actions.clearInput(state);
      return actions.hooks.moved?.(state) || [];
    }
    case 'draw_offered':
      m.draw_offer = body;
      // A new offer makes the answer to the last one old news.
      if (state.notice.code === 'draw') state.notice = { text: '', code: '' };
      break;
    case 'draw_declined':
      m.draw_offer = null;
      if (state.seat && body !== state.seat.side) state.notice = { text: t('notice-draw-declined'), code: 'draw' };
      break;
    case 'draw_offer_cancelled':
      // Our own moves leave our offer standing: the opponent moved instead of answering.
      if (state.seat && m.draw_offer === state.seat.side) {
        state.notice = { text: t('notice-draw-lapsed'), code: 'draw' };
      }
      m.draw_offer = null;
      break;
    case 'player_left':
      if (m[body.side]) m[body.side].connected = false;
      m.absent = m.absent.filter((a) => a.side !== body.side);
      m.absent.push({ side: body.side, claim_in_ms: body.claim_in_ms, at: now });
      break;
    case 'player_returned':
      if (m[body]) m[body].connected = true;
      m.absent = m.absent.filter((a) => a.side !== body);
      break;
    case 'ended':
      m.result = body;
      m.phase = 'finished';
      m.legal_moves = [];
      m.draw_offer = null;
      m.firstMove = null;
      if (m.clock) m.clock = { ...m.clock, ...frozen(m.clock, now - state.matchAt), running: null };
      state.matchAt = now;
      state.ui.confirm = null;
      actions.clearInput(state);
      break;
    case 'berserked': m.berserk.push(body.side); // falls through
    case 'more_time_given':
      m.clock = body.clock;
      state.matchAt = now;
      break;
    case 'more_time_refused': m.refuses[body.side] = body.refused; break;
    case 'rematch_offered': m.rematch_offer = body; break;
    case 'rematch_declined':
      m.rematch_offer = null;
      if (state.seat && body !== state.seat.side) state.notice = { text: t('notice-rematch-declined'), code: '' };
      break;
    case 'taken_back': return refollow(state, null);
    case 'takeback_proposed': m.takeback_offer = body; break;
    case 'takeback_declined':
      if (state.seat && body !== state.seat.side) state.notice = { text: t('takeback-declined'), code: 'takeback' };
    // falls through
    case 'takeback_cancelled': m.takeback_offer = null; break;
    case 'rematch_started':
      m.rematch = body;
      m.rematch_offer = null;
      // Players get their new seat unasked; a watcher follows them.
      if (!state.seat && state.route.page === 'match') {
        state.route = { page: 'match', id: body };
        resetMatch(state);
        return [{ navigate: `/m/${body}`, keepConnection: true }, watch(state, { match: body }, null)];
      }
      break;
    default:
      break;
  }
  return [];
}

/**
 * The first-move time the server sent (ms left for the side to move, as of the message), and
 * when it arrived, to count down from; null when no first move is owed (PROTOCOL.md §10).
 */
function firstMove(ms, now) {
  return ms === null || ms === undefined ? null : { ms, at: now };
}

/** Clock readings `elapsed` ms after they were sent. */
function frozen(clock, elapsed) {
  const out = { white_ms: clock.white_ms, black_ms: clock.black_ms };
  if (clock.running) out[`${clock.running}_ms`] = Math.max(0, out[`${clock.running}_ms`] - elapsed);
  return out;
}

/** The match shown again from `since_v` (null: whole): the seat resumes, a watcher watches. */
function refollow(state, since_v = state.match.v) {
  const seat = state.seat;
  return [seat
    ? actions.request(state, 'resume', { resume: { token: seat.token, since_v } })
    : watch(state, { match: state.match.match_id }, since_v)];
}

/** A fresh snapshot for the seat (it brings the legal moves). */
const rejoin = (state) =>
  actions.request(state, 'resume', { resume: { token: state.seat.token, since_v: null } });

const watch = (state, target, since_v) =>
  actions.request(state, 'watch', { watch: { target, since_v } });

function crowd(state, { target, watchers }) {
  if (target.match && state.match && target.match === state.match.match_id) state.watchers = watchers;
  if (target.channel && state.channel && target.channel === state.channel.channel) {
    state.channel.watchers = watchers;
  }
  return [];
}

function channelSnapshot(state, snap, now) {
  if (snap.channel !== state.route.id) return [];
  if (state.channel && state.channel.channel === snap.channel && snap.v < state.channel.v) return [];
  state.channel = { ...snap, watchers: state.channel ? state.channel.watchers : 0, standings: [] };
  state.channelAt = now;
  state.ui.minitFrom = null;
  return [];
}

function channelEvent(state, { channel, v, event }, now) {
  const ch = state.channel;
  if (!ch || ch.channel !== channel || v <= ch.v) return [];
  if (v > ch.v + 1) {
    return [watch(state, { channel }, ch.v)];
  }
  ch.v = v;
  const [type] = Object.keys(event);
  const body = event[type];
  state.channelAt = now;
  if (type === 'game_started') {
    ch.game = body;
    ch.next_game_in_ms = null;
    ch.standings = [];
    state.standing = { correct: 0, strikes: 0 };
    state.prediction = { ply: -1, guess: '', state: 'none' };
  } else if (type === 'ply_revealed' && ch.game) {
    const game = ch.game;
    game.revealed.push(body.mv);
    game.board = body.board;
    game.next_ply = body.ply + 1;
    game.move_number = Math.floor(game.next_ply / 2) + 1;
    game.next_reveal_in_ms = body.next_reveal_in_ms;
    game.legal = body.legal || [];
    game.last = body.mv;
    if (state.prediction.ply === body.ply && state.prediction.state === 'waiting') {
      // The result message follows at once; until then the guess stays shown as made.
    } else if (state.prediction.ply < body.ply) {
      state.prediction = { ply: -1, guess: '', state: 'none' };
    }
  } else if (type === 'game_ended') {
    if (ch.game) {
      ch.game.result = body.result;
      ch.game.next_reveal_in_ms = null;
      ch.game.legal = [];
    }
    ch.standings = body.standings;
    ch.next_game_in_ms = body.next_game_in_ms;
    return [actions.leaderboard(state)];
  }
  state.ui.minitFrom = null;
  return [];
}

function predictionResult(state, r) {
  if (!state.channel || r.channel !== state.channel.channel) return [];
  state.prediction = { ply: r.ply, guess: r.guess, actual: r.actual, state: r.correct ? 'correct' : 'wrong' };
  state.standing = { correct: r.correct_total, strikes: r.strikes };
  return [];
}

/** What is left of an absent side's grace at `now`: it counts down only on their turn. */
export function graceLeft(m, absence, now) {
  const ran = m.phase === 'playing' && m.turn === absence.side ? now - absence.at : 0;
  return Math.max(0, absence.claim_in_ms - ran);
}
