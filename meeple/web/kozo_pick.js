// Kozo played by intent, as a player holding a piece: the pieces left, each drawn as itself
// with its points, to pick one; the picked piece's orientations that can be placed now, each
// drawn, to turn it; then the plan's (or the 3D tower's) highlighted columns are the moves of
// that piece in that orientation only, one move per column. The preview draws the piece on the
// plan where it would land, with the height it makes, and says where the balance cube may go
// next. Any placement is a pick, an orientation, a column and a confirmation away.
//
// The picker narrows the board's moves (`Board.narrow`) and reads the observation's
// `pieces_left` (piece, letter, name, size, points, colour, cubes) and `columns` (column, name,
// top, balance); each move's `describe_action` dict gives its piece (number, letter, name,
// size), rotation and resting `cubes`: where there is no observation (a tutorial's step), the
// pieces are those the moves name. Each piece button carries `data-piece` (the piece's number
// in the observation), each orientation button `data-orient` (the rotation of the moves).

import { h } from "./dom.js";
import { t, tn } from "./words.js";

const SVG_NS = "http://www.w3.org/2000/svg";

/** One colour per polycube (P1..P12), as on the plan the server draws (kozo/art.py). */
export const PIECE_COLOURS = [
  0xe6194b, 0x3cb44b, 0xffe119, 0x4363d8, 0xf58231, 0x911eb4, 0x46f0f0, 0xf032e6, 0xbcf60c,
  0xfabebe, 0x008080, 0x9a6324,
];
/** Bare wood. */
export const WOOD = 0xd7b27c;

/** `a` blended toward `b` by `k` (0: a, 1: b), colours as numbers. */
export function mix(a, b, k) {
  let out = 0;
  for (const shift of [16, 8, 0]) {
    const x = (a >> shift) & 255;
    const y = (b >> shift) & 255;
    out |= Math.round(x + (y - x) * k) << shift;
  }
  return out;
}

/** The wood of a piece: its colour stained into bare wood (kozo/art.py `tint`). */
export function pieceTint(colour) {
  return mix(PIECE_COLOURS[colour % PIECE_COLOURS.length], WOOD, 0.3);
}

const hex = (c) => `#${c.toString(16).padStart(6, "0")}`;

/** Dark or light ink that reads on `colour`. */
function inkOn(colour) {
  const r = (colour >> 16) & 255;
  const g = (colour >> 8) & 255;
  const b = colour & 255;
  return 0.299 * r + 0.587 * g + 0.114 * b > 135 ? "#1d1409" : "#ffffff";
}

// The view of the plan's tower (kozo/art.py): from the south-west, a little from above.
const A = Math.cos(Math.PI / 6);
const B = 0.6;
const H = 0.9;
const SHADE = { top: 0, south: 0.2, west: 0.36 };

/** A polycube (cells [x, y, z]) drawn in its wood as the plan draws the tower: an <svg>
 * scaled to its box, small pieces no larger than a box of about three cubes. */
export function pieceDrawing(cubes, colour) {
  const at = (x, y, z) => [(x - y) * A, -(x + y) * B - z * H];
  const xs = [];
  const ys = [];
  for (const [x, y, z] of cubes) {
    for (const [dx, dy, dz] of [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0], [0, 0, 1], [1, 0, 1], [0, 1, 1], [1, 1, 1]]) {
      const [px, py] = at(x + dx, y + dy, z + dz);
      xs.push(px);
      ys.push(py);
    }
  }
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  const w = Math.max(x1 - x0, 4.2);
  const hgt = Math.max(y1 - y0, 3.1);
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("viewBox", `${((x0 + x1) / 2 - w / 2 - 0.1).toFixed(2)} ${((y0 + y1) / 2 - hgt / 2 - 0.1).toFixed(2)} ${(w + 0.2).toFixed(2)} ${(hgt + 0.2).toFixed(2)}`);
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("class", "kozo-piece-drawing");
  const fill = pieceTint(colour);
  const has = new Set(cubes.map((c) => c.join(",")));
  const filled = (x, y, z) => has.has(`${x},${y},${z}`);
  const order = [...cubes].sort((a, b) => a[2] - a[0] - a[1] - (b[2] - b[0] - b[1]) || a[2] - b[2]);
  for (const [x, y, z] of order) {
    const faces = [
      ["west", !filled(x - 1, y, z), [[x, y, z], [x, y + 1, z], [x, y + 1, z + 1], [x, y, z + 1]]],
      ["south", !filled(x, y - 1, z), [[x, y, z], [x + 1, y, z], [x + 1, y, z + 1], [x, y, z + 1]]],
      ["top", !filled(x, y, z + 1), [[x, y, z + 1], [x + 1, y, z + 1], [x + 1, y + 1, z + 1], [x, y + 1, z + 1]]],
    ];
    for (const [face, seen, corners] of faces) {
      if (!seen) continue;
      const p = document.createElementNS(SVG_NS, "polygon");
      p.setAttribute("points", corners.map((c) => at(...c).map((v) => v.toFixed(3)).join(",")).join(" "));
      const f = mix(fill, 0x000000, SHADE[face]);
      p.setAttribute("fill", hex(f));
      p.setAttribute("stroke", hex(mix(f, 0x000000, 0.3)));
      p.setAttribute("stroke-width", "0.05");
      p.setAttribute("stroke-linejoin", "round");
      svg.appendChild(p);
    }
  }
  return svg;
}

