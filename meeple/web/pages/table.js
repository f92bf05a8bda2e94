// A table: the waiting room (seats, invite link, start) and live play (board, scores, whose
// turn, clocks, the move log, the final result), for players, hot-seat and spectators.

import { dropToken, get, keepTokens, post, TableSocket, tokensFor } from "../api.js";
import { navigate, session } from "../app.js";
import { Board, SHOW_LEGAL_KEY, showLegalSetting } from "../board.js";
import { clockText, fill, h, holdUntil, link, painted, toast } from "../dom.js";
import { fmt, playerColour, playerLabel, playerMark, playerNames, resultsTable } from "../players.js";
import { guestForm, listText } from "./account.js";
import { ratedRules } from "./lobby.js";
import { MOVES, TABLE_PARTS, WAITING_PARTS } from "./table_parts.js";
import { t, tn } from "../words.js";

/** The game's description (`Game.describe()`: its views, seat colours, ...), asked once. */
const descriptions = new Map();
export function describeGame(name) {
  if (!descriptions.has(name)) {
    descriptions.set(
      name,
      get(`/api/games/${encodeURIComponent(name)}`).catch((e) => {
        descriptions.delete(name);
        throw e;
      }),
    );
  }
  return descriptions.get(name);
}

/** The bot levels of `/api/bots`, weakest first: [{spec, name, description}] (an answer of
 * plain names is read as levels named so). */
export function botLevels(answer) {
  const list = (answer && answer.bots) || [];
  const levels = list.map((b, i) =>
    typeof b === "string" ? { spec: b, name: b, description: "", step: i } : { step: i, ...b },
  );
  return levels.sort((a, b) => (a.step ?? 0) - (b.step ?? 0));
}

let levelsAsked = null;
/** The bot levels (asked once per page load). */
export function knownBotLevels() {
  if (!levelsAsked) {
    levelsAsked = get("/api/bots")
      .then(botLevels)
      .catch(() => {
        levelsAsked = null;
        return [];
      });
  }
  return levelsAsked;
}
let levelsKnown = [];
knownBotLevels().then((l) => (levelsKnown = l));

/** What a bot seat is called beside its name: the level's name (the seat's own, else the
 * level of its bot's kind), else "bot"; null where the name already says it ("Thoughtful
 * bot" needs no "Thoughtful" beside it). */
export function botBadge(p, levels = levelsKnown) {
  const spec = p && (p.level || p.bot);
  const known = spec && levels.find((l) => l.spec === spec);
  const level = (p && p.bot_name) || (known && known.name) || t("bot");
  return p && p.name && p.name.toLocaleLowerCase().includes(level.toLocaleLowerCase()) ? null : level;
}

/** How many moves a log line stands for (the set-up's chance events are one line). */
export function lineMoves(m) {
  return Number.isInteger(m.moves) && m.moves > 0 ? m.moves : 1;
}

/** The move log's line: the move in words, the notation as its title; `data-moves` says how
 * many steps it stands for. A move shows its number as players count them (`m.number`, the
 * review's and the replay's too); the set-up and chance steps are no moves and show none. */
export function logLine(m, who, attrs = {}) {
  const numbered = m.number > 0;
  const cls = [attrs.class, numbered ? null : "chance"].filter(Boolean).join(" ") || null;
  return h("li", { ...attrs, class: cls, value: numbered ? m.number : null,
    dataset: { n: m.n, moves: lineMoves(m), number: m.number ?? 0 }, title: m.text }, who, m.sentence || m.text);
}

/** Does the game's description offer the 3D tower view? */
export function hasTower(game) {
  return ((game && game.views) || []).includes("tower-3d");
}

function inviteBox(table) {
  if (!table.invite) return null;
  const url = new URL(table.invite, location.href).href;
  const input = h("input", { id: "invite-link", readonly: true, value: url, "aria-label": t("Invite link"), size: 40 });
  return h(
    "div",
    { class: "card" },
    h("h2", {}, t("Invite")),
    h("p", { class: "muted" }, t("Send this link to the people you want to play with.")),
    h(
      "div",
      { class: "row" },
      input,
      h(
        "button",
        {
          type: "button",
          onclick: async () => {
            input.select();
            try {
              await navigator.clipboard.writeText(url);
              toast(t("Invite link copied"));
            } catch (e) {
              document.execCommand && document.execCommand("copy");
            }
          },
        },
        t("Copy"),
      ),
    ),
  );
}

