/**
 * Premoves (issue 32, lila #3890): on the opponent's turn a player picks one of their pieces
 * and a square (two clicks, or a drag); the page plays that move the moment the opponent's
 * move arrives, if it is then one of the server's legal moves, and otherwise drops it and says
 * why (Frisian captures are compulsory, so a capture the opponent allowed rules it out).
 * Escape or another click on the board cancels it. No rules are worked out here: the page
 * knows the legal moves only when the server sends them, at the player's turn. The server
 * charges a premove as any move, because it is sent as one (`actions.move`).
 *
 * The match page loads this by `import()` for a seat (render/match.js), so its first download
 * (its 160 KB budget) does not carry it. Its listeners run in the capture phase, before
 * events.js's, which then redraws the page; the premove is kept in `state.ui.premove`.
 * @module render/premove
 */

import { h, text, show } from './dom.js';
import { t } from '../i18n.js';
import * as actions from '../actions.js';
import { parseFen } from '../fen.js';

/**
 * Whether the seat may enter a premove now: its match is being played, the opponent is to
 * move, and the board shows the live position.
 */
export function offTurn(state) {
  const m = state.match;
  const mine = state.seat && state.seat.side;
  return Boolean(m && mine && m.phase === 'playing' && m.turn !== mine && state.ui.viewPly === null);
}

/** Whether square `n` holds one of the seat's own pieces now. */
function own(state, n) {
  const piece = parseFen(state.match.fen).pieces[n];
  return Boolean(piece && piece[0] === state.seat.side[0]);
}

/**
 * A click on square `n` on the opponent's turn: an own piece is picked (a second click on it
 * puts it down), then any other square completes the premove; a click while a premove stands
 * cancels it (or picks the piece clicked instead).
 */
export function pick(state, n) {
  if (!offTurn(state)) return;
  const p = state.ui.premove;
  const mine = own(state, n);
  const picked = p && p.to === null;
  if (picked && p.from !== n && !mine) p.to = n;
  else state.ui.premove = mine && !(picked && p.from === n) ? premove(state, n, null) : null;
  if (state.notice.code === 'premove') state.notice = { text: '', code: '' };
}

/** A piece dragged from `from` and dropped on `to` (0: off the board) on the opponent's turn. */
export function drop(state, from, to) {
  if (!offTurn(state)) return;
  state.ui.premove = to && to !== from ? premove(state, from, to) : null;
}

/**
 * A premove from `from` to `to` (null: only picked), made when `ply` plies were played: it
 * answers the opponent's move of that ply and no other (not one after a takeback, nor a
 * position in which the seat has moved since, from another tab).
 */
const premove = (state, from, to) => ({ match: state.match.match_id, ply: state.match.moves.length, from, to });

/**
 * The opponent's move has come (receive.js: its `moved` event, or a snapshot that shows it,
 * as after a reconnect whose missed events the server no longer held): the premove is
 * played if exactly one legal move goes from its piece to its square; when several captures
 * do, the chooser opens to pick the route; when none does, it is dropped with a notice. A
 * piece picked without a square stays picked for the move to be made by hand. A premove made
 * before another position (a takeback's) is forgotten without a word.
 * @returns {object[]} effects
 */
export function played(state) {
  const m = state.match;
  const p = state.ui.premove;
  if (!p || !state.seat || m.phase !== 'playing' || m.turn !== state.seat.side) return [];
  state.ui.premove = null;
  if (p.match !== m.match_id || m.moves.length !== p.ply + 1) return [];
  if (p.to === null) {
    if (actions.movable(state).has(p.from)) state.ui.hops = [p.from];
    return [];
  }
  const routes = m.legal_moves.filter((lm) => lm.route[0] === p.from && lm.route[lm.route.length - 1] === p.to);
  if (routes.length === 1) return actions.move(state, routes[0].route);
  const move = `${p.from}-${p.to}`;
  if (routes.length > 1) {
    state.ui.hops = [p.from];
    state.ui.choices = routes.map((lm) => lm.route);
    state.notice = { text: t('notice-choose-route'), code: '' };
    return [{ focus: '#chooser [data-route]' }];
  }
  const capturing = [...new Set(m.legal_moves.filter((lm) => lm.captures.length).map((lm) => lm.route[0]))];
  state.notice = capturing.length
    ? { text: t('premove-dropped-capture', { move, squares: actions.orList(capturing.sort((a, b) => a - b)) }), code: 'premove' }
    : { text: t('premove-dropped', { move }), code: 'premove' };
  return [];
}

