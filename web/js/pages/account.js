/**
 * The account pages, each at its own address (`/login`, `/signup`, `/account`,
 * `/account/tokens`; the profile `/@/{name}` is pages/profile.js) so password managers,
 * screen readers and scripts find them: built once, updated from the state. Loaded only on
 * their routes (render/index.js imports this module there), so the match page does not
 * carry them.
 * @module pages/account
 */

import { h, text, attr, show, list, logoutButtons } from '../render/dom.js';
import { dateText } from '../format.js';
import { NAME_RULE, PASSWORD_MIN, PASSWORD_MAX, SCOPES, profilePath } from '../account.js';
import { t } from '../i18n.js';

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
    h('p', {}, other[0], h('a', { href: next ? `${other[1]}?next=${encodeURIComponent(next)}` : other[1] }, other[2])),
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
    if (s.account) text(note, `You are logged in as ${s.account.name}.`);
    common(s, box, button, kind, title);
    return false;
  };
}

const nameInput = (id, extra = {}) => input({ id, name: 'name', autocomplete: 'username', maxlength: '20', autocapitalize: 'none', spellcheck: 'false', ...extra });

export const mountLogin = (root, state) => entryPage(root, state, {
  title: 'Log in', kind: 'login', label: 'Log in',
  fields: [field('User name', nameInput('login-name')), field('Password', pw('login-password', 'password', 'current-password'))],
  other: ['No account yet? ', '/signup', 'Sign up'],
  hint: 'Forgot your password? A club admin can reset it.',
});

export const mountSignup = (root, state) => entryPage(root, state, {
  title: 'Sign up', kind: 'signup', label: 'Create account',
  fields: [
    field('User name', nameInput('signup-name', { minlength: '2', pattern: NAME_RULE.source.slice(1, -1), 'aria-describedby': 'signup-name-hint notice' }),
      '2 to 20 letters, digits, _ or -; nobody else can take it.'),
    field('Password', pw('signup-password', 'password', 'new-password', { minlength: String(PASSWORD_MIN), 'aria-describedby': 'signup-password-hint notice' }),
      `At least ${PASSWORD_MIN} characters; common or easily guessed ones are refused.`),
    field('Password again', pw('signup-confirm', 'confirm', 'new-password')),
  ],
  other: ['Already a member? ', '/login', 'Log in'],
  hint: 'No e-mail needed. Guests can keep playing without an account.',
});


/** A page only a member sees: what a guest sees instead. */
function membersOnly(what) {
  return h('p', { class: 'members-only' }, `Log in to see ${what}. `,
    h('a', { href: `/login?next=${encodeURIComponent(location.pathname)}` }, 'Log in'));
}

export function mountAccount(root) {
  const button = h('button', { type: 'submit', class: 'primary' }, 'Change password');
  const who = h('p', { class: 'who-line' });
  const profile = h('a', {}, 'Your profile and games');
  const body = h('div', { class: 'stack' }, who,
    h('p', { class: 'links' }, profile, ' · ', h('a', { href: '/account/tokens' }, 'Personal access tokens')),
    h('form', { id: 'password-form', class: 'stack', 'aria-labelledby': 'password-title' },
      h('h2', { id: 'password-title' }, 'Change password'),
      field('Current password', pw('old-password', 'old', 'current-password')),
      field('New password', pw('new-password', 'password', 'new-password', { minlength: String(PASSWORD_MIN) })),
      field('New password again', pw('new-confirm', 'confirm', 'new-password')),
      button, h('p', { class: 'hint' }, 'Changing it logs out every other device.')),
    h('h2', {}, 'Sessions'), h('div', { class: 'actions' }, ...logoutButtons()),
    h('p', { class: 'hint' }, 'Log out everywhere ends every login of your account, in browsers and ',
      h('code', {}, 'boardcast login'), '. Personal access tokens you made by name stay until you revoke them.'));
  const guest = membersOnly('your account');
  const box = notice();
  root.replaceChildren(card('Your account', body, guest, box));
  return (state) => {
    const a = state.account;
    show(body, Boolean(a));
    show(guest, state.accountKnown && !a);
    if (a) {
      text(who, `Logged in as ${a.name}${a.bot ? ' (bot account)' : ''}${a.admin ? ' (club admin)' : ''}.`);
      attr(profile, 'href', profilePath(a.name));
    }
    common(state, box, button, 'password', 'Your account');
    return false;
  };
}

export function mountTokens(root) {
  const button = h('button', { type: 'submit', class: 'primary' }, 'Create token');
  const created = h('code', { id: 'new-token-value' });
  const fresh = h('div', { id: 'new-token', class: 'new-token', role: 'status', hidden: true },
    h('p', {}, h('strong', {}, 'Copy your new token now: it is not shown again.')), created,
    h('button', { type: 'button', 'data-action': 'copy-token' }, 'Copy token'));
  const rows = h('ul', { id: 'tokens', class: 'rows' });
  const body = h('div', { class: 'stack' },
    h('p', {}, 'A token lets a program act as you (', h('code', {}, 'boardcast login'), ' makes its own).'),
    h('form', { id: 'token-form', class: 'stack', 'aria-labelledby': 'token-title' },
      h('h2', { id: 'token-title' }, 'New token'),
      field('Name', input({ id: 'token-name', name: 'name', maxlength: '40', autocomplete: 'off' })),
      h('fieldset', { class: 'scopes' }, h('legend', {}, 'Scopes'),
        ...SCOPES.map((scope) => h('label', { class: 'check' },
          h('input', { type: 'checkbox', name: 'scopes', value: scope, checked: scope === 'play' }),
          h('span', {}, scope)))),
      button),
    fresh, h('h2', {}, 'Your tokens'), rows);
  const guest = membersOnly('your tokens');
  const box = notice();
  root.replaceChildren(card('Personal access tokens', body, guest, box));
  return (state) => {
    show(body, Boolean(state.account));
    show(guest, state.accountKnown && !state.account);
    show(fresh, Boolean(state.newToken));
    text(created, state.newToken ? state.newToken.token : '');
    const tokens = state.tokens || [];
    list(rows, JSON.stringify(state.tokens), tokens, (t) => h('li', { class: 'row', 'data-token': t.id },
      h('span', {}, h('strong', {}, t.name), ` · ${(t.scopes || []).join(', ')}`),
      h('span', { class: 'tc' }, `created ${dateText(t.created_at)}${t.last_used ? ` · used ${dateText(t.last_used)}` : ''}`),
      h('button', { type: 'button', 'data-revoke': t.id, 'aria-label': `Revoke ${t.name}` }, 'Revoke')));
    if (state.tokens && !tokens.length && !rows.firstChild) rows.append(h('li', { class: 'empty' }, 'No tokens.'));
    common(state, box, button, 'create-token', 'Tokens');
    return false;
  };
}

