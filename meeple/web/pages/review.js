// The review of a finished game at /review/ID: each player's chance to win after every move as
// a chart (a line per player in their colour, the turning points marked), the turning points
// in words, and the moves of the player viewed where the search bot's choice was clearly
// better, each shown on the board of the replay with the better move marked.

import { ApiError, get, post } from "../api.js";
import { Board } from "../board.js";
import { fill, h, link } from "../dom.js";
import { playerColour, playerMark, playerNames } from "../players.js";
import { describeGame } from "./table.js";
import { markMove } from "./table_hint.js";
import { number, t } from "../words.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const POLL_MS = 700;

function svgEl(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  }
  for (const c of children) if (c) el.append(c);
  return el;
}


/** The chart of a review: one line per player, turning points marked (SVG element), drawn
 * ``width`` units wide so that, shown at that width, its words keep their size on a phone. */
export function chart(review, colours, names, width = 640) {
  const W = Math.max(300, Math.min(760, Math.round(width)));
  const H = 260;
  const left = 44;
  const top = 12;
  const w = W - left - 14;
  const hh = H - top - 34;
  const pts = review.points;
  const first = pts.length ? pts[0].move : 0;
  const last = Math.max(first + 1, pts.length ? pts[pts.length - 1].move : 1);
  const x = (m) => left + (w * (m - first)) / (last - first);
  const y = (c) => top + hh * (1 - c);
  const svg = svgEl("svg", {
    viewBox: `0 0 ${W} ${H}`, class: "review-chart", id: "review-chart", role: "img",
    "aria-label": t("Each player's chance to win after every move"),
  });
  for (const p of [0, 25, 50, 75, 100]) {
    svg.append(svgEl("line", { x1: left, x2: left + w, y1: y(p / 100), y2: y(p / 100), class: p % 100 ? "grid" : "axis" }));
    const tick = svgEl("text", { x: left - 6, y: y(p / 100) + 4, "text-anchor": "end", class: "tick" });
    tick.textContent = number(p / 100, { style: "percent" });
    svg.append(tick);
  }
  // The first point is the position play starts from (after any set-up), the last the end.
  // TRANSLATORS: the left end of the review chart's time line
  const ends = [[first, "start", t("start")], [last, "end", t("move {n}, the end", { n: last })]];
  for (const [m, anchor, words] of ends) {
    const tick = svgEl("text", { x: x(m), y: H - 14, "text-anchor": anchor, class: "tick" });
    tick.textContent = words;
    svg.append(tick);
  }
  for (let s = 0; s < review.players; s++) {
    const d = pts.map((p, i) => `${i ? "L" : "M"}${x(p.move).toFixed(1)} ${y(p.chances[s]).toFixed(1)}`).join(" ");
    const line = svgEl("path", { d, class: "chance-line", "data-player": s, stroke: colours[s].fill, fill: "none" });
    const tip = svgEl("title");
    tip.textContent = t("{name}'s chance to win", { name: names[s] });
    line.append(tip);
    svg.append(line);
  }
  for (const turn of review.turning) {
    const a = svgEl("a", { href: `/replay/${review.table}?move=${turn.move}`, class: "turning-link" });
    const dot = svgEl("circle", { cx: x(turn.move), cy: y(turn.after), r: 7, class: "turning-point", fill: colours[turn.who].fill, "data-move": turn.move });
    const tip = svgEl("title");
    tip.textContent = turn.words;
    dot.append(tip);
    a.append(dot);
    svg.append(a);
  }
  return svg;
}

