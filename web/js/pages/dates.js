/**
 * Dates as people read them, in the page's language: the helpers of the pages that show dates
 * (profiles, tokens, club events). Kept out of format.js so the match page, which shows no
 * date, does not carry them (its 160 KB budget).
 * @module pages/dates
 */

import { lang } from '../i18n.js';

/**
 * The locales `Intl` is asked for: the page's language, then Dutch. Chromium has no Frisian
 * data (`Intl.DateTimeFormat.supportedLocalesOf(['fy'])` is `[]` there) and, asked for `fy`
 * alone, falls back on its own default: a Frisian page showed `11/27/2026, 2:16:02 PM`.
 * Frisians write dates as the Dutch do (27 nov 2026, 14:16), so Dutch comes next; a browser
 * that has Frisian (Firefox, Node.js with full ICU) takes `fy` itself.
 */
export const locales = () => [lang(), 'nl'];

/**
 * A value the server gives (milliseconds or an ISO string) through `format`: `—` for none,
 * the value itself when it is no date.
 */
function shown(value, format) {
  if (value === null || value === undefined || value === '') return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? String(value) : format(date);
}

/** A date (`27 nov 2026`, `Nov 27, 2026`). */
export const dateText = (value) =>
  shown(value, (date) => date.toLocaleDateString(locales(), { year: 'numeric', month: 'short', day: 'numeric' }));

/** A date with its time of day, to the minute (`27 nov 2026, 14:16`): when an event starts. */
export const dateTimeText = (value) =>
  shown(value, (date) => date.toLocaleString(locales(), { dateStyle: 'medium', timeStyle: 'short' }));
