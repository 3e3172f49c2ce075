/**
 * `/ladder`: the club's members with an established, current rating (`GET /api/ladder`: RD
 * at most 75 and a rated game in the last 7 days), best first. Loaded only on this route
 * (render/index.js imports it when the page is opened), so the match page does not carry it.
 * @module pages/ladder
 */

import { h, list, show, text, botTag } from '../render/dom.js';
import { profilePath } from '../account.js';

/** One rung's cells: rank, name (with the BOT tag), rating, RD, rated games. */
function rung(r) {
  const cell = (label, ...content) => h('td', { 'data-label': label }, ...content);
  return h('tr', { 'data-rung': r.name, 'data-rank': r.rank },
    cell('Rank', String(r.rank)),
    cell('Player', h('a', { href: profilePath(r.name) }, r.bot ? botTag() : null, r.name)),
    cell('Rating', String(Math.round(r.rating))),
    cell('RD', String(Math.round(r.rd))),
    cell('Games', String(r.rated_games)));
}

export function mountLadder(root) {
  const rows = h('tbody', {});
  const table = h('table', { id: 'ladder', class: 'games ladder' },
    h('caption', { class: 'sr-only' }, 'The ladder, best rating first'),
    h('thead', {}, h('tr', {}, ...[['#', 'Rank'], ['Player'], ['Rating'], ['RD', 'Rating deviation'], ['Games', 'Rated games']].map(([c, full]) => h('th', { scope: 'col', 'aria-label': full || null }, c)))),
    rows);
  const loading = h('p', { class: 'loading' }, 'Loading the ladder…');
  const empty = h('p', { class: 'empty', id: 'ladder-empty' },
    'Nobody is on the ladder yet: it lists members with an established rating (RD at most 75) who played rated in the last 7 days.');
  const about = h('p', { class: 'hint' },
    'Ratings are Glicko-2 over rated games of Frisian draughts. Provisional players (a rating shown as 1500?) are not listed.');
  const box = h('p', { id: 'notice', class: 'notice', role: 'alert' });
  root.replaceChildren(h('section', { class: 'card profile' }, h('h1', {}, 'Ladder'), about, loading, table, empty, box));
  return (state) => {
    const rungs = state.ladder ? state.ladder.rungs : null;
    show(loading, rungs === null);
    show(table, Boolean(rungs && rungs.length));
    show(empty, Boolean(rungs && !rungs.length));
    list(rows, JSON.stringify(rungs), rungs || [], rung);
    text(box, state.notice.text);
    document.title = 'Ladder – Boardcast';
    return false;
  };
}
