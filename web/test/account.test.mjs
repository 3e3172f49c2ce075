// The account module without a browser: forms checked before a round trip, the server's
// answers folded into the state, and where a login goes next.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as i18n from '../js/i18n.js';
import { initialState, parseRoute } from '../js/state.js';
import { receive } from '../js/receive.js';
import * as actions from '../js/actions.js';
import * as account from '../js/account.js';

// The page speaks from its catalogue; these tests read English, as a browser would by default.
i18n.use('en', ['en.ftl', 'pages-en.ftl'].map((file) => readFileSync(new URL(`../i18n/${file}`, import.meta.url), 'utf8')).join('\n'));

const fresh = (path, search = '') => initialState(parseRoute(path), { name: '', nextId: 1, seats: {} }, search);
const requests = (effects) => effects.filter((e) => e.http).map((e) => e.http);

test('account routes', () => {
  assert.deepEqual(parseRoute('/login'), { page: 'login', id: null });
  assert.deepEqual(parseRoute('/signup'), { page: 'signup', id: null });
  assert.deepEqual(parseRoute('/account'), { page: 'account', id: null });
  assert.deepEqual(parseRoute('/account/tokens'), { page: 'tokens', id: null });
  assert.deepEqual(parseRoute('/@/Anne_de-V'), { page: 'profile', id: 'Anne_de-V' });
  assert.deepEqual(parseRoute('/@/a/b'), { page: 'missing', id: null });
  assert.deepEqual(parseRoute('/@/'), { page: 'missing', id: null });
});

test('welcome says who the page is: an account or a guest', () => {
  const state = fresh('/');
  assert.equal(state.accountKnown, false);
  receive(state, { welcome: { account: { name: 'Anne', bot: false, admin: false } } }, 0);
  assert.deepEqual(state.account, { name: 'Anne', bot: false, admin: false });
  receive(state, { welcome: { account: null } }, 0);
  assert.equal(state.account, null);
  assert.equal(state.accountKnown, true);
});

test('sign-up is checked here first, then posted; a refusal shows the server reason', () => {
  const state = fresh('/signup');
  assert.deepEqual(account.signup(state, { name: 'a', password: 'long enough pass', confirm: 'long enough pass' }), []);
  assert.equal(state.notice.code, 'name_invalid');
  account.signup(state, { name: 'Anne', password: 'short', confirm: 'short' });
  assert.deepEqual(state.notice, { text: 'A password has at least 8 characters.', code: 'password_too_short' });
  account.signup(state, { name: 'Anne', password: 'x'.repeat(129), confirm: '' });
  assert.equal(state.notice.code, 'password_too_long');
  account.signup(state, { name: 'Anne', password: 'correct horse battery', confirm: 'correct horse batery' });
  assert.equal(state.notice.code, 'password_mismatch');
  const [post] = requests(account.signup(state, { name: 'Anne', password: 'correct horse battery', confirm: 'correct horse battery' }));
  assert.deepEqual(post, { kind: 'signup', method: 'POST', path: '/api/signup', body: { name: 'Anne', password: 'correct horse battery' } });
  assert.equal(state.busy, 'signup');
  const effects = account.answered(state, post, { status: 400, body: { error: { code: 'name_taken', message: 'the name Anne is taken' } }, retryAfter: 0 });
  assert.deepEqual(effects, []);
  assert.deepEqual(state.notice, { text: 'That name is taken: choose another.', code: 'name_taken' });
  assert.equal(state.busy, '');
  // A code the page has no words for: the server's own text.
  account.answered(state, post, { status: 400, body: { error: { code: 'brand_new', message: 'something new' } }, retryAfter: 0 });
  assert.deepEqual(state.notice, { text: 'something new', code: 'brand_new' });
});

