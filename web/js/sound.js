/**
 * The match page's sounds and its hidden-tab notice (issue 32). main.js loads this module by
 * `import()` at the page's first click or key (browsers play no sound before one) or when
 * the tab is first hidden (for the notice), so the page's first download (its 160 KB budget)
 * never carries it, and each sound (`sounds/*.wav`, made by `sounds/make.py`) is fetched the
 * first time it is played.
 *
 * Sounds: a move, a capture, low time (one's own clock under 10 s, once per turn, as the
 * terminal's bell), the game's start and its end. They go through one `audio#sound`, whose
 * source is set to the sound played (`data-played` counts them). `button#mute` silences them,
 * remembered in this browser (`bc.mute`).
 *
 * The notice: when it becomes one's move while the tab is hidden, a browser notification says
 * so. Permission is asked once per browser (`bc.notifyAsked`), and only after a game of one's
 * own has started, at one's next click or key: a page that asks as it opens is refused by
 * most people, and browsers ignore a request made without a gesture.
 * @module sound
 */

import { h, attr, text } from './render/dom.js';
import { remaining } from './render/clock.js';
import { t, withPageWords } from './i18n.js';

const MUTE_KEY = 'bc.mute';
const ASKED_KEY = 'bc.notifyAsked';
/** Own time below this sounds `lowtime` (the terminal's bell uses the same 10 s). */
const LOW_TIME_MS = 10_000;

const stored = {
  get(key) {
    try { return localStorage.getItem(key); } catch { return null; }
  },
  set(key, value) {
    try { localStorage.setItem(key, value); } catch { /* private mode: this tab only */ }
  },
};

/** The one audio element, kept across match pages (a rematch, a language change). */
function audioElement() {
  let audio = /** @type {HTMLAudioElement|null} */ (document.getElementById('sound'));
  if (!audio) {
    audio = /** @type {HTMLAudioElement} */ (h('audio', { id: 'sound', preload: 'none', 'data-played': '0' }));
    document.body.append(audio);
  }
  return audio;
}

/** Whether a gesture will ask for notifications (armed once a game of ours has started). */
let armed = false;

/** At the first click or key after our first game started, ask once for notifications. */
function armNotifications() {
  if (armed || stored.get(ASKED_KEY)) return;
  armed = true;
  const ask = () => {
    document.removeEventListener('pointerdown', ask, true);
    document.removeEventListener('keydown', ask, true);
    const api = globalThis.Notification;
    if (!api || api.permission !== 'default' || stored.get(ASKED_KEY)) return;
    stored.set(ASKED_KEY, '1');
    Promise.resolve(api.requestPermission()).catch(() => { /* no answer: no notices */ });
  };
  document.addEventListener('pointerdown', ask, true);
  document.addEventListener('keydown', ask, true);
}

/** Tells a player whose tab is hidden that it is their move (when they allowed notices). */
function notifyTurn(m, mine, muted) {
  const api = globalThis.Notification;
  if (!document.hidden || !api || api.permission !== 'granted') return;
  const last = m.moves[m.moves.length - 1];
  const opponent = m[mine === 'white' ? 'black' : 'white'];
  const body = last && opponent ? t('notify-played', { name: opponent.name, move: last.notation }) : '';
  try {
    const notice = new api(t('title-your-turn'), { body, tag: `bc-turn-${m.match_id}`, silent: muted });
    notice.onclick = () => { window.focus(); notice.close(); };
  } catch { /* a browser that only notifies from a service worker: no notice */ }
}

/** How often the state is looked at: a move's sound comes within this (a hidden tab's timers
 * run about once a second). */
const LOOK_MS = 100;
let started = false;
/** A game of ours first seen this soon after its snapshot came has just started. */
const JUST_STARTED_MS = 3000;

/**
 * Plays what changes in `state` (the page's one state object, main.js) from now on, and puts
 * the mute toggle in the match page's tools. The page's drawing is left alone: this module
 * looks at the state on a timer instead of being called from render/match.js, because a
 * hidden tab gets no animation frames (the page is not drawn while the opponent moves), and
 * a hidden tab is when the sound and the notice matter; and so the match page's first
 * download carries no code of it.
 * @param {object} state
 */
export function start(state) {
  if (started) return;
  started = true;
  const audio = audioElement();
  let muted = stored.get(MUTE_KEY) === '1';
  const mute = h('button', { type: 'button', id: 'mute', 'aria-pressed': String(muted) });
  const label = () => text(mute, t('sound-mute'));
  withPageWords(null).then(label, label);
  mute.addEventListener('click', () => {
    muted = !muted;
    stored.set(MUTE_KEY, muted ? '1' : '0');
    attr(mute, 'aria-pressed', String(muted));
  });

  const play = (name) => {
    if (muted) return;
    audio.src = new URL(`../sounds/${name}.wav`, import.meta.url).href;
    attr(audio, 'data-played', String(Number(audio.dataset.played) + 1));
    // Without a gesture on the page yet a browser may refuse to play: nothing to do then.
    audio.play().catch(() => {});
  };

  /** What the last look saw: the match, its length and phase, the turn low time sounded. */
  let seen = { id: '', moves: 0, phase: '', lowAt: -1 };
  setInterval(() => {
    const m = state.match;
    // The match page is built anew for each match and language: the toggle goes in each.
    const tools = document.querySelector('.match-page .tools');
    if (tools && mute.parentElement !== tools) {
      label();
      tools.append(mute);
    }
    if (!m) return;
    const mine = state.seat ? state.seat.side : null;
    const first = seen.id !== m.match_id;
    const before = seen;
    seen = { id: m.match_id, moves: m.moves.length, phase: m.phase, lowAt: first ? -1 : before.lowAt };
    if (mine && m.phase !== 'waiting') armNotifications();
    let sound = '';
    let turnCame = false;
    // A game of ours first seen as it starts (joined by invite, a rematch) starts now; one
    // opened later (a reload) does not start again.
    const justNow = performance.now() - state.matchAt < JUST_STARTED_MS;
    if (first && justNow && mine && m.phase === 'playing' && m.moves.length === 0) {
      sound = 'start';
      turnCame = true;
    }
    if (!first && m.moves.length === before.moves + 1) {
      sound = m.moves[m.moves.length - 1].captures.length ? 'capture' : 'move';
      turnCame = true;
    }
    if (!first && m.phase !== before.phase && m.phase === 'playing') {
      sound = 'start';
      turnCame = true;
    } else if (!first && m.phase !== before.phase && m.phase === 'finished') {
      sound = 'end';
    }
    const playing = m.phase === 'playing';
    if (mine && playing && m.clock && m.clock.running === mine && seen.lowAt !== m.moves.length
      && remaining(m.clock, mine, performance.now() - state.matchAt) < LOW_TIME_MS) {
      seen.lowAt = m.moves.length;
      // The turn came with little time left: the warning matters more than the move.
      sound = 'lowtime';
    }
    if (sound) play(sound);
    if (turnCame && mine && playing && m.turn === mine) notifyTurn(m, mine, muted);
  }, LOOK_MS);
}
