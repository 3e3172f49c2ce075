/**
 * render(state, now): the whole page from the state. Each page's DOM is built once when
 * the page (or the match/channel it shows) changes and updated in place afterwards.
 * @module render
 */

import { h, attr, text, pageHeading, logoutButtons } from './dom.js';
import { mountMatch } from './match.js';
import { profilePath } from '../account.js';
import { t, lang, withPageWords } from '../i18n.js';

const PAGE_NAMES = {
  lobby: 'lobby', match: 'match', invite: 'invite', tv: 'tv', game: 'game', ftv: 'ftv', missing: 'missing',
  login: 'login', signup: 'signup', account: 'account', tokens: 'tokens', profile: 'profile', ladder: 'ladder',
  events: 'events', event: 'event', rules: 'rules',
};

let mounted = { key: '', update: null };

/**
 * Draws `state`; returns true while something on the page keeps changing with time (a
 * running clock, a countdown), so the caller draws again soon.
 * @param {object} state
 * @param {HTMLElement} root
 * @param {number} now performance.now()
 */
export function render(state, root, now) {
  const page = PAGE_NAMES[state.route.page];
  attr(document.body, 'data-page', page);
  attr(document.body, 'data-conn', state.conn);
  text(document.getElementById('conn'), t(`conn-${state.conn}`));
  drawNav(page);
  // A page is built again in another language: its words are set as it is built.
  const key = `${page}:${state.route.id}:${lang()}`;
  if (mounted.key !== key) {
    mounted = { key, update: mount(page, root, state.route.id, state) };
  }
  drawWho(state);
  return mounted.update(state, now);
}

let whoKey = null;
let navLang = '';

/** The header's links, in the language spoken (index.html leaves them empty); the one of
 * `page` marked as where the reader is. */
function drawNav(page) {
  const nav = document.querySelectorAll('header.top nav a');
  const names = ['lobby', 'tv', 'events', 'ladder'];
  names.forEach((name, i) => attr(nav[i], 'aria-current', name === page && 'page'));
  if (navLang === lang()) return;
  navLang = lang();
  names.forEach((name, i) => text(nav[i], t(`web-nav-${name}`)));
  document.getElementById('lang')?.setAttribute('aria-label', t('web-language'));
}

/**
 * The header's account corner: "Log in · Sign up" for a guest; for a member a menu under
 * their name (profile, account, tokens, log out, log out everywhere). Drawn once `welcome`
 * has said who the page is, so it never flashes "Log in" at a member.
 */
function drawWho(state) {
  const slot = document.getElementById('who');
  const a = state.account;
  const key = `${lang()}:${!state.accountKnown ? '' : a ? `member:${a.name}` : `guest:${state.route.page}`}`;
  if (!slot || key === whoKey) return;
  whoKey = key;
  // Until the server says who this is, the guest's links hold their place unseen, so the
  // header does not grow (and the page shift) when they or a member's name appear.
  slot.classList.toggle('pending', !state.accountKnown);
  if (!state.accountKnown || !a) {
    const here = location.pathname;
    const next = ['login', 'signup'].includes(state.route.page) || here === '/' ? '' : `?next=${encodeURIComponent(here)}`;
    return slot.replaceChildren(h('a', { href: `/login${next}`, 'data-who': 'login' }, t('who-login')),
      h('a', { href: `/signup${next}`, 'data-who': 'signup' }, t('who-signup')));
  }
  slot.replaceChildren(h('details', { class: 'menu', id: 'account-menu' },
    h('summary', { 'data-who': 'member', 'aria-label': t('who-menu', { name: a.name }) }, a.name),
    h('div', { class: 'menu-items' },
      h('a', { href: profilePath(a.name) }, t('who-profile')),
      h('a', { href: '/account' }, t('who-account')),
      h('a', { href: '/account/tokens' }, t('who-tokens')),
      ...logoutButtons())));
}

function mount(page, root, id, state) {
  const accountPage = (mountWith) => later(root, import('../pages/account.js'), mountWith);
  if (page === 'login') return accountPage((m) => m.mountLogin(root, state));
  if (page === 'signup') return accountPage((m) => m.mountSignup(root, state));
  if (page === 'account') return accountPage((m) => m.mountAccount(root));
  if (page === 'tokens') return accountPage((m) => m.mountTokens(root));
  if (page === 'profile') return later(root, import('../pages/profile.js'), (m) => m.mountProfile(root, id));
  if (page === 'ladder') return later(root, import('../pages/ladder.js'), (m) => m.mountLadder(root));
  if (page === 'rules') return later(root, import('../pages/rules.js'), (m) => m.mountRules(root));
  if (page === 'events') return later(root, import('../pages/events.js'), (m) => m.mountEvents(root));
  if (page === 'event') return later(root, import('../pages/events.js'), (m) => m.mountEvent(root, id));
  // The lobby and MinitChess TV load on their routes too: the match page, the one a player
  // opens most, carries neither (nor their forms).
  if (page === 'lobby') return later(root, import('./lobby.js'), (m) => m.mountLobby(root));
  if (page === 'match') return mountMatch(root);
  if (page === 'invite') return mountInvite(root);
  if (page === 'ftv') return mountFrisianTv(root, id);
  if (page === 'tv' || page === 'game') return later(root, import('./minit.js'), (m) => m.mountMinit(root));
  root.replaceChildren(h('section', { class: 'card' }, h('h1', {}, t('missing-title')),
    h('p', {}, `${t('missing-text')} `), h('a', { href: '/' }, t('missing-lobby'))));
  return () => false;
}