test('the account forms and the server answer in the page language', () => {
  const read = (lang) => [`${lang}.ftl`, `pages-${lang}.ftl`].map((file) => readFileSync(new URL(`../i18n/${file}`, import.meta.url), 'utf8')).join('\n');
  try {
    for (const [lang, short, taken, throttled] of [
      ['nl', 'Een wachtwoord heeft minstens 8 tekens.', 'Die naam is al bezet: kies een andere.', 'Te veel mislukte pogingen. (probeer het over 42 s opnieuw)'],
      ['fy', 'In wachtwurd hat op syn minst 8 tekens.', 'Dy namme is al nommen: kies in oare.', 'Te folle mislearre besykjen. (besykje it oer 42 s opnij)'],
    ]) {
      i18n.use(lang, read(lang));
      const state = fresh('/signup');
      account.signup(state, { name: 'Anne', password: 'short', confirm: 'short' });
      assert.equal(state.notice.text, short);
      const [post] = requests(account.signup(state, { name: 'Anne', password: 'correct horse battery', confirm: 'correct horse battery' }));
      account.answered(state, post, { status: 400, body: { error: { code: 'name_taken', message: 'the name Anne is taken' } }, retryAfter: 0 });
      assert.equal(state.notice.text, taken);
      account.answered(state, post, { status: 429, body: { error: { code: 'throttled', message: 'too many attempts' } }, retryAfter: 42 });
      assert.equal(state.notice.text, throttled);
    }
  } finally {
    i18n.use('en', read('en'));
  }
});

test('a login reloads the page it was asked from, never another site', () => {
  const state = fresh('/login', '?next=%2Fm%2Fm12');
  const [post] = requests(account.login(state, { name: 'Anne', password: 'pw123456' }));
  assert.equal(post.path, '/api/login');
  assert.deepEqual(account.answered(state, post, { status: 200, body: { name: 'Anne' }, retryAfter: 0 }), [{ reload: '/m/m12' }]);
  assert.equal(account.nextPath('?next=//evil.example/x'), '/');
  assert.equal(account.nextPath('?next=https://evil.example'), '/');
  assert.equal(account.nextPath('?next=/\\evil.example'), '/');
  assert.equal(account.nextPath(''), '/');
});

test('throttled logins say when to try again', () => {
  const state = fresh('/login');
  const [post] = requests(account.login(state, { name: 'Anne', password: 'wrong one' }));
  account.answered(state, post, { status: 429, body: { error: { code: 'throttled', message: 'too many attempts' } }, retryAfter: 42 });
  assert.deepEqual(state.notice, { text: 'Too many failed attempts. (try again in 42 s)', code: 'throttled' });
  account.answered(state, post, { status: 0, body: null, retryAfter: 0 });
  assert.equal(state.notice.code, 'offline');
});

test('a login refused busy says the seconds its Retry-After gave, in the page language', () => {
  const read = (lang) => [`${lang}.ftl`, `pages-${lang}.ftl`].map((file) => readFileSync(new URL(`../i18n/${file}`, import.meta.url), 'utf8')).join('\n');
  const busy = { error: { code: 'busy', message: 'too many logins at once: try again in a moment' } };
  try {
    for (const [lang, said, shortly] of [
      ['en', 'The server is busy: try again in 3 s.', 'The server is busy: try again shortly.'],
      ['nl', 'De server is druk: probeer het over 3 s opnieuw.', 'De server is druk: probeer het zo opnieuw.'],
      ['fy', 'De server is drok: besykje it oer 3 s opnij.', 'De server is drok: besykje it sa meteen opnij.'],
    ]) {
      i18n.use(lang, read(lang));
      const state = fresh('/login');
      const [post] = requests(account.login(state, { name: 'Anne', password: 'pw123456' }));
      account.answered(state, post, { status: 503, body: busy, retryAfter: 3 });
      assert.deepEqual(state.notice, { text: said, code: 'busy' });
      // Without a Retry-After it stays the words it had.
      account.answered(state, post, { status: 503, body: busy, retryAfter: 0 });
      assert.equal(state.notice.text, shortly);
    }
  } finally {
    i18n.use('en', read('en'));
  }
});

test('log out here or everywhere, then the lobby', () => {
  const state = fresh('/account');
  assert.equal(requests(account.logout(state, false))[0].path, '/api/logout');
  const [all] = requests(account.logout(state, true));
  assert.equal(all.path, '/api/logout-all');
  assert.deepEqual(account.answered(state, all, { status: 204, body: null, retryAfter: 0 }), [{ reload: '/' }]);
});

