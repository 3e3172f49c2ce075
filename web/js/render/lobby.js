/**
 * The lobby: your name, a new match, open seeks, live matches, TV channels and players.
 * @module render/lobby
 */

import { h, list, show, text, attr, playerName, pageHeading } from './dom.js';
import { createForm, engineForm, playNowPanel } from './forms.js';
import { timeControlText, summaryPlayers, playerText, ratingText } from '../format.js';
import { t } from '../i18n.js';
import { profilePath } from '../account.js';

const card = (title, body) => h('section', { class: 'card' }, h('h2', {}, title), body);

export function mountLobby(root) {
  const name = h('input', { id: 'name', name: 'name', maxlength: '32', autocomplete: 'nickname', placeholder: t('lobby-anonymous') });
  const seeks = h('ul', { id: 'seeks', class: 'rows' });
  const live = h('ul', { id: 'live', class: 'rows' });
  const channels = h('ul', { id: 'channels', class: 'rows' });
  const players = h('ul', { id: 'players', class: 'names' });
  const notice = h('p', { id: 'notice', class: 'notice', role: 'alert' });
  const create = createForm();
  const playNow = playNowPanel();
  const presets = playNow.querySelector('.presets');
  const waiting = playNow.querySelector('#play-now-waiting');
  const membersOnly = h('p', { class: 'members-only' }, `${t('play-now-members-only')} `,
    h('a', { href: '/login' }, t('who-login')), ' · ', h('a', { href: '/signup' }, t('who-signup')));
  presets.after(membersOnly);
  const ratedOption = create.querySelector('option[value=rated]');
  // The lobby is drawn whole once its lists have come: lists filling in under a page already
  // drawn pushed everything below them down (Lighthouse: layout shift 0.31).
  const loading = h('p', { class: 'loading' }, t('lobby-loading'));
  const grid = h('div', { class: 'lobby', hidden: true },
    h('section', { class: 'card' }, h('label', { for: 'name' }, h('h2', {}, t('lobby-your-name'))), name, notice,
      h('p', { class: 'hint' }, h('a', { href: '/rules', id: 'rules-link' }, t('lobby-rules')))),
    playNow,
    create,
    card(t('lobby-seeks'), seeks),
    h('section', { class: 'card' }, h('h2', {}, t('lobby-live')),
      h('a', { class: 'row', href: '/ftv', 'data-tv': 'ftv' }, h('span', {}, t('lobby-ftv')),
        h('span', { class: 'tc' }, t('lobby-ftv-what'))), live),
    card(t('lobby-minit-tv'), channels),
    card(t('lobby-players'), players), engineForm());
  root.replaceChildren(pageHeading(t('lobby-heading')), loading, grid);
  let nameShown = false;

  return function update(state) {
    if (!nameShown) {
      name.value = state.name;
      nameShown = true;
    }
    show(create.querySelector('.custom'), create.elements.time.value === 'custom');
    // Rated is offered to members only; a rating range only to a rated public seek.
    const member = Boolean(state.account);
    attr(ratedOption, 'disabled', !member);
    if (!member && create.elements.mode.value === 'rated') create.elements.mode.value = 'casual';
    show(create.querySelector('.rated-only'), create.elements.mode.value === 'rated' && !create.elements.private.checked);
    show(presets, member || !state.accountKnown);
    show(membersOnly, state.accountKnown && !member);
    show(waiting, Boolean(state.playNow));
    if (state.playNow) text(waiting.firstChild, t('play-now-looking', { preset: state.playNow.preset }));
    for (const button of presets.children) {
      attr(button, 'aria-pressed', state.playNow ? String(state.playNow.preset === button.dataset.playNow) : null);
    }
    text(notice, state.notice.text);
    const lobby = state.lobby;
    show(loading, !lobby.loaded);
    text(loading, t(state.conn === 'offline' ? 'lobby-unreachable' : 'lobby-loading'));
    show(grid, lobby.loaded);
    list(seeks, JSON.stringify(lobby.seeks) + lobby.loaded, lobby.seeks, (seek) => {
      const [white, black] = summaryPlayers(seek);
      // The creator's rating beside the name (members only), and whether the seek is rated.
      const rating = white ? seek.white_rating : seek.black_rating;
      const rated = h('span', { class: 'rating', 'data-rating': rating ? rating.rating : null },
        rating ? ` ${ratingText(rating.rating, rating.provisional)}` : '');
      const who = white ? h('span', {}, playerName(white), rated, ` (${t('side-white')})`) : h('span', {}, playerName(black), rated, ` (${t('side-black')})`);
      const kind = seek.rated
        ? ` · ${seek.rating_range ? t('lobby-seek-rated-range', { range: seek.rating_range }) : t('lobby-seek-rated')}`
        : ` · ${t('lobby-seek-casual')}`;
      return h('li', {}, h('button', { type: 'button', class: 'row', 'data-seek': seek.match_id, 'data-rated': String(Boolean(seek.rated)) },
        who, h('span', { class: 'tc' }, timeControlText(seek.time_control) + kind), h('span', { class: 'go' }, t('lobby-join'))));
    });
    if (lobby.loaded && !lobby.seeks.length && !seeks.firstChild) seeks.append(h('li', { class: 'empty' }, t('lobby-no-seeks')));
    list(live, JSON.stringify(lobby.live) + lobby.loaded, lobby.live, (match) => {
      const [white, black] = summaryPlayers(match);
      return h('li', {}, h('a', { class: 'row', href: `/m/${match.match_id}`, 'data-live': match.match_id },
        h('span', {}, white ? playerName(white) : '?', ' v ', black ? playerName(black) : '?'),
        h('span', { class: 'tc' }, `${timeControlText(match.time_control)} · ${t('count-plies', { count: match.plies })} · ${t('count-watching', { count: match.watchers })}`)));
    });
    if (lobby.loaded && !lobby.live.length && !live.firstChild) live.append(h('li', { class: 'empty' }, t('lobby-no-live')));
    list(channels, JSON.stringify(lobby.channels), lobby.channels, (ch) => {
      const href = ch.kind === 'tv' ? `/tv/${ch.channel.replace(/^tv/, '')}` : `/g/${ch.channel}`;
      const game = ch.game ? `${ch.game.white} v ${ch.game.black} · ${ch.game.serial}` : t('lobby-between-games');
      return h('li', {}, h('a', { class: 'row', href, 'data-channel': ch.channel },
        h('span', {}, ch.channel), h('span', { class: 'tc' }, `${game} · ${t('count-watching', { count: ch.watchers })}`)));
    });
    // One line per player: members link to their profile; guests are marked as such.
    const byText = new Map([...lobby.seeks, ...lobby.live].flatMap(summaryPlayers).filter(Boolean)
      .map((p) => [playerText(p), p]));
    const names = [...byText.keys()].sort();
    list(players, JSON.stringify(names), names, (n) => {
      const p = byText.get(n);
      return h('li', {}, p.account ? h('a', { href: profilePath(p.name) }, playerName(p)) : n);
    });
    if (lobby.loaded && !names.length && !players.firstChild) players.append(h('li', { class: 'empty' }, t('lobby-nobody')));
    document.title = `Boardcast – ${t('lobby-title')}`;
    return false;
  };
}