/** The tables whose owner asked to call them off and has not yet said yes or no. */
const callingOff = new Set();

/** The owner's "Call off" of a waiting table, asked to confirm first. */
function callOffBox(table, act, redraw) {
  if (!callingOff.has(table.id)) {
    return h(
      "button",
      { type: "button", id: "call-off", onclick: () => (callingOff.add(table.id), redraw()) },
      t("Call off the table"),
    );
  }
  return h(
    "div",
    { class: "card life-confirm", id: "call-off-confirm", role: "group", "aria-label": t("Call off the table?") },
    h("p", {}, t("Call off this table? Nobody can sit down at it afterwards, and it has no result.")),
    h(
      "div",
      { class: "row" },
      h(
        "button",
        {
          type: "button",
          class: "danger",
          id: "call-off-yes",
          onclick: () => {
            callingOff.delete(table.id);
            act(() => post(`/api/tables/${table.id}/abort`, {}));
          },
        },
        t("Yes, call it off"),
      ),
      h("button", { type: "button", id: "call-off-no", onclick: () => (callingOff.delete(table.id), redraw()) }, t("Keep the table")),
    ),
  );
}

/** The waiting room of a table that has not started; `cards` are the table parts shown
 * there (the chat, ...), kept from one drawing to the next. */
async function waitingRoom(main, table, gameInfo, refresh, cards = []) {
  const me = session.me.name;
  const names = playerNames(table.seats, table.players);
  const owner = me && table.owner === me;
  const bots = await knownBotLevels();
  const held = tokensFor(table.id);
  const act = async (fn) => {
    try {
      await fn();
      await refresh();
    } catch (e) {
      toast(e.message);
    }
  };
  const rows = table.seats.map((s) => {
    const mine = s.mine || held[s.seat] !== undefined;
    const controls = [];
    if (s.kind === "open" && me) {
      controls.push(
        h(
          "button",
          {
            type: "button",
            class: "primary",
            onclick: () =>
              act(async () => {
                const r = await post(`/api/tables/${table.id}/join`, { seat: s.seat, code: codeFor(table.id) });
                keepTokens(table.id, r.tokens);
              }),
          },
          t("Sit here"),
        ),
      );
    }
    if (mine && s.kind === "human") {
      controls.push(
        h(
          "button",
          {
            type: "button",
            onclick: () =>
              act(async () => {
                await post(`/api/tables/${table.id}/leave`, { seat: s.seat });
                dropToken(table.id, s.seat);
              }),
          },
          t("Leave"),
        ),
      );
    }
    if (owner && !(mine && s.kind === "human")) {
      const sel = h(
        "select",
        { "aria-label": t("{name}: who sits", { name: names[s.seat] }) },
        h("option", { value: "" }, t("Change…")),
        h("option", { value: "open" }, t("Open seat")),
        bots.map((b) =>
          h("option", { value: "bot:" + b.spec, title: b.description || null },
            b.description ? t("Bot: {level} — {description}", { level: b.name, description: b.description }) : t("Bot: {level}", { level: b.name })),
        ),
      );
      sel.addEventListener("change", () => {
        if (!sel.value) return;
        const body = sel.value.startsWith("bot:") ? { kind: "bot", bot: sel.value.slice(4) } : { kind: "open" };
        act(() => post(`/api/tables/${table.id}/seats/${s.seat}`, body));
      });
      controls.push(sel);
    }
    return h(
      "li",
      { dataset: { seat: s.seat } },
      playerMark(playerColour(s, gameInfo)),
      h(
        "span",
        { class: "name" },
        names[s.seat],
        s.kind === "open" ? h("em", { class: "muted" }, " ", t("(open seat)")) : null,
        s.kind === "bot" && botBadge(s, bots) ? h("span", { class: "badge" }, botBadge(s, bots)) : null,
        mine ? h("span", { class: "badge" }, t("you")) : null,
      ),
      controls,
    );
  });
  const full = table.seats.every((s) => s.kind !== "open");
  const rated = table.rated ? h("p", { class: "muted", id: "rated-rules" }, t("A rated game."), " ", ratedRules(await get("/api/rated"))) : null;
  fill(main, 
    h("h1", {}, t("{game} — waiting for players", { game: table.title })),
    h(
      "p",
      { class: "muted" },
      tn("{n} player", "{n} players", table.players),
      " · ",
      table.visibility === "private" ? t("private table") : t("public table"),
      " · ",
      t("created by {name}", { name: table.owner }),
      " · ",
      link(`/rules/${table.game}`, t("rules")),
    ),
    rated,
    !me ? guestForm(refresh, t("Give a name to sit down")) : null,
    h("div", { class: "card" }, h("h2", {}, t("Seats")), h("ul", { class: "seats", id: "seat-list" }, rows)),
    inviteBox(table),
    owner
      ? h(
          "button",
          {
            type: "button",
            class: "primary",
            id: "start",
            disabled: !full,
            onclick: () => act(() => post(`/api/tables/${table.id}/start`)),
          },
          full ? t("Start the game") : t("Start (every seat must be taken)"),
        )
      : h("p", { class: "muted" }, t("The game starts when the table's creator starts it.")),
    owner ? callOffBox(table, act, () => waitingRoom(main, table, gameInfo, refresh, cards)) : null,
    cards,
  );
}

