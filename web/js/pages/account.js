/**
 * The account pages, each at its own address (`/login`, `/signup`, `/account`,
 * `/account/tokens`; the profile `/@/{name}` is pages/profile.js) so password managers,
 * screen readers and scripts find them: built once, updated from the state. Loaded only on
 * their routes (render/index.js imports this module there), so the match page does not
 * carry them.
 * @module pages/account
 */

import { h, text, attr, show, list, logoutButtons } from '../render/dom.js';
import { dateText } from './dates.js';
import { NAME_RULE, PASSWORD_MIN, PASSWORD_MAX, SCOPES, profilePath } from '../account.js';
import { t } from '../i18n.js';
import { preferencesForm } from './preferences.js';

const field = (label, control, hint) => h('label', { class: 'field' }, h('span', {}, label), control,
  hint ? h('small', { class: 'hint', id: `${control.id}-hint` }, hint) : null);
const input = (attrs) => h('input', { required: true, 'aria-describedby': 'notice', ...attrs });
const notice = () => h('p', { id: 'notice', class: 'notice', role: 'alert' });
const card = (title, ...body) => h('section', { class: 'card account-card' }, h('h1', {}, title), ...body);

/** The notice, the form's button (off while its request is out), the page title. */
function common(state, box, button, busyKind, title) {
  text(box, state.notice.text);
  attr(box, 'data-code', state.notice.code || null);
  attr(button, 'disabled', state.busy === busyKind);
  document.title = `${title} – Boardcast`;
}

const pw = (id, name, complete, extra = {}) => input({
  id, name, type: 'password', autocomplete: complete, maxlength: String(PASSWORD_MAX), ...extra,
});

/**
 * The login and sign-up pages: one form each, the other page a link away (keeping `?next=`);
 * a member who opens one is told who they are instead.
 */
function entryPage(root, state, { title, kind, label, fields, other, hint }) {
  const search = new URLSearchParams(state.search || '');
  const next = search.get('next');
  const button = h('button', { type: 'submit', class: 'primary' }, label);
  const form = h('form', { id: `${kind}-form`, class: 'stack' }, ...fields, button,
    h('p', {}, other[0], ' ', h('a', { href: next ? `${other[1]}?next=${encodeURIComponent(next)}` : other[1] }, other[2])),
    h('p', { class: 'hint' }, hint));
  const note = h('p', { class: 'done' });
  const box = notice();
  // Sent here because the session ended elsewhere (a close with 4001): say so first.
  const ended = h('p', { id: 'session-ended', class: 'notice', role: 'status', hidden: kind !== 'login' || !search.has('ended') },
    t('login-session-ended'));
  root.replaceChildren(card(title, ended, form, note, box));
  return (s) => {
    show(form, !s.account);
    show(note, Boolean(s.account));
    if (s.account) text(note, t('account-logged-in-as', { name: s.account.name }));
    common(s, box, button, kind, title);
    return false;
  };
}

const nameInput = (id, extra = {}) => input({ id, name: 'name', autocomplete: 'username', maxlength: '20', autocapitalize: 'none', spellcheck: 'false', ...extra });

export const mountLogin = (root, state) => entryPage(root, state, {
  title: t('account-login-title'), kind: 'login', label: t('account-login-title'),
  fields: [field(t('account-name'), nameInput('login-name')), field(t('account-password'), pw('login-password', 'password', 'current-password'))],
  other: [t('account-no-account'), '/signup', t('account-signup-title')],
  hint: t('account-forgot'),
});

export const mountSignup = (root, state) => entryPage(root, state, {
  title: t('account-signup-title'), kind: 'signup', label: t('account-create'),
  fields: [
    field(t('account-name'), nameInput('signup-name', { minlength: '2', pattern: NAME_RULE.source.slice(1, -1), 'aria-describedby': 'signup-name-hint notice' }),
      t('account-name-hint')),
    field(t('account-password'), pw('signup-password', 'password', 'new-password', { minlength: String(PASSWORD_MIN), 'aria-describedby': 'signup-password-hint notice' }),
      t('account-password-hint', { count: PASSWORD_MIN })),
    field(t('account-password-again'), pw('signup-confirm', 'confirm', 'new-password')),
  ],
  other: [t('account-member-already'), '/login', t('account-login-title')],
  hint: t('account-signup-hint'),
});


/** A page only a member sees: what a guest sees instead (`what`: the key of its words). */
function membersOnly(what) {
  return h('p', { class: 'members-only' }, t(what), ' ',
    h('a', { href: `/login?next=${encodeURIComponent(location.pathname)}` }, t('account-login-title')));
}

