// scorekeeper dashboard: the strip of tables (GET /api/tables, polled every 5 s by main.js).
// Archived tables are left out unless shown; the first load picks the table to show.

import {el} from "../kit.js";
import {$, page, mine} from "./state.js";
import {focusKey, restoreFocus} from "./focus.js";
import {choose} from "./socket.js";

/** Fetch the list and draw it; with no table shown yet, show the URL's, a running one or the
 * newest. A failed fetch keeps the strip as it was (the next poll tries again). */
export async function loadTables() {
  try {
    const res = await fetch("/api/tables");
    if (!res.ok) return;
    // archived tables are over and put away: the strip lists the others (and the one shown)
    page.tables = (await res.json()).filter((t) => !t.archived || t.id === page.current ||
                                                  t.id === location.hash.slice(1));
  } catch (e) { return; }
  drawTables();
  if (!page.current && page.tables.length) {
    const wanted = location.hash.slice(1);
    const pick = page.tables.find((t) => t.id === wanted) ||
                 page.tables.find((t) => t.status === "running") ||
                 page.tables[page.tables.length - 1];
    choose(pick.id);
  }
}

/** Redraw the strip from page.tables, keeping the keyboard's place. */
export function drawTables() {
  const focus = focusKey();
  drawTableLinks();
  restoreFocus(focus);
}

function drawTableLinks() {
  const nav = $("tables");
  if (!page.tables.length) {
    nav.replaceChildren(el("p", {class: "muted"},
      "No tables yet. The organiser creates them from the console."));
    return;
  }
  nav.replaceChildren(...page.tables.map((t) => {
    const paired = mine(t.id);
    return el("a", {href: "#" + t.id, "data-table": t.id, class: "table-link",
                    "aria-current": t.id === page.current ? "page" : null},
      el("span", {class: "table-name"}, t.name || t.id),
      el("span", {class: "table-meta"}, `${t.game_name || t.game} · ${t.id}`),
      el("span", {class: "badge " + (t.over ? "ended" : t.status)}, t.over ? "over" : t.status),
      paired ? el("span", {class: "badge me"}, `you: ${paired.name}`) : null);
  }));
  // Bring the current table into view only when it is out of sight, and then by its start: a
  // strip scrolled to centre its first table would start with a cut-off name.
  const here = nav.querySelector('[aria-current="page"]');
  if (here && nav.scrollWidth > nav.clientWidth) {
    const left = here.offsetLeft - nav.offsetLeft, right = left + here.offsetWidth;
    if (left < nav.scrollLeft || right > nav.scrollLeft + nav.clientWidth) {
      nav.scrollLeft = Math.max(0, left - 4);
    }
  }
}
