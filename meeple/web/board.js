// The game-agnostic board: shows the server-rendered SVG of one seat's view and lets the
// player choose among the legal actions the server listed (their describe_action dicts).
//
// Actions whose `target` names an element of the SVG are chosen on the board: hovering or
// focusing the target previews the action (the target and its `cells` are outlined in the
// mover's colour), and a click, Enter or Space plays it. A tap on a touch screen only previews;
// tapping the same place again or the Play button plays it, Cancel clears it. Where several
// actions share a target, Turn and Flip (buttons, keys R/F, the mouse wheel) go through them:
// a quarter turn or a mirror image of the piece where the game's cells say so, else the next
// or the previous choice. Actions without a target (or whose target is missing from the
// picture) are buttons. Arrow keys move the focus to the nearest target in that direction.
//
// Where the board's places would be smaller than a finger (TAP_PX), the board zooms (pinch or
// the + and - buttons; on a touch screen it starts zoomed) and scrolls inside its own box. A
// setting marks every legal place before pointing; what the last move changed is marked where
// the picture does not mark it itself.
//
// A picture is one column drawn for a phone, made of regions (`<g class="region"
// data-box="x y w h">`: the board first, then the panels). On a phone the column is shown whole
// at the screen's width. Where the board is much wider than a phone, each region is moved into
// its own `<svg>` showing its box, laid out as a table: the board large, the panels in a column
// beside it and, when that column is full, in rows below. The original `<svg>` stays in the page
// at zero size, keeping its `<defs>` and `<style>` for every region. The elements (and their ids,
// handlers and focus) are the same ones in both layouts.

import { number, t } from "./words.js";

const SVG_NS = "http://www.w3.org/2000/svg";
/** The CSS px a phone gives a picture: each game draws its column to read well at this width. */
const PHONE_PX = 360;
/** Regions are laid out side by side only where the board is this many phone widths wide. */
const SPLIT_AT = 1.6;
/** The board region's smallest width beside the panels, in CSS px. */
const MIN_BOARD_PX = 500;
/** The gap between regions, in CSS px. */
const GAP = 10;
/** The panels' scale, as a share of their scale on a phone: smallest and largest. */
const SIDE_MIN = 0.85;
const SIDE_MAX = 1.15;
/** The board region's largest scale, as a multiple of its scale on a phone. */
const BOARD_MAX = 2.2;
/** The smallest side of a place to tap, in CSS px. */
export const TAP_PX = 40;
/** The largest zoom of the board. */
const ZOOM_MAX = 4;
/** The zoom buttons' step. */
const ZOOM_STEP = 1.25;
/** Where the setting "mark every legal place" is kept. */
export const SHOW_LEGAL_KEY = "meeple.showLegal";

/** Is the main pointer of this device a finger? */
export function touchDevice() {
  return (
    (typeof matchMedia === "function" && matchMedia("(pointer: coarse)").matches) ||
    (navigator.maxTouchPoints || 0) > 0
  );
}

/** Is the setting "mark every legal place before pointing" on? */
export function showLegalSetting() {
  try {
    return localStorage.getItem(SHOW_LEGAL_KEY) === "1";
  } catch (e) {
    return false;
  }
}

/** The grid cells of an action's `cells` ids ending in two numbers ("cell-4-5", "col-0-2"),
 * as a shape moved to its corner, for comparing orientations; null where an id has none. */
function footprint(a) {
  const cells = [];
  for (const id of a.cells || []) {
    const m = /(\d+)-(\d+)$/.exec(id);
    if (!m) return null;
    cells.push([+m[1], +m[2]]);
  }
  return cells.length ? cells : null;
}

function shapeKey(cells) {
  if (!cells) return null;
  const r0 = Math.min(...cells.map((c) => c[0]));
  const c0 = Math.min(...cells.map((c) => c[1]));
  return cells
    .map(([r, c]) => `${r - r0},${c - c0}`)
    .sort()
    .join(" ");
}

/** What the actions at one place are: "orientations" (the same piece in other directions)
 * or "choices" (other pieces, tiles or options at the same place). */
function kindOfChoice(actions) {
  const keys = new Set(actions.map((a) => shapeKey(footprint(a))));
  return keys.size > 1 && !keys.has(null) ? "orientations" : "choices";
}

/** The piece an action moves, where the action says (its shape letter, piece or tile). */
function family(a) {
  const shape = typeof a.shape === "string" ? a.shape.replace(/\d+$/, "") : null;
  return String(a.piece ?? shape ?? a.tile ?? a.card ?? "");
}

/** A group on top of a frame of the picture, for the outlines of a preview. */
function overlayOf() {
  const overlay = document.createElementNS(SVG_NS, "g");
  overlay.setAttribute("class", "board-overlay");
  overlay.setAttribute("pointer-events", "none");
  return overlay;
}

/** A group under the preview's outlines, for the marks of every legal place and of the last
 * move. */
function marksOf() {
  const marks = document.createElementNS(SVG_NS, "g");
  marks.setAttribute("class", "board-marks");
  marks.setAttribute("pointer-events", "none");
  return marks;
}

/** Give a frame of the picture its size in CSS px. */
function size(view, w, h) {
  view.style.width = `${Math.floor(w)}px`;
  view.style.height = `${Math.floor(h)}px`;
}

