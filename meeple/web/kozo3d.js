// Kozo in 3D (three.js): the tower on its 3 × 3 base with the open chimney, seen from any
// side (drag to orbit, wheel or pinch to zoom), the previewed polycube or balance cube as a
// ghost where it would rest, and the fall played back from the MuJoCo motion.
//
// Coordinates are the rules' own: x east, y north, z up, in cube edges; cell (x, y, z) is the
// unit box [x, x+1] × [y, y+1] × [z, z+1]. The camera's up is +z.
//
// The pieces are wood stained in each piece's own colour with its letter on their faces, the
// base a wooden board whose squares show their names around the dark open chimney, and
// the last move (the last check's piece or balance cube) is outlined in the highlight colour,
// as on the plan (kozo/render.py, kozo/art.py): all drawn in code, no image files.
//
// Data read from the observation (rules.md 2.5, meeple/games/kozo):
//   tower: {pieces: [{piece, letter, colour, cells: [[x,y,z]...], tremor: [ox, oy]}],
//           balances: [{column: [x, y], height: h}]}
//   last_check: {result: "stable"|"fallen", fell: [...], scene: {...}}
// A previewed action (describe_action) carries `cubes` (resting cells) for a polycube, or
// `column` and `height` for a balance cube. A motion is {dt, bodies: [{kind, cells?,
// frames: [[x, y, z, qw, qx, qy, qz], ...]}]} with body origins in cube edges.

import * as THREE from "three";
import { OrbitControls } from "three/addons/controls/OrbitControls.js";
import { mix, pieceTint, WOOD } from "./kozo_pick.js";
import { t, tn } from "./words.js";

const BALANCE = 0.57;
const SLOW_MOTION = 0.25; // playback speed of a fall
const RING = [
  [0, 0], [1, 0], [2, 0], [0, 1], [2, 1], [0, 2], [1, 2], [2, 2],
];
// Each polycube is stained in its own colour, as on the plan drawn by the server
// (kozo_pick.js `pieceTint`); balance cubes are black.
const BALANCE_FILL = 0x2a2622;
const HOLE = 0x1a1510;
const HIGHLIGHT = 0xf2b705; // the last move, as on the plan (engine/look.py)
const LETTERS = "ABCDEFGHIJKL";

function inkOn(colour) {
  const r = (colour >> 16) & 255;
  const g = (colour >> 8) & 255;
  const b = colour & 255;
  return 0.299 * r + 0.587 * g + 0.114 * b > 135 ? "#1d1409" : "#ffffff";
}

/** A square of wood of colour `fill` with grain drawn in code, and `label` written in the
 *  middle in `ink` where given. */
function grainCanvas(seed, label = "", ink = "#1d1409", small = false, fill = "#f6ecdc") {
  const c = document.createElement("canvas");
  c.width = c.height = 128;
  const g = c.getContext("2d");
  g.fillStyle = fill;
  g.fillRect(0, 0, 128, 128);
  let r = seed * 9301 + 49297;
  const rnd = () => ((r = (r * 9301 + 49297) % 233280) / 233280);
  for (let i = 0; i < 14; i++) {
    const y0 = i * 9.5 + rnd() * 5;
    const amp = 1.5 + rnd() * 3;
    const k = 0.03 + rnd() * 0.04;
    g.strokeStyle = `rgba(110, 70, 30, ${0.12 + rnd() * 0.22})`;
    g.lineWidth = 0.8 + rnd() * 1.6;
    g.beginPath();
    for (let x = 0; x <= 128; x += 4) {
      const y = y0 + Math.sin(x * k + i) * amp;
      if (x === 0) g.moveTo(x, y);
      else g.lineTo(x, y);
    }
    g.stroke();
  }
  if (label) {
    g.fillStyle = ink;
    let size = small ? 34 : 68;
    g.font = `bold ${size}px system-ui, 'DejaVu Sans', sans-serif`;
    const wide = g.measureText(label).width;
    if (wide > 120) {
      size = Math.floor((size * 120) / wide);
      g.font = `bold ${size}px system-ui, 'DejaVu Sans', sans-serif`;
    }
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.globalAlpha = small ? 0.7 : 0.92;
    g.fillText(label, 64, small ? 100 : 68);
    g.globalAlpha = 1;
  }
  return c;
}

