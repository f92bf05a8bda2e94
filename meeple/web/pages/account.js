// Sign up, log in, play as a guest; the list of tables the lobby and the profiles show.

import { get, post } from "../api.js";
import { navigate, refreshMe, session } from "../app.js";
import { ago, fill, h, link, toast } from "../dom.js";
import { lang, number, t } from "../words.js";

function form(title, fields, submitText, onSubmit, id) {
  const err = h("p", { class: "error", role: "alert" });
  const inputs = fields.map((f) =>
    h("input", {
      name: f.name,
      type: f.type || "text",
      required: true,
      autocomplete: f.autocomplete || "off",
      minlength: f.minlength,
      maxlength: f.maxlength || 64,
    }),
  );
  const el = h(
    "form",
    {
      class: "card",
      id,
      onsubmit: async (ev) => {
        ev.preventDefault();
        err.textContent = "";
        const data = {};
        inputs.forEach((inp) => (data[inp.name] = inp.value.trim()));
        if (data.password !== undefined) data.password = inputs.find((x) => x.name === "password").value;
        try {
          await onSubmit(data);
        } catch (e) {
          const why = e.message.trim();
          err.textContent = why.charAt(0).toUpperCase() + why.slice(1) + (/[.!?]\)?$/.test(why) ? "" : ".");
        }
      },
    },
    h("h2", {}, title),
    fields.map((f, i) => h("label", {}, h("span", {}, f.label), inputs[i])),
    err,
    h("button", { class: "primary", type: "submit" }, submitText),
  );
  return el;
}

/** A guest-name form (for pages where someone must sit down first); calls done() when in. */
export function guestForm(done, title = null) {
  const el = form(
    title || t("Play as a guest"),
    [{ name: "name", label: t("Your name"), maxlength: 32 }],
    t("Continue as guest"),
    async (d) => {
      const me = await post("/api/guest", { name: d.name });
      await refreshMe();
      if (me.name !== d.name) toast(numberedText(d.name, me.name), 6000);
      done();
    },
    "guest-form",
  );
  // Another guest's name gets a number: said while the name is typed, before it is given.
  const input = el.querySelector("input[name=name]");
  const note = h("p", { class: "muted", id: "guest-name-note", "aria-live": "polite" });
  input.closest("label").after(note);
  let timer = null;
  input.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const asked = input.value.trim();
      let text = "";
      try {
        const r = asked ? await get(`/api/guest/name?name=${encodeURIComponent(asked)}`) : null;
        if (r && r.numbered) text = numberedText(asked, r.name);
      } catch (e) {
        text = ""; // an unfinished or refused name: the form says why when it is sent
      }
      if (input.value.trim() === asked) note.textContent = text;
    }, 250);
  });
  return el;
}

/** What a guest is told when the name they asked for is another guest's. */
function numberedText(asked, given) {
  return t("Another guest is called {name}: you will play as {given}, or choose another name.", { name: asked, given });
}

export async function loginPage(main, _params, query) {
  document.title = t("Sign in · meeple");
  const next = query.get("next") || "/";
  const done = () => navigate(next, { replace: true });
  const who = session.me.name
    ? h(
        "p",
        {},
        session.me.guest ? t("You are signed in as {name} (guest).", { name: session.me.name }) : t("You are signed in as {name}.", { name: session.me.name }),
        " ",
        h(
          "button",
          {
            type: "button",
            id: "logout-all",
            onclick: async () => {
              await post("/api/logout/all");
              await refreshMe();
              navigate("/login", { replace: true });
            },
          },
          t("Sign out on every device"),
        ),
      )
    : null;
  fill(main, 
    h("h1", {}, t("Sign in")),
    who,
    h(
      "div",
      { class: "grid" },
      form(
        t("Log in"),
        [
          { name: "name", label: t("Name"), autocomplete: "username", maxlength: 32 },
          { name: "password", label: t("Password"), type: "password", autocomplete: "current-password" },
        ],
        t("Log in"),
        async (d) => {
          await post("/api/login", d);
          const me = await refreshMe();
          // a player who chose a language gets it back at sign-in: the page loads again in it
          if (me.lang && me.lang !== lang) location.assign(next);
          else done();
        },
        "login-form",
      ),
      form(
        t("Sign up"),
        [
          { name: "name", label: t("Name (1–32 letters of any one script or digits; spaces, hyphens and apostrophes between them)"), autocomplete: "username", maxlength: 32 },
          { name: "password", label: t("Password (at least 8 characters)"), type: "password", autocomplete: "new-password", minlength: 8 },
        ],
        t("Create account"),
        async (d) => {
          await post("/api/signup", d);
          await refreshMe();
          done();
        },
        "signup-form",
      ),
      guestForm(done),
    ),
  );
}

function titleOf(game) {
  const g = (session.games || []).find((x) => x.name === game);
  return g ? g.title : game;
}

const DEAD = new Set(["aborted", "abandoned"]);

/** Whose move a running table waits for: "Ann to move", "Ann and Bob to move". */
function toMove(table) {
  const names = table.to_move.map((i) => {
    const s = (table.seats || [])[i];
    return (s && s.name) || t("Player {n}", { n: i + 1 });
  });
  if (names.length === 1) return t("{name} to move", { name: names[0] });
  return t("{names} to move", { names: listText(names) });
}

/** "Ann, Bob and Cy" in the page's language. */
export function listText(items) {
  if (items.length < 2) return items.join("");
  // TRANSLATORS: the end of a list: "Ann, Bob and Cy" ({first} is "Ann, Bob")
  return t("{first} and {last}", { first: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}

/** A list of table summaries (lobby lists, profiles, "your turn"). Tables called off or given
 * up are never listed: they have no game to watch and no result. */
export function tableList(tables, { empty = null, action = null } = {}) {
  tables = (tables || []).filter((table) => !DEAD.has(table.status));
  if (!tables.length) return h("p", { class: "muted" }, empty || t("None."));
  return h(
    "ul",
    { class: "seats" },
    tables.map((table) => {
      const people = (table.seats || [])
        .map((s) => (s.kind === "bot" ? s.name || (s.bot_name ? t("{level} bot", { level: s.bot_name }) : t("a bot")) : s.kind === "open" ? t("open seat") : s.name))
        .join(", ");
      const href = table.status === "finished" ? `/replay/${table.id}` : `/table/${table.id}`;
      const res =
        table.status === "finished" && table.result
          ? t("scores {scores}", { scores: table.result.scores.map((x) => number(+x)).join(" : ") })
          : table.status === "running" && (table.to_move || []).length
            ? toMove(table)
            : "";
      const extra = [];
      if (table.seat !== undefined && table.seat !== null) extra.push(t("seat {n}", { n: table.seat + 1 }));
      if (table.rank) extra.push(t("rank {n}", { n: table.rank }));
      if (table.rated) extra.push(t("rated"));
      return h(
        "li",
        { dataset: { table: table.id } },
        h("span", { class: "name" }, link(href, table.title || titleOf(table.game)), " ", h("span", { class: "muted" }, res ? `${people} — ${res}` : people)),
        extra.length ? h("span", { class: "badge" }, extra.join(", ")) : null,
        h("span", { class: "muted" }, ago(table.finished || table.started || table.created)),
        action ? action(table) : null,
      );
    }),
  );
}