export class Board {
  /**
   * @param {HTMLElement} root  where the board is drawn (emptied)
   * @param {object} opts  {onChoose(action), onPreview(desc|null)}
   */
  constructor(root, opts = {}) {
    this.root = root;
    root.board = this; // for tools and tests driving the board
    this.onChoose = opts.onChoose || (() => {});
    this.onPreview = opts.onPreview || (() => {});
    this.root.classList.add("board");
    this.stage = document.createElement("div");
    this.stage.className = "board-stage";
    this.buttons = document.createElement("div");
    this.buttons.className = "board-buttons";
    this.buttons.setAttribute("role", "group");
    this.buttons.setAttribute("aria-label", t("Other actions"));
    this.status = document.createElement("p");
    this.status.className = "board-preview";
    this.status.setAttribute("aria-live", "polite");
    this.touch = touchDevice();
    this.showLegal = showLegalSetting();
    this.zoom = 1; // the board's zoom now
    this.userZoom = null; // the zoom a person chose (null: fit, or on a touch screen TAP_PX)
    this.fitMin = Infinity; // the smallest place on the board at zoom 1, in CSS px
    // On a touch screen, the zoom of each panel (by region name) whose places would be smaller
    // than a finger: such a panel scrolls sideways in its own box below a phone's board. It
    // only grows while a game goes on, so the page does not jump from turn to turn.
    this.regionZoom = new Map();
    this.lastIds = []; // what the last move changed, where the picture does not mark it
    this._zoomBar();
    this._moveBar();
    // What is previewed and its buttons, and the moves made by a button (not on the board),
    // stay in sight below a tall board, beside the sentence saying what to do. The buttons
    // stay put while the words below them change.
    this.dock = document.createElement("div");
    this.dock.className = "board-dock";
    const line = document.createElement("div");
    line.className = "board-dock-line";
    line.append(this.status, this.zoomBar);
    this.dock.append(this.buttons, line, this.bar);
    this.root.replaceChildren(this.stage, this.dock);
    this.svg = null; // the picture's own <svg> (its defs and styles; all of it on a phone)
    this.byId = new Map(); // id -> the picture's element with that id
    this.regions = []; // its top-level regions, in order: {g, box: [x, y, w, h], name, view}
    this.split = false; // are the regions laid out apart?
    this.groups = new Map(); // target id -> {actions, index, el}
    this.active = null; // target id being previewed
    this.enabled = false;
    this.lastSvgText = null;
    this._onKey = this._onKey.bind(this);
    this.root.addEventListener("keydown", this._onKey);
    // R, F and Escape also reach the move shown under the mouse, wherever the focus is.
    document.addEventListener("keydown", (ev) => {
      if (!this.root.isConnected || this.root.contains(ev.target) || !this.active) return;
      if (!this.hovering && !this.pinned) return;
      const t = ev.target;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      if (["r", "R", "f", "F", "Escape"].includes(ev.key)) this._onKey(ev);
    });
    this._pointerEvents(this.stage);
    this._width = 0;
    if (typeof ResizeObserver !== "undefined") {
      new ResizeObserver(() => {
        if (this.stage.clientWidth !== this._width) this.layout();
      }).observe(this.stage);
    }
    window.addEventListener("resize", () => {
      if (this.root.isConnected) this.layout();
    });
    // The page may give the board a smaller share of the screen (beside a 3D view).
    this._planOnly = false;
    new MutationObserver(() => {
      const planOnly = this.root.classList.contains("plan-only");
      if (planOnly !== this._planOnly) {
        this._planOnly = planOnly;
        this.layout();
      }
    }).observe(this.root, { attributes: true, attributeFilter: ["class"] });
  }

  /** Show a new picture with its legal actions (empty list: watch only); `moved`: a move was
   * made since the last picture (what changed is then the last move); `at`: the stage's size
   * (`measure`) read before the page changed other things for this picture; `over`: the game
   * has ended: the final position is shown whole (not zoomed) and nothing on it is marked. */
  show(svgText, actions = [], { enabled = true, moved = false, at = null, over = false } = {}) {
    // A game's picker may offer fewer of the moves at a time (`narrow`, see kozo_pick.js).
    this.offered = actions || [];
    this.wanted = enabled;
    if (this.narrow) actions = this.narrow(enabled ? this.offered : []);
    const activeBefore = this.active;
    const focusBefore = document.activeElement;
    const hadFocus = this.root.contains(focusBefore);
    const same = svgText === this.lastSvgText;
    // The move shown stays shown through a frame that leaves this player's moves as they were
    // (someone came or went, or another player chose in a round everyone plays at once).
    const sameMoves = this.enabled && (actions || []).map((a) => a.text).join("|") === this.actions.map((a) => a.text).join("|");
    const before = (same || sameMoves) && activeBefore ? this.groups.get(activeBefore) : null;
    const kept = before && { texts: before.actions.map((a) => a.text).join("|"), index: before.index, pinned: this.pinned };
    if (!same) {
      this._setSvg(svgText || "", moved, at); // the marks and the zoom wait for the moves
      this.lastSvgText = svgText;
    }
    this.enabled = enabled && actions.length > 0;
    this._bind(actions || []);
    if (over && !this.over) {
      this.lastIds = [];
      this.userZoom = null;
      this.regionZoom = new Map();
      this.setZoom(1, { chosen: false });
    }
    this.over = over;
    const again = kept && this.enabled && this.groups.get(activeBefore);
    if (again && again.actions.map((a) => a.text).join("|") === kept.texts) {
      again.index = kept.index;
      this._label(again);
      this._activate(activeBefore);
      this.pinned = kept.pinned;
    }
    // Read every size first (the zoom), then draw the marks: the page is laid out once.
    this._fitZoom();
    this._drawMarks();
    // The keyboard's focus comes back to the same place (a finger's tap leaves none).
    if (hadFocus && this.pointerType !== "touch" && this.pointerType !== "pen") {
      const again = activeBefore && this.groups.get(activeBefore);
      if (again) again.el.focus({ preventScroll: true });
      else this.focusFirst();
    }
  }

  /** Offer the moves of the picture shown again, as `narrow` now chooses among them. */
  reoffer() {
    this.show(this.lastSvgText, this.offered || [], { enabled: this.wanted });
  }

  /** Put the keyboard focus on the first choosable target (or button). */
  focusFirst() {
    const first = this.groups.values().next().value;
    if (first) first.el.focus({ preventScroll: true });
    else this.buttons.querySelector("button")?.focus({ preventScroll: true });
  }

