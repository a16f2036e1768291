// Arcanum's tracks: the round and phase track (with the fame rounds' stars), the reputation
// track of the four families and the VP track with each seat's token.

import {svg, label, rect, circle, seatToken, seatColour, seatName} from "../../kit.js";
import {FAMILIES, ORDER, BIG} from "./pieces.js";

const PHASES = [["setup", "Setup"], ["draw", "Draw"], ["hide", "Hide"], ["play", "Turns"],
                ["fame", "Fame"]];

export function roundTrack(st, w, opts) {
  const g = svg("g", {class: "round-track"});
  const rounds = st.rounds || 0;
  const fame = new Set(st.fame_rounds || []);
  const r = 22, step = 58;
  const big = opts.big;
  g.append(label(0, 38, "Round", big ? BIG : 22, {class: "soft", "font-weight": 700}));
  const x0 = big ? 124 : 100;
  for (let k = 1; k <= rounds; k++) {
    const cx = x0 + (k - 1) * step;
    const now = k === st.round;
    const past = st.round && k < st.round;
    if (fame.has(k)) {
      g.append(svg("path", {d: star(cx, 29, r + 9, r + 1), fill: now && st.phase === "fame" ? "#f59e0b" : "#fde68a",
                            stroke: "#b45309", "stroke-width": 1.5}));
    }
    g.append(circle(cx, 29, r, {fill: now ? "#111827" : past ? "#cbd5e1" : "#fff",
                                stroke: now ? "#111827" : "#94a3b8", "stroke-width": 2}),
             label(cx, big ? 38 : 37, String(k), big ? BIG : 21, {"text-anchor": "middle", "font-weight": 800,
                                           fill: now ? "#fff" : past ? "#475569" : "#111827"}));
  }
  const after = x0 + Math.max(rounds - 1, 0) * step + 44;
  g.append(svg("path", {d: star(after + 10, 29, 13, 6), fill: "#fde68a", stroke: "#b45309"}),
           label(after + 28, big ? 38 : 36, "fame phase", big ? BIG : 18, {class: "soft"}));
  // the phase stepper, on the right
  const steps = PHASES;
  const pw = opts.narrow ? 0 : Math.min(118, (w - after - (big ? 150 : 170)) / steps.length);
  if (pw > 60) {
    const px = w - steps.length * pw;
    const current = st.phase === "round_start" ? "draw" : st.phase;
    steps.forEach(([key, word], k) => {
      const on = key === current;
      g.append(rect(px + k * pw, 8, pw - 6, 42, {rx: 21, fill: on ? "#111827" : "#eef1f5"}),
               label(px + k * pw + (pw - 6) / 2, big ? 38 : 36, word, big ? BIG : 19,
                     {"text-anchor": "middle", fill: on ? "#fff" : "#5b6472",
                      "font-weight": on ? 800 : 600}));
    });
  }
  return g;
}

function star(cx, cy, outer, inner) {
  const pts = [];
  for (let k = 0; k < 16; k++) {
    const a = (Math.PI / 8) * k - Math.PI / 2;
    const rr = k % 2 ? inner : outer;
    pts.push(`${(cx + rr * Math.cos(a)).toFixed(1)},${(cy + rr * Math.sin(a)).toFixed(1)}`);
  }
  return "M" + pts.join("L") + "Z";
}