/** A hint around the terminal's `boardcast login` command: the words before it and after. */
const aboutLogin = (before, after) => h('p', { class: 'hint' }, t(before), ' ', h('code', {}, 'boardcast login'), ' ', t(after));

export function mountAccount(root) {
  const button = h('button', { type: 'submit', class: 'primary' }, t('account-change-password'));
  const who = h('p', { class: 'who-line' });
  const profile = h('a', {}, t('account-your-profile'));
  const body = h('div', { class: 'stack' }, who,
    h('p', { class: 'links' }, profile, ' · ', h('a', { href: '/account/tokens' }, t('account-tokens-title'))),
    h('form', { id: 'password-form', class: 'stack', 'aria-labelledby': 'password-title' },
      h('h2', { id: 'password-title' }, t('account-change-password')),
      field(t('account-current-password'), pw('old-password', 'old', 'current-password')),
      field(t('account-new-password'), pw('new-password', 'password', 'new-password', { minlength: String(PASSWORD_MIN) })),
      field(t('account-new-password-again'), pw('new-confirm', 'confirm', 'new-password')),
      button, h('p', { class: 'hint' }, t('account-change-logs-out'))),
    preferencesForm(),
    h('h2', {}, t('account-sessions')), h('div', { class: 'actions' }, ...logoutButtons()),
    aboutLogin('account-sessions-before', 'account-sessions-after'));
  const guest = membersOnly('account-guest-account');
  const box = notice();
  const title = t('account-title');
  root.replaceChildren(card(title, body, guest, box));
  return (state) => {
    const a = state.account;
    show(body, Boolean(a));
    show(guest, state.accountKnown && !a);
    if (a) {
      const kind = a.admin ? 'admin' : a.bot ? 'bot' : 'member';
      text(who, t(`account-who-${kind}`, { name: a.name }));
      attr(profile, 'href', profilePath(a.name));
    }
    common(state, box, button, 'password', title);
    return false;
  };
}

export function mountTokens(root) {
  const button = h('button', { type: 'submit', class: 'primary' }, t('account-token-create'));
  const created = h('code', { id: 'new-token-value' });
  const fresh = h('div', { id: 'new-token', class: 'new-token', role: 'status', hidden: true },
    h('p', {}, h('strong', {}, t('account-token-copy-now'))), created,
    h('button', { type: 'button', 'data-action': 'copy-token' }, t('account-token-copy')));
  const rows = h('ul', { id: 'tokens', class: 'rows' });
  const body = h('div', { class: 'stack' },
    aboutLogin('account-token-about-before', 'account-token-about-after'),
    h('form', { id: 'token-form', class: 'stack', 'aria-labelledby': 'token-title' },
      h('h2', { id: 'token-title' }, t('account-token-new')),
      field(t('account-token-name'), input({ id: 'token-name', name: 'name', maxlength: '40', autocomplete: 'off' })),
      h('fieldset', { class: 'scopes' }, h('legend', {}, t('account-token-scopes')),
        ...SCOPES.map((scope) => h('label', { class: 'check' },
          h('input', { type: 'checkbox', name: 'scopes', value: scope, checked: scope === 'play' }),
          h('span', {}, scope)))),
      button),
    fresh, h('h2', {}, t('account-tokens-yours')), rows);
  const guest = membersOnly('account-guest-tokens');
  const box = notice();
  const title = t('account-tokens-title');
  root.replaceChildren(card(title, body, guest, box));
  return (state) => {
    show(body, Boolean(state.account));
    show(guest, state.accountKnown && !state.account);
    show(fresh, Boolean(state.newToken));
    text(created, state.newToken ? state.newToken.token : '');
    const tokens = state.tokens || [];
    list(rows, JSON.stringify(state.tokens), tokens, (token) => h('li', { class: 'row', 'data-token': token.id },
      h('span', {}, h('strong', {}, token.name), ` · ${(token.scopes || []).join(', ')}`),
      h('span', { class: 'tc' }, token.last_used
        ? t('account-token-created-used', { created: dateText(token.created_at), used: dateText(token.last_used) })
        : t('account-token-created', { created: dateText(token.created_at) })),
      h('button', { type: 'button', 'data-revoke': token.id, 'aria-label': t('account-token-revoke-name', { name: token.name }) }, t('account-token-revoke'))));
    if (state.tokens && !tokens.length && !rows.firstChild) rows.append(h('li', { class: 'empty' }, t('account-token-none')));
    common(state, box, button, 'create-token', title);
    return false;
  };
}

