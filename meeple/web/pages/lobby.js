// The lobby (games, open and running tables, your turn) and the new-table form.

import { get, keepTokens, post } from "../api.js";
import { games, navigate, session } from "../app.js";
import { fill, h, link, toast } from "../dom.js";
import { guestForm, tableList } from "./account.js";
import { lobbyChat } from "./lobby_chat.js";
import { number, t, tn } from "../words.js";

function reconBadge() {
  return h(
    "span",
    { class: "badge recon", title: t("reconstructed: no source says how the printed game does this; this is our reading") },
    t("reconstructed"),
  );
}

/** "2, 3 or 4 players". */
function playersText(counts) {
  if (counts.length === 1) return tn("{n} player", "{n} players", counts[0]);
  // TRANSLATORS: how many play a game: "2, 3 or 4 players" ({first} is "2, 3")
  return t("{first} or {last} players", { first: counts.slice(0, -1).map((c) => number(c)).join(", "), last: counts[counts.length - 1] });
}

/** "10–30 minutes", or "about 30 minutes" where the game gives one length. */
function minutesText(minutes) {
  if (!minutes) return null;
  const [low, high] = minutes;
  return low === high ? t("about {n} minutes", { n: low }) : t("{low}–{high} minutes", { low, high });
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
          g.perfect_information ? null : h("span", { class: "badge" }, t("hidden information")),
          recon ? reconBadge() : null,
        ),
    h(
      "div",
      { class: "row" },
      h("a", { class: "button primary", href: `/new?game=${g.name}`, "data-link": true }, t("New table")),
      link(`/rules/${g.name}`, t("Rules")),
      link(`/tutorial/${g.name}`, t("Learn to play")),
    ),
  );
}

/** What a rated table asks of its players, in sentences: `rules` is /api/rated's answer. */
export function ratedRules(rules) {
  return [
    t("Counts for the leaderboard: registered players only (no guests), the standard game, at least two different people, and no moves taken back."),
    tn("A game given up within its first move counts for nobody.", "A game given up within its first {n} moves counts for nobody.", rules.rated_after),
    tn("Between the same two people only the first rated game a day counts.", "Between the same two people only the first {n} rated games a day count.", rules.pair_games),
  ].join(" ");
}

export async function lobbyPage(main) {
  document.title = t("Lobby · meeple");
  const list = await games();
  const who = session.me.name
    ? null
    : h(
        "div",
        { id: "welcome" },
        h("p", {}, t("Sign in to keep your games, or just give a name and play as a guest."), " ", link("/login", t("Log in or sign up"))),
        guestForm(() => lobbyPage(main), t("Play as a guest")),
      );
  const gamesGrid = h("div", { class: "grid", id: "games" }, list.map(gameCard));
  // what the badge on a game's card means, said once under the cards
  const recon = list.some((g) => g.options.some((o) => o.reconstructed))
    ? h("p", { class: "muted recon-note", id: "recon-note" }, reconBadge(), " ", t("means: no source says how the printed game does this; this is our reading."))
    : null;
  const sections = h("div", {});
  fill(main, h("h1", {}, t("Lobby")), who, h("h2", {}, t("Games")), gamesGrid, recon, sections, lobbyChat());

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
    // the tab's title says when a move waits, as a table's does
    const waiting = turns.tables.length;
    document.title = waiting
      ? tn("Your turn at {n} table · Lobby · meeple", "Your turn at {n} tables · Lobby · meeple", waiting)
      : t("Lobby · meeple");
    const join = (table) =>
      table.seats.some((s) => s.kind === "open")
        ? h(
            "button",
            {
              type: "button",
              onclick: async () => {
                if (!session.me.name) {
                  toast(t("Give a name first (play as a guest) or sign in."));
                  return;
                }
                const r = await post(`/api/tables/${table.id}/join`, {});
                keepTokens(table.id, r.tokens);
                navigate(`/table/${table.id}`);
              },
            },
            t("Join"),
          )
        : null;
    fill(sections, 
      session.me.name
        ? h(
            "section",
            { id: "your-turn" },
            h("h2", {}, t("Your turn")),
            tableList(turns.tables, { empty: t("Nothing waits for you.") }),
            h("h2", {}, t("Your tables")),
            tableList(mine.tables, { empty: t("You sit at no open or running table.") }),
          )
        : null,
      h("section", { id: "open-tables" }, h("h2", {}, t("Open tables")), tableList(open.tables, { empty: t("No open tables: create one above."), action: join })),
      h("section", { id: "running-tables" }, h("h2", {}, t("Running tables")), tableList(running.tables, { empty: t("No games running.") })),
      h("section", { id: "finished-tables" }, h("h2", {}, t("Recently finished")), tableList(finished.tables.slice(0, 15), { empty: t("None yet.") })),
    );
  };
  await load();
  const timer = setInterval(() => load().catch(() => {}), 8000);
  return () => clearInterval(timer);
}


