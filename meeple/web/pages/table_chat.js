// The chat beside a live table (players and spectators), and the chat box the lobby uses too.
//
// Lines arrive on the table's own socket ({"type": "chat"}); what was said before is asked for
// on each (re)connection ({"type": "chat_history"}). Every name and line is put in the page as
// text, never as markup.

import { api, post } from "../api.js";
import { session } from "../app.js";
import { h, link, toast } from "../dom.js";
import { dateTime, t, tn } from "../words.js";
import { report as reportTo } from "./moderation.js";

const MAX = 500;
/** Where a folding chat starts folded (as the player aid). */
const PHONE = "(max-width: 700px)";

function clock(seconds) {
  return dateTime(seconds, { hour: "2-digit", minute: "2-digit", hourCycle: "h23" });
}

/**
 * A chat box: its element, `show(lines)` (replaces), `add(line)`, `note(text)`, `error(text)`.
 * `onSay(text)` sends a line; `note` is a sentence under the heading (or null); `folds`: the
 * box folds under its heading (folded on a phone), which counts the lines come since.
 */
export function chatBox({ id, title, onSay, note = null, folds = false }) {
  const list = h("ol", { class: "chat-lines", "aria-live": "polite", "aria-label": title });
  const problem = h("p", { class: "error chat-error", role: "status" });
  const input = h("input", {
    name: "text",
    maxlength: MAX,
    autocomplete: "off",
    "aria-label": t("Your message"),
    placeholder: session.me.name ? t("Say something") : t("Sign in or play as a guest to chat"),
    disabled: !session.me.name,
  });
  const form = h(
    "form",
    {
      class: "chat-form",
      onsubmit: (ev) => {
        ev.preventDefault();
        const text = input.value.trim();
        if (!text) return;
        problem.textContent = "";
        onSay(text);
        input.value = "";
      },
    },
    input,
    h("button", { type: "submit", disabled: !session.me.name }, t("Send")),
  );
  const seen = new Set();
  const muted = new Set();
  const hide = (name) => {
    muted.add(name);
    for (const li of [...list.children]) if (li.dataset.name === name) li.remove();
  };
  const small = (cls, title, text, onclick) => h("button", { type: "button", class: `link ${cls}`, title, onclick }, text);
  const row = (line) => {
    if (line.system) return h("li", { class: "chat-system", dataset: { id: line.id } }, h("span", { class: "muted" }, clock(line.time)), " ", line.text);
    const mine = session.me.name && line.name === session.me.name;
    const other = session.me.name && !mine && !line.deleted;
    const mute = other
      ? small(
          "chat-mute",
          t("Stop showing what {name} says (for you only)", { name: line.name }),
          // TRANSLATORS: a small button beside a chat line: hide what this person says
          t("mute"),
          async () => {
            await post("/api/my/mutes", { name: line.name });
            hide(line.name);
            toast(t("You will not see what {name} says any more. Undo it on their profile.", { name: line.name }));
          },
        )
      : null;
    const block = other
      ? small(
          "chat-block",
          t("Block {name}: no chat, no invitations and no shared tables between you", { name: line.name }),
          // TRANSLATORS: a small button beside a chat line: block this person
          t("block"),
          async () => {
            if (!confirm(t("Block {name}? Neither of you will read the other's chat, invite the other or sit at a table with the other.", { name: line.name }))) return;
            try {
              await post("/api/my/blocks", { name: line.name });
            } catch (e) {
              return toast(e.message);
            }
            hide(line.name);
            toast(t("You blocked {name}. Undo it on their profile.", { name: line.name }));
          },
        )
      : null;
    const report = other
      ? small(
          "chat-report",
          t("Report this line to the operators"),
          // TRANSLATORS: a small button beside a chat line: tell the operators about it
          t("report"),
          () => reportTo({ line: line.id }, t("Why do you report this line? The operators will read it.")),
        )
      : null;
    const remove = session.me.operator
      ? small(
          "chat-delete",
          t("Delete this line for everyone (operators only)"),
          // TRANSLATORS: a small button beside a chat line, for operators: delete the line
          t("delete"),
          async () => {
            if (!confirm(t("Delete this line for everyone?"))) return;
            try {
              await api("DELETE", `/api/admin/chat/${line.id}`);
            } catch (e) {
              return toast(e.message);
            }
            drop(line.id);
          },
        )
      : null;
    return h(
      "li",
      { dataset: { name: line.name, id: line.id }, class: line.spectator ? "chat-spectator" : null },
      h("span", { class: "muted" }, clock(line.time)),
      " ",
      line.deleted ? h("span", {}, line.name) : link(`/profile/${encodeURIComponent(line.name)}`, line.name),
      line.spectator ? h("span", { class: "muted" }, " ", t("(watching)")) : null,
      ": ",
      h("span", { class: "chat-text" }, line.text),
      " ",
      mute,
      block ? [" ", block] : null,
      report ? [" ", report] : null,
      remove ? [" ", remove] : null,
    );
  };
  /** A line an operator deleted goes from the list. */
  const drop = (id) => {
    for (const li of [...list.children]) if (li.dataset.id === String(id)) li.remove();
  };
  const add = (line) => {
    if (seen.has(line.id) || muted.has(line.name)) return;
    seen.add(line.id);
    const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 8;
    list.append(row(line));
    while (list.children.length > 200) list.firstChild.remove();
    if (atEnd) list.scrollTop = list.scrollHeight;
    if (folds && !el.open && !line.system && !quiet) {
      unread += 1;
      count.textContent = tn("{n} new", "{n} new", unread);
    }
  };
  const show = (lines) => {
    seen.clear();
    list.replaceChildren();
    quiet = true; // what was said before counts as read
    for (const l of lines) add(l);
    quiet = false;
    list.scrollTop = list.scrollHeight;
  };
  const noteEl = h("p", { class: "muted chat-note", hidden: !note }, note || "");
  let unread = 0;
  let quiet = false;
  const count = h("span", { class: "badge chat-unread", "aria-live": "polite" });
  const el = folds
    ? h(
        "details",
        { class: "card chat", id },
        h("summary", {}, h("h2", {}, title), count),
        noteEl,
        list,
        problem,
        form,
      )
    : h("div", { class: "card chat", id }, h("h2", {}, title), noteEl, list, problem, form);
  if (folds) {
    el.open = !window.matchMedia(PHONE).matches;
    el.addEventListener("toggle", () => {
      if (!el.open) return;
      unread = 0;
      count.textContent = "";
      list.scrollTop = list.scrollHeight;
    });
  }
  const setNote = (text) => {
    noteEl.textContent = text;
    noteEl.hidden = !text;
  };
  const error = (text) => (problem.textContent = text);
  /** Show a chat message of the socket (a line, the history, a refusal); whether it was one. */
  const receive = (m) => {
    if (m.type === "chat") add(m);
    else if (m.type === "chat_history") show(m.lines || []);
    else if (m.type === "chat_error") error(m.reason || t("not sent"));
    else if (m.type === "chat_deleted") drop(m.id);
    else return false;
    return true;
  };
  return { el, show, add, receive, note: setNote, error };
}

