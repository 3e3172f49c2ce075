/**
 * The match page's chat panel (PROTOCOL.md §19). It loads by `import()` once a match page is
 * drawn, so the page's first download (its 160 KB budget) does not carry it. A player sees
 * the players' room, anybody else the spectators' (the server puts each line in its room).
 * A member types free text (140 characters at most) or picks a phrase; a guest only picks.
 * Anyone can mute an author for themselves: the list is kept in this browser (`bc.chatMute`)
 * and the server is not told. Every line is set as text, never parsed as markup.
 * @module render/chat
 */

import { h, text, show, attr, list } from './dom.js';
import { t } from '../i18n.js';

/** The phrases, by their ids on the wire (protocol/src/chat.rs), in the order offered. */
const PRESETS = ['hello', 'good_luck', 'have_fun', 'good_game', 'well_played', 'thank_you'];
const MUTED_KEY = 'bc.chatMute';

/** Who wrote a line, as muting knows them: a member and a guest of one name are two people. */
const authorKey = (line) => `${line.member ? 'm' : 'g'}:${line.author}`;

function loadMuted() {
  try {
    const kept = JSON.parse(localStorage.getItem(MUTED_KEY) || '[]');
    return new Set(Array.isArray(kept) ? kept.filter((k) => typeof k === 'string') : []);
  } catch {
    return new Set();
  }
}

function saveMuted(muted) {
  try { localStorage.setItem(MUTED_KEY, JSON.stringify([...muted])); } catch { /* this tab only */ }
}

/** The words of a line: a member's text as typed, or the phrase in the reader's language. */
const said = (say) => (say.preset ? t(`chat-preset-${say.preset}`) : String(say.text ?? ''));

/**
 * Builds the panel in `panel` and returns its update, `(state) => void`.
 * @param {HTMLElement} panel
 */
export function mountChat(panel) {
  if (!document.getElementById('chat-css')) {
    document.head.append(h('link', { id: 'chat-css', rel: 'stylesheet', href: new URL('../../css/chat.css', import.meta.url).href }));
  }
  const muted = loadMuted();
  const heading = h('h2', { class: 'chat-room' });
  const lines = h('ol', { id: 'chat-lines', class: 'chat-lines', 'aria-live': 'polite' });
  const input = h('input', {
    id: 'chat-input', name: 'say', maxlength: '140', autocomplete: 'off', placeholder: t('chat-placeholder'),
  });
  const form = h('form', { id: 'chat-form', class: 'chat-form' },
    h('label', { for: 'chat-input', class: 'sr-only' }, t('chat-say')), input,
    h('button', { type: 'submit' }, t('chat-send')));
  const presets = h('div', { class: 'chat-presets', role: 'group', 'aria-label': t('chat-presets') },
    ...PRESETS.map((id) => h('button', { type: 'button', 'data-chat-preset': id }, t(`chat-preset-${id}`))));
  const mutedNames = h('span', {});
  const mutedList = h('p', { id: 'chat-muted', class: 'chat-muted' }, `${t('chat-muted')} `, mutedNames);
  panel.replaceChildren(heading, lines, form, presets, mutedList);

  let last = null;
  let drawn = '';
  panel.addEventListener('click', (event) => {
    const el = /** @type {Element} */ (event.target).closest('[data-chat-mute]');
    if (!el) return;
    const key = el.getAttribute('data-chat-mute');
    if (muted.has(key)) muted.delete(key);
    else muted.add(key);
    saveMuted(muted);
    if (last) update(last);
  });

  function update(state) {
    last = state;
    const chat = state.chat;
    const room = chat.room || (state.seat ? 'players' : 'spectators');
    text(heading, t(`chat-${room}`));
    attr(panel, 'data-room', room);
    // A guest picks phrases; free text is for members (the server refuses a guest's).
    show(form, Boolean(state.account));
    const me = state.account ? `m:${state.account.name}` : `g:${state.name}`;
    const shown = chat.lines.filter((line) => !muted.has(authorKey(line)));
    const key = `${shown.map((l) => l.line).join()}:${me}`;
    const grew = key !== drawn;
    drawn = key;
    list(lines, key, shown, (line) => {
      const author = authorKey(line);
      const who = line.member ? line.author : `${line.author} ${t('player-guest')}`;
      return h('li', { 'data-line': line.line },
        h('b', { class: 'chat-author' }, who), ' ',
        h('span', { class: 'chat-text' }, said(line.say)),
        author === me ? null : h('button', {
          type: 'button', class: 'chat-mute', 'data-chat-mute': author,
          title: t('chat-mute', { name: line.author }), 'aria-label': t('chat-mute', { name: line.author }),
        }, '×'));
    });
    // The newest line in view when one comes, not at every redraw (one may be reading back).
    if (grew) lines.scrollTop = lines.scrollHeight;
    // The muted, each a button to hear them again.
    show(mutedList, muted.size > 0);
    list(mutedNames, [...muted].join('\n'), [...muted], (k) =>
      h('button', { type: 'button', 'data-chat-mute': k, title: t('chat-unmute', { name: k.slice(2) }) }, k.slice(2)));
  }
  return update;
}
