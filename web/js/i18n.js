/**
 * The player's language: the same Fluent catalogues as the terminal client
 * (`i18n/{en,nl,fy}.ftl`, fluent-bundle there), read here by a reader for the subset of
 * Fluent they use: `id = text` on one line, `#` comments, and `{ $name }` placeables, numbers
 * formatted by `Intl.NumberFormat` in the language. A catalogue line outside that subset
 * (a multi-line value, a selector) is refused loudly by `parseFtl`, so a catalogue edit
 * that the terminal would read and this page would not fails the browser test that loads it.
 * @module i18n
 */

export const LANGS = ['en', 'nl', 'fy'];
/** Each language's name in itself, for the menu (not translated, by design). */
export const ENDONYMS = { en: 'English', nl: 'Nederlands', fy: 'Frysk' };

/** `{ $name }`: the one kind of placeable the catalogues use. */
const PLACEABLE = /[{]\s*\$([a-z_]+)\s*[}]/g;

/** @type {{lang: string, messages: Map<string, string>}} */
const current = { lang: '', messages: new Map() };

/**
 * @param {string} source a `.ftl` file
 * @returns {Map<string, string>} message id → its pattern
 */
export function parseFtl(source) {
  const messages = new Map();
  for (const [i, line] of source.split('\n').entries()) {
    if (line.trim() === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z][a-zA-Z0-9_-]*) = (.*)$/.exec(line);
    if (!m || /[{}]/.test(m[2].replace(PLACEABLE, ''))) {
      throw new Error(`ftl line ${i + 1} is outside the subset this reader knows: ${line}`);
    }
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
  const pattern = current.messages.get(id);
  if (pattern === undefined) return id;
  return pattern.replace(PLACEABLE, (_, name) => {
    const value = args[name];
    return typeof value === 'number'
      ? new Intl.NumberFormat(current.lang).format(value)
      : String(value ?? '');
  });
}

/** A refusal in the player's language from its error code: in English the server's own
 * text (it names squares and limits), elsewhere the code's message; the server's text for
 * a code this page does not know. */
export function refusal(code, english) {
  const id = `error-${code}`;
  return current.lang !== 'en' && current.messages.has(id) ? t(id) : english;
}
