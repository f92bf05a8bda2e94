// Moderation and accounts on a profile page: block and report a person (anyone signed in),
// suspend them (operators); on one's own profile, download one's data and delete the account,
// and for operators the list of open reports.

import { api, get, post } from "../api.js";
import { navigate, refreshMe, session } from "../app.js";
import { ago, h, link, toast } from "../dom.js";
import { t } from "../words.js";

/** Ask why, then send a report (of a person by `name`, or of a chat line by `line`). */
export async function report(what, question) {
  const reason = prompt(question);
  if (!reason || !reason.trim()) return;
  try {
    await post("/api/reports", { ...what, reason: reason.trim() });
  } catch (e) {
    return toast(e.message);
  }
  toast(t("Thank you: the operators will look at it."));
}

/** The buttons beside another person's name on their profile: block, report, suspend. */
export function personButtons(p, redraw) {
  const name = p.name;
  const block = h(
    "button",
    {
      type: "button",
      id: "block",
      onclick: async () => {
        if (!p.blocked && !confirm(t("Block {name}? Neither of you will read the other's chat, invite the other or sit at a table with the other.", { name }))) return;
        try {
          if (p.blocked) await api("DELETE", `/api/my/blocks/${encodeURIComponent(name)}`);
          else await post("/api/my/blocks", { name });
        } catch (e) {
          return toast(e.message);
        }
        p.blocked = !p.blocked;
        redraw();
      },
    },
    p.blocked ? t("Unblock") : t("Block"),
  );
  const reportButton = h("button", { type: "button", id: "report", onclick: () => report({ name }, t("Why do you report {name}? The operators will read it.", { name })) }, t("Report"));
  const suspend = session.me.operator
    ? h(
        "button",
        {
          type: "button",
          id: "suspend",
          class: "danger",
          onclick: async () => {
            if (!confirm(t("Suspend {name}? They are signed out at once, bots play on for them and they cannot sign in.", { name }))) return;
            try {
              await post(`/api/admin/people/${encodeURIComponent(name)}/suspend`);
            } catch (e) {
              return toast(e.message);
            }
            toast(t("{name} is suspended.", { name }));
          },
        },
        t("Suspend"),
      )
    : null;
  return [block, reportButton, suspend];
}

/** One's own account: download one's data, delete the account (with a confirmation). */
export function accountCard(p) {
  const err = h("p", { class: "error", role: "alert" });
  const password = p.guest ? null : h("input", { type: "password", name: "password", id: "delete-password", autocomplete: "current-password", required: true, maxlength: 200 });
  const form = h(
    "form",
    {
      id: "delete-account",
      onsubmit: async (ev) => {
        ev.preventDefault();
        err.textContent = "";
        if (!confirm(t("Delete your account for good? Your games stay, under \"deleted player\"; your name, password, e-mail address, follows and blocks go. This cannot be undone."))) return;
        try {
          await post("/api/my/account/delete", { confirm: true, password: password ? password.value : null });
        } catch (e) {
          err.textContent = e.message;
          return;
        }
        await refreshMe();
        toast(t("Your account was deleted."));
        navigate("/", { replace: true });
      },
    },
    password ? h("label", { for: "delete-password" }, t("Your password")) : null,
    password,
    err,
    h("button", { type: "submit", class: "danger" }, t("Delete my account")),
  );
  return h(
    "div",
    { class: "card", id: "your-account" },
    h("h2", {}, t("Your account")),
    h("p", {}, h("a", { href: "/api/my/data", download: "meeple-data.json", id: "download-data" }, t("Download my data")), " ", h("span", { class: "muted" }, t("(your account, games, chat lines and settings, as JSON)"))),
    form,
  );
}

/** The open reports, for operators: each with what was reported and what can be done. */
export async function reportsCard() {
  const list = h("ul", { class: "seats", id: "reports" });
  const card = h("div", { class: "card", id: "open-reports" }, h("h2", {}, t("Open reports")), list);
  const draw = async () => {
    let reports;
    try {
      reports = (await get("/api/admin/reports")).reports;
    } catch (e) {
      list.replaceChildren(h("li", { class: "error" }, e.message));
      return;
    }
    if (!reports.length) return list.replaceChildren(h("li", { class: "muted" }, t("No open reports.")));
    const act = (fn) => async () => {
      try {
        await fn();
      } catch (e) {
        return toast(e.message);
      }
      draw();
    };
    list.replaceChildren(
      ...reports.map((r) =>
        h(
          "li",
          {},
          h(
            "span",
            { class: "name" },
            r.text !== null
              ? t("{reporter} reports a line of {name}: “{text}”", { reporter: r.reporter, name: r.name || "?", text: r.text })
              : t("{reporter} reports {name}", { reporter: r.reporter, name: r.name || "?" }),
            " — ",
            r.reason,
          ),
          h("span", { class: "muted" }, ago(r.time)),
          r.table ? link(`/table/${encodeURIComponent(r.table)}`, t("Table")) : null,
          r.line ? h("button", { type: "button", onclick: act(() => api("DELETE", `/api/admin/chat/${r.line}`).catch(() => null)) }, t("Delete the line")) : null,
          r.name && !r.suspended ? h("button", { type: "button", class: "danger", onclick: act(() => post(`/api/admin/people/${encodeURIComponent(r.name)}/suspend`)) }, t("Suspend {name}", { name: r.name })) : null,
          h("button", { type: "button", onclick: act(() => post(`/api/admin/reports/${r.id}/close`)) }, t("Close")),
        ),
      ),
    );
  };
  await draw();
  return card;
}

/** The table part for operators: close a table that is waiting or being played (it ends for
 * everyone, without a result). Nobody else sees it. */
export function tableClose(play) {
  if (!session.me.operator) return null;
  const id = play.table.id;
  const button = h(
    "button",
    {
      type: "button",
      id: "close-table",
      class: "danger",
      onclick: async () => {
        if (!confirm(t("Close this table for everyone? The game ends without a result."))) return;
        try {
          await post(`/api/admin/tables/${encodeURIComponent(id)}/close`);
        } catch (e) {
          return toast(e.message);
        }
        toast(t("The table is closed."));
      },
    },
    t("Close table"),
  );
  const card = h("div", { class: "card", id: "table-moderation" }, h("h2", {}, t("Operators")), button);
  const show = (status) => (card.hidden = !(status === "waiting" || status === "running"));
  show(play.table.status);
  return { card, onFrame: (f) => show(f ? f.status : play.table.status) };
}
