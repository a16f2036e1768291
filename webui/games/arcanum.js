// Arcanum's table view: the city's ten locations with their pawns, the round and phase track,
// the reputation track, the VP track, the play area, decks and discard piles, and each seat's
// hand and hide strip. Keys of view.state: docs/games/arcanum.md ("The public view").

import {registry, el, svg, svgRoot, at, label, rect, circle, hatch, seatToken, seatColour,
        cardBacks, stride, seatName, plural, roman, decorateText} from "../kit.js";

// Families are told apart by symbol as well as colour (swords ⚔ blue, coins ◉ yellow,
// wands ⚚ green, cups ♥ red).
export const FAMILIES = {
  swords: {symbol: "⚔", colour: "#1d5fd6", ink: "#ffffff", soft: "#dbe7fb", name: "swords"},
  coins: {symbol: "◉", colour: "#e2b007", ink: "#1f1a05", soft: "#fbf1c9", name: "coins"},
  wands: {symbol: "⚚", colour: "#1f8f47", ink: "#ffffff", soft: "#d9f0e1", name: "wands"},
  cups: {symbol: "♥", colour: "#cf2e2e", ink: "#ffffff", soft: "#f8dcdc", name: "cups"},
};
const ORDER = ["swords", "coins", "wands", "cups"];
const FIGURES = {page: ["P", "page"], knight: ["Kn", "knight"], queen: ["Q", "queen"],
                 king: ["K", "king"]};
const MAJORS = ["The Fool", "The Magician", "The High Priestess", "The Empress", "The Emperor",
  "The Hierophant", "The Lovers", "The Chariot", "Strength", "The Hermit", "The Wheel",
  "Justice", "The Hanged Man", "Death", "Temperance", "The Devil", "The Tower", "The Star",
  "The Moon", "The Sun", "Judgement", "The World"];
const EFFECTS = {
  wizard_tower: "+1 VP, draw a major", artists_quarter: "draw a major or 2 minors",
  harbor: "draw a minor; others may draw", throne_room: "draw 2 minors",
  market: "+2 VP, one exchange", fields: "+1 VP, adjust reputation",
  treasury: "draw a minor and hide it", cathedral: "gain, then hide or draw 2",
  ballroom: "may hide a card", castle: "the others discard 1",
};
const PHASES = [["setup", "Setup"], ["draw", "Draw"], ["hide", "Hide"], ["play", "Turns"],
                ["fame", "Fame"]];
const PHASE_WORDS = {setup: "Setup: place the 16 pawns", round_start: "Start of the round",
  draw: "Phase A: draw", hide: "Phase A: hide a card", play: "Phase B: turns",
  fame: "Fame phase", over: "Game over"};

// -- cards ---------------------------------------------------------------------------------------

/** What a card id means: {kind: minor|major, family, rank (short), words (plain)}. */
export function card(id) {
  const s = String(id);
  let m = /^major_(\d\d)$/.exec(s);
  if (m) {
    const n = Number(m[1]);
    return {kind: "major", n, rank: roman(n), words: `${roman(n)} ${MAJORS[n] || "major"}`};
  }
  m = /^(swords|coins|wands|cups)_(\w+)$/.exec(s);
  if (m) {
    const fam = FAMILIES[m[1]];
    const fig = FIGURES[m[2]];
    const rank = fig ? fig[0] : m[2];
    const spoken = fig ? `${fig[1]} of ${m[1]}` : `${m[2]} of ${m[1]}`;
    return {kind: "minor", family: m[1], rank, spoken, words: `${spoken} ${fam.symbol}`};
  }
  return {kind: "other", rank: s, words: s};
}

/** A card as an HTML chip: family symbol in its colour, then the rank. */
function cardChip(id) {
  const c = card(id);
  if (c.kind === "minor") {
    const f = FAMILIES[c.family];
    return [el("span", {class: "fam", style: `color:${f.colour}`}, f.symbol),
            el("span", {}, c.spoken)];
  }
  if (c.kind === "major") return [el("span", {class: "fam", style: "color:#4c1d95"}, "✦"), c.words];
  return [c.words];
}

