/**
 * `/ladder`: the club's members with an established, current rating (`GET /api/ladder`: RD
 * at most 75 and a rated game in the last 7 days), best first. Loaded only on this route
 * (render/index.js imports it when the page is opened), so the match page does not carry it.
 * @module pages/ladder
 */

import { h, list, show, text, botTag } from '../render/dom.js';
import { profilePath } from '../account.js';
import { t } from '../i18n.js';

/** One rung's cells: rank, name (with the BOT tag), rating, RD, rated games. */
function rung(r) {
  const cell = (label, ...content) => h('td', { 'data-label': label }, ...content);
  return h('tr', { 'data-rung': r.name, 'data-rank': r.rank },
    cell(t('ladder-rank'), String(r.rank)),
    cell(t('ladder-player'), h('a', { href: profilePath(r.name) }, r.bot ? botTag() : null, r.name)),
    cell(t('ladder-rating'), String(Math.round(r.rating))),
    cell(t('ladder-rd'), String(Math.round(r.rd))),
    cell(t('ladder-games'), String(r.rated_games)));
}

export function mountLadder(root) {
  const rows = h('tbody', {});
  const table = h('table', { id: 'ladder', class: 'games ladder' },
    h('caption', { class: 'sr-only' }, t('ladder-caption')),
    h('thead', {}, h('tr', {}, ...[['#', 'ladder-rank'], ['ladder-player'], ['ladder-rating'], ['ladder-rd', 'ladder-rd-full'], ['ladder-games', 'ladder-games-full']]
      .map(([c, full]) => h('th', { scope: 'col', 'aria-label': full ? t(full) : null }, c === '#' ? c : t(c))))),
    rows);
  const loading = h('p', { class: 'loading' }, t('ladder-loading'));
  const empty = h('p', { class: 'empty', id: 'ladder-empty' }, t('ladder-empty'));
  const about = h('p', { class: 'hint' }, t('ladder-about'));
  const box = h('p', { id: 'notice', class: 'notice', role: 'alert' });
  root.replaceChildren(h('section', { class: 'card profile' }, h('h1', {}, t('ladder-title')), about, loading, table, empty, box));
  return (state) => {
    const rungs = state.ladder ? state.ladder.rungs : null;
    show(loading, rungs === null);
    show(table, Boolean(rungs && rungs.length));
    show(empty, Boolean(rungs && !rungs.length));
    list(rows, JSON.stringify(rungs), rungs || [], rung);
    text(box, state.notice.text);
    document.title = `${t('ladder-title')} – Boardcast`;
    return false;
  };
}
