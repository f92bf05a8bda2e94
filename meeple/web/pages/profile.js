// A person's profile: their games (played, won, rating), a rating history chart, recent games
// with their replays and reviews, who they follow, and (for others) follow, mute, block, report
// and "invite to a table"; for themselves, their invitations, turn e-mail settings and account
// (see moderation.js).

import { api, get, post } from "../api.js";
import { games, session } from "../app.js";
import { ago, fill, h, link, toast } from "../dom.js";
import { date, number, t, tn } from "../words.js";
import { accountCard, personButtons, reportsCard } from "./moderation.js";

const SVG = "http://www.w3.org/2000/svg";
const LINE_COLOURS = ["#2f6db5", "#b26a00", "#2e7d32", "#8e3b9c", "#b3261e"];

/** A rating as the language writes it, with one decimal. */
const rating = (x) => number(Number(x), { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** An SVG element (attributes set one by one, text as text). */
function s(tag, attrs = {}, text = null) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== null) el.textContent = text;
  return el;
}

/** The rating after each rated game, one line per game, drawn here. */
export function ratingChart(history, titleOf) {
  const series = Object.entries(history || {}).filter(([, pts]) => pts.length);
  if (!series.length) return h("p", { class: "muted", id: "rating-chart" }, t("No rated games yet."));
  // drawn at the width it is shown at, so that its words stay readable on a phone
  const W = Math.round(Math.min(560, Math.max(280, window.innerWidth - 40)));
  const H = W < 420 ? 200 : 220;
  const pad = { l: 44, r: 12, t: 12, b: 28 };
  const all = series.flatMap(([, pts]) => pts.map((p) => p.rating));
  let lo = Math.min(0, ...all);
  let hi = Math.max(...all, lo + 1);
  const span = hi - lo;
  lo -= span * 0.1;
  hi += span * 0.1;
  const most = Math.max(...series.map(([, pts]) => pts.length));
  const x = (i) => pad.l + (most > 1 ? (i / (most - 1)) * (W - pad.l - pad.r) : (W - pad.l - pad.r) / 2);
  const y = (v) => pad.t + (1 - (v - lo) / (hi - lo)) * (H - pad.t - pad.b);
  const svg = s("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", id: "rating-chart", class: "rating-chart" });
  svg.append(s("title", {}, t("Rating after each rated game")));
  for (let k = 0; k <= 4; k++) {
    const v = lo + ((hi - lo) * k) / 4;
    svg.append(s("line", { x1: pad.l, x2: W - pad.r, y1: y(v), y2: y(v), class: "grid" }));
    svg.append(s("text", { x: pad.l - 6, y: y(v) + 4, "text-anchor": "end", class: "axis" }, rating(v)));
  }
  svg.append(s("text", { x: (W + pad.l) / 2, y: H - 6, "text-anchor": "middle", class: "axis" }, t("rated games, oldest first")));
  const legend = h("ul", { class: "chart-legend" });
  series.forEach(([game, pts], k) => {
    const colour = LINE_COLOURS[k % LINE_COLOURS.length];
    const d = pts.map((p, i) => `${i ? "L" : "M"}${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(" ");
    svg.append(s("path", { d, fill: "none", stroke: colour, "stroke-width": 2.5 }));
    pts.forEach((p, i) => {
      const dot = s("circle", { cx: x(i), cy: y(p.rating), r: 4, fill: colour });
      dot.append(s("title", {}, t("{game}: {rating} after game {n} (place {place})", { game: titleOf(game), rating: rating(p.rating), n: i + 1, place: p.rank })));
      svg.append(dot);
    });
    legend.append(h("li", {}, h("span", { class: "swatch", style: `background:${colour}` }), " ", t("{game}: {rating}", { game: titleOf(game), rating: rating(pts[pts.length - 1].rating) })));
  });
  return h("figure", { class: "chart" }, svg, legend);
}

function avatar(url, name, size = 64) {
  return h("img", { class: "avatar", src: url, alt: "", width: size, height: size, title: name });
}

function gamesTable(rows) {
  if (!rows.length) return h("p", { class: "muted" }, t("No finished games yet."));
  return h(
    "table",
    { class: "stats", id: "profile-games" },
    h("thead", {}, h("tr", {}, h("th", {}, t("Game")), h("th", {}, t("Played")), h("th", {}, t("Won")), h("th", {}, t("Rating")))),
    h(
      "tbody",
      {},
      rows.map((g) =>
        h(
          "tr",
          {},
          h("td", {}, link(`/leaderboard/${encodeURIComponent(g.game)}`, g.title)),
          h("td", {}, number(g.played)),
          h("td", {}, number(g.won)),
          h("td", {}, g.rated_games ? tn("{rating} ({n} rated)", "{rating} ({n} rated)", g.rated_games, { rating: rating(g.rating) }) : t("not rated yet")),
        ),
      ),
    ),
  );
}

/** For each rated game, the bot level nearest to the rating: a level to play against. */
function levelsList(rows, p) {
  const near = rows.filter((g) => g.nearest_bot);
  if (!near.length) return null;
  const say = (g) => {
    const params = { game: g.title, rating: rating(g.rating), level: g.nearest_bot.name, bot: rating(g.nearest_bot.rating), name: p.name };
    return p.me
      ? t("Your rating in {game} ({rating}) is nearest to the {level} bot's ({bot}).", params)
      : t("{name}'s rating in {game} ({rating}) is nearest to the {level} bot's ({bot}).", params);
  };
  return h(
    "ul",
    { class: "muted", id: "profile-levels" },
    near.map((g) => h("li", {}, say(g))),
  );
}

function recentList(items) {
  if (!items.length) return h("p", { class: "muted" }, t("No finished games yet."));
  return h(
    "ul",
    { class: "seats", id: "recent-games" },
    items.map((game) =>
      h(
        "li",
        { dataset: { table: game.id } },
        h(
          "span",
          { class: "name" },
          game.title,
          " ",
          h("span", { class: "muted" }, (game.seats || []).map((x) => (x.kind === "bot" ? x.bot_name || t("{level} bot", { level: x.bot }) : x.name || t("open seat"))).join(", ")),
        ),
        game.rank ? h("span", { class: "badge" }, game.rank === 1 ? t("won") : t("place {n}", { n: game.rank })) : null,
        game.rated ? h("span", { class: "badge" }, t("rated")) : null,
        h("span", { class: "muted" }, ago(game.finished)),
        link(game.replay, t("Replay")),
        link(game.review, t("Review")),
      ),
    ),
  );
}

async function inviteBox(name) {
  const box = h("div", { class: "card", id: "invite-box" }, h("h2", {}, t("Invite {name} to a table", { name })));
  let mine = [];
  try {
    mine = (await get("/api/my/tables")).tables.filter((table) => table.status === "waiting" && table.seats.some((x) => x.kind === "open"));
  } catch (e) {
    mine = [];
  }
  if (!mine.length) {
    box.append(h("p", { class: "muted" }, t("You have no table waiting for players: set one up, then invite from here."), " ", link("/new", t("Set up a table"))));
    return box;
  }
  box.append(
    h(
      "ul",
      { class: "seats" },
      mine.map((table) =>
        h(
          "li",
          {},
          h("span", { class: "name" }, table.title),
          h(
            "button",
            {
              type: "button",
              onclick: async () => {
                try {
                  await post(`/api/people/${encodeURIComponent(name)}/invite`, { table_id: table.id });
                  toast(t("{name} is invited to your table of {game}.", { name, game: table.title }));
                } catch (e) {
                  toast(t("{name} could not be invited: {reason}.", { name, reason: e.message }));
                }
              },
            },
            t("Invite"),
          ),
        ),
      ),
    ),
  );
  return box;
}

function mailForm(notify) {
  const emailIn = h("input", { type: "email", name: "email", id: "notify-email", value: notify.email || "", autocomplete: "email", maxlength: 254 });
  const on = h("input", { type: "checkbox", name: "turn_mail", id: "notify-turn-mail", checked: !!notify.turn_mail });
  const state = h("p", { class: "muted", role: "status" });
  return h(
    "form",
    {
      class: "card",
      id: "notify-form",
      onsubmit: async (ev) => {
        ev.preventDefault();
        try {
          const r = await api("PUT", "/api/my/notifications", { email: emailIn.value.trim(), turn_mail: on.checked });
          on.checked = r.turn_mail;
          state.textContent = r.turn_mail
            ? r.mail_offered
              ? t("Saved: you get an e-mail when it has been your turn for a while.")
              : t("Saved; this server sends no e-mail at the moment.")
            : t("Saved: no turn e-mails.");
        } catch (e) {
          state.textContent = e.message;
        }
      },
    },
    h("h2", {}, t("Turn e-mails")),
    h("label", { for: "notify-email" }, t("E-mail address")),
    emailIn,
    h("label", { class: "row" }, on, " ", t("E-mail me when it has been my turn for a while and I am away")),
    h("button", { type: "submit" }, t("Save")),
    state,
  );
}

export async function profilePage(main, [name]) {
  document.title = `${name} · meeple`;
  const [p, list] = await Promise.all([get(`/api/people/${encodeURIComponent(name)}`), games()]);
  const titleOf = (g) => (list.find((x) => x.name === g) || {}).title || g;
  const signedIn = !!session.me.name;
  const actions = h("div", { class: "row", id: "profile-actions" });
  const drawActions = () => {
    if (!signedIn || p.me) return fill(actions);
    fill(
      actions,
      h(
        "button",
        {
          type: "button",
          id: "follow",
          onclick: async () => {
            try {
              await api(p.you_follow ? "DELETE" : "POST", `/api/people/${encodeURIComponent(p.name)}/follow`);
            } catch (e) {
              return toast(e.message);
            }
            p.you_follow = !p.you_follow;
            drawActions();
          },
        },
        p.you_follow ? t("Stop following") : t("Follow"),
      ),
      h(
        "button",
        {
          type: "button",
          id: "mute",
          onclick: async () => {
            try {
              if (p.muted) await api("DELETE", `/api/my/mutes/${encodeURIComponent(p.name)}`);
              else await post("/api/my/mutes", { name: p.name });
            } catch (e) {
              return toast(e.message);
            }
            p.muted = !p.muted;
            drawActions();
          },
        },
        p.muted ? t("Show their chat again") : t("Mute in chat"),
      ),
      ...personButtons(p, drawActions),
    );
  };
  drawActions();
  const invitations = p.me
    ? h(
        "div",
        { class: "card", id: "invitations" },
        h("h2", {}, t("Invitations")),
        p.invitations.length
          ? h(
              "ul",
              { class: "seats" },
              p.invitations.map((i) => h("li", {}, h("span", { class: "name" }, t("{name} invites you to {game}", { name: i.from, game: i.title })), h("span", { class: "muted" }, ago(i.time)), link(i.link, t("Take a seat")))),
            )
          : h("p", { class: "muted" }, t("No invitations waiting.")),
      )
    : null;
  fill(
    main,
    h(
      "div",
      { class: "profile-head" },
      avatar(p.avatar, p.name, 72),
      h(
        "div",
        {},
        h("h1", { id: "profile-name" }, p.name, p.guest ? [" ", h("span", { class: "badge" }, t("guest"))] : null),
        h(
          "p",
          { class: "muted" },
          p.created ? [t("Playing since {date}", { date: date(p.created) }), " · "] : null,
          tn("followed by {n} person", "followed by {n} people", p.followers),
        ),
        actions,
      ),
    ),
    invitations,
    h("h2", {}, t("Games")),
    gamesTable(p.games),
    levelsList(p.games, p),
    h("h2", {}, t("Rating history")),
    ratingChart(p.history, titleOf),
    h("h2", {}, t("Recent games")),
    recentList(p.recent),
    h("h2", {}, t("Following")),
    p.following.length
      ? h(
          "ul",
          { class: "following", id: "following" },
          p.following.map((f) => h("li", {}, avatar(f.avatar, f.name, 28), " ", link(`/profile/${encodeURIComponent(f.name)}`, f.name))),
        )
      : h("p", { class: "muted" }, p.me ? t("You follow nobody yet: follow people from their profiles.") : t("Nobody yet.")),
    signedIn && !p.me ? await inviteBox(p.name) : null,
    p.me && !p.guest ? mailForm(p.notify) : null,
    p.me && p.guest
      ? h("p", { class: "muted", id: "notify-guest" }, t("Guests get no e-mail."), " ", link("/login", t("Sign up to hear by e-mail when it is your turn and you are away.")))
      : null,
    p.me ? accountCard(p) : null,
    p.me && session.me.operator ? await reportsCard() : null,
  );
}
