// The lobby chat: its own socket (/ws/lobby/chat), closed when the lobby page goes away.
// Invitations to a table arrive on it too.

import { h, link, toast } from "../dom.js";
import { chatBox } from "./table_chat.js";
import { t } from "../words.js";

/** The lobby chat card (it opens its socket now and closes it once it leaves the page). */
export function lobbyChat() {
  let ws = null;
  let closed = false;
  let retry = 500;
  const box = chatBox({
    id: "lobby-chat",
    title: t("Lobby chat"),
    onSay: (text) => ws && ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify({ type: "chat", text })),
  });
  const board = h("p", { class: "muted" }, t("Who plays best?"), " ", link("/leaderboard", t("See the leaderboards")));
  box.el.append(board);
  const open = () => {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    ws = new WebSocket(`${proto}//${location.host}/ws/lobby/chat`);
    ws.onopen = () => (retry = 500);
    ws.onmessage = (ev) => {
      if (!box.el.isConnected) return stop();
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (box.receive(m)) return;
      if (m.type === "invitation") toast(t("{name} invites you to a table of {game}: see your profile.", { name: m.from, game: m.title }), 8000);
    };
    ws.onclose = () => {
      if (closed || !box.el.isConnected) return;
      setTimeout(() => !closed && box.el.isConnected && open(), retry);
      retry = Math.min(retry * 2, 8000);
    };
  };
  const stop = () => {
    closed = true;
    clearInterval(watch);
    ws?.close();
  };
  // the lobby page replaces its content when left: the chat closes its socket then
  const watch = setInterval(() => {
    if (!box.el.isConnected) stop();
  }, 1000);
  open();
  return box.el;
}