/** Cancels the premove (`[data-action=cancel-premove]`). */
export function cancel(state) {
  state.ui.premove = null;
  return [];
}

actions.hooks.moved = played;
actions.hooks['cancel-premove'] = cancel;

/** The square element under a pointer event, or null. */
const squareOf = (target) => target && target.closest && target.closest('#board [data-square]');

/**
 * The board's input on the opponent's turn, in the capture phase: each handler leaves the
 * event to events.js, which redraws (on the opponent's turn its own handlers change nothing).
 * As there, an own piece is picked when pressed: the board then holds the pointer, so the
 * click that follows is the board's, not the square's.
 */
function listen(state) {
  const root = /** @type {HTMLElement} */ (document.getElementById('app'));
  // The click that ends a drag is not a pick (events.js drops it too).
  let dragged = false;
  root.addEventListener('click', (event) => {
    const square = squareOf(event.target);
    const n = square ? Number(square.dataset.square) : 0;
    if (n && !dragged && offTurn(state) && !own(state, n)) pick(state, n);
  }, true);
  root.addEventListener('pointerdown', (event) => {
    const square = squareOf(event.target);
    if (!square || event.button !== 0 || !offTurn(state) || !own(state, Number(square.dataset.square))) return;
    event.preventDefault(); // no text selection, no scrolling instead of dragging
    pick(state, Number(square.dataset.square));
    const board = square.closest('svg');
    board.setPointerCapture(event.pointerId);
    const box = board.getBoundingClientRect();
    state.ui.drag = {
      from: Number(square.dataset.square), startX: event.clientX, startY: event.clientY, moved: false, premove: true,
      x: ((event.clientX - box.left) / box.width) * 10, y: ((event.clientY - box.top) / box.height) * 10,
    };
  }, true);
  root.addEventListener('pointerup', (event) => {
    const drag = state.ui.drag;
    if (!drag || !drag.premove || !drag.moved) return;
    const square = squareOf(document.elementFromPoint(event.clientX, event.clientY));
    drop(state, drag.from, square ? Number(square.dataset.square) : 0);
    dragged = true;
    setTimeout(() => { dragged = false; }, 0);
  }, true);
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') state.ui.premove = null;
  }, true);
}

/** The premove's line and cancel button, once built, by the side panel they are in. */
const built = new WeakMap();
let listening = false;

function mount(aside) {
  if (!document.getElementById('premove-css')) {
    document.head.append(h('link', { id: 'premove-css', rel: 'stylesheet', href: new URL('../../css/premove.css', import.meta.url).href }));
  }
  const words = h('span', {});
  const line = h('p', { id: 'premove', class: 'offer', role: 'status' }, words, ' ',
    h('button', { type: 'button', 'data-action': 'cancel-premove' }, t('premove-cancel')));
  (aside.querySelector('#notice') || aside).before(line);
  const parts = { line, words };
  built.set(aside, parts);
  return parts;
}

/**
 * The squares to mark as the premove: none while the move list shows an earlier position,
 * on whose pieces they would say nothing true; the premove stands, and is marked again at
 * the live position.
 * @returns {number[]}
 */
export function marked(state) {
  const p = state.ui.premove;
  if (!p || state.ui.viewPly !== null) return [];
  return p.to === null ? [p.from] : [p.from, p.to];
}

/**
 * Marks the premove's squares (`premove`) and says it beside the board; forgets a premove
 * once the match is over or it is the seat's turn without the premove played (`played` has
 * had its chance at every move and snapshot before this draw).
 * @param {object} state
 * @param {HTMLElement} aside the match page's side panel
 */
export function update(state, aside) {
  const m = state.match;
  if (!m) return;
  if (!listening) {
    listen(state);
    listening = true;
  }
  const { line, words } = built.get(aside) || mount(aside);
  const p = state.ui.premove;
  if (p && (p.match !== m.match_id || m.phase !== 'playing' || !state.seat || m.turn === state.seat.side)) state.ui.premove = null;
  const now = state.ui.premove;
  const squares = marked(state);
  for (const square of document.querySelectorAll('#board [data-square]')) {
    square.classList.toggle('premove', squares.includes(Number(square.getAttribute('data-square'))));
  }
  show(line, Boolean(now && now.to !== null));
  if (now && now.to !== null) text(words, t('premove-set', { move: `${now.from}-${now.to}` }));
}
