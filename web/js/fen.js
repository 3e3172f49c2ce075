/**
 * Reading the positions the server sends: Frisian FEN and the MinitChess board string.
 * No rules: a past position is the start position with the server's routes and captures
 * applied, never a move worked out here.
 * @module fen
 */

/**
 * Pieces by square from a Frisian FEN such as `W:W31,K32:B1,2:H0:F1:+0+0`.
 * @param {string} fen
 * @returns {{turn: 'white'|'black', pieces: Record<number, 'wm'|'wk'|'bm'|'bk'>}}
 */
export function parseFen(fen) {
  const fields = String(fen || '').split(':');
  const pieces = {};
  for (const field of fields.slice(1)) {
    const colour = field[0] === 'W' ? 'w' : field[0] === 'B' ? 'b' : null;
    if (!colour) continue;
    for (const item of field.slice(1).split(',')) {
      const king = item.startsWith('K');
      const square = Number(king ? item.slice(1) : item);
      if (square >= 1 && square <= 50) pieces[square] = `${colour}${king ? 'k' : 'm'}`;
    }
  }
  return { turn: fields[0] === 'B' ? 'black' : 'white', pieces };
}

/**
 * The pieces after `moves` played from `startFen`, as the server described them.
 * @param {string} startFen
 * @param {{route: number[], captures: number[], promotes: boolean, side: string}[]} moves
 */
export function replay(startFen, moves) {
  const { pieces } = parseFen(startFen);
  for (const move of moves) {
    const from = move.route[0];
    const to = move.route[move.route.length - 1];
    const piece = pieces[from];
    delete pieces[from];
    for (const taken of move.captures) delete pieces[taken];
    if (piece) pieces[to] = move.promotes ? `${piece[0]}k` : piece;
  }
  return pieces;
}

/**
 * A FEN with side to move and pieces only, for positions the server sent no FEN for.
 * @param {'white'|'black'} turn
 * @param {Record<number, string>} pieces
 */
export function piecesFen(turn, pieces) {
  const list = (colour) =>
    Object.keys(pieces)
      .map(Number)
      .filter((sq) => pieces[sq][0] === colour)
      .sort((a, b) => a - b)
      .map((sq) => (pieces[sq][1] === 'k' ? `K${sq}` : `${sq}`))
      .join(',');
  return `${turn === 'white' ? 'W' : 'B'}:W${list('w')}:B${list('b')}`;
}

/** MinitChess files and ranks. */
export const FILES = ['a', 'b', 'c', 'd', 'e'];

/**
 * Pieces by square (`a1`) from a 30-character board, rank 6 first, files a–e.
 * @param {string} board
 * @returns {Record<string, string>} `wK`, `bp`→`bP`: colour letter + upper-case piece letter
 */
export function parseMinit(board) {
  const pieces = {};
  for (let i = 0; i < 30 && i < board.length; i++) {
    const c = board[i];
    if (c === '.') continue;
    const square = `${FILES[i % 5]}${6 - Math.floor(i / 5)}`;
    const white = c === c.toUpperCase();
    pieces[square] = `${white ? 'w' : 'b'}${c.toUpperCase()}`;
  }
  return pieces;
}
