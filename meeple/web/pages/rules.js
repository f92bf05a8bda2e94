// The rules page of each game: the one-page "How to play", then the rulebook with its pictures,
// drawn by the game's own renderer.

import { get } from "../api.js";
import { games } from "../app.js";
import { fill, h, holdUntil, imagesReady, link } from "../dom.js";
import { howtoBody, howtoSection, learnLink } from "./howto.js";
import { t } from "../words.js";

/** The pictures a rules page waits for before it shows. */
const FIRST_PICTURES = 3;

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
  // The first pictures (those a screen shows first) load at once and the page shows when
  // their sizes are known: the words below them do not jump down as they arrive.
  const first = [...(howto ? howto.querySelectorAll("img") : []), ...text.querySelectorAll("img")].slice(0, FIRST_PICTURES);
  for (const img of first) img.loading = "eager";
  holdUntil(main, imagesReady(first));
  fill(main, 
    h("p", { class: "rules-links" }, link("/rules", t("All rules")), " · ", h("a", { class: "button primary", href: `/new?game=${name}`, "data-link": true }, t("Play {game}", { game: r.title })), " · ", learnLink(name)),
    howto,
    text,
  );
}
