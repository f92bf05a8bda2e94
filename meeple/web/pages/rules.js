// The rules page of each game, from the project's own text, with reconstructed rules marked.

import { get } from "../api.js";
import { games } from "../app.js";
import { fill, h, link } from "../dom.js";
import { markdown } from "../markdown.js";
import { howtoSection, learnLink } from "./howto.js";
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
  const info = (await games()).find((g) => g.name === name);
  document.title = t("Rules of {game} · meeple", { game: r.title });
  const text = h("article", { class: "rules-text", id: "rules" });
  text.innerHTML = markdown(r.markdown);
  const recon = info ? info.options.filter((o) => o.reconstructed) : [];
  const howto = await howtoSection(name);
  fill(main, 
    h("p", { class: "rules-links" }, link("/rules", t("All rules")), " · ", h("a", { class: "button primary", href: `/new?game=${name}`, "data-link": true }, t("Play {game}", { game: r.title })), " · ", learnLink(name)),
    howto,
    h(
      "p",
      { class: "card" },
      h("mark", { class: "recon" }, "R"),
      " ",
      t("marks a reconstructed rule: our own reading where no source said. Such rules are defaults and may change."),
      recon.length ? [" ", t("Options with reconstructed defaults: {options}.", { options: recon.map((o) => o.label || o.name).join(", ") })] : "",
    ),
    text,
  );
}
