// The parts of the live table page beside the board, the players and the moves.
//
// Each entry is `make(play) -> { card?, onFrame?(frame), close?() } | null`: `play` is the
// table's LivePlay (its `table`, `gameInfo`, `frame`, `sock`, `names(f)`, `colour(f, seat)`);
// `card` is an element placed in the side column, `onFrame` runs after each frame is drawn,
// `close` when the page is left; `ready`, a promise of what the card waits for before the page
// shows (its room then known). The side column shows them in this order, by what a player
// needs while playing: the hint and the game's own buttons (resign, ...) and the player aid
// first, then the moves' log (`MOVES`), then turn alerts and the chat (folded on a phone).

import { tableAid } from "./table_aid.js";
import { tableLegend } from "./table_legend.js";
import { tableLife } from "./table_life.js";
import { tableChat } from "./table_chat.js";
import { tableNotify } from "./table_notify.js";
import { tableHint } from "./table_hint.js";
import { tableClose } from "./moderation.js";
import { tableKozo } from "../kozo_pick.js";

/** Where the moves' log goes among the parts. */
export const MOVES = "moves";

export const TABLE_PARTS = [tableKozo, tableHint, tableLife, tableAid, MOVES, tableNotify, tableChat, tableClose, tableLegend];

/** The parts that make sense in the waiting room too (no frame yet: `play.frame` is null). */
export const WAITING_PARTS = [tableChat, tableAid, tableClose];
