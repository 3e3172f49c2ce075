/**
 * A member's profile, `/@/{name}`: the rating (`1500?` while provisional), its deviation,
 * rated games and best win, the rating history as a chart, the tallies and the finished
 * games. Loaded only on this route (render/index.js imports it when the page is opened), so
 * the match page does not carry it.
 *
 * The chart is SVG drawn here from `/api/user/{name}/rating-history` (one point per UTC day,
 * the rating after that day's last rated game): a line over time with a dot per day, no
 * chart library (a few dozen lines do it within the page budget).
 * @module pages/profile
 */

import { h, s, text, attr, show, list, botTag } from '../render/dom.js';
import { timeControlText, ratingText } from '../format.js';
import { dateText } from './dates.js';
import { profilePath } from '../account.js';
import { t } from '../i18n.js';

/** The outcomes the server names (`profile-outcome-*`). */
const OUTCOMES = ['won', 'drawn', 'lost'];

/** The chart's drawing area in SVG units (it scales to the card's width). */
export const CHART = { width: 600, height: 200, left: 44, right: 12, top: 12, bottom: 24 };

const DAY_MS = 86_400_000;

/** The games table's columns (`profile-col-*`). */
const COLUMNS = ['date', 'opponent', 'colour', 'result', 'time', 'game'];

/**
 * Where each history point goes in the chart: x by its date (days apart stay apart), y by
 * its rating, the rating axis spanning the data with at least 100 points of room.
 * @param {{date: string, rating: number, rd: number}[]} history oldest first
 * @returns {{points: {x: number, y: number, date: string, rating: number}[], low: number, high: number}}
 */
export function chartPoints(history) {
  const { width, height, left, right, top, bottom } = CHART;
  const days = history.map((p) => Date.parse(`${p.date}T00:00:00Z`) / DAY_MS);
  const ratings = history.map((p) => p.rating);
  let low = Math.min(...ratings);
  let high = Math.max(...ratings);
  const room = Math.max(0, 100 - (high - low)) / 2;
  low = Math.floor((low - room) / 10) * 10;
  high = Math.ceil((high + room) / 10) * 10;
  const first = Math.min(...days);
  const span = Math.max(...days) - first;
  const x = (day) => (span === 0 ? (left + width - right) / 2 : left + ((day - first) / span) * (width - left - right));
  const y = (rating) => top + ((high - rating) / (high - low)) * (height - top - bottom);
  const round = (v) => Math.round(v * 10) / 10;
  const points = history.map((p, i) => ({ x: round(x(days[i])), y: round(y(p.rating)), date: p.date, rating: p.rating }));
  return { points, low, high };
}

/** The chart of `history`, or a line saying there is none yet. */
function chart(history) {
  if (!history.length) return h('p', { class: 'empty', id: 'rating-chart-empty' }, t('profile-chart-empty'));
  const { width, height, left, bottom } = CHART;
  const { points, low, high } = chartPoints(history);
  const axisY = height - bottom;
  const label = (x, y, anchor, words) => s('text', { x, y, 'text-anchor': anchor, class: 'chart-label' }, words);
  return s('svg', {
    id: 'rating-chart', class: 'rating-chart', viewBox: `0 0 ${width} ${height}`, role: 'img',
    'aria-label': t('profile-chart-label', {
      first: String(Math.round(history[0].rating)), from: history[0].date,
      last: String(Math.round(history[history.length - 1].rating)), to: history[history.length - 1].date,
    }),
  },
  s('line', { x1: left, y1: axisY, x2: width, y2: axisY, class: 'chart-axis' }),
  s('line', { x1: left, y1: 0, x2: left, y2: axisY, class: 'chart-axis' }),
  label(left - 4, 16, 'end', String(high)),
  label(left - 4, axisY, 'end', String(low)),
  label(left, height - 6, 'start', history[0].date),
  history.length > 1 ? label(width, height - 6, 'end', history[history.length - 1].date) : null,
  s('polyline', { class: 'chart-line', points: points.map((p) => `${p.x},${p.y}`).join(' ') }),
  ...points.map((p) => s('circle', { cx: p.x, cy: p.y, r: 3.5, class: 'chart-dot', 'data-date': p.date, 'data-rating': p.rating },
    s('title', {}, `${p.date}: ${Math.round(p.rating)}`))));
}

/** A member linked to their profile; a guest marked as one. */
function playerLink(p) {
  if (!p) return '?';
  return p.account ? h('a', { href: profilePath(p.name) }, p.name) : h('span', {}, p.name, h('span', { class: 'guest' }, ` ${t('player-guest')}`));
}

/** The best win: the highest-rated member beaten in a rated game, with a link to the game. */
function bestWin(win) {
  if (!win) return '—';
  return h('span', {}, h('a', { href: profilePath(win.name) }, win.name), ` (${Math.round(win.rating)}) · `,
    h('a', { href: `/m/${win.match_id}` }, t('profile-best-win-game')));
}