const textures = new Map();
function grainTexture(key, seed, label, ink, small, fill) {
  if (!textures.has(key)) {
    const t = new THREE.CanvasTexture(grainCanvas(seed, label, ink, small, fill));
    t.colorSpace = THREE.SRGBColorSpace;
    t.anisotropy = 4;
    textures.set(key, t);
  }
  return textures.get(key);
}

function woodMaterial(colour, ghost = false, map = null) {
  return new THREE.MeshStandardMaterial({
    color: colour,
    map,
    roughness: 0.72,
    metalness: 0.0,
    transparent: ghost,
    opacity: ghost ? 0.45 : 1,
    depthWrite: !ghost,
  });
}

const pieceMaterials = new Map();
const hex = (c) => `#${c.toString(16).padStart(6, "0")}`;

/** A piece's wood (its tint drawn into the texture, so that white letters stay white on dark
 *  wood), its letter on every face but the bottom (box faces: +x -x +y -y +z -z). */
function pieceMaterial(colour, ghost = false) {
  const key = `${colour}:${ghost}`;
  if (!pieceMaterials.has(key)) {
    const tint = pieceTint(colour);
    const letter = LETTERS[colour % LETTERS.length];
    const ink = inkOn(tint);
    const map = grainTexture(`p${colour}`, colour + 1, letter, ink, false, hex(tint));
    const face = woodMaterial(0xffffff, ghost, map);
    // the east and west faces' texture runs along y: turned upright, the letter stands
    const turned = map.clone();
    turned.center.set(0.5, 0.5);
    turned.rotation = Math.PI / 2;
    const side = woodMaterial(0xffffff, ghost, turned);
    const bottom = woodMaterial(0xffffff, ghost, grainTexture(`g${colour}`, colour + 1, "", ink, false, hex(tint)));
    pieceMaterials.set(key, [side, side, face, face, face, bottom]);
  }
  return pieceMaterials.get(key);
}

/** The tower to draw: the current one, or the one that fell while the base is empty (as the
 * plan, kozo/render.py `_shown_tower`). */
export function shownTower(obs) {
  const tower = obs.tower || { pieces: [], balances: [] };
  const lc = obs.last_check;
  if (!(tower.pieces || []).length && lc && lc.result === "fallen" && lc.scene) return lc.scene;
  return tower;
}

/** What the last move put in the tower drawn: "piece", "balance" or null (as the plan). */
function lastMove(obs) {
  const lc = obs.last_check;
  if (!lc || !(shownTower(obs).pieces || []).length) return null;
  return lc.after === "balance" ? "balance" : "piece";
}

function andList(words) {
  if (words.length < 2) return words.join("");
  return t("{first} and {last}", { first: words.slice(0, -1).join(", "), last: words[words.length - 1] });
}

/** Who toppled the tower, with what, and what fell, in words (as the plan says it). */
export function fallSentence(lc, names = []) {
  const who = names[lc.player] || t("Player {n}", { n: lc.player + 1 });
  const balance = lc.after === "balance";
  const byCode = new Map(((lc.scene || {}).pieces || []).map((p) => [`P${p.piece}`, p]));
  const words = [];
  let cubes = 0;
  for (const code of lc.fell || []) {
    const p = byCode.get(code);
    if (p) words.push(t("the {piece} ({letter})", { piece: p.name, letter: p.letter }));
    else cubes += 1;
  }
  if (cubes) words.push(tn("a balance cube", "{n} balance cubes", cubes));
  if (!words.length) {
    return balance
      ? t("{name} toppled the tower with a balance cube.", { name: who })
      : t("{name} toppled the tower with a polycube.", { name: who });
  }
  const fell = andList(words);
  return balance
    ? t("{name} toppled the tower with a balance cube: {fell} fell.", { name: who, fell })
    : t("{name} toppled the tower with a polycube: {fell} fell.", { name: who, fell });
}

