// The browser's words in the page's language: the catalog of `/api/words/<lang>` (loaded once,
// before any page renders), `t` and `tn` to say a text, and numbers and dates the language's
// way. The texts in the code are the English ones; a text with no translation stays English.

/** The language of the page ("en", "de", "es" or "nl"), as the server wrote it in <html lang>. */
export const lang = (document.documentElement.lang || "en").slice(0, 2);

let catalog = { lang, languages: { en: "English" }, plural: ["one", "other"], texts: {} };
try {
  const r = await fetch(`/api/words/${encodeURIComponent(lang)}`, { credentials: "same-origin" });
  if (r.ok) catalog = await r.json();
} catch (e) {
  console.error(e);
}

/** The languages there are, each named in itself: {en: "English", de: "Deutsch", ...}. */
export const languages = catalog.languages || { en: "English" };

const texts = catalog.texts || {};
const categories = catalog.plural && catalog.plural.length ? catalog.plural : ["one", "other"];
const rules = new Intl.PluralRules(lang);
const numbers = new Intl.NumberFormat(lang);

/** A number written the language's way (1.234 in German). */
export function number(n, options) {
  if (typeof n !== "number" || !Number.isFinite(n)) return String(n);
  return options ? new Intl.NumberFormat(lang, options).format(n) : numbers.format(n);
}

function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const v = params[name];
    return typeof v === "number" ? number(v) : String(v ?? "");
  });
}

/** `text` in the page's language with its `{name}` placeholders filled from `params`
 * (numbers written the language's way: pass String(x) for ids and notation). */
export function t(text, params) {
  const said = texts[text];
  return fill(typeof said === "string" ? said : text, params);
}

/** The form of `singular`/`plural` for the count `n` (also the placeholder `{n}`). */
export function tn(singular, plural, n, params) {
  const forms = texts[singular];
  const all = { n, ...(params || {}) };
  if (Array.isArray(forms)) {
    const i = categories.indexOf(rules.select(n));
    const form = forms[i >= 0 ? i : forms.length - 1];
    if (form) return fill(form, all);
  }
  return fill(n === 1 ? singular : plural, all);
}

/** A date (epoch seconds) in the language: "1. Dez. 2026". */
export function date(seconds, options = { dateStyle: "medium" }) {
  return new Intl.DateTimeFormat(lang, options).format(new Date(seconds * 1000));
}

/** A date and time (epoch seconds) in the language. */
export function dateTime(seconds, options = { dateStyle: "medium", timeStyle: "short" }) {
  return new Intl.DateTimeFormat(lang, options).format(new Date(seconds * 1000));
}

const relative = new Intl.RelativeTimeFormat(lang, { numeric: "auto" });

/** How long ago an epoch time in seconds was ("vor 3 Minuten"); an older one as its date. */
export function ago(seconds) {
  if (!seconds) return "";
  const d = Date.now() / 1000 - seconds;
  if (d < 60) return t("just now");
  if (d < 3600) return relative.format(-Math.round(d / 60), "minute");
  if (d < 86400) return relative.format(-Math.round(d / 3600), "hour");
  if (d < 7 * 86400) return relative.format(-Math.round(d / 86400), "day");
  return date(seconds);
}
