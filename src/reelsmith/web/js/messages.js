/**
 * Every sentence the player reads comes from a message catalogue (`/web/i18n/<language>.json`,
 * one flat object of keys to text): `t('key', {name: value})` looks a key up in the player's
 * language, falling back to English, and fills `{name}` placeholders. A value may be an object
 * of plural forms (`{"one": "…", "other": "…"}`), chosen by `Intl.PluralRules` for the
 * `count` parameter. `loadMessages()` must have resolved before the first `t()`: call `t()`
 * when rendering, never at a module's top level.
 *
 * The language is the `lang` address parameter when given (and then remembered), else the one
 * remembered, else the browser's (`navigator.languages`), else English. Money and dates are
 * formatted for it (`locale()` combines it with the market's region).
 *
 * The banner and notices are here too: one banner for problems that need attention (with
 * actions such as Retry), short notices for everything else. Server error codes become
 * sentences of the catalogue.
 */
import { h } from './dom.js';
import { fileAddress } from './files.js';

/** The languages shipped; the first is the fallback for a missing key. */
export const LANGUAGES = ['en', 'de'];
const STORE_KEY = 'reelsmith.language';

const state = { language: 'en', catalogue: {}, fallback: {}, plurals: null };

async function readCatalogue(language) {
  // under optimised delivery the catalogue's name carries its content's hash (see files.js)
  const module = await import(fileAddress(`/web/i18n/${language}.json`), { with: { type: 'json' } });
  return module.default;
}

/** The first shipped language among `wanted` (BCP 47 tags such as "de-AT"), or null. */
export function matchLanguage(wanted) {
  for (const tag of wanted) {
    const primary = String(tag || '').toLowerCase().split(/[-_]/)[0];
    if (LANGUAGES.includes(primary)) return primary;
  }
  return null;
}

/** The language the player asked for: address parameter, remembered choice, browser. */
export function chooseLanguage() {
  const asked = new URLSearchParams(window.location.search).get('lang');
  if (asked && matchLanguage([asked])) {
    try {
      localStorage.setItem(STORE_KEY, matchLanguage([asked]));
    } catch {
      /* storage may be disabled; the address still decides */
    }
    return matchLanguage([asked]);
  }
  let stored = null;
  try {
    stored = localStorage.getItem(STORE_KEY);
  } catch {
    stored = null;
  }
  return matchLanguage([stored]) || matchLanguage(navigator.languages || [navigator.language]) || LANGUAGES[0];
}

/** Remember `language` as the player's choice (a setting); takes effect on the next load. */
export function rememberLanguage(language) {
  if (!LANGUAGES.includes(language)) throw new Error(`language "${language}" is not shipped (${LANGUAGES.join(', ')})`);
  localStorage.setItem(STORE_KEY, language);
}

/** Load the catalogue of `language` (default: chooseLanguage()) and its English fallback. */
export async function loadMessages(language = chooseLanguage()) {
  if (!LANGUAGES.includes(language)) throw new Error(`language "${language}" is not shipped (${LANGUAGES.join(', ')})`);
  const [fallback, catalogue] = await Promise.all([
    readCatalogue(LANGUAGES[0]),
    language === LANGUAGES[0] ? null : readCatalogue(language),
  ]);
  state.language = language;
  state.fallback = fallback;
  state.catalogue = catalogue ?? fallback;
  state.plurals = new Intl.PluralRules(language);
  document.documentElement.lang = language;
  return language;
}

/** The player's language ("en", "de"). */
export function language() {
  return state.language;
}

/**
 * The BCP 47 locale for formatting money, numbers and dates: the player's language with the
 * market's region ("en_IE" and German -> "de-IE"), or the market's locale when it is in the
 * player's language already.
 */
export function locale(marketLocale = '') {
  const [lang, region] = String(marketLocale || '').split(/[-_]/);
  if (lang && lang.toLowerCase() === state.language) return String(marketLocale).replace(/_/g, '-');
  const tag = region ? `${state.language}-${region}` : state.language;
  try {
    return Intl.getCanonicalLocales(tag)[0];
  } catch {
    return state.language;
  }
}

function fill(text, params) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Whether the catalogue (or its English fallback) has `key`. */
export function has(key) {
  return key in state.catalogue || key in state.fallback;
}

/** The text of `key` in the player's language, placeholders filled from `params`. */
export function t(key, params = {}) {
  let value = key in state.catalogue ? state.catalogue[key] : state.fallback[key];
  if (value === undefined) {
    console.error(`message catalogue: no text for "${key}"`);
    return key;
  }
  if (typeof value === 'object') {
    const count = Number(params.count);
    const form = state.plurals ? state.plurals.select(count) : 'other';
    value = value[form] ?? value.other;
  }
  return fill(value, params);
}

/** A date and time (Date or ISO text) in the player's language and the market's region. */
export function formatDate(value, marketLocale = '', options = { dateStyle: 'medium', timeStyle: 'medium' }) {
  const date = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat(locale(marketLocale), options).format(date);
}

/** A sentence for an ApiError (falls back to the server's own message). */
export function describe(error) {
  const key = `error.${error.code}`;
  if (error.code && has(key)) return t(key);
  return error.message || t('error.unknown');
}

export class Messages {
  constructor(banner, notices) {
    this.banner = banner;
    this.notices = notices;
  }

  /** The banner: `kind` error|warning|info; `actions`: [{label, run}]. */
  show(text, { kind = 'error', actions = [] } = {}) {
    this.banner.className = `banner banner-${kind}`;
    this.banner.dataset.kind = kind;
    this.banner.replaceChildren(
      h('p', { class: 'banner-text' }, text),
      ...actions.map((action) =>
        h('button', { type: 'button', class: 'btn btn-small', onclick: () => action.run() }, action.label),
      ),
      h('button', { type: 'button', class: 'btn-icon banner-close', 'aria-label': t('banner.dismiss'), onclick: () => this.clear() }, '×'),
    );
    this.banner.hidden = false;
  }

  error(error, options = {}) {
    this.show(describe(error), options);
  }

  clear() {
    this.banner.hidden = true;
    this.banner.replaceChildren();
  }

  /** The short notices still showing go at once (they told of what came before). */
  clearNotices() {
    this.notices.replaceChildren();
  }

  /** A short notice that fades by itself. */
  notice(text, ms = 3500) {
    const item = h('p', { class: 'notice' }, text);
    this.notices.append(item);
    setTimeout(() => item.remove(), ms);
  }
}
