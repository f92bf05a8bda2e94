// The legend beside the board: every symbol the game's picture draws (a tile colour's shape,
// a goods icon, a piece's letter) as a small picture with what it means, from GET
// /api/games/GAME/legend. Folded, under the player aid; a game whose picture says everything
// in words has none.

import { get } from "../api.js";
import { h } from "../dom.js";
import { t } from "../words.js";

/** The legend's list: each symbol's picture (the game's own drawing) and its meaning. */
export function legendList(items) {
  return h(
    "ul",
    { class: "legend-list" },
    items.map((item) => {
      const icon = h("span", { class: "legend-icon", "aria-hidden": "true" });
      icon.innerHTML = item.icon; // drawn by the game's renderer on the server
      return h("li", {}, icon, h("span", { class: "legend-meaning" }, item.meaning));
    }),
  );
}

/** The table part (see table_parts.js): a folded card, hidden until the legend arrives. */
export function tableLegend(play) {
  const details = h("details", { class: "legend", id: "legend" }, h("summary", {}, t("Symbols on the board")));
  const card = h("div", { class: "card legend-card", hidden: true }, details);
  get(`/api/games/${encodeURIComponent(play.table.game)}/legend`)
    .then((legend) => {
      if (!legend.items.length) return;
      details.append(legendList(legend.items));
      card.hidden = false;
    })
    .catch(() => {});
  return { card };
}