function codeFor(tableId) {
  return sessionStorage.getItem("meeple.invite." + tableId) || undefined;
}

/** The invite link: sit down at a table with its code. */
export async function invitePage(main, [id, code]) {
  sessionStorage.setItem("meeple.invite." + id, code);
  const draw = async () => {
    const { table } = await get(`/api/tables/${id}`);
    document.title = t("Invitation to {game} · meeple", { game: table.title });
    const mine = table.seats.some((s) => s.mine) || Object.keys(tokensFor(id)).length > 0;
    if (mine || table.status !== "waiting") {
      navigate(`/table/${id}`, { replace: true });
      return;
    }
    const open = table.seats.filter((s) => s.kind === "open");
    fill(main, 
      h("h1", {}, t("Join {name}'s table of {game}", { name: table.owner, game: table.title })),
      h("p", {}, link(`/rules/${table.game}`, t("Rules of {game}", { game: table.title }))),
      session.me.name
        ? open.length
          ? h(
              "button",
              {
                type: "button",
                class: "primary",
                id: "join",
                onclick: async () => {
                  try {
                    const r = await post(`/api/tables/${id}/join`, { code });
                    keepTokens(id, r.tokens);
                    navigate(`/table/${id}`, { replace: true });
                  } catch (e) {
                    toast(e.message);
                  }
                },
              },
              t("Sit down as {name}", { name: session.me.name }),
            )
          : h("p", {}, t("Every seat is taken."), " ", link(`/table/${id}`, t("Watch the table")))
        : guestForm(draw, t("Give a name to sit down")),
      session.me.name ? null : h("p", {}, link(`/login?next=${encodeURIComponent(location.pathname)}`, t("Or sign in"))),
    );
  };
  await draw();
}

/** The table page: waiting room until the start, then live play. */
export async function tablePage(main, [id]) {
  let { table } = await get(`/api/tables/${id}`);
  const gameInfo = await describeGame(table.game);
  document.title = `${table.title} · meeple`;
  let play = null;
  let lastStatus = null;

  let shown = null;
  let sock = null;
  // The table parts of the waiting room (the chat, the player aid), made once.
  let waiting = null;
  const waitingCards = () => {
    if (!waiting) {
      const room = {
        table,
        gameInfo,
        frame: null,
        get sock() {
          return sock;
        },
        names: () => playerNames(room.table.seats, room.table.players),
        colour: (f, seat) => playerColour(room.table.seats.find((x) => x.seat === seat), gameInfo, seat),
      };
      waiting = { room, parts: WAITING_PARTS.map((make) => make(room)).filter(Boolean) };
    }
    waiting.room.table = table;
    return waiting.parts.map((p) => p.card).filter(Boolean);
  };
  const closeWaiting = () => {
    for (const p of waiting ? waiting.parts : []) p.close?.();
    waiting = null;
  };
  const refresh = async () => {
    ({ table } = await get(`/api/tables/${id}`));
    const now = JSON.stringify(table) + (session.me.name || "");
    if (now !== shown) show();
  };
  const show = () => {
    shown = JSON.stringify(table) + (session.me.name || "");
    if (table.status === "waiting") {
      lastStatus = "waiting";
      waitingRoom(main, table, gameInfo, refresh, waitingCards());
    } else if (!play) {
      closeWaiting();
      play = new LivePlay(main, table, gameInfo);
    }
  };
  show();
  // While waiting, follow the table's changes through the socket (any frame means a change).
  if (table.status === "waiting") {
    sock = new TableSocket(id, {
      onFrame: async (f) => {
        if (play) return;
        if (f.status !== "waiting" || lastStatus === "waiting") await refresh();
        if (play) {
          // two frames may both have been waiting for the refresh: the first closes it
          sock?.close();
          sock = null;
        }
      },
    });
  }
  // Joins and leaves also show up by asking now and then (a socket may miss a seat change).
  const poll = setInterval(() => {
    if (play || table.status !== "waiting") {
      clearInterval(poll);
      return;
    }
    refresh().catch(() => {});
  }, 3000);
  return () => {
    clearInterval(poll);
    closeWaiting();
    sock?.close();
    play?.close();
  };
}

