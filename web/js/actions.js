/**
 * Intents → envelopes. Every function takes the state, changes it, and returns effects for
 * main.js to carry out (`{send}`, `{navigate}`, `{saveSeat}`); none touches the DOM.
 * Match commands stay in `state.outbox` until their reply, and are re-sent with the same id
 * after a reconnect (PROTOCOL.md §9).
 * @module actions
 */

/** @typedef {{send?: object, navigate?: string, replace?: boolean, saveSeat?: object, forgetSeat?: string, copy?: string, focus?: string}} Effect */

import { FRISIAN_TV } from './state.js';
import { t as tr } from './i18n.js';
import { parseFen } from './fen.js';
import * as account from './account.js';

const CLIENT = 'boardcast-web/0.1.0';
const SEAT_ACTIONS = new Set([
  'resign', 'offer_draw', 'accept_draw', 'decline_draw', 'abort',
  'offer_rematch', 'accept_rematch', 'decline_rematch',
]);

/** What match-page parts loaded on first use (render/premove.js, takeback.js) add: `moved(state)`
 * after a move came (its event, or a snapshot), and `[data-action]` names. */
export const hooks = {};

/** A request with a fresh id; match commands are also kept until answered. */
export function request(state, kind, msg, matchCommand = false) {
  const id = state.nextId++;
  const envelope = { id, msg };
  state.pending[id] = { kind, msg };
  if (matchCommand) state.outbox.push(envelope);
  return { send: envelope };
}

/** At most this many requests wait for the socket to open; more are refused in words. */
export const UNSENT_MAX = 8;

/**
 * A request the socket could not send (not open yet, or just dropped) waits in
 * `state.unsent` for `welcome` (`enter`), as a move waits in `state.outbox`, but is never
 * sent twice: only the server's answer would tell if one sent before a drop was carried out.
 */
export function unsent(state, envelope) {
  const held = (e) => e.id === envelope.id;
  if (state.outbox.some(held) || state.unsent.some(held)) return;
  if (state.unsent.length >= UNSENT_MAX) {
    delete state.pending[envelope.id];
    state.notice = { text: tr('notice-not-sent'), code: 'unsent' };
    return;
  }
  state.unsent.push(envelope);
  state.notice = { text: tr('notice-sent-when-online'), code: 'unsent' };
}

/**
 * Why the server would refuse `name`, in words, or ''. The server holds finer rules
 * (PROTOCOL.md `hello`) and explains its refusal, shown in the same place.
 */
export function nameProblem(name) {
  const n = String(name || '').trim().normalize('NFC');
  if (!n) return tr('name-empty');
  const count = [...n].length;
  if (count > 32) return tr('name-too-long', { count });
  if (/[\u0000-\u001f\u007f-\u009f]/.test(n)) return tr('name-control');
  return '';
}

/** A display name as the server keeps it (NFC, trimmed), or null if `nameProblem` has one. */
export function validName(name) {
  return nameProblem(name) ? null : String(name).trim().normalize('NFC');
}

/** `hello` with the stored name, if there is one. A person plays here: `bot` is always false. */
export function hello(state) {
  const name = validName(state.name);
  return name ? [request(state, 'hello', { hello: { protocol: 1, client: CLIENT, name, bot: false } })] : [];
}

/**
 * Sets the display name (kept by main.js) and tells the server. A name that would be refused
 * changes nothing: the reason is shown and the form keeps what was typed. If the server
 * refuses it after all, `receive` puts the previous name back.
 */
export function rename(state, name) {
  const problem = nameProblem(name);
  if (problem) {
    state.notice = { text: problem, code: 'name' };
    return [];
  }
  if (state.notice.code === 'name') state.notice = { text: '', code: '' };
  const previous = state.name;
  state.name = validName(name);
  const effects = hello(state);
  for (const { send } of effects) state.pending[send.id].previous = previous;
  return effects;
}

/**
 * The friend who opened an invite link names themselves, then takes the seat: the name is
 * what the opponent sees and the game's record keeps (else "anonymous").
 */
export function acceptInvite(state, name) {
  const valid = validName(name);
  if (!valid) {
    state.notice = { text: tr('notice-give-name'), code: 'input' };
    return [];
  }
  state.notice = { text: '', code: '' };
  state.ui.inviteAccepted = true;
  return [...rename(state, valid), { saveName: state.name }, ...follow(state)];
}

