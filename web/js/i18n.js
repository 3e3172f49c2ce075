/**
 * The player's language: the Fluent catalogues (`i18n/*.ftl`) the terminal reads with
 * fluent-bundle, read here for the subset they use (`id = text`, `#` comments, `{ $name }`,
 * one selector per message, plurals by `Intl.PluralRules`). `parseFtl` refuses any other
 * line, so the test comparing both readers (client/src/i18n.rs) fails on one.
 * @module i18n
 */

export const LANGS = ['en', 'nl', 'fy'];
/** Each language's own name, for the menu. */
export const ENDONYMS = { en: 'English', nl: 'Nederlands', fy: 'Frysk' };

/** `{ $name }`: the catalogues' one kind of placeable. */
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

/** The language this browser chose, else its first one we have, else English. */
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

/** A refusal in the player's language: from `args` (PROTOCOL.md §12.1) when the catalogue
 * words its reason (`later` gets one from the pages' file once it has come), else the code's
 * message (the server's text in English or if unknown). */
export function refusal(code, english, args, later) {
  const reasoned = args && args.reason ? `error-${code}-${args.reason}` : '';
  const worded = () => current.messages.has(reasoned) && t(reasoned, placeables(args));
  if (reasoned && worded()) return worded();
  if (reasoned && later) {
    withPageWords(null).then(() => worded() && (later(worded()), globalThis.dispatchEvent?.(new Event('words'))), () => 0);
  }
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

/** The words of pages loaded on their own (`pages-{lang}.ftl`), fetched once when needed. */
const pageWords = new Map();

/** `loading` (a page module's `import()`) once the page words are in the catalogue. */
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
