// scorekeeper dashboard: large type, for a TV read from across the room (#big-toggle, ?big=1).
//
// Large type fits one screen: the picture is made as wide as the screen's height allows and the
// score chart moves beside it; readableText() then raises any word of the picture still too
// small to read from three metres.

import {$, KEYS} from "./state.js";
import {schedule} from "./render.js";

/** Large type on or off (class `big` on <body> and <html>), without storing the choice. */
export function applyBig(on) {
  document.body.classList.toggle("big", on);
  document.documentElement.classList.toggle("big", on);
  const button = $("big-toggle");
  button.setAttribute("aria-pressed", on ? "true" : "false");
  button.title = on ? "Normal type" : "Large type, readable from across the room";
  // Large type fits one screen: the score chart moves under the players, beside the picture.
  const chart = $("score-chart");
  if (on) document.querySelector(".feed-box").before(chart);
  else $("history").before(chart);
  fitBoard();
}

/** The button's action: flip large type, remember it in this browser, redraw. */
export function toggleBig() {
  const on = !document.body.classList.contains("big");
  localStorage.setItem(KEYS.big, on ? "1" : "0");
  applyBig(on);
  schedule();
}

/** Large type: the picture as wide as the screen's height allows, the side column takes the
 * rest. Called after every picture and on every resize. */
export function fitBoard() {
  const layout = document.querySelector(".layout");
  const picture = $("board").querySelector("svg");
  if (!document.body.classList.contains("big") || !picture || window.innerWidth <= 900) {
    layout.style.removeProperty("--board-w");
    return;
  }
  const box = picture.viewBox.baseVal;
  if (!box || !box.height) return;
  const room = layout.clientHeight - 2;
  layout.style.setProperty("--board-w", `${Math.max(300, Math.floor(room * box.width / box.height))}px`);
  readableText(picture);
}

// Large type is read from three metres: on a 1080p TV no word or number of the picture may
// render below BIG_TEXT_PX CSS pixels (on a smaller screen, proportionally less: it is seen
// from closer). The game views draw large type with large letters already and mark what is
// detail for a close look with class "fine" (left out); this pass is the guarantee for the
// rest: it raises what the picture's scale would still make too small. It runs again whenever
// the picture is fitted (a new view, a resize).
const BIG_TEXT_PX = 22.5;

function readableText(picture) {
  const m = picture.getScreenCTM();
  if (!m || !m.a) return;
  const least = BIG_TEXT_PX * Math.min(1, window.innerWidth / 1920, window.innerHeight / 1080);
  for (const t of picture.querySelectorAll("text")) {
    if (t.closest(".fine")) continue;
    const tm = t.getScreenCTM();
    const scale = tm ? Math.hypot(tm.a, tm.b) : m.a;
    const size = parseFloat(t.getAttribute("font-size")) || parseFloat(getComputedStyle(t).fontSize);
    if (size * scale < least) {
      t.setAttribute("font-size", (least / scale).toFixed(1));
      t.dataset.raisedFrom = String(size);  // what the game drew, for whoever tunes a view
    }
  }
}
