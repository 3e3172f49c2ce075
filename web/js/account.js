/**
 * Accounts (PROTOCOL.md §18): intents → `{http}` effects (main.js makes the requests), the
 * answers folded into the state (`answered`); no DOM. The session is an HttpOnly cookie: after
 * a login or logout the page loads afresh (`{reload}`), its WebSocket as the new account.
 * @module account
 */

import { t } from './i18n.js';

/** @typedef {{kind: string, method: string, path: string, body?: object, page?: number}} HttpRequest */

/** User names: 2–20 of `A-Z a-z 0-9 _ -` (the server also reserves some). */
export const NAME_RULE = /^[A-Za-z0-9_-]{2,20}$/;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;

const http = (state, kind, method, path, body) => {
  state.busy = kind;
  return { http: { kind, method, path, body } };
};

const refuse = (state, text, code) => {
  state.notice = { text, code };
  return [];
};

/** Why `password` cannot be an account's password, in words; '' if the length is right. */
export function passwordProblem(password) {
  const n = [...String(password || '')].length;
  if (n < PASSWORD_MIN) return t('account-password-short', { count: PASSWORD_MIN });
  if (n > PASSWORD_MAX) return t('account-password-long', { count: PASSWORD_MAX });
  return '';
}

/**
 * Where to go after logging in: the page's `?next=` if it is a path of this site, else the
 * lobby (never another site: `//evil.example` is refused).
 * @param {string} search location.search
 */
export function nextPath(search) {
  const next = new URLSearchParams(search || '').get('next') || '/';
  return /^\/(?![/\\])/.test(next) ? next : '/';
}

/** Sign-up, checked here first so a typo costs no round trip. */
export function signup(state, { name, password, confirm }) {
  if (!NAME_RULE.test(name || '')) return refuse(state, t('account-name-rule'), 'name_invalid');
  const problem = passwordProblem(password);
  if (problem) return refuse(state, problem, password.length < PASSWORD_MIN ? 'password_too_short' : 'password_too_long');
  if (password !== confirm) return refuse(state, t('account-passwords-differ'), 'password_mismatch');
  return [http(state, 'signup', 'POST', '/api/signup', { name, password })];
}

export function login(state, { name, password }) {
  if (!name || !password) return refuse(state, t('account-give-name-password'), 'input');
  return [http(state, 'login', 'POST', '/api/login', { name, password })];
}

/** Ends this session, or with `everywhere` every session of the account. */
export const logout = (state, everywhere) =>
  [http(state, 'logout', 'POST', everywhere ? '/api/logout-all' : '/api/logout', {})];

export function changePassword(state, { old, password, confirm }) {
  const problem = passwordProblem(password);
  if (problem) return refuse(state, problem, 'password_too_short');
  if (password !== confirm) return refuse(state, t('account-passwords-differ'), 'password_mismatch');
  return [http(state, 'password', 'POST', '/api/password', { old, new: password })];
}

/** Token scopes: `play` (the terminal client, scripts) and `bot` (engines). */
export const SCOPES = ['play', 'bot'];

export function createToken(state, { name, scopes }) {
  const chosen = SCOPES.filter((s) => scopes.includes(s));
  if (!String(name || '').trim()) return refuse(state, t('account-token-needs-name'), 'input');
  if (!chosen.length) return refuse(state, t('account-token-needs-scope'), 'input');
  state.newToken = null;
  return [http(state, 'create-token', 'POST', '/api/tokens', { name: name.trim(), scopes: chosen })];
}

export const revokeToken = (state, id) =>
  [http(state, 'revoke-token', 'DELETE', `/api/tokens/${encodeURIComponent(id)}`)];

/** What the account pages fetch when shown (`actions.follow` asks on each page change). */
export function load(state) {
  const { page, id } = state.route;
  if (page === 'tokens') return [http(state, 'tokens', 'GET', '/api/tokens')];
  if (page === 'ladder') {
    state.ladder = { rungs: null };
    return [http(state, 'ladder', 'GET', '/api/ladder')];
  }
  if (page === 'profile') {
    state.profile = { name: id, user: null, games: null, history: null, page: 0, more: false, missing: false };
    const user = encodeURIComponent(id);
    // The games last: their pager waits while `busy` names them.
    return [http(state, 'user', 'GET', `/api/user/${user}`),
      http(state, 'rating-history', 'GET', `/api/user/${user}/rating-history`), gamesPage(state, 0)];
  }
  return [];
}

/** One page (from 0, as the server counts them) of the profile's finished games. */
export function gamesPage(state, page) {
  const p = state.profile;
  const effect = http(state, 'games', 'GET', `/api/user/${encodeURIComponent(p.name)}/games?page=${page}`);
  effect.http.page = page;
  return effect;
}

/**
 * The answer to `request`: `{status, body, retryAfter}` (status 0: the server was not
 * reached). Refusals go to `#notice` in the page's words, with their code.
 * @param {object} state
 * @param {HttpRequest} request
 * @param {{status: number, body: any, retryAfter: number}} response
 */
export function answered(state, request, response) {
  const { status, body } = response;
  if (state.busy === request.kind) state.busy = '';
  const ok = status >= 200 && status < 300;
  if (request.kind === 'user' && status === 404) {
    if (state.profile) state.profile.missing = true;
    return [];
  }
  if (!ok) return failed(state, request, response);
  switch (request.kind) {
    case 'signup':
    case 'login':
    case 'logout':
      return [{ reload: request.kind === 'logout' ? '/' : nextPath(state.search) }];
    case 'password':
      state.notice = { text: t('account-password-changed'), code: 'done' };
      return [];
    case 'tokens':
      state.tokens = body || [];
      return [];
    case 'create-token':
      state.newToken = { name: request.body.name, token: body.token };
      state.notice = { text: '', code: '' };
      return load(state);
    case 'revoke-token':
      return load(state);
    case 'user':
      if (state.profile) state.profile.user = body;
      return [];
    case 'rating-history':
      if (state.profile) state.profile.history = Array.isArray(body) ? body : [];
      return [];
    case 'ladder':
      if (state.ladder) state.ladder.rungs = Array.isArray(body) ? body : [];
      return [];
    case 'games':
      if (!state.profile) return [];
      state.profile.games = body.games;
      state.profile.page = body.page;
      // A full page: there may be more.
      state.profile.more = body.games.length >= body.per_page;
      return [];
    default:
      return [];
  }
}

function failed(state, request, { status, body, retryAfter }) {
  const error = body && body.error ? body.error : null;
  if (status === 0) return refuse(state, t('notice-not-sent'), 'offline');
  if (status === 401 && ['tokens', 'create-token', 'revoke-token', 'password'].includes(request.kind) && !error) {
    state.account = null;
    return refuse(state, t('account-not-logged-in'), 'unauthorized');
  }
  const id = error && `account-error-${error.code}`;
  let text = !error ? t('error-internal') : t(id) === id ? error.message : t(id);
  if (status === 429 && retryAfter > 0) text = t('account-retry-after', { text, seconds: retryAfter });
  // A login flood's `busy` says when to come back (1–3 s, spread by the server): say it too.
  else if (status === 503 && error && error.code === 'busy' && retryAfter > 0) {
    text = t('account-error-busy-retry', { seconds: retryAfter });
  }
  return refuse(state, text, error ? error.code : `http_${status}`);
}

/** A member's profile page. */
export const profilePath = (name) => `/@/${encodeURIComponent(name)}`;