export function reputationTrack(st, w, h, opts) {
  const rep = st.reputation || {};
  const fame = st.fame || null;
  const values = ORDER.map((f) => Number(rep[f] ?? 0));
  const top = Math.max(12, ...values.map((v) => v + 2));
  const g = svg("g", {class: "reputation"});
  g.append(rect(0, 0, w, h, {rx: 14, fill: "#fffdf8", stroke: "#cdbf9f", "stroke-width": 2}),
           label(16, 34, "Reputation", opts.big ? BIG : 22, {class: "ink", "font-weight": 700}));
  if (fame) {
    const words = fame.kind === "world" ? (opts.big ? "World: half" : "World fame phase (half)")
                                        : "fame rows";
    g.append(label(w - 16, 34, words, opts.big ? BIG : 17, {"text-anchor": "end", fill: "#b45309", "font-weight": 700}));
  }
  const left = 76, right = w - (fame ? (opts.big ? 124 : 70) : 24);
  const laneH = (h - 58) / 4;
  const x = (v) => left + (right - left) * (Math.max(0, v) / top);
  ORDER.forEach((fam, k) => {
    const f = FAMILIES[fam];
    const cy = 52 + laneH * k + laneH / 2;
    const v = values[k];
    const sq = opts.big ? 42 : 34;
    g.append(rect(14, cy - sq / 2, sq, sq, {rx: 8, fill: f.colour}),
             label(14 + sq / 2, cy + sq * 0.24, f.symbol, opts.big ? BIG : 22,
                   {"text-anchor": "middle", fill: f.ink}),
             svg("line", {x1: left, x2: right, y1: cy, y2: cy, stroke: "#d6cdb8", "stroke-width": 6,
                          "stroke-linecap": "round"}));
    for (let t = 0; t <= top; t++) {
      const major = t % 5 === 0;
      g.append(svg("line", {x1: x(t), x2: x(t), y1: cy - (major ? 9 : 5), y2: cy + (major ? 9 : 5),
                            stroke: "#b7a98a", "stroke-width": major ? 2 : 1}));
    }
    const mr = Math.min(opts.big ? 25 : 17, laneH / 2 - 2);
    g.append(svg("g", {"data-reputation": fam},
      svg("title", {}, `${fam} ${f.symbol}: reputation ${v}`),
      circle(x(v), cy, mr, {fill: f.colour, stroke: "#fff", "stroke-width": 3}),
      label(x(v), cy + mr * 0.36, String(v), mr * (String(v).length > 1 ? 0.95 : 1.1),
            {"text-anchor": "middle", fill: f.ink, "font-weight": 800})));
    if (fame && fame.rows && fame.rows[fam] !== undefined) {
      const done = (fame.scored || []).some((s) => s.family === fam);
      g.append(label(w - 14, cy + 7, `row ${fame.rows[fam]}${done ? " ✓" : ""}`, opts.big ? BIG : 18,
                     {"text-anchor": "end", fill: done ? "#15803d" : "#92400e", "font-weight": 700}));
    }
  });
  return g;
}

/** The VP track: a ruler with each seat's token; equal scores sit side by side. */
export function vpTrack(view, st, w, h, opts) {
  const scores = (view.scores || []).map((v) => Number(v) || 0);
  const top = Math.max(30, Math.ceil((Math.max(0, ...scores) + 4) / 10) * 10);
  const g = svg("g", {class: "vp-track"});
  const left = 70, right = w - 20, base = h - (opts.big ? 36 : 22);
  const x = (v) => left + (right - left) * (v / top);
  g.append(label(0, base + 6, "VP", opts.big ? BIG : 24, {class: "ink", "font-weight": 800}),
           svg("line", {x1: left, x2: right, y1: base, y2: base, stroke: "#94a3b8", "stroke-width": 3}));
  for (let t = 0; t <= top; t++) {
    const tall = t % 10 === 0 ? 12 : t % 5 === 0 ? 8 : 4;
    g.append(svg("line", {x1: x(t), x2: x(t), y1: base - tall, y2: base + tall,
                          stroke: "#64748b", "stroke-width": t % 5 ? 1 : 2}));
    if (t % 10 === 0) {
      g.append(label(x(t), base + (opts.big ? 30 : 22), String(t), opts.big ? BIG : 15,
                     {"text-anchor": "middle", class: "soft"}));
    }
  }
  const size = opts.big ? Math.min(50, h - 66) : Math.min(36, h - 40);
  const groups = new Map();
  scores.forEach((v, i) => { if (!groups.has(v)) groups.set(v, []); groups.get(v).push(i); });
  let edge = -Infinity;
  for (const v of [...groups.keys()].sort((a, b) => a - b)) {
    const seats = groups.get(v);
    const span = seats.length * (size + 4) - 4;
    let start = Math.max(x(v) - span / 2, edge + 6, 0);
    start = Math.min(start, right - span + size / 2);
    edge = start + span;
    seats.forEach((i, k) => {
      const cx = start + k * (size + 4) + size / 2;
      g.append(svg("line", {x1: cx, x2: x(v), y1: base - 26, y2: base - 4,
                            stroke: seatColour(i), "stroke-width": 2}),
               seatToken(cx, base - 26 - size / 2, size, i, opts.short[i],
                         {"data-vp-seat": i, role: "img",
                          "aria-label": `${seatName(view, i)}: ${v} VP`}));
    });
  }
  return g;
}
