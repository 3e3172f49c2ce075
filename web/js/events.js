/**
 * User input: one delegated listener per event type on the page's root (and keys on the
 * document), reading `data-square`, `data-action`, `data-ply`, `data-route`, `data-seek`.
 * Handlers call actions and hand their effects to `run`, which also redraws.
 * Drag-and-drop goes through pointer events into `state.ui.drag`; click-click stays.
 * @module events
 */

import * as actions from './actions.js';
import * as account from './account.js';
import { showsMatch } from './state.js';

/** Pointer travel (px) before a press becomes a drag. */
const DRAG_THRESHOLD_PX = 3;

const SEAT_COMMANDS = {
  'offer-draw': 'offer_draw', 'accept-draw': 'accept_draw', 'decline-draw': 'decline_draw',
  abort: 'abort', rematch: 'offer_rematch', 'accept-rematch': 'accept_rematch',
  'decline-rematch': 'decline_rematch',
};

/**
 * @param {HTMLElement} root
 * @param {object} state
 * @param {(effects: object[]) => void} run carries out effects and redraws
 */
export function listen(root, state, run) {
  let suppressClick = false;

  root.addEventListener('click', (event) => {
    if (suppressClick) {
      suppressClick = false;
      return;
    }
    const target = /** @type {Element} */ (event.target);
    const square = target.closest('[data-square]');
    if (square) {
      run(square.closest('#minit-board')
        ? actions.minitClick(state, square.dataset.square)
        : actions.clickSquare(state, Number(square.dataset.square)));
      return;
    }
    const el = target.closest('[data-action],[data-ply],[data-route],[data-seek],[data-account],[data-revoke],[data-games-page],[data-play-now],[data-chat-preset]');
    if (!el) return;
    if (el.dataset.account) return run(account.logout(state, el.dataset.account === 'logout-all'));
    if (el.dataset.revoke) return run(account.revokeToken(state, el.dataset.revoke));
    if (el.dataset.gamesPage && state.profile) {
      return run([account.gamesPage(state, state.profile.page + (el.dataset.gamesPage === 'older' ? 1 : -1))]);
    }
    if (el.dataset.seek) return run(actions.joinById(state, el.dataset.seek));
    if (el.dataset.playNow) return run(actions.playNow(state, el.dataset.playNow));
    if (el.dataset.chatPreset) return run(actions.chat(state, { preset: el.dataset.chatPreset }));
    if (el.dataset.route) return run(actions.chooseRoute(state, el.dataset.route.split('x').map(Number)));
    if (el.dataset.ply) return run(actions.viewPly(state, 0, Number(el.dataset.ply)));
    run(action(state, el.dataset.action));
  });

  // The header's account menu is outside the root: its log-out buttons are heard there.
  const header = document.querySelector('header.top');
  if (header) {
    header.addEventListener('click', (event) => {
      const el = /** @type {Element} */ (event.target).closest('[data-account]');
      if (el) run(account.logout(state, el.getAttribute('data-account') === 'logout-all'));
    });
  }

  root.addEventListener('submit', (event) => {
    event.preventDefault();
    const form = /** @type {HTMLFormElement} */ (event.target);
    const data = Object.fromEntries(new FormData(form));
    if (form.id === 'create') {
      run(actions.createMatch(state, { ...data, private: data.private === 'on' }));
    } else if (form.id === 'join-form') {
      run(actions.acceptInvite(state, data.name));
    } else if (form.id === 'engine-form') {
      run(actions.startEngineGame(state, data));
    } else if (form.id === 'login-form') {
      run(account.login(state, data));
    } else if (form.id === 'signup-form') {
      run(account.signup(state, data));
    } else if (form.id === 'password-form') {
      run(account.changePassword(state, data));
    } else if (form.id === 'token-form') {
      run(account.createToken(state, { name: data.name, scopes: new FormData(form).getAll('scopes') }));
    } else if (form.id === 'chat-form') {
      const say = String(data.say || '').trim();
      form.elements.say.value = '';
      if (say) run(actions.chat(state, { text: say }));
    } else if (form.id === 'move-form') {
      const effects = actions.typedMove(state, data.move);
      // Sent, or handed to the chooser: either way the text is used up.
      if (effects.length) form.elements.move.value = '';
      run(effects);
    }
  });

  root.addEventListener('change', (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    if (target.id === 'name') run([...actions.rename(state, target.value), { saveName: state.name }]);
    else run([]);
  });

  // A chooser button under the pointer or focus marks the pieces its route takes.
  const preview = (event) => {
    const el = /** @type {Element} */ (event.target).closest('[data-route]');
    const route = el ? el.dataset.route.split('x').map(Number) : null;
    if (String(route) !== String(state.ui.preview)) {
      state.ui.preview = route;
      run([]);
    }
  };
  root.addEventListener('pointerover', preview);
  root.addEventListener('focusin', preview);

  root.addEventListener('pointerdown', (event) => {
    const square = /** @type {Element} */ (event.target).closest('#board [data-square]');
    if (!square || event.button !== 0) return;
    const n = Number(square.dataset.square);
    const onDest = state.ui.hops.length && actions.destinations(state).has(n);
    if (onDest || !actions.movable(state).has(n)) return;
    event.preventDefault(); // no text selection, no scrolling the page instead of dragging
    if (state.ui.hops[0] !== n || state.ui.hops.length > 1) run(actions.clickSquare(state, n));
    const board = square.closest('svg');
    board.setPointerCapture(event.pointerId);
    state.ui.drag = { from: n, startX: event.clientX, startY: event.clientY, ...boardPoint(board, event), moved: false };
  });

  root.addEventListener('pointermove', (event) => {
    const drag = state.ui.drag;
    if (!drag) return;
    const board = document.getElementById('board');
    Object.assign(drag, boardPoint(board, event));
    if (Math.hypot(event.clientX - drag.startX, event.clientY - drag.startY) > DRAG_THRESHOLD_PX) drag.moved = true;
    if (drag.moved) run([]);
  });

  root.addEventListener('pointerup', (event) => {
    const drag = state.ui.drag;
    if (!drag) return;
    state.ui.drag = null;
    if (!drag.moved) return run([]);
    suppressClick = true;
    setTimeout(() => { suppressClick = false; }, 0);
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const square = under && under.closest('#board [data-square]');
    const n = square ? Number(square.dataset.square) : 0;
    run(n && actions.destinations(state).has(n) ? actions.clickSquare(state, n) : []);
  });

  root.addEventListener('pointercancel', () => {
    state.ui.drag = null;
    run([]);
  });

  root.addEventListener('contextmenu', (event) => {
    if (/** @type {Element} */ (event.target).closest('#board')) event.preventDefault();
  });

  document.addEventListener('keydown', (event) => {
    const t = /** @type {HTMLElement} */ (event.target);
    const typing = t.matches('input, select, textarea');
    const square = t.closest && t.closest('[data-square]');
    if (square && (event.key === 'Enter' || event.key === ' ')) {
      event.preventDefault();
      return run(square.closest('#minit-board')
        ? actions.minitClick(state, square.dataset.square)
        : actions.clickSquare(state, Number(square.dataset.square)));
    }
    if (event.key === 'Escape') {
      if (typing) t.blur();
      actions.clearInput(state);
      state.ui.confirm = null;
      return run([]);
    }
    if (typing || event.altKey || event.ctrlKey || event.metaKey || !showsMatch(state.route)) return;
    const step = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, h: -1, k: -1, l: 1, j: 1 }[event.key];
    if (step) {
      event.preventDefault();
      return run(actions.viewPly(state, step));
    }
    if (event.key === 'Home') return run(actions.viewPly(state, 0, 0));
    if (event.key === 'End') return run(actions.viewPly(state, 0, Infinity));
    if (event.key === 'f') return run(action(state, 'flip'));
    if (event.key === 'Enter' && t === document.body) {
      const box = document.getElementById('move-input');
      if (box && !box.closest('[hidden]')) {
        event.preventDefault();
        box.focus();
      }
    }
  });
}

