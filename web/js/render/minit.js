/**
 * The MinitChess page (a TV channel or an on-demand game): the 5×6 board, the game's
 * header and countdown, predicting by clicking from- and to-square, the viewer's standing,
 * the game's standings and the all-time leaderboard. Only revealed plies are ever in the
 * state, so only they can reach the DOM.
 * @module render/minit
 */

import { h, s, attr, cls, list, show, text, pageHeading } from './dom.js';
import { engineForm } from './forms.js';
import { FILES, parseMinit } from '../fen.js';
import { movableRing } from './board.js';
import { seconds, cap, counted } from '../format.js';
import * as actions from '../actions.js';

/** Filled glyphs for both colours; the fill and outline tell the colours apart. */
const GLYPH = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞', P: '♟' };
const NAMES = { K: 'king', Q: 'queen', R: 'rook', B: 'bishop', N: 'knight', P: 'pawn' };

function mountMinitBoard() {
  const svg = s('svg', { id: 'minit-board', class: 'board minit', viewBox: '0 0 5 6', role: 'group', 'aria-label': 'MinitChess board' });
  const squares = {};
  for (let rank = 6; rank >= 1; rank--) {
    for (let f = 0; f < 5; f++) {
      const name = `${FILES[f]}${rank}`;
      const dark = (f + rank) % 2 === 1;
      const g = s('g', { 'data-square': name, class: `sq ${dark ? 'is-dark' : 'is-light'}`, transform: `translate(${f} ${6 - rank})` },
        s('rect', { class: dark ? 'dark' : 'lightsq', width: 1, height: 1 }), movableRing(),
        s('circle', { class: 'dot', cx: 0.5, cy: 0.5, r: 0.14 }));
      if (f === 0) g.append(s('text', { class: 'coord', x: 0.05, y: 0.2 }, String(rank)));
      if (rank === 1) g.append(s('text', { class: 'coord', x: 0.8, y: 0.95 }, FILES[f]));
      squares[name] = { g, code: '', piece: null };
      svg.append(g);
    }
  }
  return { svg, squares };
}

