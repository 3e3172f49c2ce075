/**
 * Clocks that tick between server updates: the server's reading minus the time since it
 * arrived, for the running side only. Timestamps, never decrements, so a background tab
 * does not drift.
 * @module render/clock
 */

import { clockText, lowTimeMs } from '../format.js';

/**
 * The remaining time of `side` at `now`.
 * @param {{white_ms: number, black_ms: number, running: string|null}} clock
 * @param {'white'|'black'} side
 * @param {number} elapsed ms since the clock was received
 */
export function remaining(clock, side, elapsed) {
  const ms = clock[`${side}_ms`];
  return clock.running === side ? Math.max(0, ms - elapsed) : ms;
}

/** What one clock element shows: text, and whether it runs and is low. */
export function clockView(match, side, elapsed) {
  if (match && !match.clock && match.time_control) {
    // Before the clocks start (a waiting match) each side has the initial time.
    return { text: clockText(match.time_control.initial_ms), running: false, low: false };
  }
  if (!match || !match.clock) return { text: '–', running: false, low: false };
  const ms = remaining(match.clock, side, elapsed);
  return {
    text: clockText(ms),
    running: match.clock.running === side && match.phase === 'playing',
    low: ms < lowTimeMs(match.time_control),
  };
}
