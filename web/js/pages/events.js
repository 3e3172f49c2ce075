/**
 * `/events` (upcoming, running and finished club events, and for an organiser the form that
 * creates one: pages/event-form.js, loaded only for them) and `/e/{id}` (one event: its
 * countdown, live standings, each round's pairings with a link to watch every game, the
 * member's own next game, the final table with tie-breaks, and join / withdraw). Loaded only
 * on these routes (render/index.js imports it), so the match page does not carry it.
 *
 * Live: `/e/{id}` follows the event over the page's WebSocket (`watch` of `{"event": id}`,
 * sent by actions.js `follow`, again from the last version seen after a reconnect): the
 * server pushes the whole event at each change (`club_event`, kept as `state.event` by
 * receive.js), and the page is drawn again only when its `v` moved. When the member's own
 * game is created the page goes to it (`/m/{id}`, where the seat is reclaimed by account),
 * once per game, as lidraughts sends its players to their board.
 * @module pages/events
 */

import { attr, h, list, show, text } from '../render/dom.js';
import { profilePath } from '../account.js';
import { t, refusal } from '../i18n.js';
import { dateTimeText } from './dates.js';

/** A refused event request in the reader's language: the code's words where the catalogue has
 * them; an invalid field (the form checks fields first, in the reader's language) gets the
 * code's general line, or the server's detail in English. */
export function eventRefusal({ code, message }) {
  const id = `event-error-${code}`;
  return t(id) === id ? refusal(code, message) : t(id);
}

/** What the page offers member `me` in event `e`: `join` where the server takes them (also
 * again after they withdrew: a Swiss until its last round, a round-robin before its start, an
 * arena while it runs; `again` then), `withdraw` while they play. A round-robin's field is fixed at
 * its start: nobody joins it then, nor comes back to it. */
export function offers(e, me) {
  const open = e.status !== 'finished';
  const playing = Boolean(me && e.players.includes(me));
  const fixed = e.kind === 'round_robin' && e.rounds.length > 0;
  // A Swiss takes a join during a round for the next one, so none during its last.
  const newest = e.rounds[e.rounds.length - 1];
  const lastRound = e.kind === 'swiss' && Boolean(newest) && newest.round >= e.rounds_total
    && newest.games.some((g) => !g.result);
  const join = Boolean(me && open && !playing && !fixed && !lastRound);
  const left = e.standings.some((s) => s.name === me && s.withdrawn);
  return { join, again: join && left, withdraw: Boolean(me && open && playing) };
}

/** `GET`/`POST` JSON; `{status, body}` (status 0: the server was not reached). */
async function call(method, path, body) {
  try {
    const r = await fetch(path, {
      method,
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : undefined,
      credentials: 'same-origin',
    });
    return { status: r.status, body: await r.json().catch(() => null) };
  } catch {
    return { status: 0, body: null };
  }
}

/** `m:ss`, or `h:mm:ss` from an hour on. */
function countdown(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return hh ? `${hh}:${String(mm).padStart(2, '0')}:${ss}` : `${mm}:${ss}`;
}

/** What kind of event, in words: `Swiss · 5 rounds`, `Arena · 60 minutes`. */
function kindOf(e) {
  if (e.kind === 'swiss') return t('event-kind-swiss', { rounds: e.rounds_total });
  if (e.kind === 'arena') return t('event-kind-arena', { minutes: e.minutes });
  return t(e.double ? 'event-kind-double' : 'event-kind-round_robin');
}

function summary(e) {
  return [kindOf(e), e.time_control, t(e.rated ? 'event-rated' : 'event-casual'),
    t('event-players', { count: e.players.length })].join(' · ');
}

/**
 * The ids of a page's joins and withdrawals (`request`, PROTOCOL.md §20): the same while the
 * page sends one request again after it got no answer (status 0) or a 503 (`event_moving`,
 * `busy`: nothing done yet, or done and the answer lost), a new one once it was answered. The
 * server answers a request sent again with its id as done, through whichever node, where it
 * would otherwise say `already_joined` or `not_joined`; a second tab has its own ids.
 * @param {() => string} fresh makes a new id
 */
