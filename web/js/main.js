/**
 * Wiring, and the only place with globals: socket → receive → redraw; events → actions →
 * socket. Also the browser's storage (name, ack ids, seat tokens per match), history and
 * clipboard, which receive and actions ask for through effects.
 * @module main
 */

import { initialState, parseRoute } from './state.js';
import { receive, resetMatch } from './receive.js';
import * as actions from './actions.js';
import { connect } from './socket.js';
import { listen } from './events.js';
import { render } from './render/index.js';
import * as i18n from './i18n.js';
import { answered } from './account.js';

const SEAT_PREFIX = 'bc.seat.';
const LOBBY_REFRESH_MS = 4000;
const TICK_MS = 100;
/** How often a match page measures its round trip (a ping is a few bytes). */
const PING_MS = 2000;

const storage = {
  get(key) {
    try { return localStorage.getItem(key); } catch { return null; }
  },
  set(key, value) {
    try { localStorage.setItem(key, value); } catch { /* private mode: this tab only */ }
  },
  remove(key) {
    try { localStorage.removeItem(key); } catch { /* nothing kept */ }
  },
};

function storedSeats() {
  const seats = {};
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (!key || !key.startsWith(SEAT_PREFIX)) continue;
      const seat = JSON.parse(localStorage.getItem(key) || 'null');
      if (seat && typeof seat.token === 'string') seats[key.slice(SEAT_PREFIX.length)] = seat;
    }
  } catch { /* no storage: no seats kept */ }
  return seats;
}

const state = initialState(parseRoute(location.pathname), {
  name: storage.get('bc.name') || '',
  // Never below the clock in milliseconds (as the terminal client starts): a seat taken back
  // on another device (`reclaim`) goes on above the ids its first device used.
  nextId: Math.max(Date.now(), Number(storage.get('bc.nextId')) || 1),
  seats: storedSeats(),
}, location.search);
// This browser refuses "+15 s" from opponents (PROTOCOL.md §10 More time).
state.noMoreTime = storage.get('bc.noMoreTime') === '1';
const root = /** @type {HTMLElement} */ (document.getElementById('app'));

let frame = 0;
let tick = 0;
/** Nothing is drawn until the language's catalogue has come (the page's words are in it). */
let spoken = false;
/** A `focus` effect's selector: focused once the next drawing has put it on the page. */
let focusNext = '';
function redraw() {
  if (frame || !spoken) return;
  frame = requestAnimationFrame(() => {
    frame = 0;
    clearTimeout(tick);
    if (render(state, root, performance.now())) tick = setTimeout(redraw, TICK_MS);
    if (focusNext) {
      const el = /** @type {HTMLElement|null} */ (document.querySelector(focusNext));
      if (el) el.focus();
      focusNext = '';
    }
  });
}

