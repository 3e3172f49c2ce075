/**
 * The Frisian board: an SVG of 100 squares, 50 of them playable, built once and updated in
 * place. Square n of White's view lies in row ⌊(n−1)/5⌋ from the top; odd rows (counting
 * from 1) use the even columns. Black's view is the same turned half a circle.
 * @module render/board
 */

import { s, attr, cls, text } from './dom.js';
import { t } from '../i18n.js';

/** Column and row (0–9, from the top-left as the viewer sees it) of square `n`. */
export function squareXY(n, flipped) {
  const row = Math.floor((n - 1) / 5);
  const col = 2 * ((n - 1) % 5) + (row % 2 === 0 ? 1 : 0);
  return flipped ? [9 - col, 9 - row] : [col, row];
}


/** The crown of a king: a band with three points, in board units around (0.5, 0.5). */
const CROWN = 'M0.3 0.62 L0.27 0.38 L0.39 0.5 L0.5 0.32 L0.61 0.5 L0.73 0.38 L0.7 0.62 Z';

function pieceNode(code) {
  const colour = code[0] === 'w' ? 'white' : 'black';
  const g = s('g', { 'data-piece': code, class: `piece ${colour}` },
    s('circle', { class: 'disc', cx: 0.5, cy: 0.5, r: 0.4 }),
    s('circle', { class: 'rim', cx: 0.5, cy: 0.5, r: 0.29 }));
  if (code[1] === 'k') g.append(s('path', { class: 'crown', d: CROWN }));
  return g;
}

/**
 * The ring a square carries while its piece may move (shown by the `movable` class). It is
 * drawn inside the square: a stroke on the square's own edge would lie half outside it, cut
 * off by the board's edge and by the squares drawn after it. A path, not a rect, so the
 * rules that fill a square's rect (last move, selected) leave it hollow.
 */
export function movableRing() {
  return s('path', { class: 'ring', d: 'M0.04 0.04 H0.96 V0.96 H0.04 Z' });
}

/** Builds the board; returns the SVG and an update function. */
export function mountBoard() {
  const svg = s('svg', {
    // A group, not an image: an image's children are hidden from screen readers, and the
    // squares one can play are focusable buttons with their own labels.
    id: 'board', class: 'board frisian', viewBox: '0 0 10 10', role: 'group',
    'aria-label': t('board-name'),
  });
  svg.append(s('rect', { class: 'light', x: 0, y: 0, width: 10, height: 10 }));
  const squares = {};
  for (let n = 1; n <= 50; n++) {
    const num = s('text', { class: 'num', x: 0.05, y: 0.2 }, String(n));
    const g = s('g', { 'data-square': n, class: 'sq' },
      s('rect', { class: 'dark', width: 1, height: 1 }), movableRing(),
      s('circle', { class: 'dot', cx: 0.5, cy: 0.5, r: 0.14 }), num);
    squares[n] = { g, num, piece: null, code: '', counter: null };
    svg.append(g);
  }
  const drag = s('g', { class: 'drag-piece', 'pointer-events': 'none' });
  svg.append(drag);
  let flippedNow = null;
  let dragCode = '';

  /**
   * @param {{fen: string, pieces: Record<number,string>, flipped: boolean, numbers: boolean,
   *   turn: string, v: number, dests: Set<number>, selected: number[], last: number[],
   *   captured: number[], counters: {square: number, count: number}[], movable: Set<number>,
   *   drag: null|{from: number, x: number, y: number, moved: boolean}}} view
   */
  function update(view) {
    attr(svg, 'data-fen', view.fen);
    attr(svg, 'data-orientation', view.flipped ? 'black' : 'white');
    attr(svg, 'data-turn', view.turn);
    attr(svg, 'data-v', view.v);
    cls(svg, 'numbers', view.numbers);
    cls(svg, 'dragging', Boolean(view.drag && view.drag.moved));
    const last = new Set(view.last);
    const selected = new Set(view.selected);
    const captured = new Set(view.captured);
    const counters = new Map(view.counters.map((c) => [c.square, c.count]));
    for (let n = 1; n <= 50; n++) {
      const sq = squares[n];
      if (flippedNow !== view.flipped) {
        const [x, y] = squareXY(n, view.flipped);
        sq.g.setAttribute('transform', `translate(${x} ${y})`);
      }
      const code = view.pieces[n] || '';
      if (code !== sq.code) {
        if (sq.piece) sq.piece.remove();
        sq.piece = code ? pieceNode(code) : null;
        sq.counter = null;
        if (sq.piece) sq.g.insertBefore(sq.piece, sq.num); // numbers stay on top
        sq.code = code;
      }
      const count = sq.piece && code[1] === 'k' ? counters.get(n) : undefined;
      if (count && !sq.counter) {
        sq.counter = s('text', { class: 'counter', x: 0.5, y: 0.93, 'data-king-counter': '' });
        sq.piece.append(sq.counter);
      } else if (!count && sq.counter) {
        sq.counter.remove();
        sq.counter = null;
      }
      if (sq.counter) text(sq.counter, `${count}/3`);
      cls(sq.g, 'dest', view.dests.has(n));
      cls(sq.g, 'selected', selected.has(n));
      cls(sq.g, 'last', last.has(n));
      cls(sq.g, 'captured', captured.has(n));
      cls(sq.g, 'movable', view.movable.has(n));
      const clickable = view.movable.has(n) || view.dests.has(n) || selected.has(n);
      attr(sq.g, 'tabindex', clickable ? 0 : null);
      attr(sq.g, 'role', clickable ? 'button' : null);
      attr(sq.g, 'aria-label', clickable ? [t('board-square', { n }), code ? t(`piece-${code}`) : '', view.dests.has(n) ? t('board-move-here') : ''].filter(Boolean).join(', ') : null);
      cls(sq.g, 'lifted', Boolean(view.drag && view.drag.moved && view.drag.from === n));
    }
    flippedNow = view.flipped;
    const d = view.drag;
    const dragged = d && d.moved ? view.pieces[d.from] || '' : '';
    if (dragged !== dragCode) {
      drag.replaceChildren(...(dragged ? [pieceNode(dragged)] : []));
      dragCode = dragged;
    }
    if (dragged) drag.setAttribute('transform', `translate(${d.x - 0.5} ${d.y - 0.5})`);
  }

  return { svg, update };
}