/** A move's cubes moved to the origin: the shape of its orientation. */
function shapeOf(cubes) {
  const lo = [0, 1, 2].map((k) => Math.min(...cubes.map((c) => c[k])));
  return cubes.map((c) => c.map((v, k) => v - lo[k]));
}

/** How tall a shape stands, in cubes. */
function heightOf(shape) {
  return Math.max(...shape.map((c) => c[2])) + 1;
}

export class KozoPicker {
  /**
   * @param {Board} board  the board whose moves are narrowed to the piece held
   * @param {() => object|null} observation  the observation shown now (its pieces and columns)
   */
  constructor(board, observation) {
    this.board = board;
    this.observation = observation;
    this.piece = null; // the piece held (its number)
    this.orient = null; // its orientation (the rotation of its moves)
    this.moves = new Map(); // piece -> rotation -> its moves, for the moves offered now
    this.ghosts = [];
    this.tower = false; // whether the 3D tower is shown beside the plan (its columns are tappable too)
    this.el = h("section", { class: "kozo-pick", id: "kozo-pick", hidden: true, "aria-label": t("Your piece") });
    this.el.addEventListener("keydown", (ev) => this._onKey(ev));
    board.narrow = (actions) => this.narrow(actions);
    const before = board.onPreview;
    board.onPreview = (a) => {
      before(a);
      this.preview(a);
    };
  }

  /** The moves the board offers out of `actions`: where they are polycube placements, only
   * those of the piece held in its orientation; anything else as it is. */
  narrow(actions) {
    const places = actions.filter((a) => a.kind === "place" && Array.isArray(a.cubes) && a.piece);
    this.moves = new Map();
    if (!places.length) {
      this.el.hidden = true;
      return actions;
    }
    for (const a of places) {
      if (!this.moves.has(a.piece)) this.moves.set(a.piece, new Map());
      const byOrient = this.moves.get(a.piece);
      if (!byOrient.has(a.rotation)) byOrient.set(a.rotation, []);
      byOrient.get(a.rotation).push(a);
    }
    if (!this.moves.has(this.piece)) this.piece = this.pieces().find((p) => this.moves.has(p.piece)).piece;
    const orients = this.orientations(this.piece);
    if (!orients.some((o) => o.rotation === this.orient)) this.orient = orients[0].rotation;
    this._draw();
    const others = actions.filter((a) => !places.includes(a));
    return [...others, ...this.moves.get(this.piece).get(this.orient)];
  }

  /** The pieces left (the observation's, else those the moves name): {piece, letter, name,
   * size, points, colour, cubes}. */
  pieces() {
    const obs = this.observation() || {};
    if (Array.isArray(obs.pieces_left) && obs.pieces_left.length) return obs.pieces_left;
    return [...this.moves.keys()].sort((a, b) => a - b).map((piece) => {
      const a = this.moves.get(piece).values().next().value[0];
      const n = a.size || a.cubes.length;
      return { piece, letter: a.letter, name: a.name || a.letter, size: n, points: n, colour: a.colour ?? piece - 1, cubes: shapeOf(a.cubes) };
    });
  }

  /** The orientations of `piece` that can be placed now, lowest first: {rotation, shape,
   * moves}. */
  orientations(piece) {
    const byOrient = this.moves.get(piece) || new Map();
    const out = [...byOrient].map(([rotation, moves]) => ({ rotation, moves, shape: shapeOf(moves[0].cubes) }));
    return out.sort((a, b) => heightOf(a.shape) - heightOf(b.shape) || a.rotation - b.rotation);
  }

  /** Hold `piece` (its lowest orientation) and offer its moves. */
  pick(piece) {
    if (!this.moves.has(piece)) return;
    if (piece !== this.piece) {
      this.piece = piece;
      this.orient = this.orientations(piece)[0].rotation;
    }
    this.board.reoffer();
  }