export function mountProfile(root, name) {
  const title = h('span', {}, name);
  const tag = botTag();
  show(tag, false);
  const rating = h('dl', { id: 'rating-facts', class: 'facts' });
  const chartBox = h('div', { id: 'rating-history', class: 'chart' });
  const facts = h('dl', { id: 'profile-facts', class: 'facts' });
  const pdn = h('a', { id: 'games-pdn', class: 'button', href: `${profilePath(name)}/games.pdn`, download: `${name}.pdn` }, t('profile-download'));
  const rows = h('tbody', {});
  const table = h('table', { id: 'games', class: 'games' },
    h('caption', { class: 'sr-only' }, t('profile-games-caption', { name })),
    h('thead', {}, h('tr', {}, ...COLUMNS.map((c) => h('th', { scope: 'col' }, t(`profile-col-${c}`))))),
    rows);
  const empty = h('p', { class: 'empty' }, t('profile-no-games'));
  const newer = h('button', { type: 'button', 'data-games-page': 'newer' }, `‹ ${t('profile-newer')}`);
  const older = h('button', { type: 'button', 'data-games-page': 'older' }, `${t('profile-older')} ›`);
  const pageNo = h('span', { class: 'tc' });
  const pager = h('div', { class: 'pager', role: 'group', 'aria-label': t('profile-pages') }, newer, pageNo, older);
  const found = h('div', { class: 'stack' }, h('h2', {}, t('profile-rating')), rating, chartBox, h('h2', {}, t('profile-games')), facts, pdn,
    h('h2', {}, t('profile-finished')), table, empty, pager);
  const missing = h('p', { class: 'empty' }, `${t('profile-missing', { name })} `, h('a', { href: '/' }, t('missing-lobby')));
  const box = h('p', { id: 'notice', class: 'notice', role: 'alert' });
  root.replaceChildren(h('section', { class: 'card profile' }, h('h1', {}, tag, title), found, missing, box));
  let charted = null;
  return (state) => {
    const p = state.profile;
    const user = p && p.user;
    show(missing, Boolean(p && p.missing));
    show(found, !(p && p.missing));
    show(tag, Boolean(user && user.bot));
    if (user) {
      text(title, user.name);
      const g = user.games || {};
      const fact = (key, term, value) => h('div', {}, h('dt', {}, term), h('dd', { 'data-fact': key }, value));
      list(rating, JSON.stringify(user), [
        ['rating', ratingText(user.rating, user.provisional)],
        ['rd', String(Math.round(user.rd))],
        ['rated', String(user.rated_games ?? 0)],
        ['best', bestWin(user.best_win)],
      ], ([key, value]) => fact(key, t(`profile-fact-${key}`), value));
      list(facts, JSON.stringify(user.games) + user.created_at + user.last_seen, [
        ['member', dateText(user.created_at)],
        ['last', dateText(user.last_seen)],
        ['games', String(g.played ?? 0)],
        ['won', `${g.won ?? 0} · ${g.drawn ?? 0} · ${g.lost ?? 0}`],
      ], ([key, value]) => fact(key, t(`profile-fact-${key}`), value));
    }
    const history = p && p.history;
    if (history && history !== charted) {
      charted = history;
      chartBox.replaceChildren(h('h3', { class: 'sr-only' }, t('profile-history')), chart(history));
    }
    const games = (p && p.games) || [];
    list(rows, JSON.stringify(games), games, (g) => {
      const cell = (label, ...content) => h('td', { 'data-label': label }, ...content);
      const [date, opponent, colour, result, time, game] = COLUMNS.map((c) => t(`profile-col-${c}`));
      return h('tr', { 'data-game': g.id },
        cell(date, dateText(g.date)),
        cell(opponent, playerLink(g.opponent)),
        cell(colour, ['white', 'black'].includes(g.colour) ? t(`side-${g.colour}`) : g.colour),
        cell(result, `${OUTCOMES.includes(g.outcome) ? t(`profile-outcome-${g.outcome}`) : ''} ${g.result}`),
        cell(time, timeControlText(g.time_control)),
        cell(game, h('a', { href: `/m/${g.id}` }, game), ' · ', h('a', { href: `/games/${g.id}.pdn`, download: '' }, 'PDN')));
    });
    show(table, games.length > 0);
    show(empty, Boolean(p && p.games) && !games.length && p.page === 0);
    const page = p ? p.page : 0;
    show(pager, page > 0 || Boolean(p && p.more));
    attr(newer, 'disabled', page <= 0 || state.busy === 'games');
    attr(older, 'disabled', !(p && p.more) || state.busy === 'games');
    text(pageNo, t('profile-page', { page: page + 1 }));
    text(box, state.notice.text);
    document.title = `${user ? user.name : name} – Boardcast`;
    return false;
  };
}
