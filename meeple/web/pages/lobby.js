// The lobby (games, open and running tables, your turn) and the new-table form.

import { get, keepTokens, post } from "../api.js";
import { games, navigate, session } from "../app.js";
import { fill, h, link, toast } from "../dom.js";
import { guestForm, tableList } from "./account.js";

function reconBadge() {
  return h(
    "span",
    { class: "badge recon", title: "Reconstructed: our reading where no source said" },
    "reconstructed",
  );
}

/** "2, 3 or 4 players". */
function playersText(counts) {
  if (counts.length === 1) return `${counts[0]} players`;
  return `${counts.slice(0, -1).join(", ")} or ${counts[counts.length - 1]} players`;
}

/** "10–30 minutes", or "about 30 minutes" where the game gives one length. */
function minutesText(minutes) {
  if (!minutes) return null;
  const [low, high] = minutes;
  return low === high ? `about ${low} minutes` : `${low}–${high} minutes`;
}

/** A game in the lobby: its picture (drawn by the game from a sample position), its name,
 * what it is about, how many play it and for how long, and where to start. */
function gameCard(g) {
  const recon = g.options.some((o) => o.reconstructed);
  const minutes = minutesText(g.minutes);
  return h(
    "article",
    { class: "card game", dataset: { game: g.name } },
    h(
      "a",
      { class: "game-picture", href: `/new?game=${g.name}`, "data-link": true, tabindex: "-1", "aria-hidden": "true" },
      h("img", {
        src: `/api/games/${g.name}/picture`,
        alt: "",
        loading: "lazy",
        decoding: "async",
      }),
    ),
    h("h3", {}, g.title),
    g.pitch ? h("p", { class: "game-pitch" }, g.pitch) : null,
    h(
      "p",
      { class: "game-facts muted" },
      h("span", { class: "game-players" }, playersText(g.players)),
      minutes ? h("span", { class: "game-minutes" }, minutes) : null,
    ),
    g.perfect_information && !recon
      ? null
      : h(
          "p",
          { class: "game-tags" },
          g.perfect_information ? null : h("span", { class: "badge" }, "hidden information"),
          recon ? reconBadge() : null,
        ),
    h(
      "div",
      { class: "row" },
      h("a", { class: "button primary", href: `/new?game=${g.name}`, "data-link": true }, "New table"),
      link(`/rules/${g.name}`, "Rules"),
    ),
  );
}

export async function lobbyPage(main) {
  document.title = "Lobby · meeple";
  const list = await games();
  const who = session.me.name
    ? null
    : h(
        "div",
        { id: "welcome" },
        h("p", {}, "Sign in to keep your games, or just give a name and play as a guest. ", link("/login", "Log in or sign up")),
        guestForm(() => lobbyPage(main), "Play as a guest"),
      );
  const gamesGrid = h("div", { class: "grid", id: "games" }, list.map(gameCard));
  const sections = h("div", {});
  fill(main, h("h1", {}, "Lobby"), who, h("h2", {}, "Games"), gamesGrid, sections);

  const load = async () => {
    const [open, running, finished] = await Promise.all([
      get("/api/tables?status=waiting"),
      get("/api/tables?status=running"),
      get("/api/tables?status=finished"),
    ]);
    let turns = { tables: [] };
    let mine = { tables: [] };
    if (session.me.name) {
      [turns, mine] = await Promise.all([get("/api/my/turns"), get("/api/my/tables")]);
    }
    const join = (t) =>
      t.seats.some((s) => s.kind === "open")
        ? h(
            "button",
            {
              type: "button",
              onclick: async () => {
                if (!session.me.name) {
                  toast("Give a name first (play as a guest) or sign in.");
                  return;
                }
                const r = await post(`/api/tables/${t.id}/join`, {});
                keepTokens(t.id, r.tokens);
                navigate(`/table/${t.id}`);
              },
            },
            "Join",
          )
        : null;
    fill(sections, 
      session.me.name
        ? h(
            "section",
            { id: "your-turn" },
            h("h2", {}, "Your turn"),
            tableList(turns.tables, { empty: "Nothing waits for you." }),
            h("h2", {}, "Your tables"),
            tableList(mine.tables, { empty: "You sit at no open or running table." }),
          )
        : null,
      h("section", { id: "open-tables" }, h("h2", {}, "Open tables"), tableList(open.tables, { empty: "No open tables: create one above.", action: join })),
      h("section", { id: "running-tables" }, h("h2", {}, "Running tables"), tableList(running.tables, { empty: "No games running." })),
      h("section", { id: "finished-tables" }, h("h2", {}, "Recently finished"), tableList(finished.tables.slice(0, 15), { empty: "None yet." })),
    );
  };
  await load();
  const timer = setInterval(() => load().catch(() => {}), 8000);
  return () => clearInterval(timer);
}

