// Sign up, log in, play as a guest; the list of tables the lobby and the profiles show.

import { post } from "../api.js";
import { navigate, refreshMe, session } from "../app.js";
import { ago, fill, h, link } from "../dom.js";

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
          const t = e.message.trim();
          err.textContent = t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?]\)?$/.test(t) ? "" : ".");
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
export function guestForm(done, title = "Play as a guest") {
  return form(
    title,
    [{ name: "name", label: "Your name", maxlength: 32 }],
    "Continue as guest",
    async (d) => {
      await post("/api/guest", { name: d.name });
      await refreshMe();
      done();
    },
    "guest-form",
  );
}

export async function loginPage(main, _params, query) {
  document.title = "Sign in · meeple";
  const next = query.get("next") || "/";
  const done = () => navigate(next, { replace: true });
  const who = session.me.name
    ? h(
        "p",
        {},
        `You are signed in as ${session.me.name}${session.me.guest ? " (guest)" : ""}. `,
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
          "Sign out on every device",
        ),
      )
    : null;
  fill(main, 
    h("h1", {}, "Sign in"),
    who,
    h(
      "div",
      { class: "grid" },
      form(
        "Log in",
        [
          { name: "name", label: "Name", autocomplete: "username", maxlength: 32 },
          { name: "password", label: "Password", type: "password", autocomplete: "current-password" },
        ],
        "Log in",
        async (d) => {
          await post("/api/login", d);
          await refreshMe();
          done();
        },
        "login-form",
      ),
      form(
        "Sign up",
        [
          { name: "name", label: "Name (1–32 letters of any one script or digits; spaces, hyphens and apostrophes between them)", autocomplete: "username", maxlength: 32 },
          { name: "password", label: "Password (at least 8 characters)", type: "password", autocomplete: "new-password", minlength: 8 },
        ],
        "Create account",
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
function toMove(t) {
  const names = t.to_move.map((i) => {
    const s = (t.seats || [])[i];
    return (s && s.name) || `Player ${i + 1}`;
  });
  const who = names.length > 1 ? `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}` : names[0];
  return `${who} to move`;
}

/** A list of table summaries (lobby lists, profiles, "your turn"). Tables called off or given
 * up are never listed: they have no game to watch and no result. */
export function tableList(tables, { empty = "None.", action = null } = {}) {
  tables = (tables || []).filter((t) => !DEAD.has(t.status));
  if (!tables.length) return h("p", { class: "muted" }, empty);
  return h(
    "ul",
    { class: "seats" },
    tables.map((t) => {
      const people = (t.seats || [])
        .map((s) => (s.kind === "bot" ? s.name || (s.bot_name ? `${s.bot_name} bot` : "a bot") : s.kind === "open" ? "open seat" : s.name))
        .join(", ");
      const href = t.status === "finished" ? `/replay/${t.id}` : `/table/${t.id}`;
      const res =
        t.status === "finished" && t.result
          ? ` — scores ${t.result.scores.map((x) => +x).join(" : ")}`
          : t.status === "running" && (t.to_move || []).length
            ? ` — ${toMove(t)}`
            : "";
      const extra = [];
      if (t.seat !== undefined && t.seat !== null) extra.push(`seat ${t.seat + 1}`);
      if (t.rank) extra.push(`rank ${t.rank}`);
      if (t.rated) extra.push("rated");
      return h(
        "li",
        { dataset: { table: t.id } },
        h("span", { class: "name" }, link(href, t.title || titleOf(t.game)), " ", h("span", { class: "muted" }, `${people}${res}`)),
        extra.length ? h("span", { class: "badge" }, extra.join(", ")) : null,
        h("span", { class: "muted" }, ago(t.finished || t.started || t.created)),
        action ? action(t) : null,
      );
    }),
  );
}
