// Replays of finished games: step forward and back, view as each player or the public view.

import { get, tokensFor } from "../api.js";
import { Board } from "../board.js";
import { fill, h, link } from "../dom.js";
import { fmt, playerColour, playerMark, playerNames, resultsTable } from "../players.js";
import { botBadge, describeGame, hasTower, logLine, logWho } from "./table.js";
import { t } from "../words.js";

/** The log line of the move `move` (numbered as the log numbers moves, which the replay
 * steps through): its index in `log`, or -1 at the start. */
export function currentLine(log, move) {
  if (move <= 0) return -1;
  return log.findIndex((m) => m.number === move);
}

/** The review of a finished table: as the seat in view where this person holds it, else as
 * the first seat they hold, else the public review. */
export function reviewHref(table, seat) {
  const held = new Set(Object.keys(tokensFor(table.id)).map(Number));
  for (const s of table.seats || []) if (s.mine) held.add(s.seat);
  const as = seat !== null && held.has(seat) ? seat : held.size ? Math.min(...held) : null;
  return `/review/${encodeURIComponent(table.id)}${as === null ? "" : `?seat=${as}`}`;
}

export async function replayPage(main, [id], query) {
  const { table } = await get(`/api/tables/${id}`);
  const gameInfo = await describeGame(table.game);
  document.title = t("Replay: {game} · meeple", { game: table.title });
  if (table.status !== "finished") {
    fill(main, 
      h("h1", {}, t("{game}: not finished yet", { game: table.title })),
      h("p", {}, t("Replays open when the game is over."), " ", link(`/table/${id}`, t("Watch it live"))),
    );
    return;
  }
  // `move`: the moves made so far, numbered as the log numbers them (the set-up and chance
  // steps are no moves: each position is after a move, the chance that follows it resolved)
  let move = query.has("move") ? +query.get("move") : 0;
  let seat = query.has("seat") && query.get("seat") !== "" ? +query.get("seat") : null;
  let total = move;
  const boardEl = h("div", { id: "board" });
  const board = new Board(boardEl);
  const pos = h("span", { id: "replay-pos", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 0, max: total, value: move, "aria-label": t("Move"), id: "replay-slider" });
  const playersEl = h("ul", { class: "players" });
  const resultEl = h("div", { id: "replay-result" });
  let names = playerNames(table.seats, table.players);
  let players = table.seats;
  const colourOf = (s) => playerColour(players.find((p) => p.seat === s), gameInfo, s);
  const logEl = h("ol", { class: "log", id: "log" });
  const viewSel = h(
    "select",
    { id: "replay-view", "aria-label": t("View as") },
    h("option", { value: "" }, t("Public view")),
    table.seats.map((s) => h("option", { value: s.seat }, t("As {name}", { name: names[s.seat] }))),
  );
  viewSel.value = seat === null ? "" : String(seat);
  let tower = null;
  let pending = null;
  let shownMove = null;

  const load = async () => {
    const q = new URLSearchParams({ move: String(move) });
    if (seat !== null) q.set("seat", String(seat));
    const ask = new URLSearchParams(q);
    ask.delete("move");
    ask.set("number", String(move));
    const token = {};
    pending = token;
    const f = await get(`/api/tables/${id}/replay?${ask}`);
    if (pending !== token) return;
    total = f.moves ?? total;
    slider.max = total;
    slider.value = move;
    history.replaceState(null, "", `/replay/${id}?${q}`);
    pos.textContent = t("Move {i} of {n}", { i: move, n: total });
    board.show(f.svg, [], { enabled: false, moved: shownMove !== null && move === shownMove + 1 });
    shownMove = move;
    if (f.players && f.players.length) {
      players = f.players;
      names = playerNames(players, table.players);
    }
    const scores = f.observation?.scores || [];
    const toMove = new Set(f.to_move || f.observation?.pending || []);
    fill(playersEl, 
      ...table.seats.map((s) =>
        h(
          "li",
          { class: toMove.has(s.seat) ? "to-act" : "", dataset: { seat: s.seat } },
          playerMark(colourOf(s.seat)),
          h(
            "span",
            { class: "name" },
            names[s.seat],
            s.kind === "bot" && botBadge(players.find((p) => p.seat === s.seat) || s) ? h("span", { class: "badge" }, botBadge(players.find((p) => p.seat === s.seat) || s)) : null,
          ),
          h("span", { class: "score" }, scores[s.seat] !== undefined ? fmt(scores[s.seat]) : ""),
        ),
      ),
    );
    const log = f.log || [];
    const current = currentLine(log, move);
    fill(logEl, 
      ...log.map((m, i) =>
        logLine(m, logWho(m.player, names, colourOf), { class: i === current ? "current" : null }),
      ),
    );
    reviewLink.setAttribute("href", reviewHref(table, seat));
    const cur = logEl.querySelector(".current");
    if (cur) logEl.scrollTop = cur.offsetTop - logEl.clientHeight / 2;
    const breakdown = f.observation?.final_breakdown;
    if (move === total && breakdown) {
      const res = table.result || {};
      fill(resultEl, h("div", { class: "card final" }, h("h2", {}, t("Final result")),
        resultsTable(breakdown, {
          names,
          colours: names.map((_, s) => colourOf(s)),
          ranks: res.ranks || f.observation?.ranks || [],
          scores: res.scores || f.observation?.scores || [],
          badges: Object.fromEntries(players.filter((p) => p.kind === "bot").map((p) => [p.seat, botBadge(p)])),
          id: "replay-scores",
        })));
    } else {
      fill(resultEl);
    }
    if (hasTower(gameInfo)) {
      if (!tower) {
        try {
          const { KozoView } = await import("../kozo3d.js");
          tower = new KozoView(view3d);
          view3d.hidden = false;
        } catch (e) {
          tower = { update() {}, dispose() {} }; // the plan still shows the tower
        }
      }
      tower.update(f.observation, null, names);
    }
  };
  const go = (n) => {
    move = Math.max(0, Math.min(total, n));
    load();
  };
  slider.addEventListener("input", () => go(+slider.value));
  viewSel.addEventListener("change", () => {
    seat = viewSel.value === "" ? null : +viewSel.value;
    load();
  });
  const btn = (label, id2, fn, key) => h("button", { type: "button", id: id2, onclick: fn, "aria-keyshortcuts": key }, label);
  const view3d = h("div", { id: "view3d", hidden: true });
  const reviewLink = h("a", { href: reviewHref(table, seat), "data-link": true, id: "review-link" }, t("Review of the game"));
  fill(main, 
    h("h1", {}, t("Replay: {game}", { game: table.title })),
    h(
      "div",
      { class: "replay-controls" },
      btn(t("« Start"), "replay-first", () => go(0), "Home"),
      btn(t("◀ Back"), "replay-back", () => go(move - 1), "ArrowLeft"),
      slider,
      btn(t("Forward ▶"), "replay-forward", () => go(move + 1), "ArrowRight"),
      btn(t("End »"), "replay-last", () => go(total), "End"),
      pos,
      viewSel,
    ),
    h(
      "div",
      { class: "table-layout" },
      h("div", {}, view3d, boardEl, resultEl),
      h(
        "aside",
        { class: "side" },
        h("div", { class: "card" }, h("h2", {}, t("Players")), playersEl),
        h("div", { class: "card" }, h("h2", {}, t("Moves")), logEl),
        h("p", {}, link(`/table/${id}`, t("Final result")), " · ", reviewLink, " · ", link(`/rules/${table.game}`, t("Rules"))),
      ),
    ),
  );
  const onKey = (ev) => {
    if (ev.target.tagName === "INPUT" && ev.target.type !== "range") return;
    if (ev.key === "ArrowRight" && ev.target !== slider) go(move + 1);
    else if (ev.key === "ArrowLeft" && ev.target !== slider) go(move - 1);
    else if (ev.key === "Home") go(0);
    else if (ev.key === "End") go(total);
  };
  document.addEventListener("keydown", onKey);
  await load();
  return () => {
    document.removeEventListener("keydown", onKey);
    tower?.dispose();
  };
}
