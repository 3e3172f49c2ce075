/**
 * Takebacks in casual matches (PROTOCOL.md §10 Takebacks): a player who has moved asks to
 * take back their last move; the opponent accepts or declines. Shown only where the snapshot
 * says takebacks may be proposed (`takebacks`: never in a rated match or a club event's game).
 * A proposal stands until it is answered or a move is played, whichever page or client made
 * it (receive.js keeps `takeback_offer` from the events); accepting it brings the position
 * back (`taken_back`, after which the page follows the match anew). The match page loads
 * this by `import()` for a seat in such a match, so its first download (the 160 KB budget)
 * does not carry it.
 * @module render/takeback
 */

import { h, text, show } from './dom.js';
import { t } from '../i18n.js';
import * as actions from '../actions.js';
import { opposite } from '../state.js';

/** A takeback command of the seat (`propose_takeback`, `accept_takeback`, `decline_takeback`). */
function command(state, kind) {
  const seat = state.seat;
  return seat ? [actions.request(state, kind, { [kind]: { match_id: seat.match_id, token: seat.token } }, true)] : [];
}

actions.hooks.takeback = (state) => command(state, 'propose_takeback');
actions.hooks['accept-takeback'] = (state) => command(state, 'accept_takeback');
actions.hooks['decline-takeback'] = (state) => command(state, 'decline_takeback');

/** The buttons and the line, once built, by the match page's side panel they are in. */
const built = new WeakMap();

function mount(aside) {
  const button = (action, label, title) => h('button', { type: 'button', 'data-action': action, title }, label);
  const parts = {
    propose: button('takeback', t('takeback-propose'), t('takeback-propose-title')),
    accept: button('accept-takeback', t('takeback-accept')),
    decline: button('decline-takeback', t('takeback-decline')),
    line: h('p', { id: 'takeback', class: 'offer', role: 'status' }),
  };
  (aside.querySelector('.actions') || aside).append(parts.propose, parts.accept, parts.decline);
  (aside.querySelector('.offer') || aside).after(parts.line);
  built.set(aside, parts);
  return parts;
}

/**
 * Shows "Takeback" while the seat may propose one (playing, a move of its own to take back,
 * no proposal standing), the opponent's proposal with its answers, or one's own waiting.
 * @param {object} state
 * @param {HTMLElement} aside the match page's side panel
 */
export function update(state, aside) {
  const m = state.match;
  if (!m) return;
  const { propose, accept, decline, line } = built.get(aside) || mount(aside);
  const mine = state.seat && state.seat.side;
  const playing = Boolean(mine && m.takebacks && m.phase === 'playing');
  const offer = playing ? m.takeback_offer : null;
  const theirs = Boolean(offer) && offer !== mine;
  show(propose, playing && !offer && m.moves.some((mv) => mv.side === mine));
  show(accept, theirs);
  show(decline, theirs);
  const other = mine && m[opposite(mine)];
  const name = other ? other.name : '';
  text(line, !offer ? '' : theirs ? t('takeback-offered', { name }) : t('takeback-sent', { name }));
}