/**
 * A page whose module loads only when it is opened (pages/*.js: the ladder, a profile with
 * its rating chart), so the match page never downloads them; the words only such pages use
 * (`i18n/pages-{lang}.ftl`) and their sheet (`css/pages.css`) come with it. Until the module has come the
 * page says it is loading, and asks to be drawn again soon (`true`) to mount it then; a page
 * left meanwhile is not mounted over the one shown.
 * @param {HTMLElement} root
 * @param {Promise<object>} loading the module's `import()`
 * @param {(module: object) => Function} mountWith
 */
function later(root, loading, mountWith) {
  loading = Promise.all([withPageWords(loading), pageStyle()]).then(([module]) => module);
  let update = null;
  let failed = false;
  const waiting = h('p', { class: 'loading' }, t('page-loading'));
  root.replaceChildren(h('section', { class: 'card' }, waiting));
  const self = (state, now) => {
    if (update) return update(state, now);
    if (failed) text(waiting, t('page-load-failed'));
    return !failed;
  };
  loading.then((module) => {
    if (mounted.update === self) update = mountWith(module);
  }, (error) => {
    console.error('page module failed to load:', error);
    failed = true;
  });
  return self;
}

/**
 * An invite link: the friend says their name (the one this browser remembers, filled in)
 * before the seat is taken; then the match page replaces this one.
 */
function mountInvite(root) {
  const name = h('input', {
    id: 'join-name', name: 'name', maxlength: '32', required: true, autocomplete: 'nickname',
    'aria-describedby': 'notice',
  });
  const take = h('button', { type: 'submit', class: 'primary' }, t('invite-take'));
  const notice = h('p', { id: 'notice', class: 'notice', role: 'alert' });
  root.replaceChildren(h('section', { class: 'card invite-card' },
    h('h1', {}, t('invite-title')),
    h('form', { id: 'join-form' },
      h('label', { class: 'field' }, h('span', {}, t('invite-name')), name),
      take),
    notice));
  let filled = false;
  return (state) => {
    if (!filled) {
      name.value = state.name;
      filled = true;
    }
    attr(take, 'disabled', state.ui.inviteAccepted);
    text(take, t(state.ui.inviteAccepted ? 'invite-taking' : 'invite-take'));
    text(notice, state.notice.text);
    attr(notice, 'data-code', state.notice.code || null);
    document.title = `${t('invite-page-title')} – Boardcast`;
    return false;
  };
}

/**
 * Frisian TV: the featured match's own page under a TV banner (built afresh for each match
 * TV moves on to), or a card while no public match has been played.
 */
function mountFrisianTv(root, matchId) {
  const about = h('span', {}, t('ftv-live'));
  const banner = h('p', { id: 'ftv-banner', class: 'tv-banner' }, h('strong', {}, t('lobby-ftv')), ' · ', about);
  if (!matchId) {
    root.replaceChildren(pageHeading(t('lobby-ftv')), h('section', { class: 'card' }, banner,
      h('p', { class: 'empty' }, t('ftv-none')),
      h('a', { href: '/' }, t('missing-lobby'))));
    return () => false;
  }
  const update = mountMatch(root);
  root.prepend(banner);
  return (state, now) => {
    // The featured match stays shown after its end until TV names the next: not as live.
    const over = state.match && state.match.phase === 'finished';
    text(about, t(over ? 'ftv-ended' : 'ftv-live'));
    return update(state, now);
  };
}

/** The sheet of the pages loaded on their own (`css/pages.css`), linked once; settles when
 * it applies (or failed: the page is then drawn unstyled rather than not at all). */
let pageSheet = null;
function pageStyle() {
  if (!pageSheet) {
    pageSheet = new Promise((settle) => {
      const link = h('link', { rel: 'stylesheet', href: new URL('../../css/pages.css', import.meta.url).href });
      link.addEventListener('load', settle);
      link.addEventListener('error', settle);
      document.head.append(link);
    });
  }
  return pageSheet;
}
