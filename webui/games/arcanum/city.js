// Arcanum's city: the ten locations as tiles, each with its name, effect, icons, pawns and
// whether the Tower blocks it (keys of view.state: docs/games/arcanum.md, "The public view").

import {svg, at, label, rect, circle} from "../../kit.js";
import {FAMILIES, ORDER, FIGURES, pawnParts, pawnPill, pillWidth, pawn, BIG, PAWN, wrap,
        fit} from "./pieces.js";

const EFFECTS = {
  wizard_tower: "+1 VP, draw a major", artists_quarter: "draw a major or 2 minors",
  harbor: "draw a minor; others may draw", throne_room: "draw 2 minors",
  market: "+2 VP, one exchange", fields: "+1 VP, adjust reputation",
  treasury: "draw a minor and hide it", cathedral: "gain, then hide or draw 2",
  ballroom: "may hide a card", castle: "the others discard 1",
};

// -- the board's blocks --------------------------------------------------------------------------

export function locations(st) {
  const profile = ((st.options || {}).board) || {};
  const locs = {};
  if (profile && typeof profile === "object") {
    for (const [n, loc] of Object.entries(profile.locations || {})) locs[n] = loc || {};
  }
  return locs;
}

function iconItems(icons) {
  const out = [];
  for (const key of [...ORDER, "page", "knight", "queen", "king"]) {
    const v = (icons || {})[key];
    if (!v) continue;
    const fam = FAMILIES[key];
    out.push({text: fam ? fam.symbol : FIGURES[key][0], colour: fam ? fam.colour : "#1f2937",
              n: v, words: `${key} ${v > 0 ? "+" : ""}${v}`});
  }
  return out;
}

