// The game-agnostic board: shows the server-rendered SVG of one seat's view and lets the
// player choose among the legal actions the server listed (their describe_action dicts).
//
// Actions whose `target` names an element of the SVG are chosen on the board: hovering or
// focusing the target previews the action (the target and its `cells` are highlighted),
// R/F or the mouse wheel cycle through the actions sharing that target (orientations), and a
// click, Enter or Space confirms. Actions without a target (or whose target is missing from
// the picture) are buttons. Arrow keys move the focus to the nearest target in that direction.

const SVG_NS = "http://www.w3.org/2000/svg";

/** Escape a string for use in an id selector. */
function sel(id) {
  return "#" + CSS.escape(id);
}

export class Board {
  /**
   * @param {HTMLElement} root  where the board is drawn (emptied)
   * @param {object} opts  {onChoose(action), onPreview(desc|null)}
   */
  constructor(root, opts = {}) {
    this.root = root;
    this.onChoose = opts.onChoose || (() => {});
    this.onPreview = opts.onPreview || (() => {});
    this.root.classList.add("board");
    this.stage = document.createElement("div");
    this.stage.className = "board-stage";
    this.buttons = document.createElement("div");
    this.buttons.className = "board-buttons";
    this.buttons.setAttribute("role", "group");
    this.buttons.setAttribute("aria-label", "Other actions");
    this.status = document.createElement("p");
    this.status.className = "board-preview";
    this.status.setAttribute("aria-live", "polite");
    this.root.replaceChildren(this.stage, this.status, this.buttons);
    this.svg = null;
    this.groups = new Map(); // target id -> {actions, index, el}
    this.active = null; // target id being previewed
    this.enabled = false;
    this.lastSvgText = null;
    this._onKey = this._onKey.bind(this);
    this.root.addEventListener("keydown", this._onKey);
  }

  /** Show a new picture with its legal actions (empty list: watch only). */
  show(svgText, actions = [], { enabled = true } = {}) {
    const activeBefore = this.active;
    const focusBefore = document.activeElement;
    const hadFocus = this.root.contains(focusBefore);
    if (svgText !== this.lastSvgText) {
      this._setSvg(svgText || "");
      this.lastSvgText = svgText;
    }
    this.enabled = enabled && actions.length > 0;
    this._bind(actions || []);
    if (hadFocus) {
      const again = activeBefore && this.groups.get(activeBefore);
      if (again) again.el.focus({ preventScroll: true });
      else this.focusFirst();
    }
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

  _setSvg(text) {
    const old = this.svg;
    const oldById = new Map();
    if (old) for (const el of old.querySelectorAll("[id]")) oldById.set(el.id, el.outerHTML);
    const holder = document.createElement("div");
    holder.innerHTML = text;
    const svg = holder.querySelector("svg");
    if (!svg) {
      this.stage.replaceChildren();
      this.svg = null;
      return;
    }
    svg.classList.add("board-svg");
    svg.setAttribute("role", "img");
    if (!svg.getAttribute("aria-label")) svg.setAttribute("aria-label", "Board");
    if (!svg.getAttribute("viewBox")) {
      const w = parseFloat(svg.getAttribute("width"));
      const h = parseFloat(svg.getAttribute("height"));
      if (w && h) svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
    }
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    // Animate what changed since the last picture: new or altered elements with ids.
    if (old) {
      for (const el of svg.querySelectorAll("[id]")) {
        const before = oldById.get(el.id);
        if (before === undefined || before !== el.outerHTML) {
          if (!el.querySelector("[id]")) el.classList.add("changed");
        }
      }
    }
    const overlay = document.createElementNS(SVG_NS, "g");
    overlay.setAttribute("class", "board-overlay");
    overlay.setAttribute("pointer-events", "none");
    svg.appendChild(overlay);
    this.overlay = overlay;
    this._pointerEvents(svg);
    this.stage.replaceChildren(svg);
    this.svg = svg;
    this.active = null;
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
      const el = a.target && this.svg ? this.svg.querySelector(sel(a.target)) : null;
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
      b.addEventListener("mouseenter", () => this._preview(null, a));
      b.addEventListener("focus", () => this._preview(null, a));
      b.addEventListener("mouseleave", () => this._clearPreview());
      b.addEventListener("click", () => this._choose(a));
      this.buttons.appendChild(b);
    }
    this.status.textContent = this.groups.size
      ? "Point at a highlighted place to preview; R/F or the wheel turn; click or Enter plays."
      : "";
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
      focus: () => this._activate(id),
      blur: () => {
        if (!this.hovering) this._clearPreview();
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
      if (!this.svg || !this.svg.contains(el)) continue;
      const t = el.closest("[data-target]");
      if (t && this.groups.has(t.dataset.target)) return t.dataset.target;
    }
    return null;
  }