/** An input for one option of a game's option schema. */
function optionField(o) {
  let input;
  const id = `opt-${o.name}`;
  const unset = o.default === null || o.default === undefined; // the game decides by its mode
  if (o.type === "bool" && unset) {
    input = h(
      "select",
      { id, name: o.name },
      h("option", { value: "" }, "game default"),
      h("option", { value: "true" }, "on"),
      h("option", { value: "false" }, "off"),
    );
  } else if (o.type === "bool") {
    input = h("input", { type: "checkbox", id, name: o.name, checked: !!o.default });
  } else if (o.choices && o.choices.length) {
    input = h(
      "select",
      { id, name: o.name },
      unset ? h("option", { value: "" }, "game default") : null,
      o.choices.map((c) => h("option", { value: JSON.stringify(c), selected: c === o.default }, String(c))),
    );
  } else if (o.type === "int" || o.type === "float") {
    input = h("input", {
      type: "number",
      id,
      name: o.name,
      value: unset ? null : o.default,
      placeholder: unset ? "game default" : null,
      step: o.type === "int" ? 1 : "any",
      min: o.minimum ?? null,
      max: o.maximum ?? null,
    });
  } else {
    input = h("input", { type: "text", id, name: o.name, value: o.default ?? null, placeholder: unset ? "game default" : null });
  }
  /** The chosen value; undefined means "leave it to the game". */
  const read = () => {
    if (input.tagName === "SELECT") return input.value === "" ? undefined : JSON.parse(input.value);
    if (o.type === "bool") return input.checked;
    if (input.value.trim() === "") return unset ? undefined : o.type === "str" ? "" : NaN;
    if (o.type === "int") return Number.isInteger(+input.value) ? +input.value : NaN;
    if (o.type === "float") return parseFloat(input.value);
    return input.value;
  };
  const el = h(
    "label",
    { for: id, class: o.type === "bool" && !unset ? "check" : null },
    h("span", {}, o.name.replace(/_/g, " "), " ", o.reconstructed ? reconBadge() : null),
    input,
    o.help ? h("small", { class: "muted" }, " ", o.help) : null,
  );
  return { el, read, option: o };
}