/**
 * What to send once `welcome` arrived: the name, then follow the page's target (resuming a
 * seat or re-watching from the last version seen), then every unanswered match command
 * again, with its original id, and the requests made before the socket was open.
 */
export function enter(state) {
  const effects = [...hello(state), ...follow(state)];
  if (!effects.some((e) => e.navigate)) {
    for (const envelope of state.outbox) effects.push({ send: envelope });
  }
  for (const envelope of state.unsent) effects.push({ send: envelope });
  state.unsent = [];
  // The pool forgets a player whose connection dropped: wait again on the new one.
  if (state.playNow && !effects.some((e) => e.send && e.send.msg.play_now)) {
    effects.push(request(state, 'play-now', { play_now: { preset: state.playNow.preset } }));
  }
  if (state.notice.code === 'unsent') state.notice = { text: '', code: '' };
  return effects;
}

/** The requests that show the page's target: lobby, seat, match, channel or event. */
export function follow(state) {
  const { page, id } = state.route;
  if (page === 'lobby') return [listLobby(state)];
  if (page === 'event') return [request(state, 'watch', { watch: { target: { event: id }, since_v: state.event?.id === id ? state.event.v : null } })];
  if (page === 'match') {
    const seat = state.seats[id];
    const since_v = state.match && state.match.match_id === id ? state.match.v : null;
    return [seat
      ? request(state, 'resume', { resume: { token: seat.token, since_v } })
      : request(state, 'watch', { watch: { target: { match: id }, since_v } })];
  }
  if (page === 'invite') {
    const held = Object.values(state.seats).find((seat) => seat.invite_code === id);
    if (held) return [{ navigate: `/m/${held.match_id}`, replace: true }];
    // The seat is taken once the friend has said their name (acceptInvite).
    return state.ui.inviteAccepted ? [request(state, 'join', { join_match: { code: id } })] : [];
  }
  if (page === 'ftv') {
    // TV names its match again; the one shown is watched again from where it was.
    const shown = id && state.match && state.match.match_id === id ? state.match.v : null;
    const tv = request(state, 'watch', { watch: { target: { channel: FRISIAN_TV }, since_v: null } });
    return id ? [tv, request(state, 'watch', { watch: { target: { match: id }, since_v: shown } })] : [tv];
  }
  if (page === 'tokens' || page === 'profile' || page === 'ladder') return account.load(state);
  if (page === 'tv' || page === 'game') {
    const since_v = state.channel && state.channel.channel === id ? state.channel.v : null;
    return [request(state, 'watch', { watch: { target: { channel: id }, since_v } }), leaderboard(state)];
  }
  return [];
}

/**
 * Stops following the page's target before another page is shown. A seat stays followed,
 * except the creator's seat in a public seek still waiting for an opponent: leaving its page
 * takes the seek out of the lobby (PROTOCOL.md, `unwatch`), so nobody joins a player who is
 * no longer there; coming back resumes the seat and lists the seek again.
 */
export function leave(state) {
  const { page, id } = state.route;
  const m = state.match && state.match.match_id === id ? state.match : null;
  const waitingSeek = m && m.public && m.phase === 'waiting';
  if (page === 'match' && (!state.seats[id] || waitingSeek)) {
    return [request(state, 'unwatch', { unwatch: { match: id } })];
  }
  if (page === 'tv' || page === 'game') return [request(state, 'unwatch', { unwatch: { channel: id } })];
  if (page === 'ftv') {
    const tv = request(state, 'unwatch', { unwatch: { channel: FRISIAN_TV } });
    return id ? [tv, request(state, 'unwatch', { unwatch: { match: id } })] : [tv];
  }
  return [];
}

export const listLobby = (state) => request(state, 'lobby', 'list_lobby');
export const leaderboard = (state) => request(state, 'leaderboard', { leaderboard: { limit: 10 } });

/**
 * A new match from the lobby form.
 * @param {{time: string, minutes: number, increment: number, color: string, private: boolean}} form
 */
