// scorekeeper dashboard: the start of the page (webui/index.html imports start() through
// webui/app.js). It reads the URL, wires the header's controls and the window's events, and
// polls the list of tables; the other modules of webui/app/ draw the rest:
//
//   state.js    the page's shared state, this browser's seat and organiser tokens
//   socket.js   the live connection to the table shown
//   tables.js   the strip of tables
//   render.js   drawing a view: finds the game's view (webui/games/<game-id>.js) and the parts
//   table.js    the table as everyone sees it: waiting line, picture, players
//   phone.js    a paired phone: pairing, the seat's own corner
//   prompts.js  the decisions, and answering them from a phone
//   feed.js, chart.js, summary.js   recent plays, score chart, end of game and history
//   pairing.js  the organiser's pairing dialog
//   big.js      large type
//   focus.js, words.js, generic.js  the keyboard's place, rule links, the generic view

import {registry} from "../kit.js";
import {$, page, KEYS} from "./state.js";
import {applyBig, toggleBig, fitBoard} from "./big.js";
import {pairWith} from "./phone.js";
import {closePairing} from "./pairing.js";
import {choose} from "./socket.js";
import {loadTables} from "./tables.js";
import {schedule, render} from "./render.js";

// -- the URL: ?organiser=TOKEN (kept, then removed), ?pair=CODE, ?big=1 ----------------------------

function readUrl() {
  const url = new URL(location.href);
  const params = url.searchParams;
  let changed = false;
  if (params.has("organiser")) {
    const tok = params.get("organiser").trim();
    if (tok) localStorage.setItem(KEYS.organiser, tok);
    params.delete("organiser");
    changed = true;
  }
  const code = params.get("pair");
  if (code !== null) { params.delete("pair"); changed = true; }
  if (params.has("big")) localStorage.setItem(KEYS.big, params.get("big") === "0" ? "0" : "1");
  if (changed) history.replaceState(null, "", url.pathname + url.search + url.hash);
  return code;
}

/** Start the page; `options.socket` is the WebSocket path the table id is appended to. */
export async function start(options = {}) {
  if (options.socket) page.socketPath = options.socket;
  const code = readUrl();
  applyBig(localStorage.getItem(KEYS.big) === "1");
  $("big-toggle").addEventListener("click", toggleBig);
  $("pair-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const table = await pairWith($("pair-code").value);
    if (table) {
      $("pair-code").value = "";
      page.current = null;
      choose(table);
    }
  });
  $("pair-close").addEventListener("click", closePairing);
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") closePairing(); });
  $("pair-dialog").addEventListener("click", (ev) => { if (ev.target.id === "pair-dialog") closePairing(); });
  window.addEventListener("hashchange", () => {
    const id = location.hash.slice(1);
    if (id && id !== page.current) choose(id);
  });
  window.addEventListener("resize", () => {
    if (page.view && (window.innerWidth < 760) !== page.narrow) schedule();
    fitBoard();
  });
  // For browser tests and fixtures: draw a view without a server.
  window.scorekeeper = {registry, view: () => page.view,
                        render: (view) => { page.view = view; return render(); }};
  if (!location.hash) document.body.classList.add("no-table");
  if (code) {
    const table = await pairWith(code);
    if (table) choose(table);
  }
  await loadTables();
  setInterval(loadTables, 5000);
}
