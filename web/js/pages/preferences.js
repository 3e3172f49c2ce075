/**
 * The account page's game preferences (issue 32): refusing "+15 s" from opponents in every
 * match. Stored on the account (`POST /api/preferences`), so the server applies it to each
 * seat the member takes, on any device or client; a guest chooses per browser on the match
 * page instead. Read back from `GET /api/account`. Its own requests, so the account page's
 * state machinery (account.js) is untouched.
 * @module pages/preferences
 */

import { h, text, attr } from '../render/dom.js';
import { t } from '../i18n.js';

/** The request as the page's other account requests make it (main.js `fetchJson`). */
const send = (method, path, body) => fetch(path, {
  method,
  headers: body ? { 'Content-Type': 'application/json' } : {},
  body: body ? JSON.stringify(body) : undefined,
  credentials: 'same-origin',
  cache: 'no-store',
  referrerPolicy: 'same-origin',
});

/** The form: a checkbox saved as it changes, and a line that says whether it was. */
export function preferencesForm() {
  const box = h('input', { type: 'checkbox', id: 'refuse-more-time', name: 'refuse_more_time', disabled: true });
  const said = h('p', { id: 'preferences-saved', class: 'hint', role: 'status' });
  const form = h('form', { id: 'preferences-form', class: 'stack', 'aria-labelledby': 'preferences-title' },
    h('h2', { id: 'preferences-title' }, t('preferences-title')),
    h('label', { class: 'check' }, box, ` ${t('preferences-refuse-more-time')}`),
    h('p', { class: 'hint' }, t('preferences-refuse-more-time-hint')), said);
  form.addEventListener('submit', (event) => event.preventDefault());
  send('GET', '/api/account').then((r) => (r.ok ? r.json() : null)).then((view) => {
    if (!view) return;
    box.checked = Boolean(view.refuse_more_time);
    attr(box, 'disabled', false);
  }, () => {});
  box.addEventListener('change', async () => {
    attr(box, 'disabled', true);
    let ok = false;
    try { ok = (await send('POST', '/api/preferences', { refuse_more_time: box.checked })).ok; } catch { ok = false; }
    if (!ok) box.checked = !box.checked;
    text(said, t(ok ? 'preferences-saved' : 'preferences-not-saved'));
    attr(said, 'data-saved', String(ok));
    attr(box, 'disabled', false);
  });
  return form;
}
