// The player aid beside the board: how points come, the steps of a turn, and one sentence for
// what the current step asks (the frame's `aid`). Open on a wide screen, folded on a phone.

import { get } from "../api.js";
import { fill, h } from "../dom.js";
import { t } from "../words.js";

const PHONE = "(max-width: 700px)";

/** The aid's scoring table and turn steps, from GET /api/learn/GAME/aid. */
export function aidBody(aid) {
  return [
    h(
      "table",
      { class: "aid-scoring" },
      h("caption", {}, t("Points")),
      h("tbody", {}, aid.scoring.map((r) => h("tr", {}, h("th", { scope: "row" }, r.what), h("td", {}, r.points)))),
    ),
    h("h3", {}, t("A turn")),
    h("ol", { class: "aid-turn" }, aid.turn.map((step) => h("li", {}, step))),
  ];
}

/** The table part: a folded card with the aid (see table_parts.js). */
export function tableAid(play) {
  const now = h("p", { class: "aid-now", id: "aid-now", "aria-live": "polite" });
  const body = h("div", { class: "aid-body" });
  const details = h("details", { class: "aid", id: "aid" }, h("summary", {}, t("Player aid")), now, body);
  details.open = !window.matchMedia(PHONE).matches;
  const card = h("div", { class: "card aid-card" }, details);
  const ready = get(`/api/learn/${encodeURIComponent(play.table.game)}/aid`)
    .then((aid) => fill(body, ...aidBody(aid)))
    .catch(() => {
      card.hidden = true;
    });
  return {
    card,
    ready,
    onFrame(f) {
      now.textContent = f.status === "running" || f.status === "finished" ? f.aid || "" : "";
      now.hidden = !now.textContent;
    },
  };
}
