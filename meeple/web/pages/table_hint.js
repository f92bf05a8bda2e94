// The Hint card of the live table: at a casual table, for the seat you hold when it is your
// move, a button asks the server for the move a search bot would play (GET
// /api/tables/ID/hint?seat=N). The move is marked on the board and said in words with the
// game's reason; "Play it" plays it like a click on the board.

import { get, post } from "../api.js";
import { fill, h } from "../dom.js";
import { t } from "../words.js";

/** Mark a move's place and cells on the board's picture (cleared by the next picture). */
export function markMove(boardEl, move, cls = "hint-mark") {
  for (const el of boardEl.querySelectorAll(`.${cls}`)) el.classList.remove(cls);
  const ids = [move.target, ...(move.cells || [])].filter(Boolean);
  let found = 0;
  for (const id of ids) {
    for (const el of boardEl.querySelectorAll(`[id="${CSS.escape(id)}"]`)) {
      el.classList.add(cls);
      found += 1;
    }
  }
  return found;
}

/** The table part (see table_parts.js): only at casual tables, for a held seat. */
export function tableHint(play) {
  if (play.table.rated) return null;
  const button = h("button", { type: "button", id: "hint-button" }, t("Hint"));
  const answer = h("div", { class: "hint-answer", id: "hint-answer", "aria-live": "polite" });
  const card = h("div", { class: "card hint-card", id: "hint-card", hidden: true },
    h("h2", {}, t("Hint")), button, answer);
  let asked = null; // the move number the hint shown is for
  let marked = 0; // how many places of the board it marked
  let busy = false;
  let answerMove = null;
  let warmed = false; // the server was asked to get its hint workers running

  const seatOf = (f) => (f.actions && f.actions.length ? f.seat : null);

  button.addEventListener("click", async () => {
    const f = play.frame;
    const seat = f && seatOf(f);
    if (seat === null || seat === undefined || busy) return;
    busy = true;
    button.disabled = true;
    fill(answer, h("p", { class: "muted" }, t("Thinking…")));
    try {
      const hint = await get(`/api/tables/${encodeURIComponent(play.table.id)}/hint?seat=${seat}`);
      if (!play.frame || play.frame.move_number !== hint.move_number) {
        fill(answer);
        return; // the game moved on meanwhile
      }
      asked = hint.move_number;
      answerMove = hint.move;
      const action = (play.frame.actions || []).find((a) => a.action === hint.action);
      marked = markMove(play.boardEl, hint.move);
      fill(
        answer,
        h("p", { class: "hint-move", id: "hint-move" }, hint.label),
        h("p", { class: "hint-reason", id: "hint-reason" }, t("Why: {reason}.", { reason: hint.reason })),
        marked ? h("p", { class: "muted" }, t("It is marked on the board.")) : null,
        action
          ? h("button", { type: "button", id: "hint-play", onclick: () => play.board.choose(action) }, t("Play it"))
          : null,
      );
    } catch (e) {
      fill(answer, h("p", { class: "error" }, e.message || t("no hint now")));
    } finally {
      busy = false;
      button.disabled = false;
    }
  });

  return {
    card,
    onFrame(f) {
      const seat = seatOf(f);
      card.hidden = f.status !== "running" || seat === null || seat === undefined;
      if (!card.hidden && !warmed) {
        // The first hint of a server waits for its workers to start: start them now.
        warmed = true;
        post(`/api/tables/${encodeURIComponent(play.table.id)}/hint/ready?seat=${seat}`).catch(() => {});
      }
      if (asked !== null && f.move_number !== asked) {
        asked = null;
        fill(answer);
      } else if (asked !== null && marked && !play.boardEl.querySelector(".hint-mark")) {
        marked = markMove(play.boardEl, answerMove); // a new picture of the same position
      }
    },
  };
}
