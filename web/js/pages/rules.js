/**
 * `/rules`: the rules of Frisian draughts, a section per rule, each with positions the reader
 * steps through on the match page's own board component. The positions and their moves are
 * `rules/positions.json`, which the server's tests check with the rules crate (every move
 * legal, every claim the words make true) and `boardcast rules` prints too; the words are
 * `rules-*` in `pages-{lang}.ftl`. This page works out no move itself: it replays the moves
 * as the data gives them (`replay`, as the match page replays the server's). Loaded only on
 * this route. `/rules#{reason}` (the match page's "why?" link beside a refused move) marks
 * and scrolls to the section that explains that refusal.
 * @module pages/rules
 */

import { h, text, attr } from '../render/dom.js';
import { mountBoard } from '../render/board.js';
import { parseFen, replay } from '../fen.js';
import { t } from '../i18n.js';

const response = await fetch(new URL('../../rules/positions.json', import.meta.url));
if (!response.ok) throw new Error(`positions.json: ${response.status}`);
const DATA = await response.json();

/** One position: the board, its caption, and buttons to step through its moves. */
function diagram(shown) {
  const board = mountBoard();
  attr(board.svg, 'id', `board-${shown.id}`);
  const moves = shown.steps.filter((step) => step.play).map((step) => ({
    notation: step.play,
    route: step.play.split(/[-x]/).map(Number),
    captures: step.takes || [],
    promotes: Boolean(step.crowns),
  }));
  const white = parseFen(shown.fen).turn === 'white';
  const label = h('p', { class: 'rules-step', 'aria-live': 'polite' });
  const step = (name) => h('button', { type: 'button', 'data-rules': name }, t(`rules-${name}`));
  const start = step('start');
  const back = step('back');
  const next = step('next');
  const figure = h('figure', { class: 'rules-position', 'data-position': shown.id },
    h('div', { class: 'rules-board' }, board.svg),
    h('figcaption', {}, t(`rules-pos-${shown.id}`)),
    moves.length ? label : null,
    moves.length ? h('div', { class: 'rules-controls', role: 'group' }, start, back, next) : null);
  let at = 0;
  const draw = () => {
    const last = at ? moves[at - 1] : null;
    board.update({
      fen: shown.fen, pieces: replay(shown.fen, moves.slice(0, at)), flipped: false, numbers: true,
      turn: (at % 2 === 0) === white ? 'white' : 'black', v: at, dests: new Set(), selected: [],
      last: last ? [last.route[0], last.route[last.route.length - 1]] : [], captured: [],
      counters: [], movable: new Set(), drag: null,
    });
    attr(figure, 'data-step', at);
    text(label, last ? t('rules-step', { n: at, count: moves.length, move: last.notation }) : t('rules-at-start'));
    start.disabled = back.disabled = at === 0;
    next.disabled = at === moves.length;
  };
  start.addEventListener('click', () => { at = 0; draw(); });
  back.addEventListener('click', () => { at = Math.max(0, at - 1); draw(); });
  next.addEventListener('click', () => { at = Math.min(moves.length, at + 1); draw(); });
  draw();
  return figure;
}

export function mountRules(root) {
  // Each section's "this rule refused your move" note, shown on the marked section only.
  const notes = DATA.sections.map(() => h('p', { class: 'notice', hidden: true }, t('rules-reason-here')));
  const sections = DATA.sections.map((section, i) =>
    h('section', { class: 'card rules-section', id: `rules-${section.id}`, 'data-section': section.id },
      h('h2', {}, t(`rules-title-${section.id}`)), notes[i],
      h('p', {}, t(`rules-text-${section.id}`)),
      h('div', { class: 'rules-positions' }, ...section.positions.map(diagram))));
  const contents = h('ol', { class: 'rules-contents' }, ...DATA.sections.map((section) =>
    h('li', {}, h('a', { href: `#rules-${section.id}` }, t(`rules-title-${section.id}`)))));
  root.replaceChildren(h('section', { class: 'card' }, h('h1', {}, t('rules-page-title')),
    h('p', {}, t('rules-intro')), contents), ...sections);
  /** Marks the section that explains the reason in the address's `#`, and scrolls to it; a
   * `#` that names no reason (a contents link, `#rules-value`) leaves the mark where it is. */
  const mark = () => {
    const why = decodeURIComponent(location.hash.slice(1));
    const at = DATA.sections.findIndex((section) => section.reasons.includes(why));
    if (at < 0) return;
    sections.forEach((el, i) => {
      el.classList.toggle('why', i === at);
      attr(notes[i], 'data-why', i === at ? why : null);
      notes[i].hidden = i !== at;
    });
    sections[at].scrollIntoView();
  };
  mark();
  // A page already open hears a new reason by its hash (another "why?" followed, or typed):
  // it marks that section. The listener goes with the page, the first hash change after it.
  const onHash = () => (root.contains(sections[0]) ? mark() : window.removeEventListener('hashchange', onHash));
  window.addEventListener('hashchange', onHash);
  document.title = `${t('rules-page-title')} – Boardcast`;
  return () => false;
}