export function requestIds(fresh = randomId) {
  /** @type {null|{path: string, id: string}} */
  let pending = null;
  return {
    /** The id of a request to `path`: the pending one's if it is the same request. */
    of(path) {
      if (!pending || pending.path !== path) pending = { path, id: fresh() };
      return pending.id;
    },
    /** The request to `path` was answered `status`: done with unless it may be sent again. */
    answered(path, status) {
      if (pending && pending.path === path && status !== 0 && status !== 503) pending = null;
    },
  };
}

/** 24 hex digits from the browser's random source (also outside a secure context, where
 * `crypto.randomUUID` is missing). */
function randomId() {
  return Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** `/events`: the events in three lists, the finished ones a page at a time (older/newer, as
 * the profile's games), and the form that creates one for who may. */
export function mountEvents(root) {
  const lists = {};
  const newer = h('button', { type: 'button', 'data-events-page': 'newer' }, `‹ ${t('profile-newer')}`);
  const older = h('button', { type: 'button', 'data-events-page': 'older' }, `${t('profile-older')} ›`);
  const pageNo = h('span', { class: 'tc' });
  const pager = h('div', { class: 'pager', role: 'group', 'aria-label': t('events-pages'), hidden: true }, newer, pageNo, older);
  const sections = ['waiting', 'playing', 'finished'].map((status) => {
    lists[status] = h('ul', { class: 'events', 'data-events': status });
    return h('section', { class: 'card' }, h('h2', {}, t(`events-${status}`)), lists[status],
      status === 'finished' ? pager : null);
  });
  const notice = h('p', { id: 'notice', class: 'notice', role: 'alert' });
  const create = h('section', { class: 'card', id: 'event-create', hidden: true });
  // What the page is and how to take part, for everyone: without it a member who may not
  // create events saw a heading over nothing.
  const about = h('p', { class: 'hint', id: 'events-about' }, t('events-about'));
  root.replaceChildren(h('section', { class: 'card' }, h('h1', {}, t('events-title')), about, notice), create, ...sections);
  let shown = null;
  let formShown = false;
  // The page of finished events shown (from 0), whether older ones follow, and whether a
  // page is being read (its buttons wait for it).
  let page = 0;
  let more = false;
  let loading = false;
  /** The lists as last read; drawn at once, since a list read again after a new event was
   * made comes with no message that would draw the page. */
  const draw = () => {
    for (const status of Object.keys(lists)) {
      const events = shown.filter((e) => e.status === status);
      list(lists[status], JSON.stringify(events), events, (e) => h('li', { 'data-event': e.id },
        h('a', { href: `/e/${e.id}` }, e.name), ' ',
        h('span', { class: 'muted' }, summary(e)), ' ',
        h('time', { datetime: new Date(e.starts_at).toISOString() }, dateTimeText(e.starts_at))));
      // An empty list says so in its place, as the lobby's lists do.
      if (!events.length && !lists[status].firstChild) {
        lists[status].append(h('li', { class: 'empty', 'data-empty': status }, t(`events-none-${status}`)));
      }
    }
    show(pager, page > 0 || more);
    attr(newer, 'disabled', page <= 0 || loading);
    attr(older, 'disabled', !more || loading);
    text(pageNo, t('profile-page', { page: page + 1 }));
  };
  const load = (wanted = page) => {
    loading = true;
    return call('GET', `/api/events?page=${wanted}`).then(({ status, body }) => {
      loading = false;
      text(notice, status === 200 ? '' : (body && body.error ? eventRefusal(body.error) : t('page-load-failed')));
      if (status === 200) {
        page = wanted;
        more = Boolean(body.more);
      }
      shown = status === 200 ? body.events : (shown || []);
      draw();
      if (status === 200 && body.can_create && !formShown) {
        formShown = true;
        import('./event-form.js').then((form) => {
          form.mountEventForm(create, (event) => call('POST', '/api/events', event), () => load(0));
          show(create, true);
        }, (error) => console.error('the event form failed to load:', error));
      }
    });
  };
  newer.addEventListener('click', () => { if (!loading && page > 0) load(page - 1); });
  older.addEventListener('click', () => { if (!loading && more) load(page + 1); });
  load(0);
  return () => {
    document.title = `${t('events-title')} – Boardcast`;
    return false;
  };
}

/**
 * The tie-break columns of a kind of event, as `[value key, words, short words]`, the first
 * the one a phone shows. A Swiss ranks equal points by Buchholz, Buchholz cut-1, then
 * Sonneborn-Berger (events/pairing tiebreak.rs). A round-robin is ranked by the same keys, but
 * there everyone meets everyone: once the rounds are played a player's Buchholz is the sum of
 * all the others' points, the same for all who share a score (and cut-1 takes off the same
 * lowest score), so only Sonneborn-Berger tells them apart, which is also FIDE's tie-break for
 * round-robins. An arena has none: its sheet is shown instead.
 */
function tieBreaks(e) {
  if (e.kind === 'arena') return [['sheet', 'event-col-sheet', 'event-col-sheet']];
  const sb = ['sonneborn_berger', 'event-col-sb', 'event-col-sb-short'];
  if (e.kind !== 'swiss') return [sb];
  return [['buchholz', 'event-col-bh', 'event-col-bh-short'],
    ['buchholz_cut1', 'event-col-bh1', 'event-col-bh1-short'], sb];
}

/** One line of the standings: rank, player, rating, points, then the kind's tie-breaks. */
function standingRow(e, s) {
  const cell = (label, ...content) => h('td', { 'data-label': label }, ...content);
  const cells = [
    cell('#', String(s.rank)),
    cell(t('event-col-player'), h('a', { href: profilePath(s.name) }, s.name),
      s.on_fire ? h('span', { class: 'fire', title: t('event-on-fire') }, ' 🔥') : null,
      s.withdrawn ? h('span', { class: 'muted' }, ` (${t('event-withdrawn')})`) : null),
    cell(t('event-col-rating'), String(s.rating)),
    cell(t('event-col-points'), h('strong', {}, s.score)),
    ...tieBreaks(e).map(([key, words]) => key === 'sheet'
      ? cell(t(words), h('span', { class: 'sheet' }, s.sheet || ''))
      : cell(t(words), s[key])),
  ];
  return h('tr', { 'data-standing': s.name, 'data-rank': s.rank }, ...cells);
}

/** The standings' column heads: a tie-break's full name, and its short one for a phone. */
function standingHead(e) {
  const plain = (words) => [words, words];
  return [plain('#'), plain(t('event-col-player')), plain(t('event-col-rating')), plain(t('event-col-points')),
    ...tieBreaks(e).map(([, words, short]) => [t(words), t(short)])];
}

/** One round (an arena's wave) with each game's link to watch it. */
function roundBlock(e, r) {
  const heading = t(e.kind === 'arena' ? 'event-wave' : 'event-round', { round: r.round });
  return h('li', { 'data-round': r.round }, h('h3', {}, heading),
    h('ul', { class: 'pairings' }, ...r.games.map((g) => h('li', { 'data-game': g.match_id || '' },
      `${g.white} – ${g.black} `, h('strong', {}, g.result || ''), ' ',
      g.match_id ? h('a', { href: `/m/${g.match_id}`, 'data-watch': g.match_id }, t('event-watch')) : null)),
    r.bye ? h('li', { class: 'muted' }, t('event-bye', { name: r.bye })) : null));
}

/** The member's game still to be played in the event, if any: `{match_id, opponent}`. */
function ownGame(e, me) {
  for (const r of e.rounds) {
    for (const g of r.games) {
      if (g.result || !g.match_id) continue;
      if (g.white === me) return { match_id: g.match_id, opponent: g.black };
      if (g.black === me) return { match_id: g.match_id, opponent: g.white };
    }
  }
  return null;
}

/** `/e/{id}`: one event, followed live. */
export function mountEvent(root, id) {
  const title = h('h1', {}, '');
  const meta = h('p', { class: 'muted', id: 'event-meta' });
  const clock = h('p', { id: 'event-clock', class: 'countdown' });
  // Each control stays hidden until the event says whether it applies.
  const password = h('input', { id: 'event-password', type: 'password', autocomplete: 'off', placeholder: t('event-password'), hidden: true });
  const join = h('button', { type: 'button', id: 'event-join', hidden: true }, t('event-join'));
  const withdraw = h('button', { type: 'button', id: 'event-withdraw', class: 'secondary', hidden: true }, t('event-withdraw'));
  const loginLink = h('a', { id: 'event-login', href: `/login?next=${encodeURIComponent(`/e/${id}`)}`, hidden: true }, t('event-login-to-join'));
  const mine = h('p', { id: 'event-own-game', class: 'hint', hidden: true });
  const notice = h('p', { id: 'notice', class: 'notice', role: 'alert' });
  const standingsTitle = h('h2', {}, '');
  const head = h('tr', {});
  const rows = h('tbody', {});
  const table = h('table', { id: 'event-standings', class: 'games standings' }, h('thead', {}, head), rows);
  const rounds = h('ol', { id: 'event-rounds', class: 'rounds', reversed: true });
  const players = h('p', { id: 'event-players', class: 'muted' });
  const trf = h('a', { id: 'event-trf', href: `/e/${id}.trf` }, t('event-trf'));
  root.replaceChildren(
    h('section', { class: 'card event' }, title, meta, clock, h('p', { class: 'actions' }, password, join, withdraw, loginLink), mine, notice),
    h('section', { class: 'card' }, standingsTitle, table, players, trf),
    h('section', { class: 'card' }, h('h2', {}, t('event-rounds')), rounds));
  let shown = null;
  let drawnV = -1;
  let drawnAs = '';
  let busy = false;
  const requests = requestIds();
  // Joining and withdrawing are HTTP requests; what they change comes back pushed. Each
  // carries its request id, the same when the member sends it again after "try again".
  async function ask(path, body) {
    if (busy) return;
    busy = true;
    const { status, body: answer } = await call('POST', path, { ...body, request: requests.of(path) });
    busy = false;
    requests.answered(path, status);
    text(notice, status === 200 ? '' : (answer && answer.error ? eventRefusal(answer.error) : t('page-load-failed')));
  }
  join.addEventListener('click', () => ask(`/api/events/${id}/join`, shown && shown.private ? { password: password.value } : {}));
  withdraw.addEventListener('click', () => ask(`/api/events/${id}/withdraw`, {}));

  return (state) => {
    shown = state.event && state.event.id === id ? state.event : null;
    if (!shown) {
      // The watch was refused: no such event.
      if (state.notice.code === 'not_found') text(title, t('event-missing'));
      return false;
    }
    const e = shown;
    const me = state.account ? state.account.name : null;
    const now = Date.now();
    // The countdown ticks every frame; everything else only when the event changed.
    if (e.status === 'waiting') text(clock, t('event-starts-in', { time: countdown(e.starts_at - now) }));
    else if (e.status === 'playing' && e.kind === 'arena') text(clock, t('event-ends-in', { time: countdown(e.ends_at_ms - now) }));
    else text(clock, t(e.status === 'finished' ? 'event-status-finished' : 'event-status-playing'));
    const as = `${me}:${state.accountKnown}`;
    if (e.v === drawnV && as === drawnAs) return e.status !== 'finished';
    drawnV = e.v;
    drawnAs = as;
    document.title = `${e.name} – Boardcast`;
    text(title, e.name);
    text(meta, summary(e));
    const open = e.status !== 'finished';
    const offer = offers(e, me);
    text(join, t(offer.again ? 'event-rejoin' : 'event-join'));
    show(join, offer.join);
    show(password, offer.join && e.private);
    show(withdraw, offer.withdraw);
    show(loginLink, Boolean(state.accountKnown && !me && open));
    const own = me ? ownGame(e, me) : null;
    mine.replaceChildren(...(own ? [t('event-your-game', { name: own.opponent }), ' ',
      h('a', { href: `/m/${own.match_id}`, id: 'event-play' }, t('event-play'))] : []));
    show(mine, Boolean(own));
    if (own && !sessionStorage.getItem(`bc.event-sent.${own.match_id}`)) {
      // The game starts by itself: the member is sent to their board once.
      sessionStorage.setItem(`bc.event-sent.${own.match_id}`, '1');
      location.assign(`/m/${own.match_id}`);
    }
    text(standingsTitle, t(e.status === 'finished' ? 'event-final' : 'event-standings'));
    const columns = standingHead(e);
    list(head, JSON.stringify(columns), columns, ([full, short]) => h('th', { scope: 'col', 'data-col': full },
      ...(full === short ? [full] : [h('span', { class: 'full' }, full), h('abbr', { class: 'short', title: full }, short)])));
    list(rows, JSON.stringify(e.standings), e.standings, (s) => standingRow(e, s));
    text(players, e.standings.length ? '' : e.players.join(', '));
    show(trf, e.kind === 'swiss');
    const newest = [...e.rounds].reverse();
    list(rounds, JSON.stringify(newest), newest, (r) => roundBlock(e, r));
    return e.status !== 'finished';
  };
}