/** The close code of a connection whose session ended (logout elsewhere, a closed account). */
const SESSION_ENDED = 4001;
const wsUrl = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/ws`;
const socket = connect(wsUrl, (event) => {
  if (event.type === 'connected') {
    // Online once the server's `welcome` came (receive): requests made before then wait, so
    // none goes out ahead of the page's name.
    return;
  } else if (event.type === 'message') {
    run(receive(state, event.msg, performance.now()));
    return;
  } else if (event.type === 'garbled') {
    console.warn('unreadable message from the server', event.text);
  } else if (event.type === 'disconnected') {
    if (event.code === SESSION_ENDED) {
      // This browser's session ended elsewhere (PROTOCOL.md §13): the cookie it still sends
      // would be refused at every reconnect, so it is cleared and the visitor asked to log in.
      // The login page says why, and brings the visitor back to where they were.
      const back = `/login?ended=1&next=${encodeURIComponent(location.pathname)}`;
      fetch('/api/logout', { method: 'POST' }).finally(() => location.assign(back));
    }
    state.conn = 'offline';
    // Requests die with their connection; match commands stay to be re-sent, and requests
    // never sent stay to be sent.
    const kept = new Set([...state.outbox, ...state.unsent].map((e) => e.id));
    for (const id of Object.keys(state.pending)) if (!kept.has(Number(id))) delete state.pending[id];
  }
  redraw();
});

/**
 * The ack-id counter is one for the whole browser, as the seats are: every tab of it may
 * hold a seat and act for it. So it only ever grows. A tab writes its own counter only
 * above what is kept (a lobby tab opened early would otherwise put back a low one, and a
 * match page opened after it would re-use ids the seat has carried out: the server answers
 * those as duplicates, and the move silently does not happen), and takes up a higher one
 * another tab writes.
 */
function saveNextId() {
  const kept = Number(storage.get('bc.nextId')) || 0;
  if (state.nextId > kept) storage.set('bc.nextId', String(state.nextId));
  else state.nextId = kept;
}
window.addEventListener('storage', (event) => {
  if (event.key === 'bc.nextId') state.nextId = Math.max(state.nextId, Number(event.newValue) || 0);
});

/** Carries out the effects of receive and actions, then redraws. */
function run(effects) {
  for (const effect of effects) {
    if (effect.send) {
      if (state.conn !== 'online' || !socket.send(effect.send)) actions.unsent(state, effect.send);
      saveNextId();
    } else if (effect.navigate) {
      go(effect.navigate, effect.replace, effect.keepConnection);
    } else if (effect.saveSeat) {
      storage.set(SEAT_PREFIX + effect.saveSeat.match_id, JSON.stringify(effect.saveSeat));
    } else if (effect.forgetSeat) {
      storage.remove(SEAT_PREFIX + effect.forgetSeat);
    } else if (effect.store) {
      storage.set(...effect.store);
    } else if (effect.saveName !== undefined) {
      storage.set('bc.name', effect.saveName);
    } else if (effect.copy !== undefined) {
      copy(effect.copy);
    } else if (effect.focus) {
      focusNext = effect.focus;
    } else if (effect.reconnectAfter !== undefined) {
      socket.reconnectAfter(effect.reconnectAfter);
    } else if (effect.http) {
      fetchJson(effect.http);
    } else if (effect.reload) {
      // A new session (login) or none (logout): a fresh page opens its socket as it.
      location.assign(effect.reload);
    }
  }
  redraw();
}

/**
 * An account request (account.js): JSON in and out, same-origin with the session cookie. Its
 * own referrer policy, because the page's (`no-referrer`) would send `Origin: null`, which
 * the server refuses for a request that changes something.
 */
async function fetchJson(request) {
  let response = { status: 0, body: null, retryAfter: 0 };
  try {
    const r = await fetch(request.path, {
      method: request.method,
      headers: request.body ? { 'Content-Type': 'application/json' } : {},
      body: request.body ? JSON.stringify(request.body) : undefined,
      credentials: 'same-origin',
      cache: 'no-store',
      referrerPolicy: 'same-origin',
    });
    let body = null;
    try { body = await r.json(); } catch { /* an empty answer */ }
    response = { status: r.status, body, retryAfter: Number(r.headers.get('Retry-After')) || 0 };
  } catch { /* not reached: status 0 */ }
  run(answered(state, request, response));
}

/** Shows another page in this same document and connection. */
function go(path, replace, alreadyFollowed) {
  if (location.pathname !== path) history[replace ? 'replaceState' : 'pushState'](null, '', path);
  if (!alreadyFollowed && state.conn === 'online') run(actions.leave(state));
  state.route = parseRoute(path);
  state.notice = { text: '', code: '' };
  if (alreadyFollowed) return;
  resetMatch(state);
  state.channel = null;
  if (state.conn === 'online') run(actions.follow(state));
}

async function copy(value) {
  let done = false;
  try {
    await navigator.clipboard.writeText(value);
    done = true;
  } catch {
    // Plain http on another host is no secure context: fall back to a selected text box.
    const box = document.createElement('textarea');
    box.value = value;
    box.setAttribute('readonly', '');
    box.className = 'offscreen';
    document.body.append(box);
    box.select();
    try { done = document.execCommand('copy'); } catch { done = false; }
    box.remove();
  }
  state.notice = { text: i18n.t(done ? 'notice-copied' : 'notice-copy-this', { value }), code: '' };
  redraw();
}

window.addEventListener('popstate', () => go(location.pathname, true, false));
document.addEventListener('visibilitychange', redraw);
addEventListener('words', redraw);
setInterval(() => {
  if (state.route.page === 'lobby' && state.conn === 'online') run([actions.listLobby(state)]);
}, LOBBY_REFRESH_MS);

setInterval(() => {
  if (state.match && state.conn === 'online' && !document.hidden) run([actions.ping(state, performance.now())]);
}, PING_MS);

listen(root, state, run);
redraw();

// sound.js loads at the first click or key (no sound before) or hidden tab.
for (const e of ['pointerdown', 'keydown', 'visibilitychange']) addEventListener(e, () => import('./sound.js').then((s) => s.start(state)), { once: true });

/** The catalogue of `lang`, from beside the modules (same origin, same asset version). */
async function catalogue(lang) {
  const response = await fetch(new URL(`../i18n/${lang}.ftl`, import.meta.url));
  if (!response.ok) throw new Error(`${lang}.ftl: ${response.status}`);
  return response.text();
}

/** The language menu in the header, the choice kept in `bc.lang` for this browser. Every
 * language, English too, is a catalogue: the page is drawn once the chosen one has come, and
 * drawn again (each page built anew) when the menu changes it. */
async function speak() {
  const chosen = i18n.chooseLang(storage.get('bc.lang'), navigator.languages);
  const menu = document.createElement('select');
  menu.id = 'lang';
  menu.name = 'lang';
  for (const lang of i18n.LANGS) {
    menu.append(new Option(i18n.ENDONYMS[lang], lang, false, lang === chosen));
  }
  // A phone shows the code (NL): the header keeps to one row.
  const narrow = matchMedia('(max-width: 600px)');
  const label = () => { for (const o of menu.options) o.label = narrow.matches ? o.value.toUpperCase() : o.text; };
  label();
  narrow.addEventListener('change', label);
  const apply = async (lang) => {
    i18n.use(lang, await catalogue(lang));
    document.documentElement.lang = lang;
    spoken = true;
    redraw();
  };
  menu.addEventListener('change', () => {
    storage.set('bc.lang', menu.value);
    apply(menu.value).catch((error) => console.error('no catalogue:', error));
  });
  document.querySelector('header.top')?.append(menu);
  await apply(chosen);
}
speak().catch((error) => {
  // Without a catalogue the page still works, its words shown as their ids.
  console.error('no catalogue:', error);
  spoken = true;
  redraw();
});