export function createMatch(state, form) {
  let time_control = null;
  const preset = /^(\d+)\+(\d+)$/.exec(form.time);
  if (preset) time_control = { initial_ms: +preset[1] * 60000, increment_ms: +preset[2] * 1000 };
  if (form.time === 'custom') {
    time_control = {
      initial_ms: Math.round(Number(form.minutes) * 60000),
      increment_ms: Math.round(Number(form.increment) * 1000),
    };
    const bad = !Number.isFinite(time_control.initial_ms) || !Number.isFinite(time_control.increment_ms)
      || time_control.initial_ms < 0 || time_control.increment_ms < 0
      || time_control.initial_ms + time_control.increment_ms === 0;
    if (bad) {
      state.notice = { text: tr('notice-custom-time'), code: '' };
      return [];
    }
  }
  const color = ['white', 'black', 'random'].includes(form.color) ? form.color : 'random';
  // Rated only for a member (the server refuses a guest's with `members_only`); a rating
  // range only for a rated public seek, one of ±100 … ±500, or none ("open").
  const rated = form.mode === 'rated' && Boolean(state.account);
  const range = Number(form.range);
  const rating_range = rated && !form.private && RATING_RANGES.includes(range) ? range : null;
  return [request(state, 'create', { create_match: { time_control, color, public: !form.private, rated, rating_range } })];
}

/** The rating ranges a rated seek may be limited to (protocol/src/limits.rs). */
export const RATING_RANGES = [100, 200, 300, 400, 500];
/** The play-now presets (protocol/src/pool.rs), fastest first. */
export const POOL_PRESETS = ['1+1', '3+2', '5+3', '10+5', '15+10'];

/**
 * "Play now" at `preset`: wait in the server's pool to be paired with a member of close
 * rating (answered `ack`, later `paired`). Members only; asking again replaces the wait.
 */
export function playNow(state, preset) {
  if (!POOL_PRESETS.includes(preset)) return [];
  if (!state.account) {
    state.notice = { text: tr('notice-play-now-members'), code: 'members_only' };
    return [];
  }
  state.notice = { text: '', code: '' };
  state.playNow = { preset };
  return [request(state, 'play-now', { play_now: { preset } })];
}

/** Stops waiting in the play-now pool. */
export function cancelPlayNow(state) {
  if (!state.playNow) return [];
  state.playNow = null;
  return [request(state, 'cancel-play-now', 'cancel_play_now')];
}

export const joinById = (state, matchId) =>
  [request(state, 'join', { join_match: { id: matchId } })];

/** A seat command (`resign`, `offer_draw`, …) of the match shown. */
export function seatCommand(state, kind) {
  const seat = state.seat;
  if (!seat || !SEAT_ACTIONS.has(kind)) return [];
  state.ui.confirm = null;
  return [request(state, kind, { [kind]: { match_id: seat.match_id, token: seat.token } }, true)];
}

export function claim(state, kind) {
  const seat = state.seat;
  if (!seat) return [];
  return [request(state, 'claim', { claim: { match_id: seat.match_id, token: seat.token, kind } }, true)];
}

/** Plays `route` (one of the server's legal routes, or a typed one the server will judge). */
export function move(state, route) {
  const seat = state.seat;
  clearInput(state);
  if (!seat) return [];
  state.notice = { text: '', code: '' };
  // Our round trip from `ping`s, for lag compensation (the server believes it only up to its
  // own measurement: PROTOCOL.md §10).
  const lag = state.lag.rtt === null ? null : Math.min(60000, Math.round(state.lag.rtt));
  return [request(state, 'move', { move: { match_id: seat.match_id, token: seat.token, route, lag_ms: lag } }, true)];
}

/**
 * A `ping` measuring our round trip (a browser cannot see the server's WebSocket pings); its
 * `pong` comes back in receive.js, and one lost with its connection is not counted.
 */
export function ping(state, now) {
  const nonce = state.nextId++;
  state.lag.sent = { nonce, at: now };
  return { send: { id: nonce, msg: { ping: { nonce } } } };
}

/** "+15 s" for the opponent (PROTOCOL.md §10 More time), or `berserk`. */
export function moreTime(state, act = 'more_time') {
  const seat = state.seat;
  return seat ? [request(state, act, { [act]: { match_id: seat.match_id, token: seat.token } }, true)] : [];
}

/** This seat refuses more time (`refuse`), or takes it again. */
export function refuseMoreTime(state, refuse) {
  const seat = state.seat;
  if (!seat) return [];
  state.ui.refusalSent = seat.match_id;
  return [request(state, 'refuse-more-time', { refuse_more_time: { match_id: seat.match_id, token: seat.token, refuse } }, true)];
}

