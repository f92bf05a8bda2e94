// The review of a finished game at /review/ID: each player's chance to win after every move as
// a chart (a line per player in their colour, the turning points marked), the turning points
// in words, and the moves of the player viewed where the search bot's choice was clearly
// better, each shown on the board of the replay with the better move marked.

import { ApiError, get, post } from "../api.js";
import { Board } from "../board.js";
import { fill, h, holdUntil, link } from "../dom.js";
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


/** A tidy step between the chart's move numbers: about one label per `room` units. */
function tickStep(span, width, room = 56) {
  const want = Math.max(1, span / Math.max(1, Math.floor(width / room)));
  for (const s of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]) if (s >= want) return s;
  return 1000;
}

/** The chart of a review (SVG element): one line per player, the turning points marked, the
 * move number (as the log numbers moves) along the bottom and the chance to win up the side;
 * each position is a tap target (`.chart-point`, the band of the chart nearest its move) that
 * calls `onPoint(point)`. Drawn ``width`` units wide and shown at that width (it spans its
 * card), so its words keep their size on a phone. */
export function chart(review, colours, names, width = 640, onPoint = null) {
  const W = Math.max(280, Math.round(width));
  const H = W < 500 ? 240 : 280;
  const left = 54;
  const top = 12;
  const w = W - left - 12;
  const hh = H - top - 52;
  const pts = review.points;
  const first = pts.length ? pts[0].move : 0;
  const last = Math.max(first + 1, pts.length ? pts[pts.length - 1].move : 1);
  const x = (m) => left + (w * (m - first)) / (last - first);
  const y = (c) => top + hh * (1 - c);
  const svg = svgEl("svg", {
    viewBox: `0 0 ${W} ${H}`, width: "100%", preserveAspectRatio: "xMidYMid meet",
    class: "review-chart", id: "review-chart", role: "group",
    "aria-label": t("Each player's chance to win after every move"),
  });
  const text = (attrs, words) => {
    const el = svgEl("text", attrs);
    el.textContent = words;
    return el;
  };
  for (const p of [0, 25, 50, 75, 100]) {
    svg.append(svgEl("line", { x1: left, x2: left + w, y1: y(p / 100), y2: y(p / 100), class: p % 100 ? "grid" : "axis" }));
    svg.append(text({ x: left - 6, y: y(p / 100) + 4, "text-anchor": "end", class: "tick" },
      number(p / 100, { style: "percent" })));
  }
  const step = tickStep(last - first, w);
  for (let m = Math.ceil(first / step) * step; m <= last; m += step) {
    svg.append(svgEl("line", { x1: x(m), x2: x(m), y1: top + hh, y2: top + hh + 4, class: "axis" }));
    svg.append(text({ x: x(m), y: top + hh + 17, "text-anchor": "middle", class: "tick x-tick" }, number(m)));
  }
  // TRANSLATORS: the review chart's axes: the move's number, as in the move log; each
  // player's chance to win there, in per cent
  svg.append(text({ x: left + w / 2, y: H - 8, "text-anchor": "middle", class: "axis-label", id: "review-axis-x" },
    t("Move number")));
  svg.append(text({ x: 0, y: 0, "text-anchor": "middle", class: "axis-label", id: "review-axis-y",
    transform: `translate(14 ${top + hh / 2}) rotate(-90)` }, t("Chance to win (%)")));
  for (let s = 0; s < review.players; s++) {
    const d = pts.map((p, i) => `${i ? "L" : "M"}${x(p.move).toFixed(1)} ${y(p.chances[s]).toFixed(1)}`).join(" ");
    const line = svgEl("path", { d, class: "chance-line", "data-player": s, stroke: colours[s].fill, fill: "none" });
    const tip = svgEl("title");
    tip.textContent = t("{name}'s chance to win", { name: names[s] });
    line.append(tip);
    svg.append(line);
  }
  svg.append(svgEl("line", { id: "review-cursor", class: "cursor", x1: 0, x2: 0, y1: top, y2: top + hh, visibility: "hidden" }));
  for (const turn of review.turning) {
    const dot = svgEl("circle", { cx: x(turn.move), cy: y(turn.after), r: 7, class: "turning-point", fill: colours[turn.who].fill, "data-move": turn.move });
    const tip = svgEl("title");
    tip.textContent = turn.words;
    dot.append(tip);
    svg.append(dot);
  }
  // The tap targets: each position owns the chart's full height nearest its move.
  const gap = w / (last - first);
  for (const p of pts) {
    const x0 = Math.max(left, x(p.move) - gap / 2);
    const x1 = Math.min(left + w, x(p.move) + gap / 2);
    const hit = svgEl("rect", {
      x: x0.toFixed(1), y: top, width: (x1 - x0).toFixed(1), height: hh, class: "chart-point",
      "data-move": p.move, "data-x": x(p.move).toFixed(1), tabindex: 0, role: "button",
      "aria-label": t("Show the board after move {n}", { n: p.move }),
    });
    if (onPoint) {
      hit.addEventListener("click", () => onPoint(p));
      hit.addEventListener("keydown", (ev) => {
        if (ev.key === "Enter" || ev.key === " ") {
          ev.preventDefault();
          onPoint(p);
        }
      });
    }
    svg.append(hit);
  }
  return svg;
}

