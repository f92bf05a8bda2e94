// The guided first game at /tutorial/GAME: short steps on the real board (the same Board as a
// table), each saying what to do and why, pointing at where; the server checks each move
// against the step (POST /api/learn/GAME/steps/N/check) and says why another move is not it.
// The guided game is played to its end: the last step's move shows its final scoring (the
// same results table as a table's). Then a button makes a table against the easiest bot and
// goes to it.

import { get, keepTokens, post } from "../api.js";
import { navigate, session } from "../app.js";
import { Board } from "../board.js";
import { KozoPicker } from "../kozo_pick.js";
import { fill, h, holdUntil, link } from "../dom.js";
import { playerColour, resultsTable } from "../players.js";
import { guestForm } from "./account.js";
import { describeGame } from "./table.js";
import { aidBody } from "./table_aid.js";
import { t } from "../words.js";

/** Mark the elements a step points at (and only those). */
function pointAt(root, ids) {
  for (const el of root.querySelectorAll(".tutorial-here")) el.classList.remove("tutorial-here");
  for (const id of ids) {
    const el = root.querySelector("#" + CSS.escape(id));
    if (el) el.classList.add("tutorial-here");
  }
}

export async function tutorialPage(main, [name]) {
  const info = await get(`/api/learn/${encodeURIComponent(name)}`);
  document.title = t("Learn to play {game} · meeple", { game: info.title });
  const progress = h("p", { class: "tutorial-progress muted", id: "tutorial-progress" });
  const title = h("h2", { id: "tutorial-title" });
  const text = h("p", { class: "tutorial-text", id: "tutorial-text" });
  const feedback = h("div", { class: "tutorial-feedback", id: "tutorial-feedback", "aria-live": "polite" });
  const next = h("button", { type: "button", class: "primary", id: "tutorial-next", hidden: true }, t("Next step"));
  const boardEl = h("div", { id: "board", class: "tutorial-board" });
  const aid = h(
    "details",
    { class: "aid card", id: "aid" },
    h("summary", {}, t("Player aid")),
    h("p", { class: "aid-now", id: "aid-now" }),
    ...aidBody(info.aid),
  );
  aid.open = !window.matchMedia("(max-width: 700px)").matches;
  const step = h("section", { class: "card tutorial-step" }, progress, title, text, feedback, next);
  let index = 0;
  let busy = false;
  let view = null;

  const board = new Board(boardEl, {
    onChoose: async (a) => {
      if (busy || !view) return;
      busy = true;
      try {
        const v = await post(`/api/learn/${encodeURIComponent(name)}/steps/${index}/check`, { move: a.action });
        if (!v.ok) {
          fill(feedback, h("p", { class: "tutorial-wrong" }, t("Not this one."), " ", v.message));
          // The wrong move is no longer shown, and nothing else is shown in its place.
          if (boardEl.contains(document.activeElement)) document.activeElement.blur();
          board.show(view.svg, [], { enabled: false });
          board.show(view.svg, view.actions, { enabled: true });
          pointAt(boardEl, view.highlight);
          return;
        }
        board.show(v.svg || view.svg, [], { enabled: false });
        fill(
          feedback,
          h("p", { class: "tutorial-right" }, t("Yes!"), " ", v.message),
          v.replies.length ? h("ul", { class: "tutorial-replies" }, v.replies.map((r) => h("li", {}, t("{name}: {move}", { name: r.name, move: r.label })))) : null,
        );
        if (v.final_breakdown) await showFinal(v);
        if (v.finished) finish();
        else {
          next.hidden = false;
          next.focus({ preventScroll: true });
        }
      } finally {
        busy = false;
      }
    },
  });

  // Kozo's pieces are picked and turned before a column is tapped (hidden in other games).
  const picker = new KozoPicker(board, () => null);

  async function load(i) {
    index = i;
    view = await get(`/api/learn/${encodeURIComponent(name)}/steps/${i}`);
    progress.textContent = t("Step {i} of {n}", { i: i + 1, n: view.count });
    title.textContent = view.title;
    text.textContent = view.text;
    document.getElementById("aid-now").textContent = view.ask;
    fill(feedback);
    next.hidden = true;
    board.show(view.svg, view.actions, { enabled: true });
    pointAt(boardEl, view.highlight);
  }

  next.addEventListener("click", () => load(index + 1));

  async function play() {
    const c = info.closing;
    const seats = [{ kind: "me" }, ...Array.from({ length: c.players - 1 }, () => ({ kind: "bot", bot: c.bot }))];
    const r = await post("/api/tables", {
      game: name,
      players: c.players,
      options: c.options,
      seats,
      visibility: "private",
      start: true,
    });
    keepTokens(r.table.id, r.tokens);
    navigate(`/table/${r.table.id}`);
  }

  /** The final scoring of the guided game, under the step's words. */
  async function showFinal(v) {
    const gameInfo = await describeGame(name).catch(() => null);
    const colours = v.final_breakdown.map((_, s) => playerColour(null, gameInfo, s));
    feedback.append(
      h("h3", {}, t("Final scoring")),
      resultsTable(v.final_breakdown, { colours, ranks: v.ranks || [], id: "tutorial-final" }),
    );
  }

  function finish() {
    const c = info.closing;
    const button = h(
      "button",
      { type: "button", class: "primary", id: "tutorial-play", onclick: () => play().catch((e) => fill(feedback, h("p", { class: "error" }, e.message))) },
      t("Play a game against the {level} bot", { level: c.bot_name }),
    );
    const sit = session.me.name ? button : guestForm(() => play(), t("Give a name to play"));
    step.append(h("div", { class: "tutorial-end", id: "tutorial-end" }, h("p", {}, c.text), sit));
  }

  fill(
    main,
    h("h1", {}, t("Learn to play {game}", { game: info.title })),
    h("p", {}, link(`/rules/${name}`, t("How to play and the rules of {game}", { game: info.title }))),
    h("div", { class: "table-layout tutorial" }, h("div", {}, step, picker.el, boardEl), h("aside", { class: "side" }, aid)),
  );
  const first = load(0);
  holdUntil(main, first);
  await first;
}