/** Live play of a started table through its WebSocket. */
class LivePlay {
  constructor(main, table, gameInfo) {
    this.main = main;
    this.table = table;
    this.gameInfo = gameInfo;
    this.frame = null;
    this.revealed = null; // the seat whose private view this device may show now
    // The page shows once the first frame is drawn and the panels have what they wait for
    // (the player aid, ...): then nothing jumps as they arrive.
    this.firstDrawn = new Promise((resolve) => (this.drawn = resolve));
    this.build();
    this.shown = holdUntil(main, Promise.all([this.firstDrawn, ...this.parts.map((p) => p.ready).filter(Boolean)]));
    this.sock = new TableSocket(table.id, {
      onFrame: (f) => this.onFrame(f),
      onError: (e) => this.onError(e),
      onState: (s) => this.onState(s),
    });
    this.tick = setInterval(() => this.drawClocks(), 500);
  }

  close() {
    clearInterval(this.tick);
    this.sock.close();
    for (const p of this.parts) p.close?.();
    if (this.tower && this.tower.dispose) this.tower.dispose();
  }

  build() {
    const tb = this.table;
    this.title = h("h1", {}, tb.title);
    this.banner = h("p", { class: "turn-banner", id: "turn", "aria-live": "polite" });
    this.boardEl = h("div", { id: "board" });
    this.board = new Board(this.boardEl, {
      onChoose: (a) => this.choose(a),
    });
    this.view3d = h("div", { id: "view3d", hidden: true });
    this.viewSwitch = h("div", { class: "view-switch row", hidden: true });
    this.playersEl = h("ul", { class: "players", id: "players" });
    this.logEl = h("ol", { class: "log", id: "log", start: 1 });
    // Whether the log shows its end, known from its scrolling (not read at each frame).
    this.logAtEnd = true;
    this.logEl.addEventListener("scroll", () => {
      const el = this.logEl;
      this.logAtEnd = el.scrollTop + el.clientHeight >= el.scrollHeight - 4;
    });
    this.notation = h("input", {
      id: "notation",
      "aria-label": t("Type a move in the game's notation"),
      placeholder: t("type a move (notation)"),
      autocomplete: "off",
      list: "legal-moves",
    });
    this.datalist = h("datalist", { id: "legal-moves" });
    const notationForm = h(
      "form",
      {
        class: "notation-form",
        onsubmit: (ev) => {
          ev.preventDefault();
          const text = this.notation.value.trim().toLowerCase();
          const a = (this.frame?.actions || []).find((x) => x.text.toLowerCase() === text);
          if (!a) {
            toast(text ? t("“{move}” is not a legal move now", { move: this.notation.value }) : t("Type a move first"));
            return;
          }
          this.notation.value = "";
          this.board.choose(a);
        },
      },
      this.notation,
      this.datalist,
      h("button", { type: "submit", id: "notation-play" }, t("Play")),
    );
    this.notationForm = notationForm;
    this.notationPlay = notationForm.querySelector("button");
    this.viewAs = h("div", { class: "row", id: "view-as" });
    // The result of a finished game: at the top of the page, until the player closes it.
    this.resultEl = h("div", { id: "result" });
    this.resultClosed = false;
    this.connEl = h("p", { class: "muted", id: "conn" });
    const moves = h("div", { class: "card moves-card" }, h("h2", {}, t("Moves")), this.logEl, notationForm);
    const made = TABLE_PARTS.map((make) => (make === MOVES ? { card: moves } : make(this)));
    this.parts = made.filter((p) => p && p.card !== moves);
    fill(this.main, 
      this.title,
      this.resultEl,
      h(
        "div",
        { class: "table-layout" },
        h(
          "div",
          {},
          h("div", { class: "table-top" }, this.banner, this.settings()),
          this.viewSwitch,
          this.view3d,
          this.boardEl,
        ),
        h(
          "aside",
          { class: "side" },
          h("div", { class: "card" }, h("h2", {}, t("Players")), this.playersEl, this.viewAs),
          ...made.map((p) => p && p.card).filter(Boolean),
          h(
            "div",
            { class: "card" },
            h("p", {}, link(`/rules/${tb.game}`, t("Rules of {game}", { game: tb.title }))),
            this.connEl,
          ),
        ),
      ),
    );
  }

