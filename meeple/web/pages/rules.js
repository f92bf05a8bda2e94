// The rules page of each game: the one-page "How to play", then the rulebook with its pictures,
// drawn by the game's own renderer.

import { get } from "../api.js";
import { games } from "../app.js";
import { fill, h, link } from "../dom.js";
import { howtoBody, howtoSection, learnLink } from "./howto.js";
import { t } from "../words.js";

export async function rulesIndexPage(main) {
  document.title = t("Rules · meeple");
  const list = await games();
  fill(main, 
    h("h1", {}, t("Rules")),
    h(
      "ul",
      { id: "rules-list" },
      list.map((g) => h("li", {}, link(`/rules/${g.name}`, g.title))),
    ),
  );
}

export async function rulesPage(main, [name]) {
  const r = await get(`/api/games/${encodeURIComponent(name)}/rules`);
  document.title = t("Rules of {game} · meeple", { game: r.title });
  const text = h("article", { class: "rules-text", id: "rules" }, ...howtoBody({ markdown: r.markdown }));
  const howto = await howtoSection(name);
  fill(main, 
    h("p", { class: "rules-links" }, link("/rules", t("All rules")), " · ", h("a", { class: "button primary", href: `/new?game=${name}`, "data-link": true }, t("Play {game}", { game: r.title })), " · ", learnLink(name)),
    howto,
    text,
  );
}
