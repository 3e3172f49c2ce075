/**
 * Words and numbers as the page shows them, in the player's language. Pure functions, no DOM.
 * @module format
 */

import { t, lang } from './i18n.js';

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

/** `5+3`, `1.5+0` (`1,5+0` in Dutch and Frisian), `untimed`. */
export function timeControlText(tc) {
  if (!tc) return t('tc-untimed');
  const minutes = tc.initial_ms / 60000;
  const shown = new Intl.NumberFormat(lang(), { maximumFractionDigits: 1 }).format(minutes);
  return `${shown}+${Math.round(tc.increment_ms / 1000)}`;
}

/** The reasons of PROTOCOL.md §17 in the words of the rules: `reason-*` in the catalogue. */
const REASONS = ['no_legal_move', 'resignation', 'time_forfeit', 'draw_by_rule', 'draw_by_agreement',
  'aborted', 'abandoned', 'draw_claimed'];

/** `White`/`Black` as a sentence starts with it (`side-white` is the word inside one). */
export const sideTitle = (side) => t(`side-${side}-title`);
export const sideWord = (side) => t(`side-${side}`);

/**
 * The result banner: score, who won, and the server's detail of why.
 * @param {{winner: string|null, reason: string, detail: string}} result
 */
export function resultText(result) {
  // The server's detail is English (for programs and logs): another language says the reason.
  const detail = lang() === 'en' ? result.detail : '';
  if (result.reason === 'aborted') return `${t('result-aborted')} · ${detail || t('result-no-result')}`;
  const score = result.winner === 'white' ? '2-0' : result.winner === 'black' ? '0-2' : '1-1';
  const who = result.winner ? t('result-victorious', { side: sideTitle(result.winner) }) : t('result-draw');
  const why = detail || (REASONS.includes(result.reason) ? t(`reason-${result.reason}`) : result.reason);
  return `${score} · ${who} · ${why}`;
}

/** `data-result` of the banner: the winner, `draw` or `aborted`. */
export function resultKind(result) {
  if (result.reason === 'aborted') return 'aborted';
  return result.winner || 'draw';
}

/** Whole seconds, rounded up, for countdowns. */
export const seconds = (ms) => Math.max(0, Math.ceil(ms / 1000));


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
export const playerText = (p) => `${p.bot ? 'BOT ' : ''}${p.name}${p.account ? '' : ` ${t('player-guest')}`}`;

/**
 * A rating as players read it: rounded, with `?` while provisional (RD 110 or more), as
 * lidraughts shows `1500?`.
 * @param {number} rating
 * @param {boolean} provisional
 */
export const ratingText = (rating, provisional) => `${Math.round(rating)}${provisional ? '?' : ''}`;

/**
 * A rating after a rated game with its change: `1532 (+12)`, `1488 (−12)`, `1500 (±0)`, and
 * `1662? (+162)` while still provisional.
 */
export function ratingChangeText(after, change, provisional = false) {
  const d = Math.round(change);
  const sign = d > 0 ? '+' : d < 0 ? '−' : '±';
  return `${ratingText(after, provisional)} (${sign}${Math.abs(d)})`;
}

/**
 * Both players' new ratings after a rated game (`result.rating_change`), as the result box
 * shows them: `White 1532 (+12) · Black 1488 (−12)`; empty for a game that changed none.
 */
export function ratingChangesText(result) {
  const change = result && result.rating_change;
  if (!change) return '';
  return ['white', 'black']
    .map((side) => t('result-rating', {
      side: sideTitle(side),
      rating: ratingChangeText(change[side].after, change[side].diff, change[side].provisional),
    }))
    .join(' · ');
}