  /** The table's small settings: mark every legal place before pointing (kept on this
   * device). */
  settings() {
    const box = h("input", { type: "checkbox", id: "show-legal" });
    box.checked = showLegalSetting();
    box.addEventListener("change", () => {
      try {
        localStorage.setItem(SHOW_LEGAL_KEY, box.checked ? "1" : "0");
      } catch (e) {
        /* private mode: the setting lasts for this page only */
      }
      this.board.setShowLegal(box.checked);
    });
    this.settingsEl = h(
      "details",
      { class: "table-settings", id: "table-settings" },
      h("summary", {}, t("Settings")),
      h("label", { class: "check" }, box, " ", t("Mark every place you may play before pointing")),
    );
    return this.settingsEl;
  }

  onState(s) {
    this.connEl.textContent = s === "open" ? "" : s === "gone" ? t("This table no longer exists.") : t("Reconnecting…");
  }

  onError(e) {
    this.drawn();
    toast(e.reason || t("refused"));
    if (this.frame) this.draw(this.frame);
  }

  onFrame(f) {
    const prev = this.frame;
    this.frame = f;
    this.receivedAt = Date.now() / 1000;
    if (f.status === "finished" && (!prev || prev.status !== "finished")) {
      // The game ends while the page is open: the result shows at the top, in sight.
      if (prev) window.scrollTo({ top: 0 });
      get(`/api/tables/${this.table.id}`).then((r) => {
        this.table = r.table;
        this.drawResult();
      });
    }
    this.draw(f);
  }

  /** Does this device need a "pass the device" screen before showing seat s? */
  needsCover(f) {
    if (f.seat === null || f.seat === undefined) return false;
    if (!f.seats || f.seats.length < 2) return false;
    if (this.gameInfo.perfect_information) return false;
    if (f.status === "finished") return false;
    return this.revealed !== f.seat;
  }

  /** The display names of the frame's players, by seat. */
  names(f) {
    return playerNames(f.players || [], this.table.players || 0);
  }

  /** The colour of a seat: the frame's, else the game's description. */
  colour(f, seat) {
    return playerColour((f.players || []).find((p) => p.seat === seat), this.gameInfo, seat);
  }

  draw(f) {
    const names = this.names(f);
    const name = (s) => names[s] || t("Player {n}", { n: s + 1 });
    if (this.needsCover(f)) {
      this.cover(name(f.seat), f.seat);
      this.drawn();
      return;
    }
    document.querySelector(".cover")?.remove();
    if (f.seat !== null && f.seat !== undefined) this.revealed = f.seat;
    const mine = f.actions && f.actions.length > 0;
    const at = this.board.measure(); // before anything changes: no layout to wait for
    // Banner: whose turn.
    const toMove = f.to_move || [];
    if (f.status === "finished") {
      fill(this.banner, t("Game over"));
      if (this.resultClosed) {
        this.banner.append(" ", h("button", { type: "button", class: "link", id: "final-show", onclick: () => this.showResult(true) }, t("Show the result")));
      }
      this.banner.className = "turn-banner";
    } else if (ENDED[f.status]) {
      this.banner.textContent = ENDED[f.status];
      this.banner.className = "turn-banner ended";
    } else if (mine) {
      const several = f.seats && f.seats.length > 1;
      const together = toMove.length > 1;
      this.banner.textContent = several
        ? together
          ? t("{name}: your turn (everyone pending chooses at once)", { name: name(f.seat) })
          : t("{name}: your turn", { name: name(f.seat) })
        : together
          ? t("Your turn (everyone pending chooses at once)")
          : t("Your turn");
      this.banner.className = "turn-banner mine";
    } else if (toMove.length) {
      this.banner.textContent = t("Waiting for {names}", { names: listText(toMove.map(name)) });
      this.banner.className = "turn-banner";
    } else {
      this.banner.textContent = "";
    }
    document.title = mine ? t("▶ Your turn · {game} · meeple", { game: this.table.title }) : `${this.table.title} · meeple`;
    this.title.textContent =
      f.seat !== null && f.seat !== undefined
        ? `${this.table.title} — ${name(f.seat)}`
        : t("{game} — watching", { game: this.table.title });
    const moved = !!this.shownMove && f.move_number > this.shownMove;
    this.shownMove = f.move_number;
    if (f.seat !== null && f.seat !== undefined) this.board.setMover(this.colour(f, f.seat).fill);
    const running = f.status === "running";
    this.board.show(f.svg, running ? f.actions || [] : [], { enabled: running, moved, at, over: !running });
    if (ENDED[f.status]) endedPicture(this.boardEl, ENDED_SHORT[f.status]);
    fill(this.datalist, ...(f.actions || []).map((a) => h("option", { value: a.text }, a.label)));
    // Only a seated player of a running game has a move box; a spectator has no move
    // controls at all, nor has anyone once the game is over, called off or given up.
    const seated = (f.seats || []).length > 0 && f.status === "running";
    this.notationForm.hidden = !seated;
    this.settingsEl.hidden = !seated;
    this.notation.disabled = !mine;
    this.notationPlay.disabled = !mine;
    this.drawPlayers(f);
    this.drawLog(f);
    this.drawViewAs(f);
    this.draw3d(f);
    if (f.status === "finished") this.drawResult();
    for (const p of this.parts) p.onFrame?.(f);
    this.drawn();
  }

