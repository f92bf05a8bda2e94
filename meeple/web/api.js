// Talking to the meeple server: the REST routes and the live table WebSocket of docs/api.md.

import { t } from "./words.js";

/** A refusal from the server, with its reason in words. */
export class ApiError extends Error {
  constructor(status, detail) {
    super(detail);
    this.status = status;
  }
}

function detailText(body, status) {
  const d = body && body.detail;
  if (typeof d === "string") return d;
  if (Array.isArray(d)) return d.map((x) => x.msg || JSON.stringify(x)).join("; ");
  return t("the request failed ({status})", { status: String(status) });
}

/** Call a REST route; resolves to the JSON answer or throws ApiError with the server's reason. */
export async function api(method, path, body) {
  const init = { method, credentials: "same-origin", headers: {} };
  const invited = /^\/api\/tables\/([^/?]+)/.exec(path);
  const code = invited && inviteCode(decodeURIComponent(invited[1]));
  if (code) init.headers["X-Invite-Code"] = code; // a private table opens with its invite
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (method === "POST" && path === "/api/tables" && body && !body.request_id) {
    init.headers["Idempotency-Key"] = createKey(init.body); // a double click makes one table
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (e) {
    throw new ApiError(0, t("the server cannot be reached"));
  }
  let data = null;
  try {
    data = await res.json();
  } catch (e) {
    data = null;
  }
  if (!res.ok) throw new ApiError(res.status, detailText(data, res.status));
  return data;
}

const CREATE = "meeple.create";
let lastCreate = null; // the same, where the browser keeps no storage

/** The request key of a new table: the same settings sent again within a few seconds (a
 * double click, a second tap, the form sent again after a reload or from another tab) carry
 * the same key, so the server answers the first table. The last key is kept in this
 * browser's storage, which every tab of the site shares. */
function createKey(text) {
  const now = Date.now();
  let last = null;
  try {
    last = JSON.parse(localStorage.getItem(CREATE) || "null") || lastCreate;
  } catch (e) {
    last = lastCreate;
  }
  if (!last || last.text !== text || !(now - last.at < 10000)) last = { text, key: requestKey() };
  last.at = now;
  lastCreate = last;
  try {
    localStorage.setItem(CREATE, JSON.stringify(last));
  } catch (e) {
    // storage refused (private mode): this tab still sends one key per double click
  }
  return last.key;
}

export const get = (path) => api("GET", path);
export const post = (path, body = {}) => api("POST", path, body);

/** The invite code this browser was given for a table (by its invite link), if any. */
export function inviteCode(tableId) {
  try {
    return sessionStorage.getItem("meeple.invite." + tableId) || null;
  } catch (e) {
    return null;
  }
}

// ---- seat tokens, kept per table in this browser ----

const TOKENS = "meeple.tokens.";

/** {seat: token} this browser holds for a table. */
export function tokensFor(tableId) {
  try {
    return JSON.parse(localStorage.getItem(TOKENS + tableId) || "{}");
  } catch (e) {
    return {};
  }
}

/** Remember seat tokens ([{seat, token}]) answered by create/join/rematch. */
export function keepTokens(tableId, tokens) {
  const have = tokensFor(tableId);
  for (const t of tokens || []) have[t.seat] = t.token;
  localStorage.setItem(TOKENS + tableId, JSON.stringify(have));
}

export function dropToken(tableId, seat) {
  const have = tokensFor(tableId);
  delete have[seat];
  localStorage.setItem(TOKENS + tableId, JSON.stringify(have));
}

// ---- the live table ----

/**
 * A live connection to a table: calls onFrame(frame) for every frame and onError(frame) for
 * refusals; reconnects after a drop until closed.
 */
export class TableSocket {
  constructor(tableId, { onFrame, onError, onState, onSeats } = {}) {
    this.tableId = tableId;
    this.onFrame = onFrame || (() => {});
    this.onError = onError || (() => {});
    this.onSeats = onSeats || (() => {});
    this.onState = onState || (() => {});
    this.closed = false;
    this.retry = 500;
    this.queue = [];
    this._open();
  }

  _url() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    return `${proto}//${location.host}/ws/tables/${encodeURIComponent(this.tableId)}`;
  }

  _open() {
    const ws = new WebSocket(this._url());
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      // Seat tokens never go in the address (addresses are logged): the first message says them.
      const hello = { type: "hello", tokens: Object.values(tokensFor(this.tableId)) };
      const code = inviteCode(this.tableId);
      if (code) hello.code = code;
      ws.send(JSON.stringify(hello));
      this.onState("open");
      for (const m of this.queue.splice(0)) ws.send(JSON.stringify(m));
      this._ping = setInterval(() => this.send({ type: "ping" }), 25000);
    };
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (m.type === "frame") this.onFrame(m);
      else if (m.type === "error") this.onError(m);
      else if (m.type === "seats") this.onSeats(m); // the next frame shows the new seats
    };
    ws.onclose = (ev) => {
      clearInterval(this._ping);
      if (this.closed) return;
      if (ev.code === 4404 || ev.code === 4403) {
        this.onState("gone");
        return;
      }
      this.onState("reconnecting");
      setTimeout(() => !this.closed && this._open(), this.retry);
      this.retry = Math.min(this.retry * 2, 8000);
    };
  }

  send(msg) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(msg));
    else this.queue.push(msg);
  }

  act(seat, action, moveNumber) {
    this.send({ type: "act", seat, action, move_number: moveNumber });
  }

  view(seat) {
    this.send({ type: "view", seat });
  }

  close() {
    this.closed = true;
    clearInterval(this._ping);
    this.ws?.close();
  }
}

/**
 * The signed-in person's live turn count (`/ws/me`): calls onCount(n) at once and whenever it
 * changes; reconnects after a drop until closed (or until the server says nobody is signed in).
 */
export class TurnSocket {
  constructor(onCount) {
    this.onCount = onCount;
    this.closed = false;
    this.retry = 500;
    this._open();
  }

  _open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}/ws/me`);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 500;
      this._ping = setInterval(() => ws.readyState === WebSocket.OPEN && ws.send('{"type":"ping"}'), 25000);
    };
    ws.onmessage = (ev) => {
      let m;
      try {
        m = JSON.parse(ev.data);
      } catch (e) {
        return;
      }
      if (m.type === "turns" && Number.isInteger(m.count)) this.onCount(m.count);
    };
    ws.onclose = (ev) => {
      clearInterval(this._ping);
      if (this.closed || ev.code === 4401 || ev.code === 4403) return;
      setTimeout(() => !this.closed && this._open(), this.retry);
      this.retry = Math.min(this.retry * 2, 15000);
    };
  }

  close() {
    this.closed = true;
    clearInterval(this._ping);
    this.ws?.close();
  }
}

/** A fresh key for one request, so that sending it twice (a double click) makes one table. */
export function requestKey() {
  if (globalThis.crypto?.randomUUID) return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
}
