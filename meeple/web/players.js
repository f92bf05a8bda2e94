// How players look on every page: one name and one colour (with its symbol, so colour is never
// the only cue) per seat, and the one table of a finished game's final breakdown.

import { h } from "./dom.js";
import { number, t } from "./words.js";

/** A score as people write it: whole numbers without a decimal point. */
export function fmt(x) {
  if (typeof x !== "number") return String(x ?? "");
  return number(x, { maximumFractionDigits: Number.isInteger(x) ? 0 : Math.abs(x) < 10 ? 2 : 1, useGrouping: false });
}

/** A seat holder's name; an open seat (or one nobody holds yet) is "Player N", N from 1. */
export function playerName(p) {
  if (!p) return "?";
  return p.name || t("Player {n}", { n: p.seat + 1 });
}

/**
 * The display name of every seat of `players` ([{seat, name}]): the holder's name, and where
 * one name holds several seats (hot-seat), which player each is.
 */
export function playerNames(players, count = 0) {
  const bySeat = new Map((players || []).map((p) => [p.seat, p]));
  const n = Math.max(count, ...(players || []).map((p) => p.seat + 1), 0);
  const base = Array.from({ length: n }, (_, s) => playerName(bySeat.get(s) || { seat: s }));
  return base.map((name, s) => (base.filter((x) => x === name).length > 1 ? t("{name} (player {n})", { name, n: s + 1 }) : name));
}

const FALLBACK = { name: "grey", fill: "#8a8578", symbol: "●", ink: "#ffffff" };

/**
 * A seat's colour {name, fill, symbol, ink}: the one the server sends with the player, else
 * the game's seat colours from its description.
 */
export function playerColour(p, game, seat = p?.seat) {
  if (p && p.colour && p.colour.fill) return p.colour;
  const colours = (game && game.colours) || [];
  return colours.length ? colours[seat % colours.length] : FALLBACK;
}

/** The mark beside a player's name: a dot of the seat's colour showing its symbol. */
export function playerMark(colour) {
  const c = colour || FALLBACK;
  return h(
    "span",
    {
      class: "mark",
      "aria-hidden": "true",
      title: c.label || c.name,
      dataset: { colour: c.fill },
      style: `background:${c.fill};color:${c.ink || "#fff"}`,
    },
    c.symbol || "●",
  );
}

/** A player's mark and name together. */
export function playerLabel(name, colour) {
  return h("span", { class: "player-label" }, playerMark(colour), " ", name);
}

// ---- the final breakdown ----

/**
 * The score lines of a final breakdown (`[{player, parts: [{label, value}], total, note}]`);
 * without a breakdown, each player's score is the total.
 */
export function scoreLines(breakdown, scores = []) {
  if (Array.isArray(breakdown) && breakdown.length) {
    return breakdown.map((r, i) => ({
      player: r.player ?? i,
      parts: r.parts || [],
      total: r.total,
      note: r.note || "",
    }));
  }
  return scores.map((total, s) => ({ player: s, parts: [], total, note: "" }));
}

/**
 * The results table of a finished game, the same on every page: a row per player, best rank
 * first (rank, the player's mark and name, each part of the score, one Total), and the notes
 * on ties below. `names`, `colours` and `badges` (a word after the name: a bot's level) are
 * by seat; `ranks` by seat (1 = first).
 */
export function resultsTable(breakdown, { names = [], colours = [], ranks = [], scores = [], badges = {}, id } = {}) {
  const lines = scoreLines(breakdown, scores);
  const labels = [];
  for (const line of lines) for (const p of line.parts) if (!labels.includes(p.label)) labels.push(p.label);
  const order = [...lines].sort((a, b) => (ranks[a.player] ?? 0) - (ranks[b.player] ?? 0) || a.player - b.player);
  const nameOf = (s) => names[s] || t("Player {n}", { n: s + 1 });
  // Many parts: on a narrow screen each player's line is shown as a card of its own.
  const table = h(
    "table",
    { class: labels.length >= 3 ? "breakdown many" : "breakdown", id },
    h(
      "thead",
      {},
      h("tr", {}, h("th", { scope: "col" }, t("Rank")), h("th", { scope: "col" }, t("Player")),
        labels.map((l) => h("th", { scope: "col" }, l)), h("th", { scope: "col", class: "total" }, t("Total"))),
    ),
    h(
      "tbody",
      {},
      order.map((line) => {
        const parts = new Map(line.parts.map((p) => [p.label, p.value]));
        return h(
          "tr",
          { dataset: { seat: line.player } },
          h("td", { class: "rank", "data-label": t("Rank") }, ranks[line.player] ?? ""),
          h(
            "th",
            { scope: "row" },
            playerLabel(nameOf(line.player), colours[line.player]),
            badges[line.player] ? h("span", { class: "badge" }, badges[line.player]) : null,
          ),
          labels.map((l) => h("td", { "data-label": l }, h("span", { class: "value" }, parts.has(l) ? fmt(parts.get(l)) : ""))),
          h("td", { class: "total", "data-label": t("Total") }, h("strong", {}, line.total === undefined ? "" : fmt(line.total))),
        );
      }),
    ),
  );
  const notes = lines.filter((l) => l.note);
  return h(
    "div",
    { class: "results" },
    h("div", { class: "results-scroll" }, table),
    notes.length
      ? h("ul", { class: "results-notes muted" }, notes.map((l) => h("li", {}, t("{name}: {note}", { name: nameOf(l.player), note: l.note }))))
      : null,
  );
}