/** The pointer's position in board units (0–10). */
function boardPoint(board, event) {
  const rect = board.getBoundingClientRect();
  return {
    x: ((event.clientX - rect.left) / rect.width) * 10,
    y: ((event.clientY - rect.top) / rect.height) * 10,
  };
}

/** A `data-action` button. */
function action(state, name) {
  const ui = state.ui;
  if (SEAT_COMMANDS[name]) return actions.seatCommand(state, SEAT_COMMANDS[name]);
  switch (name) {
    case 'resign': ui.confirm = 'resign'; return [];
    case 'confirm': return actions.seatCommand(state, 'resign');
    case 'cancel': ui.confirm = null; return [];
    case 'claim-win': return actions.claim(state, 'win');
    case 'claim-draw': return actions.claim(state, 'draw');
    case 'flip': ui.flip = !ui.flip; return [];
    case 'numbers': ui.numbers = !ui.numbers; return [];
    case 'first': return actions.viewPly(state, 0, 0);
    case 'prev': return actions.viewPly(state, -1);
    case 'next': return actions.viewPly(state, 1);
    case 'last': return actions.viewPly(state, 0, Infinity);
    case 'copy-invite':
      return state.seat ? [{ copy: `${location.origin}/i/${state.seat.invite_code}` }] : [];
    case 'copy-fen': {
      const board = document.getElementById('board');
      return board ? [{ copy: board.getAttribute('data-fen') || '' }] : [];
    }
    case 'copy-token': return state.newToken ? [{ copy: state.newToken.token }] : [];
    case 'cancel-play-now': return actions.cancelPlayNow(state);
    case 'more-time': return actions.moreTime(state);
    case 'berserk': return actions.moreTime(state, name);
    case 'no-more-time':
      state.noMoreTime = !state.noMoreTime;
      return [{ store: ['bc.noMoreTime', state.noMoreTime ? '1' : ''] }, ...actions.refuseMoreTime(state, state.noMoreTime)];
    default: return actions.hooks[name]?.(state) || [];
  }
}