export async function newTablePage(main, _params, query) {
  document.title = "New table · meeple";
  const list = await games();
  if (!session.me.name) {
    fill(main, 
      h("h1", {}, "New table"),
      h("p", {}, "Give a name first (or ", link(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, "sign in"), ")."),
      guestForm(() => newTablePage(main, _params, query)),
    );
    return;
  }
  const [bots, clocks] = await Promise.all([get("/api/bots"), get("/api/clocks").catch(() => ({ profiles: {} }))]);
  const botNames = bots.bots;
  const defaultBot = botNames.includes("greedy") ? "greedy" : botNames[0];
  let game = list.find((g) => g.name === query.get("game")) || list[0];

  const gameSel = h(
    "select",
    { id: "game", name: "game" },
    list.map((g) => h("option", { value: g.name, selected: g === game }, g.title)),
  );
  const playersSel = h("select", { id: "players", name: "players" });
  const optionsBox = h("fieldset", { id: "options" });
  const seatsBox = h("fieldset", { id: "seats" });
  const visSel = h(
    "select",
    { id: "visibility", name: "visibility" },
    h("option", { value: "public" }, "public: listed in the lobby"),
    h("option", { value: "private" }, "private: invite link only"),
  );
  const clockSel = h(
    "select",
    { id: "clock", name: "clock" },
    h("option", { value: "" }, "no clock"),
    Object.entries(clocks.profiles || {}).map(([name, p]) =>
      h("option", { value: name }, `${name}${p && p.kind === "fischer" ? ` (${p.initial / 60} min + ${p.increment} s)` : ""}`),
    ),
  );
  const err = h("p", { class: "error", role: "alert" });
  let fields = [];
  let seatSels = [];

  const drawOptions = () => {
    fields = game.options.map(optionField);
    fill(optionsBox, 
      h("legend", {}, "Options"),
      fields.length ? fields.map((f) => f.el) : h("p", { class: "muted" }, "This game has no options."),
      h("p", {}, link(`/rules/${game.name}`, `Rules of ${game.title}`)),
    );
  };
  const drawSeats = () => {
    const n = +playersSel.value;
    const old = seatSels.map((s) => s.value);
    seatSels = [];
    const rows = [];
    for (let i = 0; i < n; i++) {
      const s = h(
        "select",
        { id: `seat-${i}`, name: `seat-${i}`, "aria-label": `Seat ${i + 1}` },
        h("option", { value: "me" }, `Me (${session.me.name})`),
        h("option", { value: "open" }, "Open seat (invite or lobby)"),
        botNames.map((b) => h("option", { value: "bot:" + b }, `Bot: ${b}`)),
      );
      s.value = old[i] || (i === 0 ? "me" : "bot:" + defaultBot);
      seatSels.push(s);
      rows.push(h("label", {}, h("span", {}, `Seat ${i + 1}`), s));
    }
    fill(seatsBox, 
      h("legend", {}, "Seats"),
      h("p", { class: "muted" }, "Choose “Me” for several seats to play hot-seat on this device."),
      rows,
    );
  };
  const drawPlayers = () => {
    fill(playersSel, ...game.players.map((n) => h("option", { value: n }, `${n} players`)));
    drawSeats();
  };
  gameSel.addEventListener("change", () => {
    game = list.find((g) => g.name === gameSel.value);
    history.replaceState(null, "", `/new?game=${game.name}`);
    drawOptions();
    drawPlayers();
  });
  playersSel.addEventListener("change", drawSeats);
  drawOptions();
  drawPlayers();
  if (query.get("players")) {
    playersSel.value = query.get("players");
    drawSeats();
  }

  const submit = async (ev) => {
    ev.preventDefault();
    err.textContent = "";
    const options = {};
    for (const f of fields) {
      const v = f.read();
      if (v === undefined) continue;
      if (typeof v === "number" && Number.isNaN(v)) {
        err.textContent = `${f.option.name.replace(/_/g, " ")}: give a whole number or leave the default`;
        return;
      }
      if (JSON.stringify(v) !== JSON.stringify(f.option.default)) options[f.option.name] = v;
    }
    const seats = seatSels.map((s) =>
      s.value.startsWith("bot:") ? { kind: "bot", bot: s.value.slice(4) } : { kind: s.value },
    );
    const body = {
      game: game.name,
      players: +playersSel.value,
      options,
      seats,
      visibility: visSel.value,
      clock: clockSel.value || null,
      start: true,
    };
    try {
      const r = await post("/api/tables", body);
      keepTokens(r.table.id, r.tokens);
      navigate(`/table/${r.table.id}`);
    } catch (e) {
      err.textContent = e.message;
    }
  };

  fill(main, 
    h("h1", {}, "New table"),
    h(
      "form",
      { class: "card", id: "new-table", onsubmit: submit },
      h("label", {}, h("span", {}, "Game"), gameSel),
      h("label", {}, h("span", {}, "Players"), playersSel),
      optionsBox,
      seatsBox,
      h("div", { class: "row" }, h("label", {}, h("span", {}, "Who may join"), visSel), h("label", {}, h("span", {}, "Clock"), clockSel)),
      err,
      h("button", { class: "primary", type: "submit", id: "create" }, "Create table"),
    ),
  );
}
