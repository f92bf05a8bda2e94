// The leaderboard of each game: rated people and the bots' levels on the same scale.

import { get } from "../api.js";
import { games } from "../app.js";
import { fill, h, link } from "../dom.js";

export async function leaderboardPage(main, [game]) {
  const list = await games();
  const chosen = game || (list[0] && list[0].name);
  const picker = h(
    "nav",
    { class: "row", id: "board-games", "aria-label": "Games" },
    list.map((g) => (g.name === chosen ? h("strong", { "aria-current": "page" }, g.title) : link(`/leaderboard/${encodeURIComponent(g.name)}`, g.title))),
  );
  const b = await get(`/api/leaderboard/${encodeURIComponent(chosen)}`);
  document.title = `Leaderboard: ${b.title} · meeple`;
  let place = 0;
  const rows = b.rows.map((r) => {
    if (!r.bot) place += 1;
    return h(
      "tr",
      { class: r.bot ? "bot-row" : null },
      h("td", {}, r.bot ? "" : String(place)),
      h(
        "td",
        {},
        r.bot
          ? [h("span", { class: "name" }, r.name), " ", h("span", { class: "badge bot" }, "bot")]
          : [h("img", { class: "avatar", src: r.avatar, alt: "", width: 24, height: 24 }), " ", link(`/profile/${encodeURIComponent(r.name)}`, r.name), r.guest ? h("span", { class: "muted" }, " (guest)") : null],
      ),
      h("td", {}, Number(r.rating).toFixed(1)),
      h("td", {}, String(r.played)),
      h("td", {}, r.bot ? "" : String(r.won)),
    );
  });
  fill(
    main,
    h("h1", {}, `Leaderboard: ${b.title}`),
    picker,
    h(
      "p",
      { class: "muted" },
      `A rating is a cautious estimate of strength: it starts at ${Number(b.newcomer).toFixed(1)} and grows as rated games show how well someone plays. The bots' levels stand on the same scale, measured in games between the levels, so you can see which level matches you.`,
    ),
    place
      ? null
      : h("p", { class: "muted", id: "leaderboard-empty" }, `Nobody is rated in ${b.title} yet: play a rated table${rows.length ? " and see where you stand among the bots" : ""}.`),
    rows.length
      ? h(
          "table",
          { class: "stats", id: "leaderboard" },
          h("thead", {}, h("tr", {}, h("th", {}, "Place"), h("th", {}, "Player"), h("th", {}, "Rating"), h("th", {}, "Games"), h("th", {}, "Won"))),
          h("tbody", {}, rows),
        )
      : null,
  );
}