  cover(name, seat) {
    document.querySelector(".cover")?.remove();
    this.board.show("", [], { enabled: false });
    const btn = h(
      "button",
      {
        type: "button",
        class: "primary",
        id: "reveal",
        onclick: () => {
          this.revealed = seat;
          this.draw(this.frame);
        },
      },
      t("I am {name}: show my view", { name }),
    );
    const c = h(
      "div",
      { class: "cover", role: "dialog", "aria-modal": "true", "aria-labelledby": "cover-title" },
      h("h2", { id: "cover-title" }, t("Pass the device to {name}", { name })),
      h("p", { class: "muted" }, t("Their private view is hidden until they are ready.")),
      btn,
    );
    document.body.appendChild(c);
    btn.focus();
  }

  drawPlayers(f) {
    const obs = f.observation || {};
    const scores = (f.result && f.result.scores) || obs.scores || [];
    const toMove = new Set(f.to_move || []);
    const names = this.names(f);
    fill(this.playersEl, 
      ...(f.players || []).map((p) =>
        h(
          "li",
          { class: toMove.has(p.seat) ? "to-act" : "", dataset: { seat: p.seat } },
          playerMark(this.colour(f, p.seat)),
          h(
            "span",
            { class: "name" },
            names[p.seat],
            p.kind === "bot" && botBadge(p) ? h("span", { class: "badge" }, botBadge(p)) : null,
            (f.seats || []).includes(p.seat) ? h("span", { class: "badge" }, t("you")) : null,
            p.kind === "human" && p.connected === false ? h("span", { class: "muted" }, " ", t("(away)")) : null,
          ),
          h("span", { class: "clock", dataset: { clock: p.seat } }),
          h("span", { class: "score", title: t("score") }, scores[p.seat] !== undefined ? fmt(scores[p.seat]) : ""),
        ),
      ),
    );
    this.drawClocks();
  }

  drawClocks() {
    const f = this.frame;
    if (!f || !f.clocks) return;
    const c = f.clocks;
    const elapsed = Date.now() / 1000 - this.receivedAt;
    for (const el of this.playersEl.querySelectorAll("[data-clock]")) {
      const s = +el.dataset.clock;
      let left = c.remaining ? c.remaining[s] : null;
      const running = (c.running || []).includes(s) && f.status === "running";
      if (left !== null && left !== undefined && running) left -= elapsed;
      el.textContent = left === null || left === undefined ? "" : clockText(left);
      el.classList.toggle("running", running);
    }
  }

  /** The moves' log: lines that are the same as shown stay, the rest are drawn again (a new
   * move adds one line instead of drawing every line anew). */
  drawLog(f) {
    const log = f.log || [];
    const names = this.names(f);
    const colourOf = (s) => this.colour(f, s);
    const keys = log.map((m) => JSON.stringify([m, m.player === -1 ? null : [names[m.player], colourOf(m.player)]]));
    const had = this.logKeys || [];
    let same = 0;
    while (same < keys.length && same < had.length && keys[same] === had[same]) same++;
    const lines = this.logEl.children;
    while (lines.length > same) lines[lines.length - 1].remove();
    this.logEl.append(...log.slice(same).map((m) => logLine(m, logWho(m.player, names, colourOf))));
    this.logKeys = keys;
    // To the end, when the person had not scrolled away or a move came; in the next frame,
    // when the page is laid out anyway.
    if (this.logAtEnd || keys.length !== had.length) {
      requestAnimationFrame(() => {
        this.logEl.scrollTop = this.logEl.scrollHeight;
      });
    }
  }