export function mountMinit(root) {
  const board = mountMinitBoard();
  const info = h('div', { id: 'game-info', class: 'game-info' });
  const headline = h('p', { class: 'headline' });
  const ply = h('span', { 'data-role': 'ply' });
  const countdown = h('span', { id: 'countdown', role: 'timer' });
  info.append(headline, h('p', {}, 'Ply ', ply, ' · ', countdown));
  const prediction = h('p', { id: 'prediction', class: 'prediction', 'data-state': 'none', role: 'status', 'aria-live': 'polite' });
  const standing = h('p', { id: 'standing', class: 'standing' });
  const notice = h('p', { id: 'notice', class: 'notice', role: 'alert' });
  // It scrolls: focusable, so a keyboard can scroll it too.
  const revealed = h('ol', { id: 'revealed', class: 'moves minit-moves', 'aria-label': 'Revealed moves', tabindex: '0' });
  const standings = h('ol', { id: 'standings', class: 'names' });
  const board2 = h('ol', { id: 'leaderboard', class: 'names' });
  const watching = h('span', { id: 'spectators' }, '0');
  root.replaceChildren(h('section', { class: 'tv-page' }, pageHeading('MinitChess TV'),
    h('div', { class: 'board-col' }, h('div', { class: 'board-box minit-box' }, board.svg),
      h('p', { class: 'hint' }, 'Predict the coming move: click a piece, then its square.')),
    h('aside', { class: 'side' }, info, prediction, standing, notice,
      h('p', { class: 'meta' }, 'watching: ', watching), revealed,
      h('section', { class: 'card' }, h('h2', {}, 'This game'), standings),
      h('section', { class: 'card' }, h('h2', {}, 'Leaderboard'), board2),
      engineForm())));

  return function update(state, now) {
    const ch = state.channel;
    const game = ch && ch.game;
    const elapsed = now - state.channelAt;
    const pieces = game ? parseMinit(game.board) : {};
    const legal = actions.minitLegal(state);
    const from = state.ui.minitFrom;
    const froms = new Set(legal.map((mv) => mv.slice(0, 2)));
    const tos = new Set(from ? legal.filter((mv) => mv.startsWith(`${from}-`)).map((mv) => mv.slice(3)) : []);
    const last = game && game.revealed.length ? game.revealed[game.revealed.length - 1].split('-') : [];
    for (const [name, sq] of Object.entries(board.squares)) {
      const code = pieces[name] || '';
      if (code !== sq.code) {
        if (sq.piece) sq.piece.remove();
        sq.piece = code ? s('g', { 'data-piece': code, class: `piece ${code[0] === 'w' ? 'white' : 'black'}` },
          s('title', {}, `${code[0] === 'w' ? 'white' : 'black'} ${NAMES[code[1]]}`),
          s('text', { class: 'glyph', x: 0.5, y: 0.8 }, GLYPH[code[1]])) : null;
        if (sq.piece) sq.g.append(sq.piece);
        sq.code = code;
      }
      cls(sq.g, 'movable', !from && froms.has(name));
      cls(sq.g, 'selected', from === name);
      cls(sq.g, 'dest', tos.has(name));
      cls(sq.g, 'last', last.includes(name));
      const clickable = (!from && froms.has(name)) || tos.has(name) || from === name;
      attr(sq.g, 'tabindex', clickable ? 0 : null);
      attr(sq.g, 'role', clickable ? 'button' : null);
      attr(sq.g, 'aria-label', clickable ? `${name}${code ? `, ${code[0] === 'w' ? 'white' : 'black'} ${NAMES[code[1]]}` : ''}${tos.has(name) ? ', predict this move' : ''}` : null);
    }
    let ticking = false;
    if (!ch) {
      text(headline, state.conn === 'online' ? 'Loading…' : 'Connecting…');
    } else if (!game) {
      text(headline, `${ch.channel}: between games`);
    } else {
      const hd = game.header;
      text(headline, `White ${hd.white} v Black ${hd.black} · serial ${hd.serial} · game ${hd.game_id}`);
    }
    text(ply, game ? String(game.next_ply) : '0');
    if (game && !game.result && game.next_reveal_in_ms !== null) {
      const left = Math.max(0, game.next_reveal_in_ms - elapsed);
      text(countdown, `move ${game.move_number} (${game.next_ply % 2 ? 'black' : 'white'}) revealed in ${(left / 1000).toFixed(1)} s`);
      ticking = true;
    } else if (game && game.result) {
      const r = game.result;
      const after = ch.next_game_in_ms !== null && ch.next_game_in_ms !== undefined
        ? ` · next game in ${seconds(ch.next_game_in_ms - elapsed)} s` : '';
      text(countdown, `${r.winner ? `${cap(r.winner)} wins` : 'Draw'}: ${r.reason}${after}`);
      ticking = Boolean(after);
    } else if (ch && ch.next_game_in_ms !== null && ch.next_game_in_ms !== undefined) {
      text(countdown, `next game in ${seconds(ch.next_game_in_ms - elapsed)} s`);
      ticking = true;
    } else {
      text(countdown, '');
    }
    const p = state.prediction;
    attr(prediction, 'data-state', p.state);
    text(prediction, predictionText(p, game));
    text(standing, `Your score this game: ${state.standing.correct} right, ${counted(state.standing.strikes, 'strike')}`);
    text(notice, state.notice.text);
    text(watching, String(ch ? ch.watchers || 0 : 0));
    const moves = game ? game.revealed : [];
    list(revealed, `${game ? game.header.game_id : ''}:${moves.length}`, moves, (mv, i) =>
      h('li', {}, `${Math.floor((game.start_ply + i) / 2) + 1}${(game.start_ply + i) % 2 ? '…' : '.'} ${mv}`));
    const rows = (entries) => entries.map((e) => h('li', {}, `${e.name}: ${e.correct} right, ${counted(e.strikes, 'strike')}${e.games !== undefined ? ` in ${counted(e.games, 'game')}` : ''}`));
    const table = ch ? ch.standings || [] : [];
    list(standings, JSON.stringify(table), table, (e) => rows([e])[0]);
    list(board2, JSON.stringify(state.leaderboard), state.leaderboard, (e) => rows([e])[0]);
    if (!state.leaderboard.length && !board2.firstChild) board2.append(h('li', { class: 'empty' }, 'No predictions yet.'));
    if (!table.length && !standings.firstChild) standings.append(h('li', { class: 'empty' }, 'Standings appear when the game ends.'));
    document.title = `${ch ? ch.channel : 'TV'} – Boardcast`;
    return ticking;
  };
}

function predictionText(p, game) {
  if (p.state === 'waiting') return `Your guess for ply ${p.ply}: ${p.guess}`;
  if (p.state === 'correct') return `Right! ${p.actual}`;
  if (p.state === 'wrong') return `Wrong: you said ${p.guess}, it was ${p.actual}`;
  if (!game || game.result) return 'No game to predict right now';
  return `Guess ply ${game.next_ply}: click a piece, then where it goes`;
}