/** The centre of a polycube's cells (the physics body's origin without tremor). */
function centroid(cells) {
  let x = 0;
  let y = 0;
  let z = 0;
  for (const c of cells) {
    x += c[0] + 0.5;
    y += c[1] + 0.5;
    z += c[2] + 0.5;
  }
  const n = cells.length || 1;
  return new THREE.Vector3(x / n, y / n, z / n);
}

export class KozoView {
  constructor(container) {
    this.container = container;
    container.kozoView = this; // for tools and tests driving the view
    container.classList.add("kozo3d");
    container.setAttribute("role", "img");
    container.setAttribute("aria-label", t("The tower in 3D"));
    const canvas = document.createElement("canvas");
    const hint = document.createElement("div");
    hint.className = "hint";
    const finger = (navigator.maxTouchPoints || 0) > 0 || matchMedia("(pointer: coarse)").matches;
    hint.textContent = finger
      ? t("Drag to turn the tower · pinch to zoom · tap a column to see a move there")
      : t("Drag to turn the tower · wheel to zoom");
    this.controlsBar = document.createElement("div");
    this.controlsBar.className = "kozo3d-bar";
    this.caption = document.createElement("p");
    this.caption.className = "kozo3d-caption";
    this.caption.id = "kozo3d-caption";
    this.caption.setAttribute("aria-live", "polite");
    this.caption.hidden = true;
    // The caption and the buttons share one strip along the top: neither covers the other.
    const top = document.createElement("div");
    top.className = "kozo3d-top";
    top.append(this.caption, this.controlsBar);
    container.replaceChildren(canvas, hint, top);
    this.renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(window.devicePixelRatio || 1, 2));
    this.scene = new THREE.Scene();
    this.scene.background = new THREE.Color(0xdfe6ee);
    this.camera = new THREE.PerspectiveCamera(40, 4 / 3, 0.1, 200);
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(9, -8, 9);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.target.set(1.5, 1.5, 2);
    this.controls.enableDamping = false; // draw only when something changes
    this.controls.minDistance = 4;
    this.controls.maxDistance = 40;
    this.controls.maxPolarAngle = Math.PI * 0.55;
    this.controls.update();

    this.scene.add(new THREE.HemisphereLight(0xffffff, 0x8a7a66, 1.6));
    const sun = new THREE.DirectionalLight(0xffffff, 1.8);
    sun.position.set(6, -4, 12);
    this.scene.add(sun);

    this.unit = new THREE.BoxGeometry(0.98, 0.98, 0.98);
    this.edges = new THREE.EdgesGeometry(this.unit);
    this.balanceGeom = new THREE.BoxGeometry(BALANCE, BALANCE, BALANCE);
    this.edgeMat = new THREE.LineBasicMaterial({ color: 0x3a2c1c, transparent: true, opacity: 0.35 });
    this.seamMat = new THREE.LineBasicMaterial({ color: 0x6b4a26, transparent: true, opacity: 0.8 });
    this.lastMat = new THREE.LineBasicMaterial({ color: HIGHLIGHT });
    this._base();
    this.tower = new THREE.Group();
    this.ghost = new THREE.Group();
    this.scene.add(this.tower, this.ghost);
    this.signature = null;
    this.motion = null;

