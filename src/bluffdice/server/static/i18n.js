// One message catalogue per language (i18n/en.json, i18n/ru.json); every page text comes from it.
const LANGS = ["en", "ru"];
let messages = {};
let fallback = {};

export function language() {
  const saved = localStorage.getItem("bluffdice.lang");
  if (LANGS.includes(saved)) return saved;
  const wanted = (navigator.language || "en").slice(0, 2);
  return LANGS.includes(wanted) ? wanted : "en";
}

export async function loadLanguage(lang) {
  const get = async (l) => (await fetch(`/static/i18n/${l}.json`)).json();
  const english = await get("en");
  useCatalogue(lang === "en" ? english : await get(lang), english);
  document.documentElement.lang = lang;
}

// The catalogue in use (also how tests outside a browser load one).
export function useCatalogue(catalogue, english = catalogue) {
  messages = catalogue;
  fallback = english;
}

export function setLanguage(lang) {
  localStorage.setItem("bluffdice.lang", lang);
}

// t("table.turn", {name: "Ann"}): the text with {name} filled in. Params are plain text,
// or {key, params} for a text of the catalogue itself (what a bad rule string is told
// names the values an option takes that way: rule.allowed.range).
export function t(key, params = {}) {
  const text = messages[key] ?? fallback[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name) => (name in params ? param(params[name]) : `{${name}}`));
}

function param(value) {
  return value !== null && typeof value === "object" && typeof value.key === "string"
    ? t(value.key, value.params || {}) : String(value);
}

// A text the server also sends in English (a preset's or a bot's description, a game's
// title): the catalogue's words under `key`, else the server's own.
export function tElse(key, english, params = {}) {
  return key in messages || key in fallback ? t(key, params) : english;
}

export function percent(p) {
  return `${Math.round(p * 100)}%`;
}