function familyChip(fam) {
  const f = FAMILIES[fam];
  if (!f) return [fam];
  return [el("span", {class: "fam", style: `color:${f.colour}`}, f.symbol), ` ${fam}`];
}

/** A card drawn in SVG, w wide (height 1.45 w). */
function cardFace(x, y, id, w = 40) {
  const h = w * 1.45;
  const c = card(id);
  const g = svg("g", {class: "card", "data-card-face": id});
  g.append(svg("title", {}, c.words));
  if (c.kind === "major") {
    g.append(rect(x, y, w, h, {rx: w * 0.12, fill: "#312e81", stroke: "#fff", "stroke-width": 1.5}),
             label(x + w / 2, y + h * 0.45, c.rank, w * 0.36,
                   {"text-anchor": "middle", fill: "#fff", "font-weight": 800}),
             label(x + w / 2, y + h * 0.8, "✦", w * 0.32, {"text-anchor": "middle", fill: "#c7d2fe",
                                                          class: "fine"}));  // decoration
    return g;
  }
  const f = FAMILIES[c.family] || {colour: "#666", symbol: "?", ink: "#fff"};
  g.append(rect(x, y, w, h, {rx: w * 0.12, fill: "#fff", stroke: f.colour, "stroke-width": w * 0.07}),
           rect(x, y, w, h * 0.3, {rx: w * 0.12, fill: f.colour}),
           label(x + w / 2, y + h * 0.24, f.symbol, w * 0.36, {"text-anchor": "middle", fill: f.ink}),
           label(x + w / 2, y + h * 0.78, c.rank, w * (c.rank.length > 1 ? 0.4 : 0.5),
                 {"text-anchor": "middle", fill: "#111827", "font-weight": 800}));
  return g;
}

// -- pawns ---------------------------------------------------------------------------------------

function pawnParts(id) {
  const [, fam, fig] = String(id).split("_");
  return {fam, fig, f: FAMILIES[fam] || {colour: "#888", symbol: "?", ink: "#fff"},
          letter: (FIGURES[fig] || [fig || "?"])[0]};
}

/** A pawn for large type: a pill with its family's symbol and its figure's letter side by side,
 * both at `size` (a round pawn would need a huge circle for letters that large). */
function pawnPill(cx, cy, size, id) {
  const p = pawnParts(id);
  const w = size * 0.62 * (1 + p.letter.length) + size * 0.7, h = size * 1.45;
  return svg("g", {class: "pawn", "data-pawn": id},
    svg("title", {}, `${p.fig} pawn of ${p.fam} ${p.f.symbol}`),
    rect(cx - w / 2, cy - h / 2, w, h, {rx: h / 2, fill: p.f.colour, stroke: "#fff",
                                        "stroke-width": 3}),
    label(cx, cy + size * 0.36, `${p.f.symbol}${p.letter}`, size,
          {"text-anchor": "middle", fill: p.f.ink, "font-weight": 800}));
}

function pillWidth(id, size) {
  return size * 0.62 * (1 + pawnParts(id).letter.length) + size * 0.7;
}

function pawn(cx, cy, r, id) {
  const p = pawnParts(id);
  return svg("g", {class: "pawn", "data-pawn": id},
    svg("title", {}, `${p.fig} pawn of ${p.fam} ${p.f.symbol}`),
    circle(cx, cy + r * 0.12, r, {fill: "#000", opacity: 0.18}),
    circle(cx, cy, r, {fill: p.f.colour, stroke: "#fff", "stroke-width": r * 0.12}),
    label(cx, cy - r * 0.08, p.f.symbol, r * 0.72, {"text-anchor": "middle", fill: p.f.ink}),
    label(cx, cy + r * 0.62, p.letter, r * 0.56,
          {"text-anchor": "middle", fill: p.f.ink, "font-weight": 800}));
}

// -- the board's blocks --------------------------------------------------------------------------

