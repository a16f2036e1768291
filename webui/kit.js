// scorekeeper dashboard: the shared kit for the page and the game views.
//
// `registry` is the plain object every game view registers itself in (webui/games/<id>.js does
// `registry["<id>"] = {...}`); the page loads that module by the table's game id. The helpers
// below build HTML and SVG with DOM calls only: every value goes in as a text node or an
// attribute, never as markup.

export const registry = {};

export const SVG_NS = "http://www.w3.org/2000/svg";

function append(node, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false || c === "") continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

function setAttrs(node, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.setAttribute("class", v);
    else if (k === "text") node.textContent = String(v);
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else if (k === "dataset") for (const [dk, dv] of Object.entries(v)) node.dataset[dk] = String(dv);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  return node;
}

/** An HTML element: el("div", {class: "x", onclick: f}, "text", child, [more]). */
export function el(tag, attrs, ...children) {
  return append(setAttrs(document.createElement(tag), attrs), children);
}

/** An SVG element, same calling style as el(). */
export function svg(tag, attrs, ...children) {
  return append(setAttrs(document.createElementNS(SVG_NS, tag), attrs), children);
}

/** An <svg> root with a viewBox; it scales to its container's width. */
export function svgRoot(width, height, attrs, ...children) {
  return svg("svg", {viewBox: `0 0 ${width} ${height}`, width: "100%",
                     preserveAspectRatio: "xMidYMid meet", role: "img", ...attrs}, ...children);
}

/** A group moved to (x, y). */
export function at(x, y, ...children) {
  return svg("g", {transform: `translate(${round(x)} ${round(y)})`}, ...children);
}

/** SVG text; `size` in user units, `anchor` start/middle/end, more attributes in `attrs`. */
export function label(x, y, str, size = 20, attrs = {}) {
  return svg("text", {x: round(x), y: round(y), "font-size": size, ...attrs}, str);
}

export function rect(x, y, w, h, attrs = {}) {
  return svg("rect", {x: round(x), y: round(y), width: round(w), height: round(h), ...attrs});
}

export function circle(cx, cy, r, attrs = {}) {
  return svg("circle", {cx: round(cx), cy: round(cy), r: round(r), ...attrs});
}

export function round(n) { return Math.round(n * 10) / 10; }

/** A diagonal hatch pattern (blocked places); call once per svg with a unique id. */
export function hatch(id, colour = "#9aa3ad") {
  return svg("pattern", {id, width: 12, height: 12, patternUnits: "userSpaceOnUse",
                         patternTransform: "rotate(45)"},
             rect(0, 0, 5, 12, {fill: colour, opacity: 0.45}));
}

// -- seats ---------------------------------------------------------------------------------------

// One colour per seat, chosen apart from the colours games give their pieces (blue, yellow,
// green, red); a seat is also told by its short label, never by colour alone.
export const SEAT_COLOURS = ["#7c3aed", "#0f766e", "#c2410c", "#be185d", "#475569", "#4d7c0f"];

export function seatColour(i) { return SEAT_COLOURS[i % SEAT_COLOURS.length]; }

/** Short, distinct labels for the seats ("Ann" → "A", "Bot 1" → "B1"), for tokens and pins. */
export function shortNames(names) {
  const first = (n) => {
    const words = String(n).trim().split(/\s+/).filter(Boolean);
    if (words.length > 1) return words.map((w) => w[0]).join("").slice(0, 3).toUpperCase();
    return (words[0] || "?").slice(0, 1).toUpperCase();
  };
  let out = names.map(first);
  if (new Set(out).size < out.length) {
    out = names.map((n, i) => {
      const two = String(n).replace(/\s+/g, "").slice(0, 2);
      return out.filter((x) => x === out[i]).length > 1 ? two : out[i];
    });
  }
  if (new Set(out).size < out.length) out = names.map((_, i) => String(i + 1));
  return out;
}

/** A seat token: rounded square with the seat's short label (shape apart from game pieces). */
export function seatToken(x, y, size, i, short, attrs = {}) {
  return svg("g", {class: "seat-token", ...attrs},
    rect(x - size / 2, y - size / 2, size, size, {rx: size * 0.22, fill: seatColour(i),
                                                   stroke: "#fff", "stroke-width": 2}),
    label(x, y + size * 0.17, short, size * (short.length > 2 ? 0.36 : 0.46),
          {"text-anchor": "middle", fill: "#fff", "font-weight": 700}));
}

/** Face-down cards: a small fanned stack with its count (hand sizes, hidden cards, decks). */
export function cardBacks(x, y, count, opts = {}) {
  const w = opts.w ?? 26, h = opts.h ?? 38, step = opts.step ?? 7, max = opts.max ?? 7;
  const fill = opts.fill ?? "#3b4a6b";
  const g = svg("g", {class: "backs"});
  const shown = Math.min(count, max);
  for (let k = 0; k < shown; k++) {
    g.append(rect(x + k * step, y, w, h, {rx: 3, fill, stroke: "#fff", "stroke-width": 1.5}));
  }
  if (!count) g.append(rect(x, y, w, h, {rx: 3, fill: "none", stroke: "#b8c0cc",
                                         "stroke-dasharray": "4 3"}));
  const tx = x + (shown ? (shown - 1) * step : 0) + w + 8;
  g.append(label(tx, y + h * 0.68, String(count), opts.size ?? 22,
                 {"font-weight": 700, fill: opts.ink ?? "#1d232a"}));
  return g;
}

/** Lay out `count` items of width `w` in `space`: the step between them (overlap if needed). */
export function stride(count, w, space, gap = 6) {
  if (count <= 1) return w + gap;
  return Math.min(w + gap, (space - w) / (count - 1));
}

// -- plain words ---------------------------------------------------------------------------------

export function seatName(view, i) {
  if (i === null || i === undefined) return "";
  return (view.seats || [])[i] ?? `seat ${i}`;
}

export function plural(n, one, many) { return `${n} ${n === 1 ? one : (many ?? one + "s")}`; }

const ROMAN = [["X", 10], ["IX", 9], ["V", 5], ["IV", 4], ["I", 1]];
export function roman(n) {
  if (n === 0) return "0";
  let out = "";
  for (const [r, v] of [["XX", 20], ...ROMAN]) while (n >= v) { out += r; n -= v; }
  return out;
}

/** Split `text` on the matches of `re` (global) and turn each match into a node via `make`. */
export function decorateText(text, re, make) {
  const out = [];
  let last = 0;
  for (const m of String(text).matchAll(re)) {
    if (m.index > last) out.push(text.slice(last, m.index));
    out.push(make(m[0], m));
    last = m.index + m[0].length;
  }
  if (last < text.length) out.push(text.slice(last));
  return out;
}