    this._resize = () => this.resize();
    this.ro = new ResizeObserver(this._resize);
    this.ro.observe(container);
    this.resize();
    this.running = true;
    this.controls.addEventListener("change", () => this.requestRender());
    this._picking(canvas);
    this.requestRender();
  }

  /**
   * Pointing in 3D: a click (not a drag) on a column of the base or the tower previews that
   * column's actions on the board; a second click on the same column plays the one shown.
   * With the canvas focused, R/F turn and Enter plays, as on the plan.
   */
  _picking(canvas) {
    canvas.tabIndex = 0;
    canvas.setAttribute("aria-label", t("Tower: choose a column to see a move there, again to play it; R and F turn it"));
    const ray = new THREE.Raycaster();
    let down = null;
    canvas.addEventListener("pointerdown", (ev) => (down = [ev.clientX, ev.clientY]));
    canvas.addEventListener("pointerup", (ev) => {
      if (!down || Math.hypot(ev.clientX - down[0], ev.clientY - down[1]) > 5 || !this.board) return;
      const r = canvas.getBoundingClientRect();
      const p = new THREE.Vector2(((ev.clientX - r.left) / r.width) * 2 - 1, -((ev.clientY - r.top) / r.height) * 2 + 1);
      ray.setFromCamera(p, this.camera);
      const hit = ray.intersectObjects([...this.pickables, this.tower], true).find((x) => x.face);
      if (!hit) return;
      const at = hit.point.clone().addScaledVector(hit.face.normal.clone().transformDirection(hit.object.matrixWorld), -0.01);
      const id = `col-${Math.floor(at.x)}-${Math.floor(at.y)}`;
      const again = this.board.activeTarget === id || (this.tapped && this.tapped[0] === id && this.board.activeTarget === this.tapped[1]);
      if (again) {
        this.board.chooseActive();
        return;
      }
      // A column the piece would cover, where no move has it as its own place: the move there.
      let target = id;
      if (!this.board.activateTarget(id)) {
        const a = this.board.actions.find((x) => (x.cells || []).includes(id));
        if (!a || !this.board.activateTarget(a.target)) return;
        target = a.target;
      }
      this.tapped = [id, target];
    });
    canvas.addEventListener("keydown", (ev) => {
      if (!this.board) return;
      if (ev.key === "r" || ev.key === "R") this.board.turn();
      else if (ev.key === "f" || ev.key === "F") this.board.flip();
      else if (ev.key === "Enter") this.board.chooseActive();
      else return;
      ev.preventDefault();
    });
  }

  /** Draw once at the next animation frame (and keep drawing while a motion plays). */
  requestRender() {
    if (this.raf || !this.running) return;
    this.raf = requestAnimationFrame((t) => {
      this.raf = 0;
      if (!this.running) return;
      if (this.motion) {
        this._stepMotion(t);
        this.requestRender();
      }
      this.renderer.render(this.scene, this.camera);
      this.container.dataset.drawn = String(+(this.container.dataset.drawn || 0) + 1);
    });
  }

  _base() {
    const floor = new THREE.Mesh(
      new THREE.CircleGeometry(9, 48),
      new THREE.MeshStandardMaterial({ color: 0xc9c2b4, roughness: 1 }),
    );
    floor.position.set(1.5, 1.5, -0.5);
    this.scene.add(floor);
    const slab = new THREE.BoxGeometry(1, 1, 0.5);
    const side = woodMaterial(mix(WOOD, 0x000000, 0.25), false, grainTexture("side", 20));
    this.pickables = [];
    for (const [x, y] of RING) {
      // each column's square of the board shows its name (from the observation), as on the plan
      const top = woodMaterial(WOOD, false, grainTexture(`c${x}${y}`, 30 + x * 3 + y));
      const m = new THREE.Mesh(slab, [side, side, side, side, top, side]);
      m.name = `column-${x}-${y}`;
      this.pickables.push(m);
      m.position.set(x + 0.5, y + 0.5, -0.25);
      this.scene.add(m);
      const e = new THREE.LineSegments(new THREE.EdgesGeometry(slab), this.seamMat);
      e.position.copy(m.position);
      this.scene.add(e);
    }
    // The chimney: the open middle of the ring, a dark shaft down to the table.
    const hole = new THREE.Mesh(
      new THREE.PlaneGeometry(1, 1),
      new THREE.MeshStandardMaterial({ color: HOLE, roughness: 1 }),
    );
    hole.name = "chimney";
    hole.position.set(1.5, 1.5, -0.49);
    this.scene.add(hole);
    this.chimney = hole;
    // North arrow, so the 3D view and the plan agree on directions.
    const arrow = new THREE.ArrowHelper(new THREE.Vector3(0, 1, 0), new THREE.Vector3(1.5, 3.3, -0.45), 0.9, 0x555555, 0.3, 0.2);
    this.scene.add(arrow);
  }

  /** Write each column's name on its square of the base, as the plan and the log say it. */
  _nameColumns(columns) {
    for (const c of columns) {
      const m = this.pickables.find((p) => p.name === `column-${c.column[0]}-${c.column[1]}`);
      if (!m || !c.name || m.userData.label === c.name) continue;
      const [x, y] = c.column;
      m.material[4] = woodMaterial(WOOD, false, grainTexture(`c${x}${y}:${c.name}`, 30 + x * 3 + y, c.name, "#5a3d1e", true));
      m.userData.label = c.name;
      this.requestRender();
    }
  }

  resize() {
    const w = this.container.clientWidth || 400;
    const h = this.container.clientHeight || 300;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  /** A polycube as a group whose origin is its centroid (as in the physics). */
  _piece(cells, colour, ghost = false, last = false) {
    const g = new THREE.Group();
    const c = centroid(cells);
    const mat = pieceMaterial(colour, ghost);
    for (const [x, y, z] of cells) {
      const m = new THREE.Mesh(this.unit, mat);
      m.position.set(x + 0.5 - c.x, y + 0.5 - c.y, z + 0.5 - c.z);
      g.add(m);
      const e = new THREE.LineSegments(this.edges, last ? this.lastMat : this.edgeMat);
      e.position.copy(m.position);
      g.add(e);
    }
    g.position.copy(c);
    return g;
  }

  _balance(x, y, h, ghost = false, last = false) {
    const m = new THREE.Mesh(this.balanceGeom, woodMaterial(BALANCE_FILL, ghost, grainTexture("b", 40)));
    m.position.set(x + 0.5, y + 0.5, h + BALANCE / 2);
    if (last) m.add(new THREE.LineSegments(new THREE.EdgesGeometry(this.balanceGeom), this.lastMat));
    return m;
  }

  /** Show the tower of an observation (after a fall, the tower that fell while the base is
   * empty, and who toppled it); `board` (optional) feeds previews of its actions; `names`:
   * the players' names by seat. */
  update(obs, board, names = []) {
    if (!obs) return;
    const tower = shownTower(obs);
    const last = lastMove(obs);
    const lc = obs.last_check;
    const fell = lc && lc.result === "fallen";
    this.caption.hidden = !fell;
    this.caption.textContent = fell ? fallSentence(lc, names) : "";
    this.container.dataset.fallen = fell && tower !== obs.tower ? "shown" : "";
    const sig = JSON.stringify([tower, last]);
    if (sig !== this.signature) {
      this.signature = sig;
      this.motion = null;
      this._drawTower(tower, last);
    }
    this.lastCheck = obs.last_check || null;
    this._nameColumns(obs.columns || []);
    this._drawBar(obs);
    if (board && board !== this.board) {
      this.board = board;
      const prev = board.onPreview;
      board.onPreview = (a) => {
        prev(a);
        this.preview(a);
      };
    }
  }

  _drawTower(tower, last = null) {
    this.tower.clear();
    this.bodies = [];
    const pieces = tower.pieces || [];
    const balances = tower.balances || [];
    pieces.forEach((p, i) => {
      const isLast = last === "piece" && i === pieces.length - 1;
      const g = this._piece(p.cells, p.colour ?? p.piece - 1, false, isLast);
      const t = p.tremor || p.offset_tremor || [0, 0];
      g.position.x += t[0] || 0;
      g.position.y += t[1] || 0;
      g.userData = { start: g.position.clone(), piece: p.piece };
      this.tower.add(g);
      this.bodies.push(g);
    });
    balances.forEach((b, i) => {
      const isLast = last === "balance" && i === balances.length - 1;
      const m = this._balance(b.column[0], b.column[1], b.height, false, isLast);
      m.userData = { start: m.position.clone() };
      this.tower.add(m);
      this.bodies.push(m);
    });
    const lastBody = last === "piece" && pieces.length ? `piece ${pieces[pieces.length - 1].letter}`
      : last === "balance" && balances.length ? "balance cube" : "";
    this.container.dataset.last = lastBody;
    this.container.dataset.bodies = String(this.bodies.length);
    let top = 0;
    for (const p of tower.pieces || []) for (const c of p.cells) top = Math.max(top, c[2] + 1);
    this.controls.target.set(1.5, 1.5, Math.max(1, top / 2));
    // Step back when the tower has grown past what the camera shows (never closer).
    const want = Math.max(12, top * 1.3 + 6);
    const away = this.camera.position.clone().sub(this.controls.target);
    if (away.length() < want) this.camera.position.copy(this.controls.target).addScaledVector(away.normalize(), want);
    this.controls.update();
    this.requestRender();
  }

  /** Show where a previewed action would put its cube(s); null clears the ghost. */
  preview(a) {
    this.ghost.clear();
    if (!a) return;
    if (a.kind === "place" && a.cubes) {
      this.ghost.add(this._piece(a.cubes, a.colour ?? (a.piece || 1) - 1, true));
    } else if (a.kind === "balance" && a.column) {
      this.ghost.add(this._balance(a.column[0], a.column[1], a.height ?? 0, true));
    }
    this.container.dataset.ghost = String(this.ghost.children.length);
    this.requestRender();
  }

  _drawBar(obs) {
    const lc = obs.last_check;
    this.controlsBar.replaceChildren();
    if (!lc || lc.result !== "fallen") return;
    const b = document.createElement("button");
    b.type = "button";
    b.id = "play-fall";
    b.textContent = t("Play the fall (slow motion)");
    b.addEventListener("click", () => this.playFall(obs));
    this.controlsBar.appendChild(b);
  }

  /** Fetch the motion of the last check (see docs/api.md) and play it. */
  async playFall(obs) {
    const m = /\/(table|replay)\/([^/?]+)/.exec(location.pathname);
    if (!m) return;
    const move = obs.move_number;
    try {
      const res = await fetch(`/api/tables/${m[2]}/motion?move=${move}`);
      if (!res.ok) throw new Error("no motion");
      this.playMotion(await res.json(), obs.last_check.scene);
    } catch (e) {
      this.controlsBar.append(" ", t("The recorded motion is not available."));
    }
  }

  /** Play a MuJoCo motion of `scene` (the checked tower): bodies follow their frames. */
  playMotion(motion, scene) {
    if (scene) {
      this.signature = null;
      this._drawTower({
        pieces: (scene.pieces || []).map((p) => ({ ...p, tremor: [0, 0] })),
        balances: scene.balances || [],
      });
    }
    this.motion = { data: motion, t0: null };
    this.container.dataset.playing = "true";
    this.requestRender();
  }

  _stepMotion(t) {
    const m = this.motion;
    if (m.t0 === null) m.t0 = t;
    const dt = m.data.dt || 0.05;
    const n = Math.max(...m.data.bodies.map((b) => b.frames.length));
    // A real fall of 2.5 cm cubes lasts a fraction of a second: show it in slow motion.
    const u = ((t - m.t0) / 1000) * SLOW_MOTION / dt;
    const k = Math.min(n - 1, Math.floor(u));
    const w = k >= n - 1 ? 0 : u - k;
    const qa = new THREE.Quaternion();
    const qb = new THREE.Quaternion();
    m.data.bodies.forEach((b, i) => {
      const obj = this.bodies[i];
      if (!obj || !b.frames.length) return;
      const fa = b.frames[Math.min(k, b.frames.length - 1)];
      const fb = b.frames[Math.min(k + 1, b.frames.length - 1)];
      obj.position.set(
        fa[0] + (fb[0] - fa[0]) * w,
        fa[1] + (fb[1] - fa[1]) * w,
        fa[2] + (fb[2] - fa[2]) * w,
      );
      qa.set(fa[4], fa[5], fa[6], fa[3]);
      qb.set(fb[4], fb[5], fb[6], fb[3]);
      obj.quaternion.slerpQuaternions(qa, qb, w);
    });
    if (k >= n - 1) {
      this.motion = null; // stay at the final poses
      this.container.dataset.playing = "false";
    }
  }

  dispose() {
    this.running = false;
    cancelAnimationFrame(this.raf);
    this.ro.disconnect();
    this.controls.dispose();
    this.renderer.dispose();
  }
}