function tile(n, loc, pawns, w, h, opts) {
  const blocked = opts.blocked;
  const g = svg("g", {class: "location" + (blocked ? " blocked" : ""), "data-location": n});
  g.append(svg("title", {}, `${n} ${loc.name || ""}: ${EFFECTS[loc.id] || ""}`),
           rect(0, 0, w, h, {rx: 14, fill: blocked ? "#eceae6" : "#fffdf8",
                             stroke: blocked ? "#6b7280" : "#cdbf9f", "stroke-width": 2.5}));
  const name = loc.name || `Location ${n}`;
  let y = 52;
  if (opts.big) {
    // Large type: the name in letters readable from across the room, over two lines if needed.
    const B = BIG;
    g.append(circle(26, 28, 21, {fill: "#3f3222"}),
             label(26, 28 + B * 0.36, String(n), B, {"text-anchor": "middle", fill: "#fff",
                                                     "font-weight": 800}));
    const lines = wrap(name, Math.floor((w - 60) / (B * 0.6)));
    lines.slice(0, 2).forEach((line, k) => {
      g.append(label(54, 37 + k * (B + 6), line, B, {class: "ink", "font-weight": 700}));
    });
    y = 37 + Math.min(lines.length, 2) * (B + 6) - 6;
  } else {
    const fs = fit(name, w - 62, 22);
    g.append(circle(24, 25, 17, {fill: "#3f3222"}),
             label(24, 32, String(n), 19, {"text-anchor": "middle", fill: "#fff", "font-weight": 800}),
             label(48, 32, name, fs, {class: "ink", "font-weight": 700}));
  }
  if (opts.showEffect && !opts.big) {
    const effect = EFFECTS[loc.id] || "";
    g.append(label(12, y + 4, effect, fit(effect, w - 20, 16), {class: "soft"}));
    y += 10;
  }
  // icons: family symbols in their colour, figure letters in ink, with their signed count
  const icons = iconItems(loc.icons);
  const chars = icons.reduce((a, it) => a + it.text.length + 2, 0);
  const isz = opts.big ? BIG : Math.min(18, (w - 16 - icons.length * 10) / Math.max(1, chars * 0.62));
  let x = 10;
  let iy = y + (opts.big ? 34 : 20);
  for (const it of icons) {
    const num = `${it.n > 0 ? "+" : "−"}${Math.abs(it.n)}`;
    const tw = (it.text.length + num.length) * isz * (opts.big ? 0.72 : 0.62) + 8;
    if (opts.big && x > 10 && x + tw > w - 8) { x = 10; iy += isz + 14; }  // wrap the icons
    // the glyph in its family's colour, the number in dark ink (a yellow number on the
    // parchment is unreadable)
    g.append(svg("g", {}, svg("title", {}, it.words),
      rect(x, iy - isz - 3, tw, isz + 9, {rx: 5, fill: "#f3ede0"}),
      label(x + 4, iy, [svg("tspan", {fill: it.colour}, it.text),
                        svg("tspan", {fill: "#1f2937"}, num)], isz, {"font-weight": 700})));
    x += tw + 4;
  }
  // pawns
  const top = iy + 16, area = h - top - (blocked ? 50 : 8);
  const count = pawns.length;
  if (count && opts.big) {
    // pills in rows, centred in the room left under the icons
    const rowsOf = [];
    let row = [], used = 0;
    for (const id of pawns) {
      const pw = pillWidth(id, PAWN);
      if (row.length && used + pw + 8 > w - 12) { rowsOf.push(row); row = []; used = 0; }
      row.push([id, pw]);
      used += pw + 8;
    }
    rowsOf.push(row);
    const ph = PAWN * 1.45 + 8;
    const y0 = top + Math.max(0, (area - rowsOf.length * ph) / 2) + ph / 2;
    rowsOf.forEach((r, k) => {
      const total = r.reduce((a, [, pw]) => a + pw + 8, -8);
      let px = w / 2 - total / 2;
      for (const [id, pw] of r) {
        g.append(pawnPill(px + pw / 2, y0 + k * ph, PAWN, id));
        px += pw + 8;
      }
    });
  } else if (count) {
    let r = Math.min(opts.pawn, area / 2 - 4);
    let cols = Math.max(1, Math.floor((w - 12) / (2 * r + 10)));
    let rows = Math.ceil(count / cols);
    while (rows * (2 * r + 8) > area && r > 12) {
      r -= 2;
      cols = Math.max(1, Math.floor((w - 12) / (2 * r + 10)));
      rows = Math.ceil(count / cols);
    }
    const used = Math.min(count, cols);
    const stepX = 2 * r + 10;
    const x0 = w / 2 - ((used - 1) * stepX) / 2;
    const y0 = top + area / 2 - ((rows - 1) * (2 * r + 8)) / 2;
    pawns.forEach((id, k) => {
      const col = k % cols, row = Math.floor(k / cols);
      g.append(pawn(x0 + col * stepX, y0 + row * (2 * r + 8), r, id));
    });
  }
  if (blocked) {
    const bw = Math.min(w - 20, 170);
    g.append(rect(0, 0, w, h, {rx: 14, fill: `url(#${opts.hatchId})`}),
             svg("g", {}, rect(w / 2 - bw / 2, h - 44, bw, 34, {rx: 8, fill: "#111827"}),
                 label(w / 2, h - 20, "♜ blocked", opts.big ? BIG : Math.min(20, bw / 6),
                       {"text-anchor": "middle", fill: "#fff", "font-weight": 700})));
  }
  return g;
}

export function city(st, w, h, opts) {
  const cols = opts.cols, rows = Math.ceil(10 / cols), gap = 12;
  const tw = (w - (cols - 1) * gap) / cols, th = (h - (rows - 1) * gap) / rows;
  const locs = locations(st);
  const here = {};
  for (const [p, where] of Object.entries(st.pawns || {})) (here[where] ||= []).push(p);
  const blocked = new Set(st.blocked || []);
  const g = svg("g", {class: "city"});
  for (let n = 1; n <= 10; n++) {
    const k = n - 1;
    const col = k % cols, row = Math.floor(k / cols);
    const pawns = (here[n] || here[String(n)] || []).sort(pawnOrder);
    g.append(at(col * (tw + gap), row * (th + gap),
                tile(n, locs[n] || {}, pawns, tw, th, {...opts, blocked: blocked.has(n)})));
  }
  return g;
}

function pawnOrder(a, b) {
  const pa = pawnParts(a), pb = pawnParts(b);
  return ORDER.indexOf(pa.fam) - ORDER.indexOf(pb.fam) ||
         Object.keys(FIGURES).indexOf(pa.fig) - Object.keys(FIGURES).indexOf(pb.fig);
}
