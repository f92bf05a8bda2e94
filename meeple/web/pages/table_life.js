// The table part for a game's life beside the board: resign (asked to confirm), call the game
// off before anyone moved, take back one's own last move, and claim the game (or let a bot
// play on) when a player's time for a move is up. Only the people who sit at the table see its
// buttons; a game called off or given up is said to everyone.

import { post, tokensFor } from "../api.js";
import { fill, h, toast } from "../dom.js";

const GONE = {
  aborted: "This game was called off before anyone moved. It has no result.",
  abandoned: "Nobody played at this table for a long time, so it was given up. It has no result.",
};

/** A time limit in words: "3 days", "12 hours", "5 minutes". */
function span(seconds) {
  const plural = (n, word) => `${n} ${word}${n === 1 ? "" : "s"}`;
  if (seconds >= 86400) return plural(Math.round(seconds / 86400), "day");
  if (seconds >= 3600) return plural(Math.round(seconds / 3600), "hour");
  if (seconds >= 60) return plural(Math.round(seconds / 60), "minute");
  return plural(Math.max(1, Math.round(seconds)), "second");
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
    const name = (seat) => names[seat] || `Player ${seat + 1}`;
    const parts = [];
    if (GONE[f.status]) {
      parts.push(h("p", { id: "life-gone" }, GONE[f.status]));
    } else if (f.status === "running") {
      for (const late of life.claim ? life.late : []) {
        parts.push(
          h("p", { class: "life-late" }, `${name(late)}'s time for a move is up.`),
          h(
            "p",
            { class: "muted life-late-choice", id: `life-late-choice-${late}` },
            playsOnWithout(f, life, late)
              ? `Claim the game: ${name(late)} is counted last and a bot plays on in their place. `
              : `Claim the game: ${name(late)} is counted last and the game ends. `,
            `Or let a bot play for ${name(late)} to the end: what it scores is ${name(late)}'s result.`,
          ),
          h(
            "div",
            { class: "row" },
            button({ id: `life-claim-${late}`, onclick: () => send("claim", { seat: late }) }, "Claim the game"),
            button(
              { id: `life-bot-${late}`, onclick: () => send("claim", { seat: late, to_bot: true }) },
              `Let a bot play for ${name(late)}`,
            ),
          ),
        );
      }
      const row = [];
      if (life.undo.length) {
        const seat = lastMover(f, life.undo);
        row.push(button({ id: "life-undo", onclick: () => send("undo", body(seat)) }, "Take back my move"));
      }
      if (life.abort) {
        row.push(button({ id: "life-abort", onclick: () => send("abort", body(seatFor(f, life.resign))) }, "Call off the game"));
      }
      if (life.resign.length && !confirming) {
        row.push(button({ id: "life-resign", onclick: () => ((confirming = true), draw(true)) }, "Resign"));
      }
      if (row.length) parts.push(h("div", { class: "row" }, row));
      if (confirming && life.resign.length) {
        const seat = seatFor(f, life.resign);
        const playsOn = playsOnWithout(f, life, seat);
        parts.push(
          h(
            "div",
            { class: "life-confirm", role: "group", "aria-label": "Resign the game?" },
            h(
              "p",
              {},
              life.resign.length > 1 ? `Resign for ${name(seat)}? ` : "Resign this game? ",
              playsOn ? "You will be counted last, and a bot plays on in your place." : "You will be counted last and the game ends.",
            ),
            h(
              "div",
              { class: "row" },
              button(
                { id: "life-resign-yes", class: "danger", onclick: () => send("resign", body(seat), () => (confirming = false)) },
                "Yes, resign",
              ),
              button({ id: "life-resign-no", onclick: () => ((confirming = false), draw(true)) }, "Keep playing"),
            ),
          ),
        );
      }
      if (life.rated) parts.push(h("p", { class: "muted" }, "A rated game: moves cannot be taken back."));
      if (life.limit) parts.push(h("p", { class: "muted" }, `Each move may take up to ${span(life.limit)}.`));
    }
    if (!parts.length) {
      card.hidden = true;
      return;
    }
    card.hidden = false;
    fill(card, h("h2", {}, "This game"), parts);
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
