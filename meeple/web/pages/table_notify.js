// The table part that tells a person it is their turn: the tab's title, a sound (a setting
// kept in this browser) and a browser notification (asked for once, when the person chooses).

import { session } from "../app.js";
import { h, link } from "../dom.js";
import { t } from "../words.js";

const SOUND = "meeple.turn-sound";
const ASKED = "meeple.notify-asked";
const MARK = `${t("Your turn")} · `;

function stored(key, fallback) {
  try {
    const v = localStorage.getItem(key);
    return v === null ? fallback : v === "1";
  } catch (e) {
    return fallback;
  }
}

function keep(key, on) {
  try {
    localStorage.setItem(key, on ? "1" : "0");
  } catch (e) {
    /* private mode: the setting lasts for this page only */
  }
}

/** A short two-note chime (no sound file to fetch). */
export function chime() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!Ctx) return false;
  const ctx = new Ctx();
  const now = ctx.currentTime;
  for (const [freq, at] of [
    [660, 0],
    [880, 0.16],
  ]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.0001, now + at);
    gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.3);
    osc.connect(gain).connect(ctx.destination);
    osc.start(now + at);
    osc.stop(now + at + 0.32);
  }
  setTimeout(() => ctx.close(), 800);
  return true;
}

/** Whether the frame asks this connection to act now. */
export function myTurn(f) {
  if (!f || f.status !== "running") return false;
  const mine = new Set(f.seats || []);
  return (f.to_move || []).some((s) => mine.has(s));
}

/** The table part. */
export function tableNotify(play) {
  const base = document.title.startsWith(MARK) ? document.title.slice(MARK.length) : document.title;
  let was = false;
  const sound = h("input", {
    type: "checkbox",
    id: "turn-sound",
    checked: stored(SOUND, false),
    onchange: () => keep(SOUND, sound.checked),
  });
  const canNotify = "Notification" in window;
  const askBtn = h(
    "button",
    {
      type: "button",
      id: "turn-notify",
      onclick: async () => {
        keep(ASKED, true);
        try {
          await Notification.requestPermission();
        } finally {
          drawAsk();
        }
      },
    },
    t("Tell me in the browser when it is my turn"),
  );
  const askNote = h("p", { class: "muted", id: "turn-notify-state" });
  const drawAsk = () => {
    const asked = stored(ASKED, false);
    const perm = canNotify ? Notification.permission : "denied";
    const hide = !canNotify || perm !== "default" || asked;
    askBtn.hidden = hide;
    askBtn.style.display = hide ? "none" : ""; // a button's own display would show it anyway
    askNote.textContent = !canNotify
      ? t("This browser cannot show notifications.")
      : perm === "granted"
        ? t("The browser will tell you when it is your turn while this page is in the background.")
        : perm === "denied"
          ? t("Browser notifications are off for this site.")
          : asked
            ? t("You chose not to have browser notifications.")
            : "";
  };
  drawAsk();
  const mail =
    session.me.name && !session.me.guest
      ? h("p", { class: "muted" }, t("Away for a while?"), " ", link(`/profile/${encodeURIComponent(session.me.name)}`, t("Get an e-mail when it is your turn")))
      : null;
  const card = h(
    "div",
    { class: "card", id: "turn-alerts" },
    h("h2", {}, t("When it is your turn")),
    h("label", { class: "row" }, sound, " ", t("Play a sound")),
    askBtn,
    askNote,
    mail,
  );
  const onFrame = (f) => {
    // a spectator has no turn, nor has anyone once the game is over: the card is for the
    // people who sit at a game being played
    card.style.display = (f.seats || []).length && f.status === "running" ? "" : "none";
    const now = myTurn(f);
    document.title = now ? MARK + base : base;
    if (now && !was) {
      if (sound.checked) chime();
      if (canNotify && Notification.permission === "granted" && document.hidden) {
        try {
          const n = new Notification(t("Your turn"), { body: t("{game}: it is your move.", { game: play.table.title }), tag: `meeple-${play.table.id}` });
          n.onclick = () => {
            window.focus();
            n.close();
          };
        } catch (e) {
          /* some browsers only notify from a service worker: the title still says it */
        }
      }
    }
    was = now;
  };
  return { card, onFrame, close: () => (document.title = base) };
}