/** The words a game gives for `value` of option `o` (its labels), or null. */
function wordsFor(o, value) {
  const hit = (o.labels || []).find((l) => JSON.stringify(l.value) === JSON.stringify(value));
  return hit ? hit.label : null;
}

/** A line of help (or a refusal) as a sentence: a capital first, a full stop last (after a
 * closing bracket too, unless one ends inside it). */
function sentence(text) {
  const s = text.trim();
  return s.charAt(0).toUpperCase() + s.slice(1) + (/[.!?]\)?$/.test(s) ? "" : ".");
}

/** An input for one option of a game's option schema, in the game's own words. */
function optionField(o) {
  let input;
  const id = `opt-${o.name}`;
  const unset = o.default === null || o.default === undefined; // the game decides (by its mode or count)
  const labels = o.labels || [];
  const listed = o.choices && o.choices.length ? o.choices : o.type === "str" ? labels.map((l) => l.value).filter((v) => v !== null) : null;
  const choice = (value, fallback) =>
    h("option", { value: JSON.stringify(value), selected: JSON.stringify(value) === JSON.stringify(o.default) }, wordsFor(o, value) || fallback);
  if (o.type === "bool" && unset) {
    input = h(
      "select",
      { id, name: o.name },
      h("option", { value: "" }, wordsFor(o, null) || t("as the game says")),
      choice(true, t("on")),
      choice(false, t("off")),
    );
  } else if (o.type === "bool") {
    input = h("input", { type: "checkbox", id, name: o.name, checked: !!o.default });
  } else if (listed && listed.length) {
    input = h(
      "select",
      { id, name: o.name },
      unset ? h("option", { value: "" }, wordsFor(o, null) || t("as the game says")) : null,
      listed.map((c) => choice(c, String(c))),
    );
  } else if (o.type === "int" || o.type === "float") {
    input = h("input", {
      type: "number",
      id,
      name: o.name,
      value: unset ? null : o.default,
      placeholder: unset ? wordsFor(o, null) || t("as the game says") : null,
      step: o.type === "int" ? 1 : "any",
      min: o.minimum ?? null,
      max: o.maximum ?? null,
      inputmode: o.type === "int" ? "numeric" : "decimal",
    });
  } else {
    input = h("input", { type: "text", id, name: o.name, value: o.default ?? null, placeholder: unset ? wordsFor(o, null) || t("as the game says") : null });
  }
  /** The chosen value; undefined means "leave it to the game". */
  const read = () => {
    if (input.tagName === "SELECT") return input.value === "" ? undefined : JSON.parse(input.value);
    if (o.type === "bool") return input.checked;
    if (input.value.trim() === "") return unset ? undefined : o.type === "str" ? "" : NaN;
    if (o.type === "int") return Number.isInteger(+input.value) ? +input.value : NaN;
    if (o.type === "float") return input.value.trim() === "" || !Number.isFinite(+input.value) ? NaN : +input.value;
    return input.value;
  };
  /** Show `value` (undefined: the default). */
  const write = (value) => {
    const v = value === undefined ? o.default : value;
    if (input.tagName === "SELECT") input.value = v === null || v === undefined ? "" : JSON.stringify(v);
    else if (o.type === "bool") input.checked = !!v;
    else input.value = v === null || v === undefined ? "" : String(v);
  };
  const check = o.type === "bool" && !unset;
  const name = h("span", { class: "option-name" }, o.label || o.name, o.reconstructed ? [" ", reconBadge()] : null);
  const el = h(
    "label",
    { for: id, class: check ? "check option" : "option", dataset: { option: o.name } },
    check ? [input, name] : [name, input],
    o.help ? h("small", { class: "muted" }, sentence(o.help)) : null,
  );
  const changed = (fn) => input.addEventListener("change", fn);
  return { el, read, write, changed, option: o };
}