  drawViewAs(f) {
    const held = f.seats || [];
    if (held.length < 2 || f.status === "finished") {
      fill(this.viewAs);
      return;
    }
    const names = this.names(f);
    fill(this.viewAs, 
      h("span", { class: "muted" }, t("Show:")),
      ...held.map((s) =>
        h(
          "button",
          {
            type: "button",
            "aria-pressed": String(s === f.seat),
            onclick: () => this.sock.view(s),
          },
          playerMark(this.colour(f, s)),
          " ",
          names[s],
        ),
      ),
    );
  }

  async draw3d(f) {
    if (!hasTower(this.gameInfo)) return;
    if (!this.tower) {
      this.viewSwitch.hidden = false;
      const b3 = h("button", { type: "button", "aria-pressed": "true", id: "show-3d" }, t("3D tower"));
      const b2 = h("button", { type: "button", "aria-pressed": "false", id: "show-2d" }, t("Plan"));
      const set = (three) => {
        this.view3d.hidden = !three;
        b3.setAttribute("aria-pressed", String(three));
        b2.setAttribute("aria-pressed", String(!three));
        this.boardEl.classList.toggle("plan-only", three);
      };
      b3.onclick = () => set(true);
      b2.onclick = () => set(false);
      fill(this.viewSwitch, b3, b2);
      this.view3d.hidden = false;
      // The 3D view's room is kept while three.js loads: the plan and the pieces do not
      // move when it arrives.
      this.view3d.classList.add("kozo3d");
      this.tower = "loading";
      try {
        // three.js (large) and the 3D view's start wait until the page is painted: the
        // board and the panels show first, the 3D view in the room kept for it.
        await this.shown;
        await painted();
        const { KozoView } = await import("../kozo3d.js");
        this.tower = new KozoView(this.view3d);
      } catch (e) {
        // three.js missing (npm ci not run) or no WebGL: the plan still works, and says so.
        console.error(e);
        this.tower = null;
        this.viewSwitch.hidden = true;
        this.view3d.className = "view3d-off";
        this.boardEl.classList.remove("plan-only");
        fill(this.view3d, h("p", { class: "muted" }, t("The 3D view cannot be shown on this device. The plan below shows the tower.")));
        this.draw3d = () => {};
        return;
      }
    }
    if (this.tower === "loading") return;
    this.tower.update(this.frame.observation, this.board, this.names(this.frame));
  }

  /** Show the result panel again, or close it (the banner then offers it back). */
  showResult(open) {
    this.resultClosed = !open;
    this.resultEl.hidden = !open;
    if (this.frame) this.draw(this.frame);
    (open ? this.resultEl.querySelector("#final-close") : this.banner.querySelector("#final-show"))?.focus();
  }

