/**
 * Words and numbers as the page shows them. Pure functions, no DOM.
 * @module format
 */

/**
 * A clock reading: `m:ss`, `h:mm:ss` from an hour, tenths under ten seconds (`0:09.4`).
 * @param {number} ms
 */
export function clockText(ms) {
  const t = Math.max(0, ms);
  if (t < 10000) {
    const tenths = Math.floor(t / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(t / 1000);
  const s = String(total % 60).padStart(2, '0');
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** Below this a clock turns to its low-time colour: initial/8, between 10 s and 60 s. */
export function lowTimeMs(timeControl) {
  if (!timeControl) return 0;
  return Math.min(60000, Math.max(10000, timeControl.initial_ms / 8));
}

/** `5+3`, `1½+0`, `untimed`. */
export function timeControlText(tc) {
  if (!tc) return 'untimed';
  const minutes = tc.initial_ms / 60000;
  const shown = Number.isInteger(minutes) ? String(minutes) : minutes.toFixed(1);
  return `${shown}+${Math.round(tc.increment_ms / 1000)}`;
}

/** The reasons of PROTOCOL.md §17 in the words of the rules. */
const REASONS = {
  no_legal_move: 'no legal move left',
  resignation: 'resignation',
  time_forfeit: 'time ran out',
  draw_by_rule: 'draw by rule',
  draw_by_agreement: 'draw by agreement',
  aborted: 'game aborted',
  abandoned: 'opponent left (win claimed)',
  draw_claimed: 'opponent left (draw claimed)',
};

/**
 * The result banner: score, who won, and the server's detail of why.
 * @param {{winner: string|null, reason: string, detail: string}} result
 */
export function resultText(result) {
  if (result.reason === 'aborted') return `Aborted · ${result.detail || 'no result'}`;
  const score = result.winner === 'white' ? '2-0' : result.winner === 'black' ? '0-2' : '1-1';
  const who = result.winner ? `${cap(result.winner)} is victorious` : 'Draw';
  const why = result.detail || REASONS[result.reason] || result.reason;
  return `${score} · ${who} · ${why}`;
}

/** `data-result` of the banner: the winner, `draw` or `aborted`. */
export function resultKind(result) {
  if (result.reason === 'aborted') return 'aborted';
  return result.winner || 'draw';
}

export const cap = (word) => (word ? word[0].toUpperCase() + word.slice(1) : '');

/** Whole seconds, rounded up, for countdowns. */
export const seconds = (ms) => Math.max(0, Math.ceil(ms / 1000));

/** `1 strike`, `2 strikes`, `1 ply`, `2 plies`: a count with its noun in the right number. */
export function counted(n, noun, plural = `${noun}s`) {
  return `${n} ${n === 1 ? noun : plural}`;
}

/**
 * The players of a lobby line, white then black: `{name, bot, account}`, or `null` for a free
 * seat. A server from before the `*_bot` / `*_account` flags leaves them out: guests' seats.
 */
export function summaryPlayers(summary) {
  return ['white', 'black'].map((side) => (summary[side] == null ? null : {
    name: summary[side], bot: Boolean(summary[`${side}_bot`]), account: Boolean(summary[`${side}_account`]),
  }));
}

/**
 * A player as plain text: `BOT Scan` for a seat a program plays (as lidraughts shows bots),
 * `Anne (guest)` for a seat nobody logged in holds, so a guest never passes for the member
 * of the same name.
 */
export const playerText = (p) => `${p.bot ? 'BOT ' : ''}${p.name}${p.account ? '' : ' (guest)'}`;

/**
 * A rating as players read it: rounded, with `?` while provisional (RD 110 or more), as
 * lidraughts shows `1500?`.
 * @param {number} rating
 * @param {boolean} provisional
 */
export const ratingText = (rating, provisional) => `${Math.round(rating)}${provisional ? '?' : ''}`;

/** A rating after a rated game with its change: `1532 (+12)`, `1488 (−12)`, `1500 (±0)`. */
export function ratingChangeText(after, change) {
  const d = Math.round(change);
  const sign = d > 0 ? '+' : d < 0 ? '−' : '±';
  return `${Math.round(after)} (${sign}${Math.abs(d)})`;
}

/** A date the server gives (milliseconds or an ISO string) as people read it. */
export function dateText(value) {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return String(value);
  return date.toLocaleDateString(undefined, { year: 'numeric', month: 'short', day: 'numeric' });
}
