// scorekeeper dashboard: the end of a game (#summary, shown once the view is over: who won and
// each seat's points broken down by the game's view) and the game's own history (#history:
// whatever the game's view draws of the rounds or phases so far).

import {el, seatColour, seatName} from "../kit.js";
import {$} from "./state.js";
import {text} from "./words.js";
import {generic} from "./generic.js";

/** The summary table after #waiting-box, or none while the game runs. */
export function drawSummary(view, game, ctx) {
  const old = $("summary");
  if (!view.over) { if (old) old.remove(); return; }
  const st = view.state || {};
  const scores = view.scores || [];
  const winners = new Set(st.winners || []);
  const data = game.breakdown ? game.breakdown(view, ctx) : generic.breakdown(view, ctx);
  const order = (view.seats || []).map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0));
  const names = [...winners].map((i) => seatName(view, i));
  const title = names.length > 1 ? `${names.join(" and ")} share the win`
              : names.length ? `${names[0]} wins` : "Game over";
  const head = el("tr", {}, el("th", {}, "Player"),
    data.columns.map((c) => el("th", {title: c.title || c.label, class: "num"}, c.label)),
    el("th", {class: "num total"}, "Total"));
  const rows = order.map((i, place) => {
    const row = data.rows[i] || {values: {}};
    return el("tr", {class: winners.has(i) ? "winner" : "", "data-summary-seat": i},
      el("td", {}, el("span", {class: "place"}, `${place + 1}.`),
         el("span", {class: "seat-dot", style: `background:${seatColour(i)}`}),
         el("strong", {}, seatName(view, i)), winners.has(i) ? " ★" : "",
         row.detail ? el("div", {class: "detail"}, text(game, row.detail)) : null),
      data.columns.map((c) => {
        const v = row.values[c.key];
        return el("td", {class: "num" + (v < 0 ? " neg" : ""), "data-label": c.label},
                  v === undefined || v === 0 ? "·" : (v > 0 ? String(v) : `−${-v}`));
      }),
      el("td", {class: "num total", "data-label": "Total"}, String(scores[i] ?? "")));
  });
  const box = el("section", {id: "summary", "aria-label": "end of game summary", tabindex: 0},
    el("h2", {}, "★ ", title),
    el("table", {class: "breakdown"}, el("thead", {}, head), el("tbody", {}, rows)),
    data.note ? el("p", {class: "muted small"}, data.note) : null);
  if (old) old.replaceWith(box); else $("waiting-box").after(box);
}

/** The game's own history (its rounds or phases so far), hidden when the game draws none. */
export function drawHistory(view, game, ctx) {
  const box = $("history");
  const body = game.history ? game.history(view, ctx) : null;
  if (!body) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  box.replaceChildren(body);
}