  /** The result panel of a finished game: who won and each player's score, the breakdown of
   * the scores one tap away (each part, and where the game says it, each scoring), the replay,
   * the review and a rematch. */
  drawResult() {
    const f = this.frame;
    if (!f || f.status !== "finished") {
      fill(this.resultEl);
      this.resultKey = null;
      return;
    }
    this.resultEl.hidden = this.resultClosed;
    const res = f.result || this.table.result || {};
    const names = this.names(f);
    const scores = res.scores || f.observation?.scores || [];
    const ranks = res.ranks || f.observation?.ranks || [];
    const colours = names.map((_, s) => this.colour(f, s));
    // The card stays as it is while nothing on it changes (a frame arrives for each change
    // of who is connected): a reader's selection or a screenshot is not pulled away.
    const bots = (f.players || []).map((p) => (p.kind === "bot" ? botBadge(p) : null));
    const breakdown = f.observation?.final_breakdown || [];
    const key = JSON.stringify([res, names, colours, breakdown, this.table.rematch, f.seats, bots]);
    if (key === this.resultKey && this.resultEl.firstChild) return;
    this.resultKey = key;
    const badges = Object.fromEntries((f.players || []).filter((p) => p.kind === "bot").map((p) => [p.seat, botBadge(p)]));
    const look = { names, colours, ranks, scores, badges };
    // The scores at once; their parts and where the points came from one tap away.
    const table = resultsTable(breakdown.map((l) => ({ ...l, parts: [] })), { ...look, id: "final-scores" });
    const items = breakdown.filter((l) => (l.items || []).length);
    // The parts' table, where it says more than the totals and the scorings listed below it.
    const parts = breakdown.some((l) => (l.parts || []).length > (items.length ? 1 : 0));
    const byRank = (a, b) => (ranks[a.player] ?? 0) - (ranks[b.player] ?? 0) || a.player - b.player;
    const details = parts || items.length
      ? h(
          "details",
          { class: "final-breakdown", id: "final-breakdown" },
          h("summary", {}, t("Where the points came from")),
          parts ? resultsTable(breakdown.map((l) => ({ ...l, note: "" })), { ...look, id: "final-parts" }) : null,
          items.sort(byRank).map((l) =>
            h(
              "div",
              { class: "final-items", dataset: { seat: l.player } },
              h("h3", {}, playerLabel(names[l.player] || t("Player {n}", { n: l.player + 1 }), colours[l.player])),
              h("ul", {}, l.items.map((it) => h("li", {}, h("span", {}, it.label), " ", h("strong", { class: "value" }, fmt(it.value))))),
            ),
          ),
        )
      : null;
    const tb = this.table;
    const winners = (res.winners || []).map((s) => names[s]);
    const held = f.seats || [];
    const rematch = tb.rematch
      ? h("a", { class: "button", href: `/table/${tb.rematch}`, "data-link": true }, t("Go to the rematch"))
      : held.length
        ? h(
            "button",
            {
              type: "button",
              id: "rematch",
              onclick: async () => {
                try {
                  const r = await post(`/api/tables/${tb.id}/rematch`);
                  keepTokens(r.table.id, r.tokens);
                  navigate(`/table/${r.table.id}`);
                } catch (e) {
                  toast(e.message);
                }
              },
            },
            t("Rematch"),
          )
        : null;
    fill(this.resultEl, 
      h(
        "section",
        { class: "card final", id: "final", "aria-labelledby": "final-title" },
        h(
          "div",
          { class: "final-head" },
          h("h2", { id: "final-title" }, winners.length > 1 ? t("Shared win: {names}", { names: listText(winners) }) : winners.length ? t("{name} wins", { name: winners[0] }) : t("Final result")),
          h("button", { type: "button", class: "final-close", id: "final-close", "aria-label": t("Close the result"), title: t("Close the result"), onclick: () => this.showResult(false) }, "×"),
        ),
        res.forfeit !== null && res.forfeit !== undefined ? h("p", {}, t("{name} forfeited on time.", { name: names[res.forfeit] })) : null,
        table,
        details,
        h(
          "div",
          { class: "row" },
          h("a", { class: "button", href: `/replay/${tb.id}`, "data-link": true, id: "replay-link" }, t("Replay")),
          h("a", { class: "button", href: `/review/${tb.id}`, "data-link": true, id: "review-link" }, t("Review")),
          rematch,
          link("/", t("Lobby")),
        ),
      ),
    );
  }

  choose(a) {
    const f = this.frame;
    if (!f) return;
    this.sock.act(f.seat, a.action, f.move_number);
    this.banner.textContent = t("Sent: {move}", { move: a.text });
  }
}

/** The words for a table that ended without a result, by its status. */
export const ENDED = {
  aborted: t("Called off before anyone moved: no result"),
  abandoned: t("Given up: nobody moved for a long time, no result"),
};

/** The same, short enough for the picture's status line. */
export const ENDED_SHORT = { aborted: t("Called off: no result"), abandoned: t("Given up: no result") };

/** The picture of a table that ended without a result says so instead of whose turn it was:
 * its status line reads `words` and nobody is marked as the one to move. */
export function endedPicture(root, words) {
  const lines = [...root.querySelectorAll("text.status")];
  if (lines.length) {
    lines[0].textContent = words;
    for (const extra of lines.slice(1)) extra.remove();
  }
  for (const ring of root.querySelectorAll(".current")) ring.remove();
  for (const el of root.querySelectorAll(".to-act")) el.classList.remove("to-act");
}

/** Who made a move in the log: the player's mark and name, or chance. */
export function logWho(player, names, colourOf) {
  if (player === -1) return h("span", { class: "muted" }, t("chance:"), " ");
  return h("span", { class: "who" }, playerMark(colourOf(player)), " ", t("{name}:", { name: names[player] || t("Player {n}", { n: player + 1 }) }), " ");
}