/** Says `say` in the match's chat (PROTOCOL.md §19). */
export function chat(state, say) {
  const m = state.match;
  return m ? [request(state, 'chat', { chat: { match_id: m.match_id, say } })] : [];
}

/** True while a move of ours waits for its reply: no second move meanwhile. */
export const movePending = (state) => state.outbox.some((e) => e.msg.move);

/** Forgets a half-entered move. */
export function clearInput(state) {
  state.ui.hops = [];
  state.ui.choices = [];
  state.ui.choicesFromTyping = false;
  state.ui.preview = null;
}

/** The legal moves the seated player may enter now (none for watchers or off-turn). */
export function playable(state) {
  const m = state.match;
  if (!m || !state.seat || m.phase !== 'playing' || m.turn !== state.seat.side) return [];
  if (state.ui.viewPly !== null || movePending(state)) return [];
  return m.legal_moves;
}

/** Legal moves whose route begins with the squares clicked so far. */
export function candidates(state) {
  const hops = state.ui.hops;
  return playable(state).filter((m) => hops.every((sq, i) => m.route[i] === sq));
}

/** Squares worth clicking next: next landing squares and final squares of the candidates. */
export function destinations(state) {
  const hops = state.ui.hops;
  const dests = new Set();
  if (!hops.length) return dests;
  for (const m of candidates(state)) {
    if (m.route.length > hops.length) {
      dests.add(m.route[hops.length]);
      dests.add(m.route[m.route.length - 1]);
    }
  }
  return dests;
}

/** Squares holding a piece that can move now. */
export const movable = (state) => new Set(playable(state).map((m) => m.route[0]));

/**
 * A click (or a drop) on a Frisian square: pick a piece, go on along a capture route, or
 * complete a move. Ambiguous captures leave `ui.choices` for the chooser.
 */
export function clickSquare(state, square) {
  const ui = state.ui;
  if (ui.hops.length && destinations(state).has(square)) {
    const depth = ui.hops.length;
    const cands = candidates(state);
    const byNext = cands.filter((m) => m.route[depth] === square);
    const byFinal = cands.filter((m) => m.route.length > depth && m.route[m.route.length - 1] === square);
    if (byNext.length === 1) return move(state, byNext[0].route);
    if (byNext.length === 0 && byFinal.length === 1) return move(state, byFinal[0].route);
    if (byNext.length > 1) {
      ui.hops = [...ui.hops, square];
      const left = candidates(state);
      const finals = new Set(left.map((m) => m.route[m.route.length - 1]));
      ui.choices = finals.size === 1 ? left.map((m) => m.route) : [];
      return ui.choices.length ? [FOCUS_CHOOSER] : [];
    }
    ui.choices = byFinal.map((m) => m.route);
    return [FOCUS_CHOOSER];
  }
  clearInput(state);
  if (state.notice.code === 'must_capture') state.notice = { text: '', code: '' };
  if (movable(state).has(square)) {
    ui.hops = [square];
    return [];
  }
  whyNotMovable(state, square);
  return [];
}

/**
 * A click on one's own piece that may not move, on one's turn: say which pieces may (the
 * rules' compulsory capture is what surprises people, as lidraughts' "legal backward
 * captures reported as illegal" issues show). Nothing for other squares.
 */
function whyNotMovable(state, square) {
  const legal = playable(state);
  const own = state.match && parseFen(state.match.fen).pieces[square];
  if (!legal.length || !own || own[0] !== state.seat.side[0]) return;
  const froms = [...new Set(legal.map((m) => m.route[0]))].sort((a, b) => a - b);
  const capturing = legal.some((m) => m.captures.length > 0);
  state.notice = capturing
    ? { text: tr('notice-must-capture', { squares: orList(froms) }), code: 'must_capture' }
    : { text: tr('notice-no-legal-move', { square }), code: 'must_capture' };
}

/** `28`, `28 or 33`, `28, 33 or 37`. */
export function orList(items) {
  if (items.length < 2) return items.join('');
  return tr('list-or', { first: items.slice(0, -1).join(', '), last: items[items.length - 1] });
}

