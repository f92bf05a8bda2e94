// "How to play": the one-page introduction that opens a game's rules page, its pictures drawn
// by the game's own renderer (GET /api/learn/GAME), with the way into the guided first game.

import { get } from "../api.js";
import { h } from "../dom.js";
import { markdown } from "../markdown.js";
import { t } from "../words.js";

const PICTURE = /^!\[([^\]]*)\]\(([^)\s]+)\)\s*$/;

/** The how-to-play page as elements: its text, and each picture as a figure with its caption. */
export function howtoBody(page) {
  const out = [];
  let text = [];
  const flush = () => {
    if (!text.length) return;
    const div = h("div");
    div.innerHTML = markdown(text.join("\n"));
    out.push(...div.childNodes);
    text = [];
  };
  for (const line of page.markdown.split("\n")) {
    const m = PICTURE.exec(line.trim());
    if (!m) {
      text.push(line);
      continue;
    }
    flush();
    out.push(
      h(
        "figure",
        { class: "howto-picture" },
        h("img", { src: m[2], alt: m[1], loading: "lazy" }),
        h("figcaption", {}, m[1]),
      ),
    );
  }
  flush();
  return out;
}

/** The "Learn to play" link of a game (the guided first game). */
export function learnLink(name, text = null) {
  return h("a", { class: "button learn", href: `/tutorial/${encodeURIComponent(name)}`, "data-link": true }, text || t("Learn to play"));
}

/** The "How to play" section of a game's rules page (null when the game has none). */
export async function howtoSection(name) {
  let page;
  try {
    page = await get(`/api/learn/${encodeURIComponent(name)}`);
  } catch (e) {
    return null;
  }
  return h(
    "section",
    { class: "howto card", id: "howto" },
    ...howtoBody(page),
    h("p", {}, learnLink(name, t("Learn to play {game}: a guided first game", { game: page.title }))),
    h("p", { class: "muted" }, t("The full rules follow below."), " ", h("a", { href: "#rules" }, t("Go to the full rules"))),
  );
}
