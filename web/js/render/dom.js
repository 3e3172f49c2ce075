/**
 * Small helpers to build elements once and then update them in place, writing only what
 * changed. Text always goes through textContent: server strings are never parsed as HTML.
 * @module render/dom
 */

import { t } from '../i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

/**
 * An HTML element: `h('button', {type: 'button', 'data-action': 'flip'}, 'Flip')`.
 * @param {string} tag
 * @param {Record<string, string|number|boolean|null>} [attrs]
 * @param {...(Node|string)} children
 */
export function h(tag, attrs = {}, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, like `h`. */
export function s(tag, attrs = {}, ...children) {
  return fill(document.createElementNS(SVG_NS, tag), attrs, children);
}

function fill(el, attrs, children) {
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === false || value === undefined) continue;
    el.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    el.append(typeof child === 'string' ? document.createTextNode(child) : child);
  }
  return el;
}

export function text(el, value) {
  const t = String(value);
  if (el.textContent !== t) el.textContent = t;
}

export function attr(el, name, value) {
  if (value === null || value === undefined || value === false) {
    if (el.hasAttribute(name)) el.removeAttribute(name);
    return;
  }
  const v = value === true ? '' : String(value);
  if (el.getAttribute(name) !== v) el.setAttribute(name, v);
}

export function cls(el, name, on) {
  if (el.classList.contains(name) !== Boolean(on)) el.classList.toggle(name, Boolean(on));
}

export function show(el, on) {
  if (el.hidden === Boolean(on)) el.hidden = !on;
}

/**
 * Replaces `el`'s children with `make(item)` for each item, but only when `key` changed
 * since the last call (lists are short; rebuilding them beats diffing them).
 */
const listKeys = new WeakMap();

export function list(el, key, items, make) {
  if (listKeys.get(el) === key) return;
  listKeys.set(el, key);
  el.replaceChildren(...items.map(make));
}

/**
 * A player's name, after a `BOT` tag (`[data-bot]`) when a program plays the seat: a tag in
 * its own colours, so nobody passes for a program by their name alone; and `(guest)` after
 * a name no account holds, so nobody passes for a member either.
 * @param {{name: string, bot: boolean, account?: boolean}} p
 */
export function playerName(p) {
  return h('span', { class: 'player-name' }, p.bot ? botTag() : null, p.name,
    p.account ? null : h('span', { class: 'guest' }, ' (guest)'));
}

/**
 * Puts the link `a` in `slot` while it leads somewhere and takes it out otherwise: an `<a>`
 * without `href` is no link to a screen reader or a crawler, hidden or not.
 */
export function linkTo(slot, a, href) {
  if (href) {
    attr(a, 'href', href);
    if (a.parentNode !== slot) slot.append(a);
  } else if (a.parentNode) {
    a.remove();
  }
}

/** A place for a `linkTo` link; it takes no room of its own in the layout. */
export const linkSlot = () => h('span', { class: 'link-slot' });

/** The page's one `h1`, for screen readers and outlines (the page shows its name already). */
export const pageHeading = (title) => h('h1', { class: 'sr-only' }, title);

/** The `BOT` tag itself. */
export const botTag = () => h('abbr', { class: 'bot-tag', 'data-bot': '', title: t('player-bot') }, 'BOT');

/** Log out here, or everywhere: on the account page and in the header's menu (every page). */
export const logoutButtons = () => [
  h('button', { type: 'button', 'data-account': 'logout' }, t('who-logout')),
  h('button', { type: 'button', 'data-account': 'logout-all' }, t('who-logout-all')),
];