export async function reviewPage(main, [id], query) {
  const { table } = await get(`/api/tables/${id}`);
  const gameInfo = await describeGame(table.game);
  document.title = t("Review: {game} · meeple", { game: table.title });
  if (table.status !== "finished") {
    fill(main,
      h("h1", {}, t("{game}: not finished yet", { game: table.title })),
      h("p", {}, t("A review is made once the game is over."), " ", link(`/table/${id}`, t("Back to the table"))),
    );
    return;
  }
  const names = playerNames(table.seats, table.players);
  const colours = table.seats.map((s) => playerColour(s, gameInfo, s.seat));
  const hidden = !gameInfo.perfect_information;
  const mine = table.seats.find((s) => s.mine);
  let seat = query.has("seat") && query.get("seat") !== "" ? +query.get("seat") : mine ? mine.seat : hidden ? 0 : null;

  const status = h("p", { id: "review-status", "aria-live": "polite" });
  const bar = h("progress", { id: "review-progress", max: 1, value: 0 });
  const chartEl = h("div", { class: "card review-chart-card", id: "review-chart-card" });
  const turningEl = h("div", { class: "card", id: "review-turning" });
  const betterEl = h("div", { class: "card", id: "review-better" });
  const boardEl = h("div", { id: "board" });
  const board = new Board(boardEl);
  const shownEl = h("div", { class: "card review-shown", id: "review-shown", hidden: true },
    h("p", { id: "review-shown-words" }), boardEl);
  const viewSel = h(
    "select",
    { id: "review-view", "aria-label": t("Whose review") },
    hidden ? null : h("option", { value: "" }, t("Everyone")),
    table.seats.map((s) => h("option", { value: s.seat }, t("{name}'s moves", { name: names[s.seat] }))),
  );
  viewSel.value = seat === null ? "" : String(seat);
  const key = h("ul", { class: "review-key" },
    table.seats.map((s) => h("li", {}, playerMark(colours[s.seat]), names[s.seat])));
  let timer = null;
  let alive = true;

  const q = () => (seat === null ? "" : `?seat=${seat}`);

  const showMove = async (b) => {
    const r = new URLSearchParams({ move: String(b.move) });
    if (seat !== null) r.set("seat", String(seat));
    const f = await get(`/api/tables/${id}/replay?${r}`);
    shownEl.hidden = false;
    board.show(f.svg, [], { enabled: false });
    markMove(boardEl, b.played, "played-mark");
    markMove(boardEl, b.best, "better-mark");
    fill(shownEl.querySelector("#review-shown-words"),
      b.words, " ",
      link(`/replay/${id}?${r}`, t("Open in the replay")));
    shownEl.scrollIntoView({ block: "nearest" });
  };

  const drawReview = (rv) => {
    rv.table = id;
    // The card's inner width: the chart is drawn at the size it is shown.
    const inner = chartEl.clientWidth - 2 * parseFloat(getComputedStyle(chartEl).paddingLeft || "0");
    fill(chartEl, h("h2", {}, t("Chance to win after each move")), key, chart(rv, colours, names, inner || 640));
    fill(turningEl, h("h2", {}, t("Turning points")),
      rv.turning.length
        ? h("ol", { class: "review-turning" }, rv.turning.map((turn) =>
            h("li", {}, turn.words, " ", link(`/replay/${id}?move=${turn.move}`, t("See it")))))
        : h("p", {}, t("No single move changed the chances by much.")));
    const who = seat === null ? null : names[seat];
    fill(betterEl, h("h2", {}, who ? t("Where the bot would have played better than {name}", { name: who }) : t("Better moves")),
      seat === null
        ? h("p", {}, t("Choose a player to see their moves the bot would have played differently."))
        : rv.better.length
          ? h("ol", { class: "review-better", id: "review-better-list" }, rv.better.map((b, i) =>
              h("li", {}, h("p", {}, b.words),
                h("button", { type: "button", class: "show-better", id: `show-better-${i}`, onclick: () => showMove(b) },
                  t("Show on the board")))))
          : h("p", {}, t("The bot found no clearly better move than {name}'s choices.", { name: who })));
  };

  const poll = async () => {
    timer = null;
    if (!alive) return;
    let r;
    try {
      r = await get(`/api/tables/${id}/review${q()}`);
    } catch (e) {
      status.textContent = e.message;
      return;
    }
    if (!alive) return;
    if (r.status === "none") {
      try {
        r = await post(`/api/tables/${id}/review${q()}`);
      } catch (e) {
        status.textContent = e instanceof ApiError && e.status === 401
          ? t("Sign in or play as a guest to start the review.")
          : e.message;
        return;
      }
    }
    bar.max = Math.max(1, r.total);
    bar.value = r.done;
    if (r.status === "running") {
      status.textContent = t("Estimating the chances: {done} of {total} positions…", { done: r.done, total: r.total });
      timer = setTimeout(poll, POLL_MS);
      return;
    }
    bar.hidden = true;
    if (r.status === "failed") {
      status.textContent = r.error || t("The review could not be made.");
      return;
    }
    status.textContent = "";
    drawReview(r.review);
  };

  // What the estimates rest on, in words: where hands or choices are hidden, only what the
  // player viewed could see at each move.
  const about = h("p", { class: "muted", id: "review-about" });
  const sayAbout = () => {
    about.textContent =
      hidden && seat !== null
        ? t("A search bot estimated each player's chance to win after every move, using only what {name} could see at the time.", { name: names[seat] })
        : t("A search bot estimated each player's chance to win after every move.");
  };
  sayAbout();

  viewSel.addEventListener("change", () => {
    seat = viewSel.value === "" ? null : +viewSel.value;
    sayAbout();
    history.replaceState(null, "", `/review/${id}${q()}`);
    shownEl.hidden = true;
    if (timer) clearTimeout(timer);
    bar.hidden = false;
    poll();
  });

  fill(main,
    h("h1", {}, t("Review: {game}", { game: table.title })),
    h("p", { class: "row" }, viewSel, " ",
      h("span", { class: "review-links" }, link(`/replay/${id}`, t("Replay")), " · ", link(`/table/${id}`, t("Final result")))),
    about,
    status, bar, chartEl, turningEl, betterEl, shownEl,
  );
  await poll();
  return () => {
    alive = false;
    if (timer) clearTimeout(timer);
  };
}
