// The client's words. Each is an English msgid of spieltisch's gettext catalogs
// (spieltisch/locale, the same catalogs as the server's words); the server hands the page its
// language's translations at /api/texts/<language>, and a word without one stays English.
//
// The server chose the page's language before its first paint (the account's choice, else the
// browser's kept choice in the cookie below, else its Accept-Language) and wrote it into
// <html lang>; a switch keeps the new choice in that cookie, so every page, link and tab of
// this browser opens in it (and the account's, when someone is signed in: common.js).
const STORE = "spieltisch.lang";  // where the choice was kept before the cookie
const COOKIE = "spieltisch_lang";
const LANGUAGES = ["en", "de"];
let current = firstLanguage();
// Every language's words are asked for as the page opens (the page's own awaited), so that a
// switch later needs no request.
const catalogs = Object.fromEntries(LANGUAGES.map((lang) => [lang, load(lang)]));
let catalog = await catalogs[current];
let redrawPage = () => {};

// Marks a msgid where it is written (for extraction) and translates nothing: t() does, later.
export const N_ = (msgid) => msgid;

// Marks a text that depends on a count: translated(), it is a function of the count.
class Plural {
  constructor(one, other) {
    Object.assign(this, { one, other });
  }
}
export const Nn_ = (one, other) => new Plural(one, other);

async function load(lang) {
  if (lang === "en") return {};
  try {
    const response = await fetch(`/api/texts/${lang}`);
    return response.ok ? await response.json() : {};
  } catch {
    return {};
  }
}

function fill(text, args) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

function keptInCookie() {
  const found = document.cookie.match(new RegExp(`(?:^|; )${COOKIE}=(\\w+)`));
  return found && LANGUAGES.includes(found[1]) ? found[1] : null;
}

function keep(lang) {
  document.cookie = `${COOKIE}=${lang}; path=/; max-age=${365 * 86400}; samesite=lax`;
  localStorage.setItem(STORE, lang);
}

// The server's choice; but a choice this browser kept before the cookie existed wins over its
// Accept-Language, and is moved into the cookie.
function firstLanguage() {
  const page = LANGUAGES.includes(document.documentElement.lang) ? document.documentElement.lang : "en";
  const before = localStorage.getItem(STORE);
  if (!keptInCookie() && LANGUAGES.includes(before) && before !== page) {
    keep(before);
    return before;
  }
  return page;
}

export function language() {
  return current;
}

// Show the page in ``lang`` and keep the choice; ``tell``: let the page's other parts know
// (the account keeps it too), which a switch the account itself asked for does not need.
export async function switchLanguage(lang, { tell = true } = {}) {
  if (!LANGUAGES.includes(lang) || lang === current) return;
  current = lang;
  keep(lang);
  catalog = await catalogs[lang];
  translatePage();
  redrawPage();
  if (tell) document.dispatchEvent(new CustomEvent("spieltisch:language", { detail: lang }));
}

export function t(msgid, args = {}) {
  const text = catalog[msgid];
  return fill(typeof text === "string" && text ? text : msgid, args);
}

// A board's words (msgids, in lists and objects as the board keeps them) in the page's
// language; kept until the language changes. Placeholders stay for the board to fill.
let translatedFor = null;
const translations = new Map();
function translate(texts) {
  if (typeof texts === "string") return t(texts);
  if (texts instanceof Plural) return (n, args = {}) => tn(texts.one, texts.other, n, args);
  if (Array.isArray(texts)) return texts.map(translate);
  return Object.fromEntries(Object.entries(texts).map(([key, text]) => [key, translate(text)]));
}

export function translated(texts) {
  if (translatedFor !== catalog) {
    translations.clear();
    translatedFor = catalog;
  }
  if (!translations.has(texts)) translations.set(texts, translate(texts));
  return translations.get(texts);
}

// A text that depends on a count: the catalog's form for n (English and German have two:
// one, and every other count).
export function tn(one, other, n, args = {}) {
  const index = new Intl.PluralRules(language()).select(n) === "one" ? 0 : 1;
  const forms = catalog[one];
  const text = Array.isArray(forms) && forms[index] ? forms[index] : [one, other][index];
  return fill(text, { n, ...args });
}

// Elements marked data-t: their English text (kept in data-t) in the page's language.
export function translatePage() {
  document.documentElement.lang = language();
  for (const node of document.querySelectorAll("[data-t]")) {
    if (!node.dataset.t) node.dataset.t = node.textContent;
    node.textContent = t(node.dataset.t);
  }
  const button = document.getElementById("language");
  if (button) {  // named by its words, in their own language
    button.textContent = language() === "de" ? "English" : "Deutsch";
    button.lang = language() === "de" ? "en" : "de";
  }
}

export function setupLanguage(redraw) {
  const button = document.getElementById("language");
  redrawPage = redraw;
  translatePage();
  button?.addEventListener("click", () => switchLanguage(current === "de" ? "en" : "de"));
}