  /** Turn the piece held to orientation `rotation` and offer its moves. */
  turnTo(rotation) {
    if (!this.orientations(this.piece).some((o) => o.rotation === rotation)) return;
    this.orient = rotation;
    this.board.reoffer();
  }

  /** The next (+1) or previous (-1) orientation of the piece held. */
  turn(step) {
    const all = this.orientations(this.piece);
    const i = all.findIndex((o) => o.rotation === this.orient);
    this.turnTo(all[(i + step + all.length) % all.length].rotation);
  }

  _onKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    if (ev.key === "r" || ev.key === "R") this.turn(1);
    else if (ev.key === "f" || ev.key === "F") this.turn(-1);
    else return;
    ev.preventDefault();
  }

  _draw() {
    const focused = this.el.contains(document.activeElement) ? document.activeElement : null;
    const again = focused && (focused.dataset.piece ? `[data-piece="${focused.dataset.piece}"]` : focused.dataset.orient ? `[data-orient="${focused.dataset.orient}"]` : null);
    const held = this.pieces().find((p) => p.piece === this.piece);
    const pieces = this.pieces().map((p) => {
      const playable = this.moves.has(p.piece);
      const colour = p.colour ?? p.piece - 1;
      const tint = pieceTint(colour);
      const said = t("{piece} ({letter}): {cubes}, {points}", {
        piece: p.name,
        letter: p.letter,
        cubes: tn("{n} cube", "{n} cubes", p.size),
        points: tn("{n} point", "{n} points", p.points ?? p.size),
      });
      return h(
        "button",
        {
          type: "button",
          class: "kozo-piece",
          dataset: { piece: p.piece },
          "aria-pressed": String(p.piece === this.piece),
          "aria-label": playable ? said : t("{piece}: not playable now", { piece: said }),
          title: playable ? said : t("{piece}: not playable now", { piece: said }),
          disabled: !playable,
          onclick: () => this.pick(p.piece),
        },
        h("b", { class: "kozo-letter", style: `background:${hex(tint)};color:${inkOn(tint)}` }, p.letter),
        pieceDrawing(p.cubes || [[0, 0, 0]], colour),
        h("span", { class: "kozo-piece-words" }, tn("{n} point", "{n} points", p.points ?? p.size)),
      );
    });
    const orients = this.orientations(this.piece);
    const turns = orients.map((o, i) =>
      h(
        "button",
        {
          type: "button",
          class: "kozo-orient",
          dataset: { orient: o.rotation },
          "aria-pressed": String(o.rotation === this.orient),
          "aria-label": t("Way {i} of {n}: {high}, {count}", {
            i: i + 1,
            n: orients.length,
            high: tn("{n} cube high", "{n} cubes high", heightOf(o.shape)),
            count: tn("{n} place", "{n} places", o.moves.length),
          }),
          title: tn("{n} place", "{n} places", o.moves.length),
          onclick: () => this.turnTo(o.rotation),
        },
        pieceDrawing(o.shape, held ? held.colour ?? this.piece - 1 : this.piece - 1),
      ),
    );
    // the piece's name opens the heading: "Dicube (A): turn it ..."
    const named = held ? t("{piece} ({letter})", { piece: held.name, letter: held.letter }) : "";
    const name = named.charAt(0).toLocaleUpperCase(document.documentElement.lang || undefined) + named.slice(1);
    this.el.replaceChildren(
      h("h2", { class: "kozo-pick-title" }, t("Pick a piece")),
      h("div", { class: "kozo-pieces", role: "group", "aria-label": t("Pieces left") }, pieces),
      h(
        "h2",
        { class: "kozo-pick-title" },
        orients.length > 1
          ? t("{piece}: turn it ({n} ways fit now)", { piece: name, n: orients.length })
          : t("{piece}: one way fits now", { piece: name }),
      ),
      h("div", { class: "kozo-orients", role: "group", "aria-label": t("Ways to turn the piece") }, turns),
      h(
        "p",
        { class: "kozo-pick-then muted" },
        this.then(),
      ),
    );
    this.el.hidden = false;
    if (again) this.el.querySelector(again)?.focus({ preventScroll: true });
  }

  /** What to do once the piece is turned: tap a column of the plan (or of the 3D tower, where
   * it shows). */
  then() {
    return this.tower
      ? t("Then choose one of the highlighted columns of the plan or the tower: the piece is drawn where it lands.")
      : t("Then choose one of the highlighted columns of the plan: the piece is drawn where it lands.");
  }

  /** Draw the piece of a previewed move on the plan where it lands (its wood, its letter and
   * the height it makes on each column), and say where the balance cube may go next. */
  preview(a) {
    for (const g of this.ghosts) g.remove();
    this.ghosts = [];
    if (!a || a.kind !== "place" || !Array.isArray(a.cubes)) return;
    const tops = new Map();
    for (const [x, y, z] of a.cubes) tops.set(`${x}-${y}`, Math.max(tops.get(`${x}-${y}`) || 0, z + 1));
    const colour = pieceTint(a.colour ?? (a.piece || 1) - 1);
    for (const [key, top] of tops) {
      for (const rect of this.board.root.querySelectorAll(`[id="col-${key}"]`)) {
        const [x, y, w, hh] = ["x", "y", "width", "height"].map((k) => +rect.getAttribute(k));
        const g = document.createElementNS(SVG_NS, "g");
        g.setAttribute("class", "kozo-ghost");
        g.setAttribute("pointer-events", "none");
        g.dataset.column = key;
        const r = document.createElementNS(SVG_NS, "rect");
        for (const [k, v] of Object.entries({ x: x + 3, y: y + 3, width: w - 6, height: hh - 6, rx: 4, fill: hex(colour), "fill-opacity": 0.82, stroke: hex(mix(colour, 0, 0.45)), "stroke-width": 2, "stroke-dasharray": "5 3" })) {
          r.setAttribute(k, v);
        }
        const letter = document.createElementNS(SVG_NS, "text");
        for (const [k, v] of Object.entries({ x: x + w / 2, y: y + hh / 2 + 2, "text-anchor": "middle", "font-size": 20, "font-weight": "bold", fill: inkOn(colour) })) {
          letter.setAttribute(k, v);
        }
        letter.textContent = a.letter || "";
        const height = document.createElementNS(SVG_NS, "text");
        for (const [k, v] of Object.entries({ x: x + w - 5, y: y + hh - 7, "text-anchor": "end", "font-size": 14, "font-weight": "bold", fill: inkOn(colour) })) {
          height.setAttribute(k, v);
        }
        height.textContent = `↑${top}`;
        g.append(r, letter, height);
        rect.after(g); // over the square's own marks; taps still reach the square

        this.ghosts.push(g);
      }
    }
    // The board washes the move's other columns in the mover's colour: here the piece's own
    // wood shows there instead, under the outline.
    for (const wash of this.board.root.querySelectorAll(".board-overlay .hl-cell")) wash.style.fillOpacity = "0";
    const next = this.balanceNext(a);
    if (next) {
      const said = h("span", { class: "kozo-next", id: "kozo-next" }, next);
      this.board.status.append(said);
      this.ghosts.push(said);
    }
  }

  /** Where the balance cube may go after move `a`, if the tower stands, in words. */
  balanceNext(a) {
    const obs = this.observation() || {};
    const columns = obs.columns || [];
    if (!columns.length) return "";
    const covered = new Set(a.cubes.map(([x, y]) => `${x}-${y}`));
    const free = columns.filter((c) => covered.has(`${c.column[0]}-${c.column[1]}`) || (c.top >= 1 && !c.balance));
    const names = free.map((c) => c.name || `${c.column[0]},${c.column[1]}`);
    return tn(
      "If the tower stands, a balance cube comes next, on this column: {columns}.",
      "If the tower stands, a balance cube comes next, on one of these {n} columns: {columns}.",
      names.length,
      { columns: names.join(", ") },
    );
  }
}

/** The table part (see pages/table_parts.js): the picker above the board, for any game whose
 * moves are polycube placements (it stays hidden otherwise). */
export function tableKozo(play) {
  const picker = new KozoPicker(play.board, () => (play.frame ? play.frame.observation : null));
  const place = () => {
    // above the 3D view where it shows (beside the plan on a wide screen), else right above
    // the plan (under the 3D view's words where it cannot be shown)
    const v = play.view3d;
    const anchor = v && v.parentNode && !v.hidden && !v.classList.contains("view3d-off") ? v : play.boardEl;
    if (picker.tower !== (anchor === v)) {
      picker.tower = anchor === v;
      const then = picker.el.querySelector(".kozo-pick-then");
      if (then) then.textContent = picker.then();
    }
    if (anchor.parentNode && picker.el.nextSibling !== anchor) anchor.before(picker.el);
  };
  place();
  if (play.view3d) new MutationObserver(place).observe(play.view3d, { attributes: true, attributeFilter: ["class", "hidden"] });
  return {
    onFrame() {
      place();
    },
  };
}
