// Arcanum's pieces, drawn: the four families (told apart by symbol as well as colour), what a
// card id means and how a card looks (an HTML chip, an SVG face), the pawns (round, or pills in
// large type), and the text helpers and large-type sizes every part of the picture uses.

import {el, svg, label, rect, circle, roman} from "../../kit.js";

// Families are told apart by symbol as well as colour (swords ⚔ blue, coins ◉ yellow,
// wands ⚚ green, cups ♥ red).
export const FAMILIES = {
  swords: {symbol: "⚔", colour: "#1d5fd6", ink: "#ffffff", soft: "#dbe7fb", name: "swords"},
  coins: {symbol: "◉", colour: "#e2b007", ink: "#1f1a05", soft: "#fbf1c9", name: "coins"},
  wands: {symbol: "⚚", colour: "#1f8f47", ink: "#ffffff", soft: "#d9f0e1", name: "wands"},
  cups: {symbol: "♥", colour: "#cf2e2e", ink: "#ffffff", soft: "#f8dcdc", name: "cups"},
};
export const ORDER = ["swords", "coins", "wands", "cups"];
export const FIGURES = {page: ["P", "page"], knight: ["Kn", "knight"], queen: ["Q", "queen"],
                 king: ["K", "king"]};
const MAJORS = ["The Fool", "The Magician", "The High Priestess", "The Empress", "The Emperor",
  "The Hierophant", "The Lovers", "The Chariot", "Strength", "The Hermit", "The Wheel",
  "Justice", "The Hanged Man", "Death", "Temperance", "The Devil", "The Tower", "The Star",
  "The Moon", "The Sun", "Judgement", "The World"];

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
export function cardChip(id) {
  const c = card(id);
  if (c.kind === "minor") {
    const f = FAMILIES[c.family];
    return [el("span", {class: "fam", style: `color:${f.colour}`}, f.symbol),
            el("span", {}, c.spoken)];
  }
  if (c.kind === "major") return [el("span", {class: "fam", style: "color:#4c1d95"}, "✦"), c.words];
  return [c.words];
}

export function familyChip(fam) {
  const f = FAMILIES[fam];
  if (!f) return [fam];
  return [el("span", {class: "fam", style: `color:${f.colour}`}, f.symbol), ` ${fam}`];
}

/** A card drawn in SVG, w wide (height 1.45 w). */
export function cardFace(x, y, id, w = 40) {
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

export function pawnParts(id) {
  const [, fam, fig] = String(id).split("_");
  return {fam, fig, f: FAMILIES[fam] || {colour: "#888", symbol: "?", ink: "#fff"},
          letter: (FIGURES[fig] || [fig || "?"])[0]};
}

/** A pawn for large type: a pill with its family's symbol and its figure's letter side by side,
 * both at `size` (a round pawn would need a huge circle for letters that large). */
export function pawnPill(cx, cy, size, id) {
  const p = pawnParts(id);
  const w = size * 0.62 * (1 + p.letter.length) + size * 0.7, h = size * 1.45;
  return svg("g", {class: "pawn", "data-pawn": id},
    svg("title", {}, `${p.fig} pawn of ${p.fam} ${p.f.symbol}`),
    rect(cx - w / 2, cy - h / 2, w, h, {rx: h / 2, fill: p.f.colour, stroke: "#fff",
                                        "stroke-width": 3}),
    label(cx, cy + size * 0.36, `${p.f.symbol}${p.letter}`, size,
          {"text-anchor": "middle", fill: p.f.ink, "font-weight": 800}));
}

export function pillWidth(id, size) {
  return size * 0.62 * (1 + pawnParts(id).letter.length) + size * 0.7;
}

export function pawn(cx, cy, r, id) {
  const p = pawnParts(id);
  return svg("g", {class: "pawn", "data-pawn": id},
    svg("title", {}, `${p.fig} pawn of ${p.fam} ${p.f.symbol}`),
    circle(cx, cy + r * 0.12, r, {fill: "#000", opacity: 0.18}),
    circle(cx, cy, r, {fill: p.f.colour, stroke: "#fff", "stroke-width": r * 0.12}),
    label(cx, cy - r * 0.08, p.f.symbol, r * 0.72, {"text-anchor": "middle", fill: p.f.ink}),
    label(cx, cy + r * 0.62, p.letter, r * 0.56,
          {"text-anchor": "middle", fill: p.f.ink, "font-weight": 800}));
}

// The smallest letters of the picture in large type, in the picture's units: a 1600-unit-wide
// picture shown about 1400 px wide on a 1080p TV draws them at about 23 CSS px.
export const BIG = 26;
export const PAWN = 32;  // the letters of a pawn in large type: pawns are what people look for

/** `str` cut into lines of at most `chars` characters, at spaces. */
export function wrap(str, chars) {
  const lines = [];
  for (const word of String(str).split(/\s+/)) {
    const last = lines[lines.length - 1];
    if (last !== undefined && (last + " " + word).length <= chars) lines[lines.length - 1] += " " + word;
    else lines.push(word);
  }
  return lines;
}

/** A font size at most `size` so that `str` fits in `width` (an estimate: no text metrics). */
export function fit(str, width, size) {
  return Math.max(11, Math.min(size, width / (Math.max(1, String(str).length) * 0.56)));
}
