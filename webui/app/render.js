// scorekeeper dashboard: drawing a view. schedule() coalesces the updates of one tick into one
// render(); render() finds the game's view (webui/games/<game-id>.js, through the registry of
// kit.js) and has each part of the page draw itself: the seat's corner (phone.js), the table
// (table.js), prompts, feed, chart, summary and history.

import {registry, seatColour, shortNames, seatName, el} from "../kit.js";
import {$, page, mine, GAME_ID} from "./state.js";
import {focusKey, restoreFocus} from "./focus.js";
import {generic} from "./generic.js";
import {drawTables} from "./tables.js";
import {drawMine} from "./phone.js";
import {closePairing} from "./pairing.js";
import {drawWaiting, drawBoard, drawSeats} from "./table.js";
import {drawPrompts} from "./prompts.js";
import {drawFeed} from "./feed.js";
import {drawChart} from "./chart.js";
import {drawSummary, drawHistory} from "./summary.js";

/** Draw the newest view soon (once, however many messages arrive in the meantime). */
export function schedule() {
  if (page.scheduled) return;
  page.scheduled = true;
  setTimeout(() => { page.scheduled = false; render(); }, 0);
}

// The game's view module, imported on first use by the view's game id (only an id that looks
// like one goes into the path); a game without a module, or whose module fails to load, is
// drawn by the generic view.
async function gameModule(game) {
  if (registry[game]) return registry[game];
  if (GAME_ID.test(game || "")) {
    try { await import(`../games/${game}.js`); } catch (e) { /* no view for it yet */ }
  }
  if (!registry[game]) registry[game] = generic;
  return registry[game];
}

/** Draw page.view (and the page's own notice). Hazard: it awaits the game's module, so a newer
 * view may have arrived meanwhile: then it draws nothing and leaves that to the next render. */
export async function render() {
  const view = page.view;
  drawNotice();
  if (!view) return;
  const game = await gameModule(view.game);
  if (page.view !== view) return;  // a newer view arrived while the module loaded
  const seat = mine(view.id);
  const mySeat = seat && view.audience === `seat ${seat.seat}` ? seat.seat : null;
  const ctx = {
    seat: mySeat,
    big: document.body.classList.contains("big"),
    narrow: window.innerWidth < 760,
    short: shortNames(view.seats || []),
    names: view.seats || [],
    colour: seatColour,
  };
  page.narrow = ctx.narrow;
  document.title = `${view.name || view.id} · scorekeeper`;
  document.body.classList.toggle("has-seat", mySeat !== null);
  document.body.classList.toggle("over", !!view.over);
  $("table-name").textContent = view.name || view.id;
  $("game-name").textContent = view.game_name || view.game;
  const status = $("status");
  status.textContent = view.over ? "game over" : view.status;
  status.className = "badge " + (view.over ? "ended" : view.status);
  $("who").textContent = mySeat !== null ? `${seatName(view, mySeat)}'s phone` : "table view";

  const quiet = new Set(game.quietPrompts || []);
  const prompts = view.pending || [];
  const open = new Set(prompts.map((p) => `${p.id}|${p.seat}`));
  for (const key of [...page.answers.keys()]) if (!open.has(key)) page.answers.delete(key);
  const own = mySeat === null ? [] : prompts.filter((p) => p.seat === mySeat);
  const table = prompts.filter((p) => !own.includes(p) && !(quiet.has(p.id) && p.seat !== null));

  const focus = focusKey();
  drawMine(view, game, ctx, own);
  drawWaiting(view, game, ctx);
  drawSummary(view, game, ctx);
  drawBoard(view, game, ctx);
  drawSeats(view, game, ctx);
  drawPrompts($("prompts"), view, game, ctx, table, "Waiting for answers");
  drawFeed(view, game, ctx);
  drawChart(view, game, ctx);
  drawHistory(view, game, ctx);
  restoreFocus(focus);
  const row = page.tables.find((t) => t.id === view.id);
  if (row && (row.status !== view.status || String(row.scores) !== String(view.scores) ||
              row.over !== view.over)) {
    Object.assign(row, {status: view.status, scores: view.scores, over: view.over});
    drawTables();
  }
}

/** Take the table drawn off the page when table `id` is chosen, before its first view comes:
 * nothing of the table left may stay meanwhile, least of all a button bound to it (its "Pair
 * a phone" would show a code for the table left, under the table just chosen). */
export function clearTable(id) {
  const row = page.tables.find((t) => t.id === id);
  $("table-name").textContent = (row && row.name) || id;
  $("game-name").textContent = row ? row.game_name || row.game || "" : "";
  $("status").textContent = "";
  $("status").className = "badge";
  $("who").textContent = "";
  document.body.classList.remove("has-seat", "over");
  for (const part of ["mine", "phase", "waiting", "notices", "put-back", "board", "seats",
                      "prompts", "feed", "score-chart", "history"]) {
    $(part).replaceChildren();
  }
  for (const part of ["mine", "put-back", "prompts", "score-chart", "history"]) {
    $(part).hidden = true;
  }
  $("put-back").dataset.key = "";  // drawn again when the new table has words to put back
  $("feed-empty").hidden = false;
  const summary = $("summary");
  if (summary) summary.remove();
  closePairing();  // a code shown for the table left
}

/** The page's own message (pairing withdrawn, no such table), with a dismiss button. */
export function drawNotice() {
  const box = $("page-notice");
  box.hidden = !page.notice;
  box.replaceChildren(page.notice ? el("span", {}, page.notice) : "",
    page.notice ? el("button", {type: "button", class: "link",
                                onclick: () => { page.notice = null; drawNotice(); }}, "dismiss")
                : "");
}