  _pointerEvents(svg) {
    svg.addEventListener("pointermove", (ev) => {
      if (!this.enabled) return;
      this.hovering = true;
      const id = this._targetAt(ev);
      if (id && id !== this.active) this._activate(id);
      else if (!id && this.active && document.activeElement?.dataset?.target !== this.active) {
        this._clearPreview();
      }
    });
    svg.addEventListener("pointerleave", () => {
      this.hovering = false;
      if (document.activeElement?.dataset?.target !== this.active) this._clearPreview();
    });
    svg.addEventListener("click", (ev) => {
      const id = this._targetAt(ev);
      if (!id) return;
      ev.preventDefault();
      if (id !== this.active) this._activate(id);
      const g = this.groups.get(id);
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
        this.cycle(ev.deltaY > 0 ? 1 : -1);
      },
      { passive: false },
    );
  }

  _label(g) {
    const a = g.actions[g.index];
    const more = g.actions.length > 1 ? ` (${g.index + 1} of ${g.actions.length}; R/F to turn)` : "";
    g.el.setAttribute("aria-label", (a.label || a.text) + more);
  }

  _activate(id) {
    const g = this.groups.get(id);
    if (!g) return;
    if (this.active && this.active !== id) {
      this.groups.get(this.active)?.el.classList.remove("active");
    }
    this.active = id;
    g.el.classList.add("active");
    this._preview(g.el, g.actions[g.index], g);
  }

  /** Turn to the next (+1) or previous (-1) action sharing the active target. */
  cycle(step) {
    const g = this.active && this.groups.get(this.active);
    if (!g || g.actions.length < 2) return;
    g.index = (g.index + step + g.actions.length) % g.actions.length;
    this._label(g);
    this._preview(g.el, g.actions[g.index], g);
  }

  _preview(el, a, g = null) {
    this._clearOverlay();
    if (!a) return;
    const ids = new Set(a.cells || []);
    if (el && a.target) ids.add(a.target);
    for (const id of ids) {
      const cell = this.svg?.querySelector(sel(id));
      if (!cell) continue;
      cell.classList.add(id === a.target ? "preview-target" : "preview");
      this._outline(cell, id === a.target);
    }
    const more = g && g.actions.length > 1 ? ` — ${g.index + 1} of ${g.actions.length} (R/F)` : "";
    this.status.textContent = `${a.label || a.text} [${a.text}]${more}`;
    this.previewed = a;
    this.onPreview(a);
  }

  _outline(el, isTarget) {
    if (!this.overlay || !this.svg.getScreenCTM) return;
    const r = el.getBoundingClientRect();
    const m = this.svg.getScreenCTM();
    if (!m || !r.width) return;
    const inv = m.inverse();
    const p1 = new DOMPoint(r.left, r.top).matrixTransform(inv);
    const p2 = new DOMPoint(r.right, r.bottom).matrixTransform(inv);
    const rect = document.createElementNS(SVG_NS, "rect");
    rect.setAttribute("x", Math.min(p1.x, p2.x));
    rect.setAttribute("y", Math.min(p1.y, p2.y));
    rect.setAttribute("width", Math.abs(p2.x - p1.x));
    rect.setAttribute("height", Math.abs(p2.y - p1.y));
    rect.setAttribute("class", isTarget ? "hl-target" : "hl-cell");
    this.overlay.appendChild(rect);
  }

  _clearOverlay() {
    this.overlay?.replaceChildren();
    if (this.svg) {
      for (const el of this.svg.querySelectorAll(".preview, .preview-target")) {
        el.classList.remove("preview", "preview-target");
      }
    }
  }

  _clearPreview() {
    this._clearOverlay();
    if (this.active) this.groups.get(this.active)?.el.classList.remove("active");
    this.active = null;
    this.previewed = null;
    this.onPreview(null);
  }

  /** Preview the actions of a target from elsewhere (e.g. a 3D view); false if it has none. */
  activateTarget(id) {
    if (!this.enabled || !this.groups.has(id)) return false;
    this._activate(id);
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
      this.cycle(1);
    } else if ((key === "f" || key === "F") && this.active) {
      ev.preventDefault();
      this.cycle(-1);
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
