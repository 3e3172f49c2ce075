/**
 * The one state object of the page, and the route it was opened at.
 * Nothing here touches the DOM; the page is drawn from this object alone.
 * @module state
 */

/**
 * @typedef {{page: 'lobby'|'match'|'invite'|'tv'|'game'|'ftv'|'login'|'signup'|'account'|'tokens'|'profile'|'ladder'|'rules'|'events'|'event'|'missing', id: string|null}} Route
 * @typedef {{match_id: string, token: string, side: 'white'|'black', invite_code: string}} Seat
 * @typedef {{id: number, msg: object}} Envelope
 */

/**
 * The page a path shows.
 * @param {string} path location.pathname
 * @returns {Route}
 */
export function parseRoute(path) {
  const m = /^\/(m|i|tv|g)\/([A-Za-z0-9_-]{1,64})$/.exec(path);
  if (path === '/' || path === '') return { page: 'lobby', id: null };
  // Frisian TV: `id` becomes the featured match once the server names it.
  if (path === '/ftv') return { page: 'ftv', id: null };
  if (ACCOUNT_PAGES[path]) return { page: ACCOUNT_PAGES[path], id: null };
  // Club events (issue 33): the list, and one event by its id.
  if (path === '/events') return { page: 'events', id: null };
  const event = /^\/e\/([a-z0-9]{1,16})$/.exec(path);
  if (event) return { page: 'event', id: event[1] };
  // A profile, `/@/{name}` (user names are 2–20 of A-Z a-z 0-9 _ -).
  const profile = /^\/@\/([A-Za-z0-9_-]{1,32})$/.exec(path);
  if (profile) return { page: 'profile', id: profile[1] };
  if (!m) return { page: 'missing', id: null };
  const page = { m: 'match', i: 'invite', tv: 'tv', g: 'game' }[m[1]];
  if (page === 'invite') return { page, id: inviteCode(m[2]) };
  return { page, id: page === 'tv' ? `tv${m[2]}` : m[2] };
}

/** The account pages, by path. */
const ACCOUNT_PAGES = { '/login': 'login', '/signup': 'signup', '/account': 'account', '/account/tokens': 'tokens', '/ladder': 'ladder', '/rules': 'rules' };

/** Characters in an invite code, not counting the dash (server/src/matches/invite.rs). */
const INVITE_LENGTH = 10;

/**
 * A typed invite code in the form the server issues it, as server/src/matches/invite.rs `normalize`
 * does: upper case, with the dash after five characters whether it was typed or not. So
 * `/i/frj4kd7mqx` finds the seat this browser keeps under `FRJ4K-D7MQX`. A code of another
 * length (the shorter codes of older matches) is only upper-cased.
 * @param {string} typed
 */
export function inviteCode(typed) {
  const plain = typed.replaceAll('-', '').toUpperCase();
  if (plain.length !== INVITE_LENGTH) return typed.toUpperCase();
  return `${plain.slice(0, 5)}-${plain.slice(5)}`;
}

/**
 * A fresh state for `route`.
 * @param {Route} route
 * @param {{name: string, nextId: number, seats: Record<string, Seat>}} stored what the
 *   browser kept: the display name, the next ack id, the seats this browser holds.
 * @param {string} [search] location.search (the login page's `?next=`)
 */
export function initialState(route, stored, search = '') {
  return {
    route,
    search,
    /** @type {null|{name: string, bot: boolean, admin: boolean}} the account this page's
     *  session is, from the server's `welcome` (null: a guest) */
    account: null,
    /** Whether `welcome` has said who this page is (until then the menu shows nothing). */
    accountKnown: false,
    /** The account request in flight (its form waits for the answer). */
    busy: '',
    /** @type {null|{name: string, user: object|null, games: object[]|null, history: object[]|null, page: number, more: boolean, missing: boolean}} */
    profile: null,
    /** @type {null|{rungs: object[]|null}} the ladder (`/api/ladder`), while `/ladder` is shown */
    ladder: null,
    /** @type {null|{preset: string}} waiting in the play-now pool at this preset */
    playNow: null,
    /** @type {null|{opponent: string, rating: string}} whom play now paired this page with */
    paired: null,
    /** @type {null|object[]} the account's personal access tokens */
    tokens: null,
    /** @type {null|{name: string, token: string}} a token just created: shown once */
    newToken: null,
    /** @type {'connecting'|'online'|'offline'} */
    conn: 'connecting',
    name: stored.name,
    /** Ack ids only ever grow, across reconnects and reloads (PROTOCOL.md §9). */
    nextId: stored.nextId,
    /** Requests awaiting their reply, by id: what they were for. */
    pending: /** @type {Record<number, {kind: string, msg: object}>} */ ({}),
    /** Match commands sent but not acknowledged; re-sent unchanged after a reconnect. */
    outbox: /** @type {Envelope[]} */ ([]),
    /** Other requests made while the socket was not open; sent after `welcome` (actions.unsent). */
    unsent: /** @type {Envelope[]} */ ([]),
    seats: stored.seats,
    /** @type {Seat|null} the seat held in the match shown */
    seat: null,
    lobby: { seeks: [], live: [], channels: [], loaded: false },
    /** The match shown: the snapshot's fields, kept current by events. */
    match: null,
    /** FENs the server sent, by the number of plies played before them. */
    fens: /** @type {Record<number, string>} */ ({}),
    /** When `match.clock` / `match.absent` were received (performance.now()). */
    matchAt: 0,
    watchers: 0,
    /** The match's chat: our room and its lines, oldest first (render/chat.js draws it). */
    chat: { room: /** @type {null|'players'|'spectators'} */ (null), lines: /** @type {object[]} */ ([]) },
    channel: null,
    channelAt: 0,
    prediction: { ply: -1, guess: '', state: 'none' },
    standing: { correct: 0, strikes: 0 },
    leaderboard: [],
    /** This page's round trip to the server, from its `ping`s (ms, a moving average). */
    lag: { rtt: /** @type {number|null} */ (null), sent: /** @type {{nonce: number, at: number}|null} */ (null) },
    notice: { text: '', code: '' },
    ui: {
      /** Squares clicked so far of the move being entered: origin, then landings. */
      hops: /** @type {number[]} */ ([]),
      /** Routes left to choose between when several end on the clicked square. */
      choices: /** @type {number[][]} */ ([]),
      /** The choices came from a typed move: focus goes back to the move box after. */
      choicesFromTyping: false,
      /** The route whose captures are marked (a chooser button under the pointer). */
      preview: /** @type {number[]|null} */ (null),
      drag: /** @type {null|{from: number|string, x: number, y: number, dx: number, dy: number, moved: boolean}} */ (null),
      flip: false,
      numbers: false,
      /** The ply shown in the move list; null follows the game. */
      viewPly: /** @type {number|null} */ (null),
      confirm: /** @type {null|'resign'} */ (null),
      minitFrom: /** @type {string|null} */ (null),
      created: /** @type {string|null} */ (null),
      /** The invited friend has given a name: the invite's seat may be taken. */
      inviteAccepted: false,
    },
  };
}

/** The id of the Frisian TV channel (PROTOCOL.md §11). */
export const FRISIAN_TV = 'ftv';

/** Whether the page shows a Frisian match: a match page, or Frisian TV once it features one. */
export const showsMatch = (route) => route.page === 'match' || (route.page === 'ftv' && route.id !== null);

/** The other side. */
export const opposite = (side) => (side === 'white' ? 'black' : 'white');
