// The leaderboard of each game: rated people and the bots' levels on the same scale.

import { get } from "../api.js";
import { games } from "../app.js";
import { fill, h, link } from "../dom.js";
import { number, t } from "../words.js";

export async function leaderboardPage(main, [game]) {
  const list = await games();
  const chosen = game || (list[0] && list[0].name);
  const picker = h(
    "nav",
    { class: "row", id: "board-games", "aria-label": t("Games") },
    list.map((g) => (g.name === chosen ? h("strong", { "aria-current": "page" }, g.title) : link(`/leaderboard/${encodeURIComponent(g.name)}`, g.title))),
  );
  const b = await get(`/api/leaderboard/${encodeURIComponent(chosen)}`);
  document.title = t("Leaderboard: {game} · meeple", { game: b.title });
  let place = 0;
  const rows = b.rows.map((r) => {
    if (!r.bot) place += 1;
    return h(
      "tr",
      { class: r.bot ? "bot-row" : null },
      h("td", {}, r.bot ? "" : number(place)),
      h(
        "td",
        {},
        r.bot
          ? [h("span", { class: "name" }, r.name), " ", h("span", { class: "badge bot" }, t("bot"))]
          : r.deleted
          ? h("span", { class: "name muted" }, r.name)
          : [h("img", { class: "avatar", src: r.avatar, alt: "", width: 24, height: 24 }), " ", link(`/profile/${encodeURIComponent(r.name)}`, r.name), r.guest ? h("span", { class: "muted" }, " ", t("(guest)")) : null],
      ),
      h("td", {}, number(Number(r.rating), { minimumFractionDigits: 1, maximumFractionDigits: 1 })),
      h("td", {}, number(r.played)),
      h("td", {}, r.bot ? "" : number(r.won)),
    );
  });
  fill(
    main,
    h("h1", {}, t("Leaderboard: {game}", { game: b.title })),
    picker,
    h(
      "p",
      { class: "muted" },
      t("A rating is a cautious estimate of strength: it starts at {start} and grows as rated games show how well someone plays. The bots' levels stand on the same scale, measured in games between the levels, so you can see which level matches you.", { start: number(Number(b.newcomer), { minimumFractionDigits: 1, maximumFractionDigits: 1 }) }),
    ),
    place
      ? null
      : h("p", { class: "muted", id: "leaderboard-empty" }, rows.length
        ? t("Nobody is rated in {game} yet: play a rated table with other people, and your rating shows where you stand among the bots' levels.", { game: b.title })
        : t("Nobody is rated in {game} yet: play a rated table.", { game: b.title })),
    rows.length
      ? h(
          "table",
          { class: "stats", id: "leaderboard" },
          h("thead", {}, h("tr", {}, h("th", {}, t("Place")), h("th", {}, t("Player")), h("th", {}, t("Rating")), h("th", {}, t("Played")), h("th", {}, t("Won")))),
          h("tbody", {}, rows),
        )
      : null,
  );
}