function locations(st) {
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

// The smallest letters of the picture in large type, in the picture's units: a 1600-unit-wide
// picture shown about 1400 px wide on a 1080p TV draws them at about 23 CSS px.
const BIG = 26;
const PAWN = 32;  // the letters of a pawn in large type: pawns are what people look for

/** `str` cut into lines of at most `chars` characters, at spaces. */
function wrap(str, chars) {
  const lines = [];
  for (const word of String(str).split(/\s+/)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (last + " " + word).length <= chars) lines[lines.length - 1] += " " + word;
    else lines.push(word);
  }
  return lines;
}

/** A font size at most `size` so that `str` fits in `width` (an estimate: no text metrics). */
function fit(str, width, size) {
  return Math.max(11, Math.min(size, width / (Math.max(1, String(str).length) * 0.56)));
}

function city(st, w, h, opts) {
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

function roundTrack(st, w, opts) {
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

function reputationTrack(st, w, h, opts) {
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

/** The play area in large type: fewer, larger things (the turn's two places and whose turn it
 * is; each deck with its count; each discard pile's top card with its count). */
function playAreaBig(view, st, w, h, opts) {
  const g = svg("g", {class: "play-area"});
  g.append(rect(0, 0, w, h, {rx: 14, fill: "#f4f1ea", stroke: "#cdbf9f", "stroke-width": 2}),
           label(16, 36, "Play area", BIG, {class: "ink", "font-weight": 700}));
  const turn = st.turn;
  const cw = 66, step = cw + 24;
  if (turn && Number.isInteger(turn.seat)) {
    [["minor", turn.minor], ["major", turn.major]].forEach(([kind, id], k) => {
      const x = 16 + k * step;
      if (id) g.append(cardFace(x, 50, id, cw));
      else {
        g.append(rect(x, 50, cw, cw * 1.45, {rx: 6, fill: "none", stroke: "#8a7d62",
                                           "stroke-dasharray": "6 4", "stroke-width": 2}));
      }
      g.append(label(x + cw / 2, 50 + cw * 1.45 + 28, kind, BIG,
                     {"text-anchor": "middle", class: "soft"}));
    });
    const ny = h - 16;
    g.append(seatToken(36, ny - 9, 38, turn.seat, opts.short[turn.seat]),
             label(62, ny, seatName(view, turn.seat), BIG, {class: "ink", "font-weight": 700}));
  } else {
    const words = st.phase === "fame" ? ["fame phase"] : ["no turn", "in progress"];
    words.forEach((line, k) => g.append(label(16, 80 + k * 34, line, BIG, {class: "soft"})));
  }
  const d = st.decks || {};
  const dis = st.discards || {};
  const px = 16 + 2 * step + 6;
  const pw = (w - px - 8) / 2;
  [["minors", d.minor ?? 0, dis.minor || []], ["majors", d.major ?? 0, dis.major || []]]
    .forEach(([word, deck, pile], k) => {
      const x = px + k * pw, top = pile[pile.length - 1];
      g.append(svg("title", {}, `${word}: ${deck} in the deck, ${pile.length} on the discard pile`),
               label(x, 36, word, BIG, {class: "soft", "font-weight": 700}),
               cardBacks(x, 50, deck, {w: 36, h: 52, step: 3, max: 3, size: BIG,
                                       fill: k ? "#312e81" : "#3b4a6b"}));
      if (top) g.append(cardFace(x, 116, top, 48));
      else {
        g.append(rect(x, 116, 48, 70, {rx: 4, fill: "none", stroke: "#8a7d62",
                                       "stroke-dasharray": "5 4"}));
      }
      g.append(label(x + 56, 162, String(pile.length), BIG, {"font-weight": 800, fill: "#1d232a"}));
    });
  return g;
}

function playArea(view, st, w, h, opts) {
  if (opts.big) return playAreaBig(view, st, w, h, opts);
  const g = svg("g", {class: "play-area"});
  g.append(rect(0, 0, w, h, {rx: 14, fill: "#f4f1ea", stroke: "#cdbf9f", "stroke-width": 2}),
           label(16, 30, "Play area", 20, {class: "ink", "font-weight": 700}));
  const turn = st.turn;
  const cw = Math.min(50, (h - 96) / 1.45);
  if (turn && Number.isInteger(turn.seat)) {
    const slots = [["minor", turn.minor], ["major", turn.major]];
    slots.forEach(([kind, id], k) => {
      const x = 20 + k * (cw + 30);
      if (id) g.append(cardFace(x, 44, id, cw));
      else {
        g.append(rect(x, 44, cw, cw * 1.45, {rx: 6, fill: "none", stroke: "#b8ad95",
                                           "stroke-dasharray": "5 4", "stroke-width": 2}),
                 label(x + cw / 2, 44 + cw * 0.8, kind, 13, {"text-anchor": "middle", class: "soft"}));
      }
    });
    const ny = 44 + cw * 1.45 + 26;
    g.append(seatToken(32, ny - 7, 24, turn.seat, opts.short[turn.seat]),
             label(50, ny, seatName(view, turn.seat), 18, {class: "ink", "font-weight": 600}));
  } else {
    g.append(label(16, 62, st.phase === "fame" ? "fame phase" : "no turn in progress", 17,
                   {class: "soft"}));
  }
  // decks and discard piles
  const d = st.decks || {};
  const dis = st.discards || {};
  const px = Math.max(2 * (cw + 30) + 40, w * 0.42);
  const piles = [["minors", d.minor ?? 0, (dis.minor || []).slice(-1)[0], (dis.minor || []).length],
                 ["majors", d.major ?? 0, (dis.major || []).slice(-1)[0], (dis.major || []).length]];
  const pw = (w - px - 12) / 2;
  piles.forEach(([word, deck, top, n], k) => {
    const x = px + k * pw;
    g.append(label(x, 30, word, 17, {class: "soft", "font-weight": 700}),
             cardBacks(x, 46, Math.min(deck, 3) ? deck : 0, {w: 30, h: 44, step: 3, max: 3, size: 18,
                                                              fill: k ? "#312e81" : "#3b4a6b"}),
             svg("title", {}, `${word}: ${deck} in the deck, ${n} on the discard pile`));
    // the discard pile under its deck: its top card (or an empty place) and how many lie there,
    // each pile in its own column so that neither runs into the other
    if (top) g.append(cardFace(x, 100, top, 30));
    else {
      g.append(rect(x, 100, 30, 43.5, {rx: 3, fill: "none", stroke: "#b8c0cc",
                                       "stroke-dasharray": "4 3"}));
    }
    g.append(label(x + 38, 130, String(n), 20, {"font-weight": 700, fill: "#1d232a"}),
             label(x, 170, "discarded", Math.min(15, (pw - 8) / 5.6), {class: "soft fine"}));
  });
  return g;
}

function sideNotes(view, st, w, opts) {
  const g = svg("g", {class: "notes"});
  const fs = opts.big ? BIG : 17, rh = opts.big ? 48 : 40, base = opts.big ? 33 : 27;
  let y = 0;
  const tray = Object.entries(st.pawns || {}).filter(([, where]) => where === "tray").map(([p]) => p);
  if (tray.length || st.judgement) {
    const th = opts.big ? 96 : 74;
    g.append(rect(0, y, w, th, {rx: 12, fill: "#fff7ed", stroke: "#fdba74"}),
             label(14, y + base - 1, "XX Judgement: off the board", fs,
                   {fill: "#9a3412", "font-weight": 700}));
    if (opts.big) {
      let px = 14;
      for (const p of tray) {
        const pw = pillWidth(p, BIG);
        g.append(pawnPill(px + pw / 2, y + 68, BIG, p));
        px += pw + 8;
      }
    } else {
      tray.forEach((p, k) => g.append(pawn(28 + k * 44, y + 52, 17, p)));
    }
    y += th + 10;
  }
  if (Number.isInteger(st.devil)) {
    g.append(rect(0, y, w, rh, {rx: 12, fill: "#fef2f2", stroke: "#fca5a5"}),
             label(14, y + base, `XV The Devil: ${seatName(view, st.devil)}'s VP doubled`, fs,
                   {fill: "#991b1b", "font-weight": 700}));
    y += rh + 10;
  }
  if (st.tower) {
    g.append(rect(0, y, w, rh, {rx: 12, fill: "#f3f4f6", stroke: "#9ca3af"}),
             label(14, y + base, `♜ XVI The Tower blocks ${(st.blocked || []).join(", ") || "—"}`,
                   fs, {class: "ink", "font-weight": 700}));
    y += rh + 10;
  }
  const board = st.board || {};
  if (board.sample) {
    const lines = opts.big ? [`Board “${board.name}”:`, "a SAMPLE board,", "not the printed one"]
                           : [`Board “${board.name}”: a SAMPLE board, not the printed one`];
    lines.forEach((line, k) => {
      g.append(label(0, y + 20 + k * (fs + 6), line, opts.big ? BIG : 15,
                     {fill: "#9a4a00", "font-weight": 600}));
    });
    y += 10 + lines.length * (fs + 6);
  }
  return {g, height: y};
}

/** The VP track: a ruler with each seat's token; equal scores sit side by side. */
function vpTrack(view, st, w, h, opts) {
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

function seatPanel(view, st, i, w, h, opts) {
  const s = (st.seats || [])[i] || {};
  const active = st.active_seat === i && !view.over;
  const g = svg("g", {class: "seat-panel", "data-board-seat": i});
  g.append(rect(0, 0, w, h, {rx: 14, fill: active ? "#fff" : "#f8fafc",
                             stroke: active ? "#111827" : "#d6dbe2", "stroke-width": active ? 4 : 2}),
           seatToken(28, 28, 34, i, opts.short[i]),
           label(52, 37, seatName(view, i), opts.big ? 25 : 23, {class: "ink", "font-weight": 700}),
           label(w - 14, 40, String((view.scores || [])[i] ?? s.vp ?? 0), 34,
                 {"text-anchor": "end", class: "ink", "font-weight": 800}));
  const tags = [];
  if (active) tags.push(["▶ turn", "#111827", "#fff"]);
  if (st.start_seat === i) tags.push(["1st", "#e2e8f0", "#111827"]);
  if (st.devil === i) tags.push(["Devil ×2", "#fee2e2", "#991b1b"]);
  const owed = (st.owed || []).find((o) => o.seat === i);
  if (owed) tags.push([`discards ${owed.count}`, "#ffedd5", "#9a3412"]);
  let tx = 14;
  for (const [t, bg, ink] of tags) {
    const tw = 16 + t.length * 9.5;
    g.append(rect(tx, 54, tw, 26, {rx: 13, fill: bg}),
             label(tx + tw / 2, 73, t, 16, {"text-anchor": "middle", fill: ink, "font-weight": 700}));
    tx += tw + 6;
  }
  const rowY = tags.length ? 90 : 62;
  g.append(label(14, rowY + 26, "hand", 16, {class: "soft"}),
           cardBacks(64, rowY + 4, s.hand ?? 0, {w: 24, h: 34, step: 6, max: 8, size: 20}));
  // the hide strip: face-down cards, revealed ones face up
  const sy = rowY + 48;
  const strip = h - sy - 10;
  const hidden = s.hidden ?? 0;
  const revealed = s.revealed || [];
  g.append(rect(10, sy, w - 20, strip, {rx: 8, fill: "#ede9fe", stroke: "#c4b5fd"}),
           label(20, sy + 24, "hidden", 16, {fill: "#5b21b6", "font-weight": 600}),
           label(w - 20, sy + 24, String(hidden), 22, {"text-anchor": "end", fill: "#5b21b6",
                                                       "font-weight": 800}));
  const cw = Math.min(28, (strip - 12) / 1.45);
  const items = [...revealed.map((c) => ["face", c]),
                 ...Array(Math.max(0, hidden - revealed.length)).fill(["back", null])];
  const room = w - 90 - 70;
  const step = stride(items.length, cw, room, 4);
  items.forEach(([kind, id], k) => {
    const x = 86 + k * step;
    if (kind === "face") g.append(cardFace(x, sy + 6, id, cw));
    else g.append(rect(x, sy + 6, cw, cw * 1.45, {rx: 3, fill: "#5b21b6", stroke: "#fff", "stroke-width": 1.5}));
  });
  return g;
}

// -- the picture ---------------------------------------------------------------------------------

function board(view, ctx) {
  const st = view.state || {};
  const n = (view.seats || []).length;
  const opts = {...ctx, hatchId: "arc-hatch"};
  const defs = svg("defs", {}, hatch("arc-hatch", "#4b5563"));
  if (ctx.narrow) {
    const W = 800;
    const seatH = 200;
    const parts = [];
    let y = 0;
    parts.push(at(14, y + 6, roundTrack(st, W - 28, {...opts, narrow: true})));
    y += 80;
    parts.push(at(14, y, city(st, W - 28, 5 * 176 + 4 * 12, {...opts, cols: 2, pawn: 32,
                                                              showEffect: false})));
    y += 5 * 176 + 4 * 12 + 16;
    parts.push(at(14, y, reputationTrack(st, W - 28, 230, opts)));
    y += 246;
    parts.push(at(14, y, playArea(view, st, W - 28, 190, opts)));
    y += 206;
    const notes = sideNotes(view, st, W - 28, opts);
    parts.push(at(14, y, notes.g));
    y += notes.height;
    parts.push(at(14, y, vpTrack(view, st, W - 28, 100, opts)));
    y += 112;
    const cols = 2, gap = 12, sw = (W - 28 - gap) / cols;
    for (let i = 0; i < n; i++) {
      parts.push(at(14 + (i % cols) * (sw + gap), y + Math.floor(i / cols) * (seatH + gap),
                    seatPanel(view, st, i, sw, seatH, opts)));
    }
    y += Math.ceil(n / cols) * (seatH + gap);
    return svgRoot(W, y + 6, {class: "board arcanum narrow"}, defs, parts);
  }
  const W = 1600, H = 930;
  const pic = svgRoot(W, H, {class: "board arcanum"}, defs);
  pic.append(rect(0, 0, W, H, {fill: "#faf7f0"}));
  pic.append(at(20, 6, roundTrack(st, W - 40, opts)));
  if (ctx.big) {
    // Large type, read from across the room: the shared table in large letters. The seats'
    // hands and hidden cards are in the players' list beside the picture, so the city, the
    // reputation and the play area take the room the seat panels had.
    pic.append(at(20, 70, city(st, 1090, 718, {...opts, cols: 5, showEffect: false})));
    pic.append(at(1126, 70, reputationTrack(st, 454, 286, opts)));
    pic.append(at(1126, 368, playArea(view, st, 454, 250, opts)));
    const notes = sideNotes(view, st, 454, opts);
    pic.append(at(1126, 630, notes.g));
    pic.append(at(20, 796, vpTrack(view, st, W - 40, 128, opts)));
    return pic;
  }
  pic.append(at(20, 70, city(st, 1090, 530, {...opts, cols: 5, pawn: ctx.big ? 33 : 28, showEffect: true})));
  pic.append(at(1126, 70, reputationTrack(st, 454, 250, opts)));
  pic.append(at(1126, 332, playArea(view, st, 454, 184, opts)));
  const notes = sideNotes(view, st, 454, opts);
  pic.append(at(1126, 528, notes.g));
  pic.append(at(20, 606, vpTrack(view, st, W - 40, 88, opts)));
  const gap = 12, sw = (W - 40 - (n - 1) * gap) / Math.max(n, 1);
  for (let i = 0; i < n; i++) {
    pic.append(at(20 + i * (sw + gap), 704, seatPanel(view, st, i, sw, 218, opts)));
  }
  return pic;
}

// -- the page's other parts ----------------------------------------------------------------------

function phase(view) {
  const st = view.state || {};
  const bits = [];
  if (st.round) bits.push(`Round ${st.round} of ${st.rounds}`);
  let words = PHASE_WORDS[st.phase] || st.phase || "";
  if (st.phase === "fame" && st.fame) words += st.fame.kind === "world" ? " (XXI World: half values)" : "";
  if (words) bits.push(words);
  if ((st.fame_rounds || []).includes(st.round) && st.phase !== "fame" && st.phase !== "over") {
    bits.push("fame phase at the end of this round");
  }
  return bits.join(" · ");
}

function seatInfo(view, i) {
  const st = view.state || {};
  const s = (st.seats || [])[i] || {};
  const out = [el("span", {}, `hand ${s.hand ?? 0}`), el("span", {}, `hidden ${s.hidden ?? 0}`)];
  if ((s.revealed || []).length) out.push(el("span", {}, `${s.revealed.length} shown by the Sun`));
  if (st.start_seat === i && !view.over) out.push(el("span", {}, "starts the round"));
  if (st.devil === i) out.push(el("span", {}, "Devil: VP doubled"));
  const owed = (st.owed || []).find((o) => o.seat === i);
  if (owed) out.push(el("strong", {}, `owes ${plural(owed.count, "discard")}`));
  return out;
}

function myCards(view, seat) {
  const s = ((view.state || {}).seats || [])[seat] || {};
  const hidden = s.hidden_cards || [];
  const extra = [];
  if (s.minors !== undefined) {
    extra.push(el("div", {}, `In your hand: ${plural(s.minors, "minor")}, ${plural(s.majors ?? 0, "major")}.`));
  }
  if ((s.known_hand || []).length) {
    extra.push(el("div", {}, "Known to be in your hand: ",
      s.known_hand.map((c) => el("span", {class: "chip"}, cardChip(c))), ""));
  }
  const shown = new Set(s.revealed || []);
  return {
    title: `Your hidden cards (${hidden.length})`,
    empty: "No hidden cards.",
    cards: hidden.map((id) => {
      const c = card(id);
      const f = FAMILIES[c.family];
      return {id, title: c.words + (shown.has(id) ? " (shown by the Sun)" : ""),
              class: shown.has(id) ? "shown" : "",
              node: [f ? el("span", {class: "fam", style: `color:${f.colour}`}, f.symbol) : null,
                     el("span", {}, c.kind === "minor" ? c.spoken : c.words),
                     shown.has(id) ? el("small", {class: "muted"}, " shown") : null]};
    }),
    extra,
  };
}

function answerLabel(prompt, option, view) {
  const o = String(option);
  let m;
  if (FAMILIES[o]) return familyChip(o);
  if ((m = /^(swords|coins|wands|cups)([+-]\d+)$/.exec(o))) {
    return [...familyChip(m[1]), ` ${m[2].replace("-", "−")}`];
  }
  if ((m = /^(swords|coins|wands|cups)\/(swords|coins|wands|cups)$/.exec(o))) {
    return ["+1 ", ...familyChip(m[1]), " / −1 ", ...familyChip(m[2])];
  }
  if (/^pawn_/.test(o)) {
    const p = pawnParts(o);
    return [el("span", {class: "fam", style: `color:${p.f.colour}`}, p.f.symbol), ` ${p.fig} pawn`];
  }
  if (/^(major_\d\d|(swords|coins|wands|cups)_\w+)(\+(major_\d\d|(swords|coins|wands|cups)_\w+))*$/.test(o)) {
    const parts = o.split("+");
    return parts.flatMap((c, k) => [k ? " + " : "", ...cardChip(c)]);
  }
  if (/^\d+$/.test(o) && ["tower", "judgement"].includes(prompt.id)) {
    const loc = locations(view.state || {})[o];
    return loc && loc.name ? `${o} ${loc.name}` : o;
  }
  const words = {"minor+minor": "2 minors", "minor+major": "a minor and a major",
                 "major+major": "2 majors", minors: "minors", major: "a major"};
  return words[o] || o;
}

const FAMILY_SYMBOLS = /[⚔◉⚚♥]/gu;
const BY_SYMBOL = Object.fromEntries(ORDER.map((f) => [FAMILIES[f].symbol, FAMILIES[f]]));

function decorate(text) {
  return decorateText(text, FAMILY_SYMBOLS, (sym) =>
    el("span", {class: "fam", style: `color:${BY_SYMBOL[sym].colour}`}, sym));
}

function breakdown(view) {
  const st = view.state || {};
  const seats = st.seats || [];
  const n = (view.seats || []).length;
  const locs = locations(st);
  const locName = {};
  for (const loc of Object.values(locs)) if (loc.id) locName[loc.id] = loc.name || loc.id;
  const famCols = ORDER.map((f) => ({key: "fame:" + f, label: `Fame ${FAMILIES[f].symbol}`,
                                     title: `fame phases, ${f} ${FAMILIES[f].symbol}`}));
  const haveSources = seats.some((s) => s && s.vp_sources && typeof s.vp_sources === "object");
  if (haveSources) {
    const columns = [...famCols, {key: "locations", label: "Locations"},
                     {key: "majors", label: "Majors"}];
    let other = false;
    const rows = [];
    for (let i = 0; i < n; i++) {
      const src = (seats[i] || {}).vp_sources || {};
      const values = {};
      const detail = [];
      let sum = 0;
      for (const [key, raw] of Object.entries(src)) {
        const v = Number(raw) || 0;
        sum += v;
        const [kind, what] = key.split(":");
        let col;
        if ((kind === "fame" || kind === "world") && FAMILIES[what]) col = "fame:" + what;
        else if (kind === "location") {
          col = "locations";
          detail.push([locName[what] || what.replaceAll("_", " "), v]);
        } else if (kind === "major") {
          col = "majors";
          detail.push([card(what).words, v]);
        } else { col = "other"; other = true; detail.push([key, v]); }
        values[col] = (values[col] || 0) + v;
      }
      const vp = Number((view.scores || [])[i] ?? (seats[i] || {}).vp ?? 0);
      if (vp !== sum) { values.other = (values.other || 0) + vp - sum; other = true; }
      detail.sort((a, b) => b[1] - a[1]);
      rows.push({values, detail: detail.map(([k, v]) => `${k} ${v >= 0 ? "+" : "−"}${Math.abs(v)}`)
                                       .join(" · ")});
    }
    if (other) columns.push({key: "other", label: "Other"});
    const world = (st.history || []).some((h) => h.kind === "world");
    return {columns, rows,
            note: world ? "Fame columns include the XXI World's fame phases (half values)." : ""};
  }
  // An older server: the fame phases' awards from the history; the rest together.
  const rows = [];
  for (let i = 0; i < n; i++) rows.push({values: {}});
  for (const h of st.history || []) {
    for (const f of h.families || []) {
      (f.awards || []).forEach((a, i) => {
        if (!rows[i] || !a) return;
        rows[i].values["fame:" + f.family] = (rows[i].values["fame:" + f.family] || 0) + a;
      });
    }
  }
  rows.forEach((r, i) => {
    const fame = Object.values(r.values).reduce((a, b) => a + b, 0);
    r.values.rest = Number((view.scores || [])[i] ?? 0) - fame;
  });
  return {columns: [...famCols, {key: "rest", label: "Locations & majors"}], rows,
          note: "Locations and majors are shown together: this server does not break them down."};
}

function history(view) {
  const st = view.state || {};
  const phases = (st.history || []).slice().reverse();
  if (!phases.length) return null;
  const name = (i) => seatName(view, i);
  return el("div", {},
    el("h2", {}, "Fame phases"),
    el("ol", {reversed: true}, phases.map((h) => el("li", {},
      el("strong", {}, `Round ${h.round}: ${h.kind === "world" ? "XXI World (half values)" : "fame phase"}`),
      " — ", (h.totals || []).map((t, i) => `${name(i)} +${t}`).join(" · "),
      el("div", {class: "detail"}, (h.families || []).map((f) => el("div", {},
        ...familyChip(f.family), ` row ${f.row}: `,
        (f.awards || []).map((a, i) => (a ? `${name(i)} +${a}` : null)).filter(Boolean).join(", ") ||
          "no awards")))))));
}

registry["arcanum"] = {
  title: "Arcanum",
  board,
  phase,
  seat: seatInfo,
  myCards,
  answerLabel,
  decorate,
  breakdown,
  history,
};