/** The table part: the chat of this table (folding while the game is played). */
export function tableChat(play) {
  const rated = !!play.table.rated;
  const box = chatBox({
    id: "table-chat",
    title: t("Chat"),
    folds: play.table.status !== "waiting",
    note: rated ? t("At a rated table the players see what spectators say once the game is over.") : null,
    onSay: (text) => play.sock?.send({ type: "chat", text }),
  });
  let ws = null;
  const onMessage = (ev) => {
    let m;
    try {
      m = JSON.parse(ev.data);
    } catch (e) {
      return;
    }
    box.receive(m);
  };
  const listen = () => {
    const now = play.sock?.ws;
    if (!now || now === ws) return;
    ws = now;
    ws.addEventListener("message", onMessage);
    const ask = () => ws === now && now.send(JSON.stringify({ type: "chat_history" }));
    if (now.readyState === WebSocket.OPEN) ask();
    else now.addEventListener("open", ask, { once: true });
  };
  // once a rated game is over the players may read what spectators said: ask again
  let over = false;
  const onFrame = (f) => {
    listen();
    if (!rated || over || !f || f.status !== "finished") return;
    over = true;
    box.note(t("The game is over: everyone now reads what the spectators said."));
    if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ type: "chat_history" }));
  };
  const timer = setInterval(listen, 500);
  return { card: box.el, onFrame, close: () => clearInterval(timer) };
}