test('a new token is shown once and the list is fetched again; revoking fetches it too', () => {
  const state = fresh('/account/tokens');
  receive(state, { welcome: { account: { name: 'Anne', bot: false, admin: false } } }, 0);
  const [list] = requests(actions.follow(state));
  assert.deepEqual(list, { kind: 'tokens', method: 'GET', path: '/api/tokens', body: undefined });
  account.answered(state, list, { status: 200, body: [{ id: 't1', name: 'laptop', scopes: ['play'] }], retryAfter: 0 });
  assert.equal(state.tokens.length, 1);
  assert.deepEqual(account.createToken(state, { name: ' ', scopes: ['play'] }), []);
  assert.deepEqual(account.createToken(state, { name: 'engine', scopes: [] }), []);
  const [create] = requests(account.createToken(state, { name: 'engine', scopes: ['bot', 'admin'] }));
  assert.deepEqual(create.body, { name: 'engine', scopes: ['bot'] });
  const again = requests(account.answered(state, create, { status: 201, body: { id: 't2', token: 'bcp_secret' }, retryAfter: 0 }));
  assert.deepEqual(state.newToken, { name: 'engine', token: 'bcp_secret' });
  assert.equal(again[0].path, '/api/tokens');
  const [revoke] = requests(account.revokeToken(state, 't1'));
  assert.deepEqual([revoke.method, revoke.path], ['DELETE', '/api/tokens/t1']);
  assert.equal(requests(account.answered(state, revoke, { status: 204, body: null, retryAfter: 0 }))[0].kind, 'tokens');
});

test('a profile loads the player, the rating history and a page of games; an unknown name is missing', () => {
  const state = fresh('/@/Anne');
  const [user, history, games] = requests(actions.follow(state));
  assert.equal(user.path, '/api/user/Anne');
  assert.equal(history.path, '/api/user/Anne/rating-history');
  const points = [{ date: '2026-11-20', rating: 1512.4, rd: 180 }];
  account.answered(state, history, { status: 200, body: points, retryAfter: 0 });
  assert.deepEqual(state.profile.history, points);
  assert.equal(games.path, '/api/user/Anne/games?page=0');
  account.answered(state, user, { status: 200, body: { name: 'Anne', games: { played: 1, won: 1, drawn: 0, lost: 0 } }, retryAfter: 0 });
  assert.equal(state.profile.user.name, 'Anne');
  account.answered(state, games, { status: 200, body: { page: 0, per_page: 2, games: [{ id: 'm2' }, { id: 'm1' }] }, retryAfter: 0 });
  assert.deepEqual([state.profile.games.length, state.profile.more], [2, true], 'a full page: there may be more');
  const second = account.gamesPage(state, 1).http;
  assert.equal(second.path, '/api/user/Anne/games?page=1');
  account.answered(state, second, { status: 200, body: { page: 1, per_page: 2, games: [{ id: 'm0' }] }, retryAfter: 0 });
  assert.deepEqual([state.profile.page, state.profile.more], [1, false]);
  const other = fresh('/@/Nobody');
  const [who] = requests(actions.follow(other));
  account.answered(other, who, { status: 404, body: { error: { code: 'not_found', message: 'no such user' } }, retryAfter: 0 });
  assert.equal(other.profile.missing, true);
});

test('a member opening a match they sit in takes the seat back without its token', () => {
  const state = fresh('/m/m1');
  receive(state, { welcome: { account: { name: 'Anne', bot: false, admin: false } } }, 0);
  const [watch] = actions.follow(state).map((e) => e.send);
  assert.deepEqual(watch.msg, { watch: { target: { match: 'm1' }, since_v: null } });
  const snap = {
    match_id: 'm1', v: 7, phase: 'playing', white: { name: 'anne', connected: false, account: true },
    black: { name: 'Anne', connected: true, account: false }, moves: [], absent: [], fen: '', start_fen: '',
  };
  const [ask] = receive(state, { match_snapshot: snap }, 0).map((e) => e.send);
  assert.deepEqual(ask.msg, { reclaim: { match_id: 'm1', since_v: 7 } });
  assert.deepEqual(receive(state, { match_snapshot: { ...snap, v: 8 } }, 0), [], 'asked once');
  receive(state, { seat: { id: ask.id, match_id: 'm1', token: 'st.x', side: 'white', invite_code: 'C' } }, 0);
  assert.equal(state.seat.side, 'white');
  // A guest of the same name is not the member: nothing to take back.
  const guest = fresh('/m/m2');
  receive(guest, { welcome: { account: { name: 'Anne', bot: false, admin: false } } }, 0);
  const other = { ...snap, match_id: 'm2', white: { name: 'Anne', connected: true, account: false } };
  assert.deepEqual(receive(guest, { match_snapshot: other }, 0), []);
});