/** A clock profile's name with what it gives: "Rapid: 10 min, +5 s a move". */
function clockName(name, p) {
  const known = {
    bullet: t("Bullet"),
    blitz: t("Blitz"),
    rapid: t("Rapid"),
    // TRANSLATORS: a clock: a day for each move
    daily: t("A day a move"),
    // TRANSLATORS: a clock: a week for each move
    weekly: t("A week a move"),
  };
  const title = known[name] || name.charAt(0).toUpperCase() + name.slice(1);
  if (!p || p.kind !== "fischer") return title;
  return t("{clock}: {minutes} min, +{seconds} s a move", { clock: title, minutes: p.initial / 60, seconds: p.increment });
}

/** The bot levels from /api/bots, weakest first: [{spec, name, description}] (an older
 * server answers a list of specs). */
function botLevels(answer) {
  return (answer.bots || []).map((b) => (typeof b === "string" ? { spec: b, name: b, description: "" } : b));
}

export async function newTablePage(main, _params, query) {
  document.title = t("New table · meeple");
  const list = await games();
  if (!session.me.name) {
    fill(main, 
      h("h1", {}, t("New table")),
      h("p", {}, t("Give a name first, or sign in."), " ", link(`/login?next=${encodeURIComponent(location.pathname + location.search)}`, t("Sign in"))),
      guestForm(() => newTablePage(main, _params, query)),
    );
    return;
  }
  const [bots, clocks, ratedAsks] = await Promise.all([
    get("/api/bots"),
    get("/api/clocks").catch(() => ({ profiles: {} })),
    get("/api/rated"),
  ]);
  const levels = botLevels(bots);
  const defaultBot = (levels.find((b) => b.spec === "greedy") || levels[0] || {}).spec;
  let game = list.find((g) => g.name === query.get("game")) || list[0];

  const gameSel = h(
    "select",
    { id: "game", name: "game" },
    list.map((g) => h("option", { value: g.name, selected: g === game }, g.title)),
  );
  const playersSel = h("select", { id: "players", name: "players" });
  const presetsBox = h("fieldset", { id: "presets" });
  const optionsBox = h("fieldset", { id: "options" });
  const seatsBox = h("fieldset", { id: "seats" });
  const visSel = h(
    "select",
    { id: "visibility", name: "visibility" },
    h("option", { value: "public" }, t("Anyone: listed in the lobby")),
    h("option", { value: "private" }, t("Only people with the invite link")),
  );
  const clockSel = h(
    "select",
    { id: "clock", name: "clock" },
    h("option", { value: "" }, t("No clock")),
    Object.entries(clocks.profiles || {}).map(([name, p]) =>
      h("option", { value: name }, clockName(name, p)),
    ),
  );
  const ratedBox = h("input", { type: "checkbox", id: "rated", name: "rated" });
  const rated = h(
    "label",
    { for: "rated", class: "check option", id: "rated-option" },
    ratedBox,
    h("span", { class: "option-name" }, t("Rated game")),
    h("small", { class: "muted" }, ratedRules(ratedAsks)),
  );
  const err = h("p", { class: "error", role: "alert" });
  let fields = [];
  let presetInputs = [];
  let seats = []; // {sel, name, row, note}

  const presets = () => game.presets && game.presets.length ? game.presets : [{ name: t("Standard"), description: t("The game with every option at its default."), options: {}, players: null }];
  const fits = (p) => !p.players || p.players.includes(+playersSel.value);
  /** Fill in the options of preset `p` (every other option at its default). */
  const applyPreset = (p) => {
    for (const f of fields) f.write(p.options[f.option.name]);
  };
  /** Mark the preset the options now match, if any. */
  const syncPreset = () => {
    const now = Object.fromEntries(fields.map((f) => [f.option.name, f.read()]));
    presets().forEach((p, i) => {
      const same = fields.every((f) => {
        const want = f.option.name in p.options ? p.options[f.option.name] : f.option.default;
        const have = now[f.option.name] === undefined ? f.option.default : now[f.option.name];
        return JSON.stringify(want) === JSON.stringify(have);
      });
      presetInputs[i].checked = same && fits(p);
    });
  };
  const drawPresets = () => {
    presetInputs = [];
    const rows = presets().map((p, i) => {
      const input = h("input", { type: "radio", name: "preset", id: `preset-${i}`, value: String(i), checked: i === 0 });
      input.addEventListener("change", () => {
        if (!input.checked) return;
        if (!fits(p)) {
          playersSel.value = String(p.players[0]);
          drawSeats();
        }
        applyPreset(p);
        syncPreset();
      });
      presetInputs.push(input);
      return h(
        "label",
        { class: "preset", for: `preset-${i}`, dataset: { preset: p.name } },
        input,
        h("span", { class: "preset-text" }, h("strong", {}, p.name), " ", h("span", { class: "muted" }, p.description)),
      );
    });
    fill(presetsBox, h("legend", {}, t("How to play")), rows);
  };
  const drawOptions = () => {
    fields = game.options.map(optionField);
    for (const f of fields) f.changed(syncPreset);
    const everyday = fields.filter((f) => !f.option.advanced);
    const advanced = fields.filter((f) => f.option.advanced);
    const marked = fields.some((f) => f.option.reconstructed);
    fill(optionsBox, 
      h("legend", {}, t("Options")),
      marked ? h("p", { class: "muted recon-note" }, reconBadge(), " ", t("means: no source says how the printed game does this; this is our reading.")) : null,
      everyday.length ? everyday.map((f) => f.el) : null,
      advanced.length
        ? h(
            "details",
            { id: "advanced-options" },
            h("summary", {}, t("More options ({n})", { n: advanced.length })),
            advanced.map((f) => f.el),
          )
        : null,
      fields.length ? null : h("p", { class: "muted" }, t("This game has no options.")),
      h("p", {}, link(`/rules/${game.name}`, t("Rules of {game}", { game: game.title }))),
    );
  };
  /** Name fields show where one device plays several seats (hot-seat): each player's own. */
  const drawNames = () => {
    const mine = seats.filter((s) => s.sel.value === "me");
    const hotSeat = mine.length > 1;
    mine.forEach((s, k) => {
      if (hotSeat && k === 0 && !s.name.value && !s.name.dataset.touched) s.name.value = session.me.name;
    });
    for (const s of seats) {
      s.sel.options[0].textContent = hotSeat ? t("A player on this device") : t("You ({name})", { name: session.me.name });
      s.nameRow.hidden = !(hotSeat && s.sel.value === "me");
      const bot = s.sel.value.startsWith("bot:") ? levels.find((b) => "bot:" + b.spec === s.sel.value) : null;
      s.note.textContent = bot && bot.description ? bot.description : "";
      s.note.hidden = !s.note.textContent;
    }
  };
  const drawSeats = () => {
    const n = +playersSel.value;
    const old = seats.map((s) => ({ value: s.sel.value, name: s.name.value, touched: s.name.dataset.touched }));
    seats = [];
    const rows = [];
    for (let i = 0; i < n; i++) {
      const sel = h(
        "select",
        { id: `seat-${i}`, name: `seat-${i}` },
        h("option", { value: "me" }, t("You ({name})", { name: session.me.name })),
        h("option", { value: "open" }, t("Someone who joins (invite link or lobby)")),
        levels.length
          ? h("optgroup", { label: t("A bot, weakest first") }, levels.map((b) => h("option", { value: "bot:" + b.spec, title: b.description || null }, t("Bot: {level}", { level: b.name }))))
          : null,
      );
      sel.value = (old[i] && old[i].value) || (i === 0 ? "me" : defaultBot ? "bot:" + defaultBot : "open");
      const name = h("input", {
        type: "text",
        id: `seat-name-${i}`,
        name: `seat-name-${i}`,
        maxlength: "32",
        autocomplete: "off",
        placeholder: t("Name of player {n}", { n: i + 1 }),
        value: old[i] ? old[i].name : null,
      });
      if (old[i] && old[i].touched) name.dataset.touched = "1";
      name.addEventListener("input", () => (name.dataset.touched = "1"));
      const nameRow = h("label", { class: "seat-name", for: `seat-name-${i}` }, h("span", {}, t("Name of the player in seat {n}", { n: i + 1 })), name);
      const note = h("small", { class: "muted seat-note", id: `seat-note-${i}` });
      sel.addEventListener("change", drawNames);
      seats.push({ sel, name, nameRow, note });
      rows.push(h("div", { class: "seat-row" }, h("label", { for: `seat-${i}` }, h("span", {}, t("Seat {n}", { n: i + 1 })), sel, note), nameRow));
    }
    fill(seatsBox, 
      h("legend", {}, t("Seats")),
      h("p", { class: "muted" }, t("Choose “You” for several seats to take turns on this screen; each player then gets their own name.")),
      rows,
    );
    drawNames();
    presets().forEach((p, i) => {
      if (presetInputs[i]) presetInputs[i].disabled = !fits(p);
    });
    syncPreset();
  };
  const drawPlayers = () => {
    fill(playersSel, ...game.players.map((n) => h("option", { value: n }, tn("{n} player", "{n} players", n))));
    seats = [];
    drawSeats();
  };
  const drawGame = () => {
    drawPresets();
    drawOptions();
    drawPlayers();
  };
  gameSel.addEventListener("change", () => {
    game = list.find((g) => g.name === gameSel.value);
    history.replaceState(null, "", `/new?game=${game.name}`);
    drawGame();
  });
  playersSel.addEventListener("change", drawSeats);
  drawGame();
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
        err.textContent = t("{option}: give a number or leave the default", { option: f.option.label || f.option.name });
        return;
      }
      if (JSON.stringify(v) !== JSON.stringify(f.option.default)) options[f.option.name] = v;
    }
    const hotSeat = seats.filter((s) => s.sel.value === "me").length > 1;
    const seatList = seats.map((s) => {
      if (s.sel.value.startsWith("bot:")) return { kind: "bot", bot: s.sel.value.slice(4) };
      const seat = { kind: s.sel.value };
      const name = s.name.value.trim();
      if (s.sel.value === "me" && hotSeat && name) seat.name = name;
      return seat;
    });
    const body = {
      game: game.name,
      players: +playersSel.value,
      options,
      seats: seatList,
      visibility: visSel.value,
      clock: clockSel.value || null,
      rated: ratedBox.checked,
      start: true,
    };
    try {
      const r = await post("/api/tables", body);
      keepTokens(r.table.id, r.tokens);
      navigate(`/table/${r.table.id}`);
    } catch (e) {
      err.textContent = sentence(e.message);
    }
  };

  fill(main, 
    h("h1", {}, t("New table")),
    h(
      "form",
      { class: "card", id: "new-table", onsubmit: submit },
      h("div", { class: "row" }, h("label", {}, h("span", {}, t("Game")), gameSel), h("label", {}, h("span", {}, t("Players")), playersSel)),
      presetsBox,
      optionsBox,
      seatsBox,
      h("div", { class: "row" }, h("label", {}, h("span", {}, t("Who may join")), visSel), h("label", {}, h("span", {}, t("Clock")), clockSel)),
      rated,
      err,
      h("button", { class: "primary", type: "submit", id: "create" }, t("Create table")),
    ),
  );
}
