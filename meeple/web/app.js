// The meeple page app: one index.html for every page route; this picks the page by path.

import { TurnSocket, api, get, post } from "./api.js";
import { h, link, toast } from "./dom.js";
import { lang, languages, t } from "./words.js";

const routes = [
  [/^\/(lobby)?$/, () => import("./pages/lobby.js").then((m) => m.lobbyPage)],
  [/^\/new$/, () => import("./pages/lobby.js").then((m) => m.newTablePage)],
  [/^\/(?:login|signup)$/, () => import("./pages/account.js").then((m) => m.loginPage)],
  [/^\/profile\/([^/]+)$/, () => import("./pages/profile.js").then((m) => m.profilePage)],
  [/^\/leaderboard(?:\/([^/]+))?\/?$/, () => import("./pages/leaderboard.js").then((m) => m.leaderboardPage)],
  [/^\/table\/([^/]+)$/, () => import("./pages/table.js").then((m) => m.tablePage)],
  [/^\/invite\/([^/]+)\/([^/]+)$/, () => import("./pages/table.js").then((m) => m.invitePage)],
  [/^\/replay\/([^/]+)$/, () => import("./pages/replay.js").then((m) => m.replayPage)],
  [/^\/review\/([^/]+)$/, () => import("./pages/review.js").then((m) => m.reviewPage)],
  [/^\/rules\/?$/, () => import("./pages/rules.js").then((m) => m.rulesIndexPage)],
  [/^\/rules\/([^/]+)$/, () => import("./pages/rules.js").then((m) => m.rulesPage)],
  [/^\/tutorial\/([^/]+)$/, () => import("./pages/tutorial.js").then((m) => m.tutorialPage)],
];

/** Who is signed in: {name, guest} or {name: null}; shared by the pages. */
export const session = { me: { name: null }, games: null, turns: 0 };

export async function refreshMe() {
  try {
    session.me = await get("/api/me");
  } catch (e) {
    session.me = { name: null };
  }
  renderWho();
  watchTurns();
  return session.me;
}

/** The games the server offers (cached): [{name, title, players, options, ...}]. */
export async function games() {
  if (!session.games) session.games = (await get("/api/games")).games;
  return session.games;
}

function renderWho() {
  const el = document.getElementById("who");
  if (!el) return;
  const me = session.me;
  if (!me.name) {
    el.replaceChildren(link("/login", t("Sign in")));
    return;
  }
  const logout = h(
    "button",
    {
      type: "button",
      onclick: async () => {
        await post("/api/logout");
        await refreshMe();
        navigate("/");
      },
    },
    t("Sign out"),
  );
  const turns = session.turns
    ? h("a", { href: "/#your-turn", "data-link": true, class: "badge turn", id: "turns-badge" }, t("Your turn: {count}", { count: session.turns }))
    : null;
  el.replaceChildren(
    ...[
      turns,
      link(`/profile/${encodeURIComponent(me.name)}`, me.guest ? t("{name} (guest)", { name: me.name }) : me.name),
      logout,
    ].filter(Boolean),
  );
}

let turnSocket = null;
let turnsOf = null;

/** How many tables wait for this person's move, in the header: the server tells it live
 * (`/ws/me`) whenever it changes; finished, aborted and abandoned tables never count. */
function watchTurns() {
  const name = session.me.name || null;
  if (name === turnsOf && (turnSocket || !name)) return;
  turnSocket?.close();
  turnSocket = null;
  turnsOf = name;
  if (session.turns) {
    session.turns = 0;
    renderWho();
  }
  if (!name) return;
  turnSocket = new TurnSocket((n) => {
    if (n === session.turns) return;
    session.turns = n;
    renderWho();
    document.dispatchEvent(new CustomEvent("meeple:turns", { detail: { count: n } }));
  });
}

let dispose = null;

/** Go to a page of the app without reloading. */
export function navigate(path, { replace = false } = {}) {
  if (replace) history.replaceState(null, "", path);
  else history.pushState(null, "", path);
  render();
}

async function render() {
  if (typeof dispose === "function") {
    try {
      dispose();
    } catch (e) {
      console.error(e);
    }
  }
  dispose = null;
  const main = document.getElementById("main");
  const path = location.pathname;
  for (const [re, load] of routes) {
    const m = re.exec(path);
    if (!m) continue;
    main.replaceChildren(h("p", { class: "loading" }, t("Loading…")));
    main.classList.remove("filling");
    // A table (and the guided game's) takes a wide screen's width from the start: its page
    // does not widen as it fills.
    main.classList.toggle("wide", /^\/(table|tutorial)\//.test(path));
    try {
      const page = await load();
      const params = m.slice(1).map((x) => (x === undefined ? x : decodeURIComponent(x)));
      dispose = await page(main, params, new URLSearchParams(location.search));
    } catch (e) {
      console.error(e);
      if (e && e.status === 404) notFound(main, t("There is no table, game or player at this address."));
      else main.replaceChildren(h("h1", {}, t("Something went wrong")), h("p", { class: "error" }, e.message));
    }
    return;
  }
  notFound(main);
}

/** The app's own "page not found": for an unknown path, or a table, game or player that does
 * not exist. */
function notFound(main, why = null) {
  document.title = t("Not found · meeple");
  main.replaceChildren(
    ...[h("h1", {}, t("Page not found")), why ? h("p", { class: "muted" }, why) : null, h("p", {}, link("/", t("Back to the lobby")))].filter(Boolean),
  );
}

document.addEventListener("click", (ev) => {
  const a = ev.target.closest && ev.target.closest("a[data-link]");
  if (!a || ev.ctrlKey || ev.metaKey || ev.shiftKey || a.target) return;
  const url = new URL(a.href, location.href);
  if (url.origin !== location.origin) return;
  ev.preventDefault();
  history.pushState(null, "", url.pathname + url.search + url.hash);
  render();
});
window.addEventListener("popstate", render);
window.addEventListener("unhandledrejection", (ev) => {
  if (ev.reason && ev.reason.message) toast(ev.reason.message);
});

/** The language switch in the header: each language named in itself; choosing one keeps the
 * page (the choice is kept by the server, then the same address loads again). */
function languageSwitch() {
  const slot = document.getElementById("language-slot");
  if (!slot || document.getElementById("language")) return;
  const sel = h(
    "select",
    { id: "language", class: "language", "aria-label": t("Language") },
    Object.entries(languages).map(([code, name]) => h("option", { value: code, lang: code, selected: code === lang }, name)),
  );
  sel.addEventListener("change", async () => {
    sel.disabled = true;
    try {
      await api("PUT", "/api/language", { lang: sel.value });
      location.reload();
    } catch (e) {
      sel.disabled = false;
      sel.value = lang;
      toast(e.message);
    }
  });
  slot.append(sel);
}

languageSwitch();
// The page's code loads while who is signed in is asked (render() then finds it loaded).
routes.find(([re]) => re.test(location.pathname))?.[1]().catch(() => {});
refreshMe().then(() => {
  render();
});