/** Put the chart's cursor at move `m` (the position shown on the board). */
function pointAt(svgRoot, m) {
  const hit = svgRoot && svgRoot.querySelector(`.chart-point[data-move="${m}"]`);
  const cursor = svgRoot && svgRoot.querySelector("#review-cursor");
  if (!hit || !cursor) return;
  const cx = hit.getAttribute("data-x");
  cursor.setAttribute("x1", cx);
  cursor.setAttribute("x2", cx);
  cursor.setAttribute("visibility", "visible");
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
  // The progress shows in the chart's card, which the chart then fills; the cards below it
  // show with the review: nothing on the page moves down as it arrives.
  const chartEl = h("div", { class: "card review-chart-card", id: "review-chart-card" }, status, bar);
  const turningEl = h("div", { class: "card", id: "review-turning", hidden: true });
  const betterEl = h("div", { class: "card", id: "review-better", hidden: true });
  const boardEl = h("div", { id: "board" });
  const board = new Board(boardEl);
  const posEl = h("span", { id: "review-shown-pos", "aria-live": "polite" });
  const marksEl = h("ul", { class: "review-key", id: "review-board-key" });
  let shownAt = null; // the move the board shows, as the log numbers moves
  let moves = 0; // the game's moves, the last point's number
  const step = (d) => () => shownAt !== null && showPoint(Math.max(0, Math.min(moves, shownAt + d)));
  const shownEl = h("div", { class: "card review-shown", id: "review-shown", hidden: true },
    h("p", { class: "row review-steps" },
      h("button", { type: "button", id: "review-shown-back", onclick: step(-1) }, t("◀ Back")),
      posEl,
      h("button", { type: "button", id: "review-shown-forward", onclick: step(1) }, t("Forward ▶"))),
    h("p", { id: "review-shown-words" }), boardEl, marksEl);
  const viewSel = h(
    "select",
    { id: "review-view", "aria-label": t("Whose review") },
    hidden ? null : h("option", { value: "" }, t("Everyone")),
    table.seats.map((s) => h("option", { value: s.seat }, t("{name}'s moves", { name: names[s.seat] }))),
  );
  viewSel.value = seat === null ? "" : String(seat);
  // The chart's legend: each player's line in their colour, and the turning points' dots.
  const key = h("ul", { class: "review-key", id: "review-key" },
    table.seats.map((s) => h("li", { dataset: { legend: `player-${s.seat}` } },
      h("span", { class: "key-line", style: `background:${colours[s.seat].fill}`, "aria-hidden": "true" }),
      playerMark(colours[s.seat]), names[s.seat])),
    h("li", { dataset: { legend: "turning-point" } },
      h("span", { class: "key-dot", "aria-hidden": "true" }), t("Turning point: a move that changed a chance to win by much")));
  // The marks a better move puts on the board, explained under it.
  const BOARD_MARKS = [
    ["played-mark", () => t("The move played")],
    ["better-mark", () => t("The bot's better move")],
  ];
  const sayMarks = () => {
    fill(marksEl, BOARD_MARKS.filter(([cls]) => boardEl.querySelector(`.${cls}`)).map(([cls, words]) =>
      h("li", { dataset: { legend: cls } }, h("span", { class: `key-mark ${cls}`, "aria-hidden": "true" }), words())));
  };
  let timer = null;
  let alive = true;

  const q = () => (seat === null ? "" : `?seat=${seat}`);

  // The board after move `n` (as the log numbers moves), with `b`'s marks for a better move.
  const show = async (n, b = null) => {
    const r = new URLSearchParams({ move: String(n) });
    if (seat !== null) r.set("seat", String(seat));
    const ask = new URLSearchParams({ number: String(n) });
    if (seat !== null) ask.set("seat", String(seat));
    const f = await get(`/api/tables/${id}/replay?${ask}`);
    shownAt = f.number;
    moves = f.moves;
    shownEl.hidden = false;
    board.show(f.svg, [], { enabled: false });
    if (b) {
      markMove(boardEl, b.played, "played-mark");
      markMove(boardEl, b.best, "better-mark");
    }
    sayMarks();
    posEl.textContent = t("Move {i} of {n}", { i: f.number, n: f.moves });
    pointAt(chartEl.querySelector("#review-chart"), f.number);
    fill(shownEl.querySelector("#review-shown-words"),
      b ? b.words : "", " ",
      link(`/replay/${id}?${r}`, t("Open in the replay")));
    shownEl.scrollIntoView({ block: "nearest" });
  };
  const showMove = (b) => show(b.move, b);
  const showPoint = (n) => show(n);

  const drawReview = (rv) => {
    rv.table = id;
    // The card's inner width: the chart is drawn at the size it is shown.
    const inner = chartEl.clientWidth - 2 * parseFloat(getComputedStyle(chartEl).paddingLeft || "0");
    fill(chartEl, h("h2", {}, t("Chance to win after each move")),
      chart(rv, colours, names, inner || 640, (p) => showPoint(p.move)), key,
      rv.ending ? h("p", { id: "review-ending" }, rv.ending) : null);
    turningEl.hidden = false;
    betterEl.hidden = false;
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
    if (!chartEl.contains(bar)) fill(chartEl, status, bar);
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
    fill(chartEl, status, bar);
    bar.hidden = false;
    poll();
  });

  fill(main,
    h("h1", {}, t("Review: {game}", { game: table.title })),
    h("p", { class: "row" }, viewSel, " ",
      h("span", { class: "review-links" }, link(`/replay/${id}`, t("Replay")), " · ", link(`/table/${id}`, t("Final result")))),
    about,
    chartEl, turningEl, betterEl, shownEl,
  );
  const first = poll();
  holdUntil(main, first);
  await first;
  return () => {
    alive = false;
    if (timer) clearTimeout(timer);
  };
}
