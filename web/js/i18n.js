/**
 * The player's language: the Fluent catalogues the terminal client reads with fluent-bundle
 * (`i18n/*.ftl`), read here by a reader for the subset they use: `id = text` lines, `#`
 * comments, `{ $name }` placeables (numbers by `Intl.NumberFormat`), and one plural
 * selector over a number per message (`[one]`/`*[other]` variants, chosen by
 * `Intl.PluralRules` as fluent-bundle chooses by CLDR). `parseFtl` refuses any other line, so
 * the test comparing both readers (client/src/i18n.rs) fails on such an edit.
 * @module i18n
 */

export const LANGS = ['en', 'nl', 'fy'];
/** Each language's name in itself, for the menu (not translated, by design). */
export const ENDONYMS = { en: 'English', nl: 'Nederlands', fy: 'Frysk' };

/** `{ $name }`: the one kind of placeable the catalogues use. */
const PLACEABLE = /[{]\s*\$([a-z_]+)\s*[}]/g;

/** @typedef {string | {on: string, variants: Map<string, string>, other: string}} Message */

/** @type {{lang: string, messages: Map<string, Message>}} */
const current = { lang: '', messages: new Map() };

/**
 * @param {string} source a `.ftl` file
 * @returns {Map<string, Message>} message id → its pattern or selector
 */
export function parseFtl(source) {
  const messages = new Map();
  const lines = source.split('\n');
  const refuse = (i) => {
    throw new Error(`ftl line ${i + 1} is outside the subset this reader knows: ${lines[i]}`);
  };
  const plain = (text) => !/[{}]/.test(text.replace(PLACEABLE, ''));
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (line.trim() === '' || line.startsWith('#')) continue;
    const selector = /^([a-zA-Z][a-zA-Z0-9_-]*) =\s*$/.exec(line);
    if (selector) {
      const head = /^\s+[{]\s*\$([a-z_]+)\s*->\s*$/.exec(lines[++i] || '') || refuse(i);
      const variants = new Map();
      let other = null;
      for (i++; i < lines.length && !/^\s+[}]\s*$/.test(lines[i]); i++) {
        const v = /^\s+([*]?)\[([a-z]+)\] (.*)$/.exec(lines[i]);
        if (!v || !plain(v[3])) refuse(i);
        variants.set(v[2], v[3]);
        if (v[1]) other = v[3];
      }
      if (i >= lines.length || other === null) refuse(i);
      messages.set(selector[1], { on: head[1], variants, other });
      continue;
    }
    const m = /^([a-zA-Z][a-zA-Z0-9_-]*) = (.*)$/.exec(line);
    if (!m || !plain(m[2])) refuse(i);
    messages.set(m[1], m[2]);
  }
  return messages;
}

/** The language to speak: the one this browser chose before, else the first of the
 * browser's languages we have, else English. */
export function chooseLang(stored, browserLanguages) {
  if (stored && LANGS.includes(stored)) return stored;
  for (const tag of browserLanguages || []) {
    const lang = String(tag).toLowerCase().split('-')[0];
    if (LANGS.includes(lang)) return lang;
  }
  return 'en';
}

/** Speak `lang` from the catalogue text `source`. */
export function use(lang, source) {
  current.lang = lang;
  current.messages = parseFtl(source);
}

export function lang() {
  return current.lang || 'en';
}

/** The message `id` with `args`; the id itself when the catalogue lacks it. */
export function t(id, args = {}) {
  const message = current.messages.get(id);
  if (message === undefined) return id;
  const pattern = typeof message === 'string' ? message
    : message.variants.get(String(args[message.on]))
      ?? message.variants.get(new Intl.PluralRules(lang()).select(Number(args[message.on])))
      ?? message.other;
  return pattern.replace(PLACEABLE, (_, name) => {
    const value = args[name];
    return typeof value === 'number'
      ? new Intl.NumberFormat(current.lang).format(value)
      : value === undefined ? `{$${name}}` : String(value); // fluent-bundle's mark of a missing one
  });
}

/** A refusal in the player's language: from its reason and arguments when the server sent
 * them (`args`, PROTOCOL.md §12.1) and the catalogue words that reason; else in English the
 * server's own text and elsewhere the code's message; the server's text for a code this page
 * does not know. */
export function refusal(code, english, args) {
  const reasoned = args && args.reason ? `error-${code}-${args.reason}` : '';
  if (reasoned && current.messages.has(reasoned)) return t(reasoned, placeables(args));
  const id = `error-${code}`;
  return current.lang !== 'en' && current.messages.has(id) ? t(id) : english;
}

/** Placeables: the numbers and words, and what captures take (`taken`, `best`) in words. */
function placeables({ numbers = {}, words = {} }) {
  const out = { ...numbers, ...words };
  if ('kings' in numbers || 'men' in numbers) out.taken = taken(numbers.kings, numbers.men);
  if ('best_kings' in numbers || 'best_men' in numbers) out.best = taken(numbers.best_kings, numbers.best_men);
  return out;
}

/** "2 men", "1 king and 1 man" in the language. */
function taken(kings = 0, men = 0) {
  const k = t('taken-kings', { count: kings });
  const m = t('taken-men', { count: men });
  return kings && men ? t('taken-both', { kings: k, men: m }) : kings ? k : m;
}

/** The words only the pages loaded on their own use (`i18n/pages-{lang}.ftl`: the lobby,
 * MinitChess TV, the chat, the account pages, the ladder, club events), fetched once per
 * language beside such a page's module, so the match page never downloads them. */
const pageWords = new Map();

/**
 * `loading` (a page module's `import()`) once the page words of the language spoken have
 * come too, added to the catalogue in use.
 * @param {Promise<object>} loading
 * @returns {Promise<object>}
 */
export function withPageWords(loading) {
  const lang = current.lang;
  if (!pageWords.has(lang)) {
    const fetched = fetch(new URL(`../i18n/pages-${lang}.ftl`, import.meta.url)).then((response) => {
      if (!response.ok) throw new Error(`pages-${lang}.ftl: ${response.status}`);
      return response.text();
    }).then(parseFtl);
    fetched.catch(() => pageWords.delete(lang));
    pageWords.set(lang, fetched);
  }
  return Promise.all([loading, pageWords.get(lang)]).then(([module, words]) => {
    if (current.lang === lang) for (const [id, message] of words) current.messages.set(id, message);
    return module;
  });
}
