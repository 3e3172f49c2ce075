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
import { seconds, sideTitle, sideWord } from '../format.js';
import { t, lang } from '../i18n.js';
import * as actions from '../actions.js';

/** Filled glyphs for both colours; the fill and outline tell the colours apart. */
const GLYPH = { K: '♚', Q: '♛', R: '♜', B: '♝', N: '♞', P: '♟' };
/** A piece's name, `minit-piece-w*`/`minit-piece-b*` in the catalogue: `white king`. */
const pieceName = (code) => t(`minit-piece-${code}`);

function mountMinitBoard() {
  const svg = s('svg', { id: 'minit-board', class: 'board minit', viewBox: '0 0 5 6', role: 'group', 'aria-label': t('minit-board') });
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
  info.append(headline, h('p', {}, `${t('minit-ply')} `, ply, ' · ', countdown));
  const prediction = h('p', { id: 'prediction', class: 'prediction', 'data-state': 'none', role: 'status', 'aria-live': 'polite' });
  const standing = h('p', { id: 'standing', class: 'standing' });
  const notice = h('p', { id: 'notice', class: 'notice', role: 'alert' });
  // It scrolls: focusable, so a keyboard can scroll it too.
  const revealed = h('ol', { id: 'revealed', class: 'moves minit-moves', 'aria-label': t('minit-revealed'), tabindex: '0' });
  const standings = h('ol', { id: 'standings', class: 'names' });
  const board2 = h('ol', { id: 'leaderboard', class: 'names' });
  const watching = h('span', { id: 'spectators' }, '0');
  root.replaceChildren(h('section', { class: 'tv-page' }, pageHeading(t('lobby-minit-tv')),
    h('div', { class: 'board-col' }, h('div', { class: 'board-box minit-box' }, board.svg),
      h('p', { class: 'hint' }, t('minit-hint'))),
    h('aside', { class: 'side' }, info, prediction, standing, notice,
      h('p', { class: 'meta' }, `${t('match-watching')} `, watching), revealed,
      h('section', { class: 'card' }, h('h2', {}, t('minit-this-game')), standings),
      h('section', { class: 'card' }, h('h2', {}, t('minit-leaderboard')), board2),
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
          s('title', {}, pieceName(code)),
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
      attr(sq.g, 'aria-label', clickable ? [name, code ? pieceName(code) : '', tos.has(name) ? t('minit-predict-here') : ''].filter(Boolean).join(', ') : null);
    }
    let ticking = false;
    if (!ch) {
      text(headline, t(state.conn === 'online' ? 'minit-loading' : 'match-connecting'));
    } else if (!game) {
      text(headline, `${ch.channel}: ${t('lobby-between-games')}`);
    } else {
      const hd = game.header;
      text(headline, t('minit-headline', { white: hd.white, black: hd.black, serial: hd.serial, game: hd.game_id }));
    }
    text(ply, game ? String(game.next_ply) : '0');
    if (game && !game.result && game.next_reveal_in_ms !== null) {
      const left = Math.max(0, game.next_reveal_in_ms - elapsed);
      text(countdown, t('minit-reveal-in', { move: game.move_number, side: sideWord(game.next_ply % 2 ? 'black' : 'white'), seconds: tenths(left) }));
      ticking = true;
    } else if (game && game.result) {
      const r = game.result;
      const after = ch.next_game_in_ms !== null && ch.next_game_in_ms !== undefined
        ? ` · ${t('minit-next-game', { seconds: seconds(ch.next_game_in_ms - elapsed) })}` : '';
      text(countdown, `${r.winner ? t('minit-wins', { side: sideTitle(r.winner) }) : t('result-draw')}: ${r.reason}${after}`);
      ticking = Boolean(after);
    } else if (ch && ch.next_game_in_ms !== null && ch.next_game_in_ms !== undefined) {
      text(countdown, t('minit-next-game', { seconds: seconds(ch.next_game_in_ms - elapsed) }));
      ticking = true;
    } else {
      text(countdown, '');
    }
    const p = state.prediction;
    attr(prediction, 'data-state', p.state);
    text(prediction, predictionText(p, game));
    text(standing, t('minit-your-score', { correct: state.standing.correct, strikes: t('minit-strikes', { count: state.standing.strikes }) }));
    text(notice, state.notice.text);
    text(watching, String(ch ? ch.watchers || 0 : 0));
    const moves = game ? game.revealed : [];
    list(revealed, `${game ? game.header.game_id : ''}:${moves.length}`, moves, (mv, i) =>
      h('li', {}, `${Math.floor((game.start_ply + i) / 2) + 1}${(game.start_ply + i) % 2 ? '…' : '.'} ${mv}`));
    const rows = (entries) => entries.map((e) => h('li', {}, `${e.name}: ${t('minit-score', { correct: e.correct, strikes: t('minit-strikes', { count: e.strikes }) })}${e.games !== undefined ? ` ${t('minit-in-games', { count: e.games })}` : ''}`));
    const table = ch ? ch.standings || [] : [];
    list(standings, JSON.stringify(table), table, (e) => rows([e])[0]);
    list(board2, JSON.stringify(state.leaderboard), state.leaderboard, (e) => rows([e])[0]);
    if (!state.leaderboard.length && !board2.firstChild) board2.append(h('li', { class: 'empty' }, t('minit-no-predictions')));
    if (!table.length && !standings.firstChild) standings.append(h('li', { class: 'empty' }, t('minit-no-standings')));
    document.title = `${ch ? ch.channel : 'TV'} – Boardcast`;
    return ticking;
  };
}

function predictionText(p, game) {
  if (p.state === 'waiting') return t('minit-guess-waiting', { ply: p.ply, guess: p.guess });
  if (p.state === 'correct') return t('minit-guess-right', { actual: p.actual });
  if (p.state === 'wrong') return t('minit-guess-wrong', { guess: p.guess, actual: p.actual });
  if (!game || game.result) return t('minit-no-game');
  return t('minit-guess', { ply: game.next_ply });
}

/** Seconds with one decimal, as the language writes it (`2.5`, `2,5`). */
const tenths = (ms) => new Intl.NumberFormat(lang(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(ms / 1000);
