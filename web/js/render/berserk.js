/**
 * An arena game's berserk (PROTOCOL.md §10 Berserk): the button a player presses before their
 * first move (half their base time, no increment; a win of 14 plies or more then scores one
 * point more) and who went berserk. The match page loads it by `import()` only for a seat in a
 * match that offers berserk (the snapshot's `berserk` is a list), so the page's first download
 * (its 160 KB budget) does not carry it.
 * @module render/berserk
 */

import { h, text, show } from './dom.js';
import { t } from '../i18n.js';

/** The button and the line, once built, by the match page's side panel they are in. */
const built = new WeakMap();

function mount(aside) {
  const go = h('button', {
    type: 'button', id: 'berserk', class: 'danger', 'data-action': 'berserk', title: t('match-berserk-title'),
  }, t('match-berserk'));
  const went = h('p', { id: 'berserked', class: 'offer', role: 'status' });
  (aside.querySelector('.actions') || aside).append(go, went);
  const parts = { go, went };
  built.set(aside, parts);
  return parts;
}

/**
 * Shows the button while this seat may still go berserk (playing, before its first move, not
 * yet berserk) and says who went berserk.
 * @param {object} state
 * @param {HTMLElement} aside the match page's side panel
 */
export function update(state, aside) {
  const m = state.match;
  if (!m) return;
  const { go, went } = built.get(aside) || mount(aside);
  const mine = state.seat && state.seat.side;
  const gone = m.berserk || [];
  const moved = m.moves.some((mv) => mv.side === mine);
  show(go, Boolean(mine && m.phase === 'playing' && !moved && !gone.includes(mine)));
  text(went, gone.map((side) => t('match-berserked', { name: m[side] ? m[side].name : side })).join(' · '));
  show(went, gone.length > 0);
}