  /** All actions currently offered, in the server's order. */
  get actions() {
    return this._actions || [];
  }

  /** The colour of the player to move (a fill), for the outline of the move previewed. */
  setMover(fill) {
    if (fill) this.root.style.setProperty("--mover", fill);
    else this.root.style.removeProperty("--mover");
  }

  /** Mark every legal place before pointing (the setting), or not. */
  setShowLegal(on) {
    this.showLegal = !!on;
    this._drawMarks();
  }

  _zoomBar() {
    const bar = document.createElement("div");
    bar.className = "board-zoom";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", t("Zoom the board"));
    bar.hidden = true;
    const button = (text, label, id, step) => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.textContent = text;
      b.setAttribute("aria-label", label);
      b.addEventListener("click", () => this.setZoom(step(this.zoom)));
      bar.appendChild(b);
      return b;
    };
    this.zoomOut = button("−", t("Zoom out"), "zoom-out", (z) => z / ZOOM_STEP);
    this.zoomLabel = document.createElement("span");
    this.zoomLabel.className = "zoom-level";
    bar.appendChild(this.zoomLabel);
    this.zoomIn = button("+", t("Zoom in"), "zoom-in", (z) => z * ZOOM_STEP);
    this.zoomBar = bar;
  }

  _moveBar() {
    const bar = document.createElement("div");
    bar.className = "board-move";
    bar.setAttribute("role", "group");
    bar.setAttribute("aria-label", t("The move shown"));
    bar.hidden = true;
    const button = (text, id, fn, cls = "") => {
      const b = document.createElement("button");
      b.type = "button";
      b.id = id;
      b.className = cls;
      b.textContent = text;
      b.addEventListener("click", fn);
      bar.appendChild(b);
      return b;
    };
    this.turnButton = button(t("Turn"), "move-turn", () => this.turn());
    this.flipButton = button(t("Flip"), "move-flip", () => this.flip());
    this.confirmButton = button(t("Play"), "move-confirm", () => this.chooseActive(), "primary");
    this.cancelButton = button(t("Cancel"), "move-cancel", () => this._clearPreview());
    this.bar = bar;
  }

  /** Show the buttons of the move previewed now (none when nothing is previewed). */
  _drawMoveBar() {
    const g = this.active && this.groups.get(this.active);
    this.bar.hidden = !g || !this.enabled;
    if (!g) return;
    const several = g.actions.length > 1;
    const orient = several && kindOfChoice(g.actions) === "orientations";
    this.turnButton.hidden = !several;
    this.flipButton.hidden = !several;
    this.turnButton.textContent = orient ? t("Turn") : t("Next choice");
    this.flipButton.textContent = orient ? t("Flip") : t("Previous choice");
    this.turnButton.title = (orient ? t("A quarter turn") : t("The next choice here")) + (this.touch ? "" : " (R)");
    this.flipButton.title = (orient ? t("The mirror image") : t("The previous choice here")) + (this.touch ? "" : " (F)");
  }

  /** Set the board's zoom (1: the board fits its box); the middle of the view stays put. */
  setZoom(z, { chosen = true } = {}) {
    const zoom = Math.max(1, Math.min(ZOOM_MAX, z));
    if (chosen) this.userZoom = zoom;
    if (Math.abs(zoom - this.zoom) < 0.01) return;
    const box = this.main && this.split ? this.main : null;
    const cx = box ? (box.scrollLeft + box.clientWidth / 2) / this.zoom : 0;
    const cy = box ? (box.scrollTop + box.clientHeight / 2) / this.zoom : 0;
    this.zoom = zoom;
    this.layout();
    if (this.main && this.split) {
      this.main.scrollLeft = cx * zoom - this.main.clientWidth / 2;
      this.main.scrollTop = cy * zoom - this.main.clientHeight / 2;
    }
  }

  /** The smallest legal place of each region at its zoom 1, in CSS px, by the region's name
   * ("board" for the board, and for a picture drawn without a board region). */
  _smallestPlaces() {
    const board = this.regions[0];
    const hasBoard = board && board.name === "board";
    const least = new Map();
    for (const g of this.groups.values()) {
      const r = hasBoard && !board.g.contains(g.el) ? this.regions.find((x) => x.g.contains(g.el)) : null;
      const name = r ? r.name : "board";
      const zoom = r ? this._regionZoomNow(name) : this.zoom;
      const box = g.el.getBoundingClientRect();
      if (box.width && box.height) {
        least.set(name, Math.min(least.get(name) ?? Infinity, box.width / zoom, box.height / zoom));
      }
    }
    return least;
  }

  /** The zoom a panel is drawn at now (only below a zoomed or stacked board). */
  _regionZoomNow(name) {
    return this.split && this.picture.classList.contains("stacked") ? this.regionZoom.get(name) || 1 : 1;
  }

  /** The zoom at which every place is at least a finger wide, for places `least` px wide. */
  static _zoomFor(least) {
    return Math.min(ZOOM_MAX, Math.ceil((TAP_PX / least) * 8) / 8 + 0.01);
  }

  /** Zoom where the board's places are smaller than a finger: at once on a touch screen
   * (unless the person chose a zoom), and show the zoom buttons. On a phone, a panel whose
   * places are too small is zoomed too, in its own box. */
  _fitZoom() {
    this._fitting = true;
    try {
      if (this.svg && this.groups.size) {
        const places = this._smallestPlaces();
        const least = places.get("board") ?? Infinity;
        if (Number.isFinite(least)) this.fitMin = least;
        if (this.touch && !this._wide && this._zoomPanels(places)) this._arrange(this.measure());
      }
      const small = this.fitMin < TAP_PX - 0.5;
      this.zoomBar.hidden = !small && this.zoom <= 1;
      if (this.touch && small && this.userZoom === null && this.groups.size) {
        const want = Board._zoomFor(this.fitMin);
        if (want > this.zoom + 0.01) this.setZoom(want, { chosen: false });
      }
      this._drawZoomBar();
    } finally {
      this._fitting = false;
    }
  }

  /** Grow the zoom of each panel whose places (`places`: the smallest by region) are smaller
   * than a finger; whether any changed. */
  _zoomPanels(places) {
    let changed = false;
    for (const [name, least] of places) {
      if (name === "board" || least >= TAP_PX - 0.5) continue;
      const want = Board._zoomFor(least);
      if (want > (this.regionZoom.get(name) || 1) + 0.01) {
        this.regionZoom.set(name, want);
        changed = true;
      }
    }
    return changed;
  }

  _drawZoomBar() {
    this.root.classList.toggle("zoomed", this.zoom > 1);
    this.zoomLabel.textContent = number(this.zoom, { style: "percent" });
    this.zoomOut.disabled = this.zoom <= 1;
    this.zoomIn.disabled = this.zoom >= ZOOM_MAX;
  }

  _setSvg(text, moved = false, given = null) {
    this.root.dataset.pictures = String(+(this.root.dataset.pictures || 0) + 1); // for tools
    // The stage's size is read before the new picture goes in, and the picture is laid out
    // apart and put in whole: the page is not laid out again for each step.
    const at = given || this.measure();
    const old = this.svg;
    const oldDrawn = this.drawn || new Map(); // the last picture's leaves as the server drew them
    const holder = document.createElement("div");
    holder.innerHTML = text;
    const svg = holder.querySelector("svg");
    // Every element with an id, and the leaves among them (no element with an id inside) as
    // drawn: an element's descendants come right after it, so a leaf is one that does not
    // contain the next.
    this.byId = new Map();
    this.drawn = new Map();
    const all = svg ? svg.querySelectorAll("[id]") : [];
    for (let i = 0; i < all.length; i++) {
      const el = all[i];
      this.byId.set(el.id, el);
      if (i + 1 === all.length || !el.contains(all[i + 1])) this.drawn.set(el.id, el.outerHTML);
    }
    if (!svg) {
      this.stage.replaceChildren();
      this.svg = null;
      this.regions = [];
      this.split = false;
      return;
    }
    svg.classList.add("board-svg");
    svg.setAttribute("role", "img");
    if (!svg.getAttribute("aria-label")) svg.setAttribute("aria-label", t("Board"));
    if (!svg.getAttribute("viewBox")) {
      const w = parseFloat(svg.getAttribute("width"));
      const h = parseFloat(svg.getAttribute("height"));
      if (w && h) svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    }
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    // Animate what changed since the last picture: new or altered elements with ids.
    const changed = [];
    if (old) {
      for (const [id, html] of this.drawn) {
        if (oldDrawn.get(id) !== html) {
          this.byId.get(id).classList.add("changed");
          changed.push(id);
        }
      }
    }
    // The last move: marked by the picture itself, else what it changed.
    if (svg.querySelector(".last-move")) this.lastIds = [];
    else if (moved) this.lastIds = changed;
    svg.appendChild(marksOf());
    svg.appendChild(overlayOf());
    this.svg = svg;
    // Where each panel that scrolls in its own box was scrolled to: the next one starts there.
    this._panelScroll = new Map(this.regions.filter((r) => r.frame).map((r) => [r.name, r.frame.scrollLeft]));
    this.regions = [...svg.children]
      .filter((g) => g.matches("g.region[data-box]"))
      .map((g) => ({
        g,
        name: g.dataset.region,
        box: g.dataset.box.split(/[\s,]+/).map(Number),
        view: null,
      }));
    this.picture = document.createElement("div");
    this.picture.className = "board-picture";
    this.split = false;
    this.picture.append(svg);
    this.active = null;
    this._arrange(at);
    this.stage.replaceChildren(this.picture);
  }

  /** The picture's own width in its units (its viewBox). */
  _pictureWidth() {
    const vb = this.svg?.viewBox?.baseVal;
    return vb && vb.width ? vb.width : PHONE_PX;
  }

  /** The stage's width (outside and inside its padding) and its top on the page, in CSS px. */
  measure() {
    const stage = this.stage;
    const cs = getComputedStyle(stage);
    const outer = stage.clientWidth;
    return {
      outer,
      width: outer - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight),
      top: stage.getBoundingClientRect().top + window.scrollY,
    };
  }

  /** Fit the picture to the board's width, then mark it and fit the zoom again. */
  layout() {
    this._arrange(this.measure());
    if (!this.svg) return;
    this._drawMarks();
    if (!this._fitting) this._fitZoom();
  }

  /** Fit the picture to the stage's size `at` (`measure`): one column on a phone, a table
   * where it is wide. Only writes: nothing here makes the page lay itself out. */
  _arrange(at) {
    this._width = at.outer;
    if (!this.svg) return;
    const width = at.width;
    const wide = width >= SPLIT_AT * PHONE_PX;
    this._wide = wide;
    const board = this.regions[0];
    const focused = this.stage.contains(document.activeElement) ? document.activeElement : null;
    const hasBoard = board && board.name === "board";
    if (wide && hasBoard && this.regions.length >= 2) {
      this._split();
      this._place(width, at.top);
    } else if (hasBoard && (this.zoom > 1 || this.regionZoom.size)) {
      this._split();
      this._stack(width); // the board zoomed in its own box, the panels below it
    } else {
      this._unsplit();
      this.picture.classList.toggle("fit-height", wide); // no regions: the old whole picture
    }
    // A frame moved with the focus in it: give the focus back.
    if (focused && document.activeElement !== focused) focused.focus({ preventScroll: true });
  }

  /** Size the board's frame to `w` x `h` CSS px, its picture zoomed inside it. */
  _sizeBoard(w, h) {
    const view = this.regions[0].view;
    const zoomed = this.zoom > 1;
    size(view, w * this.zoom, h * this.zoom);
    view.style.maxWidth = zoomed ? "none" : "";
    this.main.classList.toggle("zoomed", zoomed);
    this.main.style.width = zoomed ? `${Math.floor(w)}px` : "";
    this.main.style.height = zoomed ? `${Math.floor(h)}px` : "";
  }

  /** A phone with the board zoomed: the board's box at the screen's width, the panels below
   * at their phone size, in reading order. */
  _stack(width) {
    const base = width / this._pictureWidth();
    const [, , bw, bh] = this.regions[0].box;
    this.picture.classList.remove("beside");
    this.picture.classList.add("stacked");
    this.picture.style.setProperty("--board-w", `${bw * base}px`);
    this._sizeBoard(bw * base, bh * base);
    const rest = this.regions.slice(1);
    const views = rest.map((r) => {
      const zoom = this.regionZoom.get(r.name) || 1;
      size(r.view, r.box[2] * base * zoom, r.box[3] * base * zoom);
      return zoom === 1 ? r.view : this._scrollBox(r, width);
    });
    const now = [...this.more.children];
    if (now.length !== views.length || now.some((v, i) => v !== views[i])) this.more.replaceChildren(...views);
    if (this.side.childElementCount) this.side.replaceChildren();
    this.side.hidden = true;
    this.more.hidden = !views.length;
  }

  /** The box `width` px wide in which panel `r`, zoomed, scrolls sideways; it starts where the
   * last picture's box of that panel was scrolled to, or in its middle. */
  _scrollBox(r, width) {
    if (!r.frame) {
      r.frame = document.createElement("div");
      r.frame.className = "board-scroll";
    }
    r.frame.style.width = `${Math.floor(width)}px`;
    if (r.view.parentNode !== r.frame) {
      r.frame.append(r.view);
      const left = this._panelScroll?.get(r.name);
      requestAnimationFrame(() => {
        r.frame.scrollLeft = left ?? (r.frame.scrollWidth - r.frame.clientWidth) / 2;
      });
    }
    return r.frame;
  }

  _split() {
    if (this.split) return;
    const svg = this.svg;
    const bg = svg.querySelector(":scope > rect");
    const paper = bg ? bg.getAttribute("fill") : null;
    for (const r of this.regions) {
      if (!r.view) {
        const v = document.createElementNS(SVG_NS, "svg");
        const [x, y, w, h] = r.box;
        v.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
        for (const name of ["font-family", "class"]) {
          const value = svg.getAttribute(name);
          if (value) v.setAttribute(name, value);
        }
        v.classList.remove("board-svg");
        v.classList.add("board-region");
        v.dataset.region = r.name;
        v.setAttribute("role", "group");
        if (r.name === "board") v.setAttribute("aria-label", svg.getAttribute("aria-label"));
        if (paper && paper !== "none") v.style.background = paper;
        v.appendChild(marksOf());
        v.appendChild(overlayOf());
        r.view = v;
      }
      r.view.insertBefore(r.g, r.view.querySelector(":scope > .board-marks"));
    }
    svg.classList.add("board-defs");
    svg.setAttribute("aria-hidden", "true");
    this.main = document.createElement("div");
    this.main.className = "board-main";
    this.side = document.createElement("div");
    this.side.className = "board-side";
    this.more = document.createElement("div");
    this.more.className = "board-more";
    this.main.append(this.regions[0].view);
    this.picture.replaceChildren(this.main, this.side, this.more, svg);
    this.picture.classList.add("split");
    this.picture.classList.remove("fit-height");
    this.split = true;
  }

  _unsplit() {
    if (!this.split) return;
    const svg = this.svg;
    const marks = svg.querySelector(":scope > .board-marks");
    for (const r of this.regions) svg.insertBefore(r.g, marks);
    svg.classList.remove("board-defs");
    svg.removeAttribute("aria-hidden");
    this.picture.replaceChildren(svg);
    this.picture.classList.remove("split", "stacked", "beside");
    this.split = false;
  }

  /** Size the regions for a board `width` px wide: the board as large as the screen's
   * height allows, the panels beside it at about their phone size, the rest in rows below;
   * `pageTop`: the stage's top on the page. */
  _place(width, pageTop) {
    const base = PHONE_PX / this._pictureWidth(); // px per unit on a phone
    const [, , bw, bh] = this.regions[0].box;
    const rest = this.regions.slice(1);
    const sideUnits = Math.max(...rest.map((r) => r.box[2]));
    const top = Math.max(0, Math.min(pageTop, 240));
    // Beside a 3D view the plan keeps to a smaller share of the screen.
    const planOnly = this.root.classList.contains("plan-only");
    const minBoard = planOnly ? 240 : MIN_BOARD_PX;
    const tall = planOnly ? window.innerHeight * 0.4 : window.innerHeight - top - 72;
    const height = Math.max(minBoard, tall);
    let k = base; // the panels' px per unit
    if (width - GAP - sideUnits * k < minBoard) {
      k = Math.max(base * SIDE_MIN, (width - GAP - minBoard) / sideUnits);
    }
    const beside = width - GAP - sideUnits * k >= minBoard;
    const room = beside ? width - GAP - sideUnits * k : width;
    let boardW = Math.min(room, height * (bw / bh), bw * base * BOARD_MAX);
    if (beside) {
      boardW = Math.max(boardW, Math.min(room, minBoard));
      k = Math.min(base * SIDE_MAX, Math.max(k, (width - GAP - boardW) / sideUnits));
    } else {
      k = Math.min(base * SIDE_MAX, k);
    }
    const boardH = (boardW * bh) / bw;
    this.picture.classList.remove("stacked");
    this._sizeBoard(boardW, boardH);
    this.picture.classList.toggle("beside", beside);
    this.picture.style.setProperty("--board-w", `${boardW}px`);
    const side = [];
    const more = [];
    let used = 0;
    let full = !beside;
    const limit = Math.max(boardH, height);
    // All the panels beside the board where they read well a little smaller.
    const units = rest.reduce((sum, r) => sum + r.box[3], 0);
    const fit = (limit - GAP * (rest.length - 1)) / units;
    if (beside && fit >= base * SIDE_MIN) k = Math.min(k, fit);
    for (const r of rest) {
      const h = r.box[3] * k;
      size(r.view, r.box[2] * k, h);
      full ||= used > 0 && used + GAP + h > limit; // the rest follow in reading order
      if (full) {
        more.push(r.view);
      } else {
        used += (used ? GAP : 0) + h;
        side.push(r.view);
      }
    }
    // Frames move only when their place changes: moving one would take the focus from it.
    for (const [holder, views] of [[this.side, side], [this.more, more]]) {
      const now = [...holder.children];
      if (now.length !== views.length || now.some((v, i) => v !== views[i])) {
        holder.replaceChildren(...views);
      }
    }
    this.side.hidden = !this.side.childElementCount;
    this.more.hidden = !this.more.childElementCount;
  }

  _bind(actions) {
    this._actions = actions;
    // Undo the previous binding.
    for (const g of this.groups.values()) this._unbindEl(g.el);
    this.groups = new Map();
    this.buttons.replaceChildren();
    this._clearPreview();
    if (!this.enabled) {
      this.root.classList.remove("can-act");
      this.status.textContent = "";
      return;
    }
    this.root.classList.add("can-act");
    const loose = [];
    for (const a of actions) {
      const el = a.target && this.svg ? this.byId.get(a.target) : null;
      if (!el) {
        loose.push(a);
        continue;
      }
      let g = this.groups.get(a.target);
      if (!g) {
        g = { actions: [], index: 0, el };
        this.groups.set(a.target, g);
      }
      g.actions.push(a);
    }
    for (const [id, g] of this.groups) this._bindEl(id, g);
    for (const a of loose) {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "action-button";
      b.textContent = a.label || a.text;
      b.title = a.text;
      b.dataset.action = a.action;
      b.dataset.text = a.text;
      // A preview under the mouse or the keyboard's focus; not from a tap, whose preview
      // would move the buttons before its click lands. Under the mouse only the board shows
      // it: the button says the move, and new words under it would move the buttons (the
      // dock stays at the screen's foot) from under the pointer.
      b.addEventListener("pointerenter", (ev) => {
        if (ev.pointerType === "mouse") this._preview(null, a, null, { words: false });
      });
      b.addEventListener("focus", () => {
        if (b.matches(":focus-visible")) this._preview(null, a);
      });
      b.addEventListener("pointerleave", (ev) => {
        if (ev.pointerType === "mouse") this._clearPreview();
      });
      b.addEventListener("click", () => this._choose(a));
      this.buttons.appendChild(b);
    }
    this.status.textContent = this.hint();
  }

  /** What to do on this device, in a sentence (empty where nothing is chosen on the board). */
  hint() {
    if (!this.groups.size) return this.buttons.childElementCount ? t("Choose your move with a button above.") : "";
    const several = [...this.groups.values()].some((g) => g.actions.length > 1);
    const orient = [...this.groups.values()].some(
      (g) => g.actions.length > 1 && kindOfChoice(g.actions) === "orientations",
    );
    if (this.touch) {
      if (!several) return t("Tap a highlighted place to see the move, then tap it again or press Play.");
      return orient
        ? t("Tap a highlighted place to see the move, then tap it again or press Play. Turn and Flip change the piece's direction.")
        : t("Tap a highlighted place to see the move, then tap it again or press Play. Next choice shows another move there.");
    }
    if (!several) return t("Point at a highlighted place to see the move; click or press Enter to play it.");
    return orient
      ? t("Point at a highlighted place to see the move; click or press Enter to play it. R and F (or the wheel) turn and flip the piece.")
      : t("Point at a highlighted place to see the move; click or press Enter to play it. R and F (or the wheel) show the other moves there.");
  }

  /** Mark every legal place (the setting) and what the last move changed, in each frame. */
  _drawMarks() {
    for (const m of this.stage.querySelectorAll(".board-marks")) m.replaceChildren();
    if (!this.svg) return;
    const marks = [];
    for (const id of this.lastIds) {
      const el = this.byId.get(id);
      if (el) marks.push([el, "hl-last"]);
    }
    this.root.classList.toggle("show-legal", this.showLegal && this.enabled);
    if (this.showLegal && this.enabled) for (const g of this.groups.values()) marks.push([g.el, "hl-legal"]);
    this._outline(marks, ".board-marks");
  }

  _bindEl(id, g) {
    const el = g.el;
    el.classList.add("target");
    el.setAttribute("tabindex", "0");
    el.setAttribute("role", "button");
    el.setAttribute("focusable", "true");
    el.dataset.target = id;
    this._label(g);
    const h = {
      focus: () => {
        if (this.active !== id) this._activate(id); // back from its own buttons: as it was
      },
      blur: (ev) => {
        // The preview stays for its own buttons, for a tapped place and under the mouse.
        if (ev.relatedTarget && this.dock.contains(ev.relatedTarget)) return;
        if (!this.hovering && !this.pinned) this._clearPreview();
      },
    };
    el._boardHandlers = h;
    el.addEventListener("focus", h.focus);
    el.addEventListener("blur", h.blur);
  }

  _unbindEl(el) {
    const h = el._boardHandlers;
    if (!h) return;
    el.removeEventListener("focus", h.focus);
    el.removeEventListener("blur", h.blur);
    el.classList.remove("target", "active");
    el.removeAttribute("tabindex");
    el.removeAttribute("role");
    el.removeAttribute("aria-label");
    delete el._boardHandlers;
  }

  /** The target under a pointer event (the topmost one; labels drawn on top do not hide it). */
  _targetAt(ev) {
    for (const el of document.elementsFromPoint(ev.clientX, ev.clientY)) {
      if (!this.svg || !this.stage.contains(el)) continue;
      const t = el.closest("[data-target]");
      if (t && this.groups.has(t.dataset.target)) return t.dataset.target;
    }
    return null;
  }

  _pointerEvents(svg) {
    // One set of handlers on the stage serves every frame of the picture.
    svg.addEventListener("pointermove", (ev) => {
      if (!this.enabled || ev.pointerType === "touch" || ev.pointerType === "pen") return;
      this.hovering = true;
      const id = this._targetAt(ev);
      if (id && id !== this.active) this._activate(id);
      else if (!id && this.active && document.activeElement?.dataset?.target !== this.active) {
        this._clearPreview();
      }
    });
    svg.addEventListener("pointerleave", (ev) => {
      this.hovering = false;
      if (ev.pointerType === "touch" || ev.pointerType === "pen") return;
      // Moving to the move's own buttons keeps the preview (Turn, Flip, Play).
      if (ev.relatedTarget && this.dock.contains(ev.relatedTarget)) return;
      if (this.pinned) return;
      if (document.activeElement?.dataset?.target !== this.active) this._clearPreview();
    });
    // A finger: a tap previews, a second tap on the same place plays; two fingers zoom.
    this.pointerType = "mouse";
    const fingers = new Map();
    let pinch = null;
    const spread = () => {
      const [a, b] = [...fingers.values()];
      return Math.hypot(a[0] - b[0], a[1] - b[1]);
    };
    svg.addEventListener("pointerdown", (ev) => {
      this.pointerType = ev.pointerType || "mouse";
      if (ev.pointerType !== "touch") return;
      fingers.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (fingers.size === 2) pinch = { d0: spread(), z0: this.zoom };
    });
    svg.addEventListener("pointermove", (ev) => {
      if (!fingers.has(ev.pointerId)) return;
      fingers.set(ev.pointerId, [ev.clientX, ev.clientY]);
      if (pinch && fingers.size === 2 && pinch.d0 > 10) {
        ev.preventDefault();
        this.setZoom((pinch.z0 * spread()) / pinch.d0);
      }
    });
    const lift = (ev) => {
      fingers.delete(ev.pointerId);
      if (fingers.size < 2) pinch = null;
    };
    svg.addEventListener("pointerup", lift);
    svg.addEventListener("pointercancel", lift);
    svg.addEventListener("click", (ev) => {
      const id = this._targetAt(ev);
      if (!id) return;
      ev.preventDefault();
      const g = this.groups.get(id);
      if (this.pointerType === "touch" || this.pointerType === "pen") {
        if (id === this.active && this.pinned) {
          this._choose(g.actions[g.index]);
        } else {
          this._activate(id);
          this.pinned = true;
        }
        return;
      }
      if (id !== this.active) this._activate(id);
      this._choose(g.actions[g.index]);
    });
    svg.addEventListener(
      "wheel",
      (ev) => {
        const id = this._targetAt(ev);
        const g = id && this.groups.get(id);
        if (!g || g.actions.length < 2) return;
        ev.preventDefault();
        if (id !== this.active) this._activate(id);
        if (ev.deltaY > 0) this.turn();
        else this.flip();
      },
      { passive: false },
    );
  }

  _label(g) {
    const a = g.actions[g.index];
    const what = kindOfChoice(g.actions) === "orientations" ? t("R and F turn and flip") : t("R and F show the others");
    const params = { move: a.label || a.text, i: g.index + 1, n: g.actions.length, what };
    // TRANSLATORS: the label of a place on the board with several moves: the move shown, which of them it is, and the keys
    g.el.setAttribute("aria-label", g.actions.length > 1 ? t("{move} ({i} of {n}; {what})", params) : params.move);
  }

  _activate(id) {
    const g = this.groups.get(id);
    if (!g) return;
    if (this.active && this.active !== id) {
      this.groups.get(this.active)?.el.classList.remove("active");
    }
    this.active = id;
    this.pinned = false;
    g.el.classList.add("active");
    this._preview(g.el, g.actions[g.index], g);
  }

  /** Turn to the next (+1) or previous (-1) action sharing the active target. */
  cycle(step) {
    const g = this.active && this.groups.get(this.active);
    if (!g || g.actions.length < 2) return;
    this._show(g, (g.index + step + g.actions.length) % g.actions.length);
  }

  _show(g, index) {
    g.index = index;
    this._label(g);
    this._preview(g.el, g.actions[g.index], g);
  }

  /** The next action at the active target whose cells are `change` of the shown one's (the
   * same piece first); -1 where none is. */
  _like(g, change) {
    const cur = footprint(g.actions[g.index]);
    if (!cur) return -1;
    const want = shapeKey(change(cur));
    const fam = family(g.actions[g.index]);
    let other = -1;
    for (let k = 1; k < g.actions.length; k++) {
      const i = (g.index + k) % g.actions.length;
      if (shapeKey(footprint(g.actions[i])) !== want) continue;
      if (family(g.actions[i]) === fam) return i;
      if (other < 0) other = i;
    }
    return other;
  }

  /** A quarter turn of the piece previewed (R), else the next choice at its place. */
  turn() {
    const g = this.active && this.groups.get(this.active);
    if (!g || g.actions.length < 2) return;
    const i = this._like(g, (cells) => cells.map(([r, c]) => [c, -r]));
    if (i >= 0) this._show(g, i);
    else this.cycle(1);
  }

  /** The mirror image of the piece previewed (F: left to right, or top to bottom where the
   * piece is its own mirror image that way), else the previous choice at its place. */
  flip() {
    const g = this.active && this.groups.get(this.active);
    if (!g || g.actions.length < 2) return;
    const now = shapeKey(footprint(g.actions[g.index]));
    for (const mirror of [([r, c]) => [r, -c], ([r, c]) => [-r, c]]) {
      const i = this._like(g, (cells) => cells.map(mirror));
      if (i >= 0 && shapeKey(footprint(g.actions[i])) !== now) {
        this._show(g, i);
        return;
      }
    }
    this.cycle(-1);
  }

  _preview(el, a, g = null, { words = true } = {}) {
    this._clearOverlay();
    if (!a) return;
    const ids = new Set(a.cells || []);
    if (el && a.target) ids.add(a.target);
    const outlines = [];
    for (const id of ids) {
      const cell = this.svg ? this.byId.get(id) : null;
      if (!cell) continue;
      cell.classList.add(id === a.target ? "preview-target" : "preview");
      outlines.push([cell, id === a.target ? "hl-target" : "hl-cell"]);
    }
    this._outline(outlines);
    const move = a.label || a.text;
    if (words) {
      this.status.textContent = g && g.actions.length > 1 ? t("{move} ({i} of {n})", { move, i: g.index + 1, n: g.actions.length }) : move;
      this.status.title = a.text;
    }
    this.previewed = a;
    this._drawMoveBar();
    this.onPreview(a);
  }

  /** Outline each `[element, class]` in the `layer` of the frame it is drawn in. Every box is
   * read before any outline is drawn, so the page is laid out once, not once per outline. */
  _outline(items, layer = ".board-overlay") {
    const hosts = new Map(); // frame -> [its layer, the inverse of its screen matrix]
    const boxes = [];
    for (const [el, cls] of items) {
      const host = el.ownerSVGElement; // the frame the element is drawn in
      if (!host?.getScreenCTM) continue;
      if (!hosts.has(host)) {
        const m = host.getScreenCTM();
        hosts.set(host, [host.querySelector(`:scope > ${layer}`), m && m.inverse()]);
      }
      const [overlay, inv] = hosts.get(host);
      const r = el.getBoundingClientRect();
      if (overlay && inv && r.width) boxes.push([overlay, inv, r, cls]);
    }
    for (const [overlay, inv, r, cls] of boxes) {
      const p1 = new DOMPoint(r.left, r.top).matrixTransform(inv);
      const p2 = new DOMPoint(r.right, r.bottom).matrixTransform(inv);
      const rect = document.createElementNS(SVG_NS, "rect");
      rect.setAttribute("x", Math.min(p1.x, p2.x));
      rect.setAttribute("y", Math.min(p1.y, p2.y));
      rect.setAttribute("width", Math.abs(p2.x - p1.x));
      rect.setAttribute("height", Math.abs(p2.y - p1.y));
      rect.setAttribute("class", cls);
      overlay.appendChild(rect);
    }
  }

  _clearOverlay() {
    for (const o of this.stage.querySelectorAll(".board-overlay")) o.replaceChildren();
    if (this.svg) {
      for (const el of this.stage.querySelectorAll(".preview, .preview-target")) {
        el.classList.remove("preview", "preview-target");
      }
    }
  }

  _clearPreview() {
    this._clearOverlay();
    if (this.active) this.groups.get(this.active)?.el.classList.remove("active");
    this.active = null;
    this.pinned = false;
    this.previewed = null;
    this.bar.hidden = true;
    if (this.enabled) this.status.textContent = this.hint();
    this.status.removeAttribute("title");
    this.onPreview(null);
  }

  /** Preview the actions of a target from elsewhere (e.g. a 3D view); false if it has none. */
  activateTarget(id) {
    if (!this.enabled || !this.groups.has(id)) return false;
    this._activate(id);
    this.pinned = true;
    return true;
  }

  /** The target being previewed, or null. */
  get activeTarget() {
    return this.active;
  }

  /** Play the action previewed now (as a click on its target would). */
  chooseActive() {
    const g = this.active && this.groups.get(this.active);
    if (g) this._choose(g.actions[g.index]);
  }

  /** Play an action chosen elsewhere (typed notation): the same as clicking it. */
  choose(a) {
    this._choose(a);
  }

  _choose(a) {
    if (!this.enabled || !a) return;
    this.enabled = false; // one choice per picture; the next picture re-enables
    this.root.classList.remove("can-act");
    this.root.dataset.sent = String(+(this.root.dataset.sent || 0) + 1);
    this.onChoose(a);
  }

  _onKey(ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const t = ev.target;
    const onTarget = t && t.dataset && t.dataset.target && this.groups.has(t.dataset.target);
    const key = ev.key;
    if ((key === "r" || key === "R") && this.active) {
      ev.preventDefault();
      this.turn();
    } else if ((key === "f" || key === "F") && this.active) {
      ev.preventDefault();
      this.flip();
    } else if (key === "Escape" && this.active) {
      ev.preventDefault();
      this._clearPreview();
    } else if ((key === "Enter" || key === " ") && onTarget) {
      ev.preventDefault();
      const g = this.groups.get(t.dataset.target);
      this._choose(g.actions[g.index]);
    } else if (key.startsWith("Arrow") && (onTarget || t === this.root)) {
      ev.preventDefault();
      this._moveFocus(key, onTarget ? t : null);
    }
  }

  _moveFocus(key, from) {
    const els = [...this.groups.values()].map((g) => g.el);
    if (!els.length) return;
    if (!from) {
      els[0].focus();
      return;
    }
    const c = (el) => {
      const r = el.getBoundingClientRect();
      return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
    };
    const o = c(from);
    const dir = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[
      key
    ];
    let best = null;
    let bestScore = Infinity;
    for (const el of els) {
      if (el === from) continue;
      const p = c(el);
      const dx = p.x - o.x;
      const dy = p.y - o.y;
      const along = dx * dir[0] + dy * dir[1];
      if (along <= 0.5) continue;
      const across = Math.abs(dx * dir[1] - dy * dir[0]);
      const score = along + 2 * across;
      if (score < bestScore) {
        bestScore = score;
        best = el;
      }
    }
    best?.focus();
  }
}