/**
 * Focus goes into the chooser when it opens (a keyboard user would otherwise tab through the
 * whole page to reach it), and back to the move box once a typed move is settled there.
 */
const FOCUS_CHOOSER = { focus: '#chooser [data-route]' };
const FOCUS_MOVE_BOX = { focus: '#move-input' };

/** A route picked from the chooser. */
export function chooseRoute(state, route) {
  const typed = state.ui.choicesFromTyping;
  const legal = candidates(state).find((m) => m.route.join('x') === route.join('x'));
  if (!legal) return [];
  return [...move(state, legal.route), ...(typed ? [FOCUS_MOVE_BOX] : [])];
}

/**
 * A move typed as `32-28`, `19x30`, `9x18x16` or `3228`. A unique legal match is played
 * with its full route; anything else is sent as typed, so the server says why it refuses.
 */
export function typedMove(state, text) {
  const t = String(text).trim();
  let squares = t.split(/\s*[-x:]\s*|\s+/).filter(Boolean).map(Number);
  if (/^\d{4}$/.test(t)) squares = [Number(t.slice(0, 2)), Number(t.slice(2))];
  if (squares.length < 2 || squares.length > 21 || squares.some((n) => !Number.isInteger(n) || n < 1 || n > 50)) {
    state.notice = { text: tr('notice-not-a-move', { text: t }), code: 'input' };
    return [];
  }
  if (!state.seat) {
    state.notice = { text: tr('notice-only-players'), code: 'input' };
    return [];
  }
  // A move is typed for the live position, even while the list shows an earlier one.
  state.ui.viewPly = null;
  const legal = (state.match ? state.match.legal_moves : []).filter((m) =>
    squares.length === 2
      ? m.route[0] === squares[0] && m.route[m.route.length - 1] === squares[1]
      : m.route.join('x') === squares.join('x'),
  );
  if (legal.length > 1) {
    clearInput(state);
    state.ui.hops = [squares[0]];
    state.ui.choices = legal.map((m) => m.route);
    state.ui.choicesFromTyping = true;
    state.notice = { text: tr('notice-choose-route'), code: '' };
    return [FOCUS_CHOOSER];
  }
  return move(state, legal.length === 1 ? legal[0].route : squares);
}

/** Steps the move list: `delta` plies, or to an absolute ply when `to` is given. */
export function viewPly(state, delta, to) {
  const m = state.match;
  if (!m) return [];
  const last = m.moves.length;
  const from = state.ui.viewPly === null ? last : state.ui.viewPly;
  const next = Math.max(0, Math.min(last, to !== undefined ? to : from + delta));
  state.ui.viewPly = next === last ? null : next;
  clearInput(state);
  return [];
}

/* MinitChess predictions. */

/** Legal `from-to` moves of the coming ply, as the server listed them. */
export function minitLegal(state) {
  const game = state.channel && state.channel.game;
  if (!game || game.result) return [];
  return game.legal || [];
}

/** A click on a MinitChess square: pick a from-square, then a to-square to predict. */
export function minitClick(state, square) {
  const legal = minitLegal(state);
  const from = state.ui.minitFrom;
  if (from && legal.includes(`${from}-${square}`)) {
    state.ui.minitFrom = null;
    return predict(state, from, square);
  }
  state.ui.minitFrom = legal.some((mv) => mv.startsWith(`${square}-`)) ? square : null;
  return [];
}

export function predict(state, from, to) {
  const game = state.channel.game;
  state.prediction = { ply: game.next_ply, guess: `${from}-${to}`, state: 'waiting' };
  return [request(state, 'predict', {
    predict: { channel: state.channel.channel, ply: game.next_ply, from, to },
  })];
}

/**
 * An on-demand engine game.
 * @param {{serial: string, white: string, black: string, pace: number, from: number}} form
 */
export function startEngineGame(state, form) {
  const pace = Number(form.pace);
  const ply_interval_ms = Number.isFinite(pace) && pace > 0 ? Math.round(pace * 1000) : null;
  const from = Number(form.from);
  return [request(state, 'engine', {
    start_engine_game: {
      serial: String(form.serial || '').trim().toUpperCase(),
      white: form.white,
      black: form.black,
      ply_interval_ms,
      reveal_from_ply: Number.isInteger(from) && from > 0 ? from : null,
    },
  })];
}
