// Small DOM helpers shared by the pages.

import { ago, t } from "./words.js";

/**
 * Build an element: h("button", {class: "primary", onclick: f}, "Play").
 * Attributes starting with "on" become listeners; null/false attributes are skipped.
 */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    else if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (v === true) el.setAttribute(k, "");
    else el.setAttribute(k, v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

/** A link handled by the page router. */
export function link(href, ...children) {
  return h("a", { href, "data-link": true }, ...children);
}

let toastTimer = null;

/** A short message at the bottom of the screen (also read out by screen readers). */
export function toast(text, ms = 3500) {
  const box = document.getElementById("toast");
  if (!box) return;
  box.textContent = text;
  box.classList.add("show");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => box.classList.remove("show"), ms);
}

/** "3 minutes ago"-style text for an epoch time in seconds, in the page's language. */
export { ago };

/** m:ss or h:mm:ss or "2 d 3 h" for a number of seconds. */
export function clockText(s) {
  if (s === null || s === undefined) return "";
  s = Math.max(0, s);
  // TRANSLATORS: a clock of more than a day: days and hours, as short as can be
  if (s >= 86400) return t("{days} d {hours} h", { days: Math.floor(s / 86400), hours: Math.floor((s % 86400) / 3600) });
  const hh = Math.floor(s / 3600);
  const mm = Math.floor((s % 3600) / 60);
  const ss = Math.floor(s % 60);
  const two = (n) => String(n).padStart(2, "0");
  return hh ? `${hh}:${two(mm)}:${two(ss)}` : `${mm}:${two(ss)}`;
}

/** Replace an element's children, skipping null/false entries (h() does the same). */
export function fill(el, ...children) {
  el.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

let holds = 0;

/** Keep what `main` shows unseen (laid out, taking its room) until `ready` settles or
 * `ceiling` ms have passed: a page whose parts arrive one after another (the board, the
 * panels, pictures) then appears once, whole, instead of jumping as each part pushes the
 * next one down. "Loading…" shows meanwhile. The promise answered says when the page shows. */
export function holdUntil(main, ready, ceiling = 4000) {
  const hold = String(++holds);
  main.dataset.hold = hold;
  main.dataset.loading = t("Loading…");
  main.classList.add("filling");
  return new Promise((shown) => {
    const show = () => {
      if (main.dataset.hold === hold) main.classList.remove("filling");
      shown();
    };
    const timer = setTimeout(show, ceiling);
    Promise.resolve(ready)
      .catch(() => {})
      .then(() => {
        clearTimeout(timer);
        show();
      });
  });
}

/** A promise of the next frame painted on the screen (after what the page shows now). */
export function painted() {
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve())));
}

/** The images' sizes known (loaded, or failed): a promise. */
export function imagesReady(imgs) {
  return Promise.all(imgs.map((img) => (img.complete ? null : img.decode().catch(() => {}))));
}
