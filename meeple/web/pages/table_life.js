// The table part for a game's life beside the board: resign (asked to confirm), call the game
// off before anyone moved, take back one's own last move, and claim the game (or let a bot
// play on) when a player's time for a move is up. Only the people who sit at the table see its
// buttons; a game called off or given up is said to everyone.

import { post, tokensFor } from "../api.js";
import { fill, h, toast } from "../dom.js";
import { t, tn } from "../words.js";

const GONE = {
  aborted: t("This game was called off before anyone moved. It has no result."),
  abandoned: t("Nobody played at this table for a long time, so it was given up. It has no result."),
};

/** A time limit in words: "3 days", "12 hours", "5 minutes". */
function span(seconds) {
  if (seconds >= 86400) return tn("{n} day", "{n} days", Math.round(seconds / 86400));
  if (seconds >= 3600) return tn("{n} hour", "{n} hours", Math.round(seconds / 3600));
  if (seconds >= 60) return tn("{n} minute", "{n} minutes", Math.round(seconds / 60));
  return tn("{n} second", "{n} seconds", Math.max(1, Math.round(seconds)));
}

/** The seat a frame's holder acts for: the one in view if it may, else the first that may. */
function seatFor(f, seats) {
  return seats.includes(f.seat) ? f.seat : seats[0];
}

/** The seat among ``seats`` whose move is the last one of the log (several seats: hot-seat). */
function lastMover(f, seats) {
  for (let i = (f.log || []).length - 1; i >= 0; i--) {
    const p = f.log[i].player;
    if (p >= 0) return seats.includes(p) ? p : seats[0];
  }
  return seats[0];
}

/** Whether the game goes on (a bot in the seat) once ``seat`` leaves it counted last: at
 * least two seats stay, a person among them. */
function playsOnWithout(f, life, seat) {
  const out = new Set((life.departed || []).filter((d) => d.last).map((d) => d.seat));
  const staying = (f.players || []).filter((p) => p.seat !== seat && !out.has(p.seat));
  return staying.length >= 2 && staying.some((p) => p.kind === "human");
}

export function tableLife(play) {
  const id = play.table.id;
  const card = h("div", { class: "card life", id: "table-life", hidden: true });
  let frame = null;
  let confirming = false;
  let busy = false;
  let shown = null;

  const body = (seat) => {
    const token = tokensFor(id)[seat];
    return token ? { seat, token } : { seat };
  };

  const send = async (path, data, done) => {
    if (busy) return;
    busy = true;
    draw(true);
    try {
      await post(`/api/tables/${encodeURIComponent(id)}/${path}`, data);
      done?.();
    } catch (e) {
      toast(e.message);
    } finally {
      busy = false;
      draw(true);
    }
  };

  const button = (attrs, text) => h("button", { type: "button", disabled: busy, ...attrs }, text);

  function draw(force = false) {
    const f = frame;
    const life = f && f.life;
    const seated = f && (f.seats || []).length > 0;
    const key = JSON.stringify([life, f && f.status, f && f.seat, confirming, busy]);
    if (!force && key === shown) return;
    shown = key;
    if (!life || (!seated && !GONE[f.status])) {
      card.hidden = true; // the game's end without a result is said to everyone, the rest to players
      return;
    }
    const names = play.names(f);
    const name = (seat) => names[seat] || t("Player {n}", { n: seat + 1 });
    const parts = [];
    if (GONE[f.status]) {
      parts.push(h("p", { id: "life-gone" }, GONE[f.status]));
    } else if (f.status === "running") {
      for (const late of life.claim ? life.late : []) {
        parts.push(
          h("p", { class: "life-late" }, t("{name}'s time for a move is up.", { name: name(late) })),
          h(
            "p",
            { class: "muted life-late-choice", id: `life-late-choice-${late}` },
            playsOnWithout(f, life, late)
              ? t("Claim the game: {name} is counted last and a bot plays on in their place.", { name: name(late) })
              : t("Claim the game: {name} is counted last and the game ends.", { name: name(late) }),
            " ",
            t("Or let a bot play for {name} to the end: what it scores is {name}'s result.", { name: name(late) }),
          ),
          h(
            "div",
            { class: "row" },
            button({ id: `life-claim-${late}`, onclick: () => send("claim", { seat: late }) }, t("Claim the game")),
            button(
              { id: `life-bot-${late}`, onclick: () => send("claim", { seat: late, to_bot: true }) },
              t("Let a bot play for {name}", { name: name(late) }),
            ),
          ),
        );
      }
      const row = [];
      if (life.undo.length) {
        const seat = lastMover(f, life.undo);
        row.push(button({ id: "life-undo", onclick: () => send("undo", body(seat)) }, t("Take back my move")));
      }
      if (life.abort) {
        row.push(button({ id: "life-abort", onclick: () => send("abort", body(seatFor(f, life.resign))) }, t("Call off the game")));
      }
      if (life.resign.length && !confirming) {
        row.push(button({ id: "life-resign", onclick: () => ((confirming = true), draw(true)) }, t("Resign")));
      }
      if (row.length) parts.push(h("div", { class: "row" }, row));
      if (confirming && life.resign.length) {
        const seat = seatFor(f, life.resign);
        const playsOn = playsOnWithout(f, life, seat);
        parts.push(
          h(
            "div",
            { class: "life-confirm", role: "group", "aria-label": t("Resign the game?") },
            h(
              "p",
              {},
              life.resign.length > 1 ? t("Resign for {name}?", { name: name(seat) }) : t("Resign this game?"),
              " ",
              playsOn ? t("You will be counted last, and a bot plays on in your place.") : t("You will be counted last and the game ends."),
            ),
            h(
              "div",
              { class: "row" },
              button(
                { id: "life-resign-yes", class: "danger", onclick: () => send("resign", body(seat), () => (confirming = false)) },
                t("Yes, resign"),
              ),
              button({ id: "life-resign-no", onclick: () => ((confirming = false), draw(true)) }, t("Keep playing")),
            ),
          ),
        );
      }
      if (life.rated) parts.push(h("p", { class: "muted" }, t("A rated game: moves cannot be taken back.")));
      if (life.limit) parts.push(h("p", { class: "muted" }, t("Each move may take up to {time}.", { time: span(life.limit) })));
    }
    if (!parts.length) {
      card.hidden = true;
      return;
    }
    card.hidden = false;
    fill(card, h("h2", {}, t("This game")), parts);
  }

  return {
    card,
    onFrame(f) {
      frame = f;
      if (f.status !== "running") confirming = false;
      draw();
    },
  };
}
