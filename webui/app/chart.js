// scorekeeper dashboard: the score chart (#score-chart): each seat's score over the game as a
// step line, in the seat's colour and its own dash pattern, with a legend of the scores now.

import {el, svg, svgRoot, label, seatColour, seatName} from "../kit.js";
import {$} from "./state.js";

/** The chart from view.score_history up to now; hidden for a table with no seats. */
export function drawChart(view, game, ctx) {
  const box = $("score-chart");
  const history = (view.score_history || []).filter((h) => Array.isArray(h.scores));
  const n = (view.seats || []).length;
  if (!n) { box.hidden = true; return; }
  // A game that keeps its scores to the end has no history to draw: a line says so, except in
  // large type, where the side column's room goes to the plays.
  box.hidden = !!(view.scores_private && ctx.big);
  if (view.scores_private) {
    box.replaceChildren(el("h2", {}, "Scores over the game"),
      el("p", {class: "muted scores-later"},
         "Scores at the end: this game keeps them private until it is over."));
    return;
  }
  const points = history.length ? history.slice() : [{seq: 0, scores: Array(n).fill(0)}];
  const last = {seq: Math.max(view.accepted || 0, points[points.length - 1].seq),
                scores: view.scores || points[points.length - 1].scores};
  points.push(last);
  const W = ctx.narrow ? 480 : 900, H = ctx.narrow ? 240 : ctx.big ? 300 : 260;
  const L = 44, R = 16, T = 16, B = 30;
  const maxSeq = Math.max(1, last.seq);
  const top = Math.max(5, ...points.flatMap((p) => p.scores));
  const step = niceStep(top);
  const yMax = Math.ceil(top / step) * step;
  const x = (s) => L + (W - L - R) * (s / maxSeq);
  const y = (v) => T + (H - T - B) * (1 - v / yMax);
  const chart = svgRoot(W, H, {class: "chart"});
  for (let v = 0; v <= yMax; v += step) {
    chart.append(svg("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid"}),
                 label(L - 8, y(v) + 5, String(v), 14, {"text-anchor": "end", class: "axis"}));
  }
  chart.append(label(L, H - 6, "start", 13, {class: "axis"}),
               label(W - R, H - 6, "now", 13, {"text-anchor": "end", class: "axis"}));
  const ends = [];
  for (let i = 0; i < n; i++) {
    let d = "";
    let prev = null;
    for (const p of points) {
      const v = p.scores[i] ?? 0;
      if (prev === null) d += `M${x(p.seq).toFixed(1)} ${y(v).toFixed(1)}`;
      else d += `H${x(p.seq).toFixed(1)}V${y(v).toFixed(1)}`;
      prev = v;
    }
    chart.append(svg("path", {d, fill: "none", stroke: seatColour(i),
                              "stroke-width": ctx.seat === i ? 5 : 3, "stroke-linejoin": "round",
                              "stroke-dasharray": DASHES[i % DASHES.length] || null,
                              class: "line", "data-chart-seat": i}));
    ends.push({i, v: last.scores[i] ?? 0});
  }
  // No labels at the lines' ends (equal scores would stack them out of the chart): a legend
  // names each seat with its score and its line's pattern, so lines that overlap stay told apart.
  ends.sort((a, b) => b.v - a.v || a.i - b.i);
  const summary = ends.map((e) => `${seatName(view, e.i)} ${e.v}`).join(", ");
  chart.setAttribute("aria-label", `Scores over the game; now: ${summary}`);
  const legend = el("ul", {class: "legend", "aria-label": "players and scores now"},
    ends.map((e) => el("li", {"data-legend-seat": e.i},
      svgRoot(44, 14, {class: "swatch", "aria-hidden": "true", role: null},
              svg("line", {x1: 2, x2: 42, y1: 7, y2: 7, stroke: seatColour(e.i), "stroke-width": 4,
                           "stroke-dasharray": DASHES[e.i % DASHES.length] || null})),
      el("span", {class: "legend-name"}, seatName(view, e.i)),
      el("strong", {class: "legend-score"}, String(e.v)))));
  box.replaceChildren(el("h2", {}, "Scores over the game"), chart, legend);
}

// Line patterns for the score chart, one per seat: colour is never the only difference.
const DASHES = ["", "12 6", "3 5", "16 5 3 5", "7 7", "2 3 9 3"];

function niceStep(top) {
  for (const s of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]) if (top / s <= 6) return s;
  return 1000;
}
