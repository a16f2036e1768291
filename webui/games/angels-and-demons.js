// Angels & Demons' table view: the talon and the deck in the middle, each seat's laid sets,
// discard row, hand size and "waiting" token around it, the going-out and flip pads, scores.
// Keys of view.state: docs/games/angels-and-demons.md ("The public view").

import {registry, el, svg, svgRoot, at, label, rect, circle, seatToken, cardBacks, stride,
        seatName, plural, decorateText} from "../kit.js";

// Kinds are told apart by symbol, name and tint; red copies by red ink, a red corner and a
// diamond under the number (the one that shows on a fanned card).
export const KINDS = {
  H: {name: "Human", symbol: "☺", tint: "#f7eedd", edge: "#a8803f"},
  A: {name: "Angel", symbol: "✧", tint: "#e2eefb", edge: "#2f74b5"},
  D: {name: "Demon", symbol: "♆", tint: "#f0e3f5", edge: "#7b3a9c"},
  I: {name: "Item", symbol: "❖", tint: "#dff3ec", edge: "#0f766e"},
};
const RED = "#c81e1e";
const CARD_ID = /\b(?:IT[1-4](?:c|p[1-3])|[HAD][1-7](?:b[1-3]|r))\b/g;

/** What a card id means: {kind, name, red, conditional, short, words}. */
export function card(id) {
  const s = String(id);
  let m = /^([HAD])([1-7])(?:b([1-3])|(r))$/.exec(s);
  if (m) {
    const k = KINDS[m[1]];
    const red = !!m[4];
    return {kind: m[1], k, name: m[2], red, conditional: false, short: `${k.symbol}${m[2]}`,
            words: `${k.name} ${m[2]}${red ? " (red)" : ""}`};
  }
  m = /^IT([1-4])(c|p([1-3]))$/.exec(s);
  if (m) {
    const conditional = m[2] === "c";
    return {kind: "I", k: KINDS.I, name: `T${m[1]}`, red: false, conditional,
            short: `${KINDS.I.symbol}T${m[1]}${conditional ? "★" : ""}`,
            words: `Item T${m[1]}${conditional ? " (conditional)" : ""}`};
  }
  return {kind: "?", k: {name: "?", symbol: "?", tint: "#eee", edge: "#999"}, name: s, red: false,
          conditional: false, short: s, words: s};
}

function chipStyle(c) {
  return `background:${c.k.tint};box-shadow:inset 0 0 0 1.5px ${c.k.edge};color:${c.red ? RED : "#111827"}`;
}

function chipText(c) {
  return [el("span", {"aria-hidden": "true"}, c.k.symbol),
          `${c.kind === "I" ? "Item " + c.name : c.k.name + " " + c.name}${c.red ? " red" : ""}` +
          (c.conditional ? " ★" : "")];
}

/** A card as an HTML chip: its kind's symbol and name, red ink for a red copy. */
function chip(id) {
  const c = card(id);
  return el("span", {class: "chip ad-card", title: `${c.words} · ${id}`, "data-card-id": id,
                     style: chipStyle(c)},
            chipText(c));
}

/** A card face in SVG, w wide (height 1.45 w). */
function face(x, y, id, w, attrs = {}) {
  const h = w * 1.45;
  const c = card(id);
  const ink = c.red ? RED : "#111827";
  const {big, ...rest} = attrs;
  const g = svg("g", {class: "card", "data-card-face": id, ...rest},
    svg("title", {}, `${c.words} (${id})`),
    rect(x, y, w, h, {rx: w * 0.1, fill: c.k.tint, stroke: c.red ? RED : c.k.edge,
                      "stroke-width": c.red ? w * 0.08 : w * 0.05}),
    label(x + w * 0.1, y + h * 0.27, c.name, w * (c.name.length > 1 ? 0.36 : 0.42),
          {fill: ink, "font-weight": 800}),
    label(x + w / 2, y + h * 0.74, c.k.symbol, w * 0.5, {"text-anchor": "middle", fill: c.k.edge}));
  if (c.red) {
    g.append(svg("path", {d: `M${x + w - w * 0.34} ${y}h${w * 0.24}a${w * 0.1} ${w * 0.1} 0 0 1 ${w * 0.1} ${w * 0.1}v${w * 0.24}z`, fill: RED}));
    // In a fan only the card's left strip shows: a diamond under the number says "red" to
    // eyes that do not tell the ink apart.
    const dx = x + w * 0.24, dy = y + h * 0.42, r = w * 0.13;
    g.append(svg("path", {d: `M${dx} ${dy - r}L${dx + r} ${dy}L${dx} ${dy + r}L${dx - r} ${dy}Z`,
                          fill: RED, stroke: "#fff", "stroke-width": w * 0.03,
                          class: "red-mark"}));
  }
  if (c.conditional && attrs.big) {
    // large type: the star under the name (at its size it would run into the name beside it)
    g.append(label(x + w * 0.1, y + h * 0.52, "★", w * 0.4, {fill: "#92400e"}));
  } else if (c.conditional) {
    g.append(label(x + w * 0.9, y + h * 0.27, "★", w * 0.3, {"text-anchor": "end", fill: "#b45309"}));
  }
  return g;
}

const PHASES = {deal: "Dealing the talon", take: "Take a card from the talon",
  refill: "Refilling the talon", act: "Go out, lay a set or discard", lay: "Laying a set",
  draw: "Drawing after a set", mine: "“Mine!”: laying the claimed set", out: "Going out",
  flip: "Flips for points", round_over: "Round over", over: "Game over"};

// -- the picture ---------------------------------------------------------------------------------

// The smallest letters of the picture in large type, in the picture's units: a 1600-unit-wide
// picture shown about 1400 px wide on a 1080p TV draws them at about 23 CSS px.
const BIG = 26;

/** Place groups of the given widths in rows of `maxW`; returns [{x, y}] and the height used. */
function flow(widths, maxW, rowH, gap) {
  let x = 0, y = 0;
  const spots = widths.map((w) => {
    if (x > 0 && x + w > maxW) { x = 0; y += rowH + gap; }
    const spot = {x, y};
    x += w + gap;
    return spot;
  });
  return {spots, height: widths.length ? y + rowH : rowH};
}

function seatArea(view, st, i, w, h, opts) {
  const s = (st.seats || [])[i] || {};
  const active = st.active_seat === i && !view.over;
  const cw = opts.cw;
  const ch = cw * 1.45;
  const g = svg("g", {class: "seat-zone", "data-board-seat": i});
  const name = seatName(view, i);
  const big = !!opts.big;
  // large type (read from across the room): every word at BIG or more, the cards wider
  const B = big ? BIG : 0;
  const nameSize = big ? 30 : 23;
  g.append(seatToken(big ? 30 : 26, big ? 30 : 26, big ? 40 : 32, i, opts.short[i]),
           label(big ? 58 : 50, big ? 40 : 35, name, nameSize, {class: "ink", "font-weight": 700}),
           label(w - 14, 40, String((view.scores || [])[i] ?? s.score ?? 0), big ? 40 : 36,
                 {"text-anchor": "end", class: "ink", "font-weight": 800}));
  if (active) {
    const px = (big ? 58 : 50) + Math.min(name.length, 16) * nameSize * 0.68 + 12;
    const pw = big ? 112 : 70, ph = big ? 34 : 26;
    g.append(rect(px, big ? 13 : 14, pw, ph, {rx: ph / 2, fill: "#111827"}),
             label(px + pw / 2, big ? 39 : 32, "▶ turn", B || 15,
                   {"text-anchor": "middle", fill: "#fff", "font-weight": 700}));
  }
  // second line: the hand, then the "waiting" token
  const hy = big ? 84 : 74;
  g.append(label(14, hy, "hand", B || 15, {class: "soft", "font-weight": 700}),
           cardBacks(big ? 96 : 58, hy - 22 - (big ? 6 : 0), s.hand ?? 0,
                     big ? {w: 24, h: 35, step: 6, max: 8, size: B}
                         : {w: 20, h: 29, step: 5, max: 8, size: 19}),
           svg("title", {}, `${plural(s.hand ?? 0, "card")} in hand`));
  const wx = big ? 262 : 200, wr = big ? 18 : 14;
  g.append(svg("g", {class: "wait-token", "data-waiting": s.waiting ? "yes" : "no"},
    svg("title", {}, s.waiting ? "declared waiting for one card" : "not waiting"),
    circle(wx, hy - 8, wr, {fill: s.waiting ? "#f59e0b" : "none",
                            stroke: s.waiting ? "#92400e" : "#cbd5e1",
                            "stroke-width": 2, "stroke-dasharray": s.waiting ? null : "4 3"}),
    label(wx, hy - 8 + wr * 0.42, "W", big ? 20 : 16, {"text-anchor": "middle", "font-weight": 800,
                                                       fill: s.waiting ? "#111827" : "#b6bfcb"}),
    s.waiting ? label(wx + wr + 8, hy, "waiting", B || 16, {fill: "#92400e", "font-weight": 700})
              : null));
  // laid sets (and a set being laid), then the discard row
  const top = big ? 104 : 96;
  const sets = (s.melds || []).map((m) => ({cards: m, laying: false}));
  if ((s.laying || []).length) sets.push({cards: s.laying, laying: true});
  const discards = s.discards || [];
  const claim = st.claim && st.claim.discarder === i ? st.claim.card : null;
  // a tall area (or one sized to its content, h null): sets above discards
  const side = h === null || h - top > 2 * (ch + 24) + 10;
  const colW = side ? w - 28 : (w - 28) / 2 - 10;
  const setStep = cw * (big ? 0.62 : 0.5);
  const widths = sets.map((set) => cw + (Math.max(set.cards.length, set.laying ? 3 : 1) - 1) * setStep);
  const placed = flow(widths, colW, ch, 10);
  const setY = top + (big ? 28 : 18);
  g.append(label(14, setY - 5, "sets", B || 14, {class: "soft", "font-weight": 700}));
  sets.forEach((set, k) => {
    const {x, y} = placed.spots[k];
    const grp = svg("g", {class: set.laying ? "set laying" : "set"});
    if (set.laying) {
      grp.append(rect(14 + x - 4, setY + y - 4, widths[k] + 8, ch + 8,
                      {rx: 8, fill: "none", stroke: "#64748b", "stroke-width": 2, "stroke-dasharray": "5 4"}));
    }
    set.cards.forEach((c, j) => grp.append(face(14 + x + j * setStep, setY + y, c, cw, {big})));
    g.append(grp);
  });
  if (!sets.length) g.append(label(14, setY + ch / 2 + 6, "—", B || 18, {class: "soft"}));
  const dx0 = side ? 14 : 14 + colW + 20;
  const disY = side ? setY + placed.height + (big ? 40 : 30) : setY;
  g.append(label(dx0, disY - 5, "discards", B || 14, {class: "soft", "font-weight": 700}));
  // the discard row: overlapped to fit, wrapped over two rows in a tall area when needed
  const perRow = side && discards.length * (cw + 5) > colW ? Math.ceil(discards.length / 2) : discards.length;
  const dstep = stride(perRow, cw, colW, 5);
  discards.forEach((c, k) => {
    const row = Math.floor(k / Math.max(perRow, 1));
    const dx = dx0 + (k - row * perRow) * dstep;
    const dy = disY + row * (ch + 10);
    if (c === claim && k === discards.length - 1) {
      g.append(rect(dx - 5, dy - 5, cw + 10, ch + 10, {rx: 8, fill: "#fde68a", stroke: "#d97706",
                                                       "stroke-width": 3}));
    }
    g.append(face(dx, dy, c, cw, {big}));
  });
  if (!discards.length) g.append(label(dx0, disY + ch / 2 + 6, "—", B || 18, {class: "soft"}));
  const rows = perRow && discards.length > perRow ? 2 : 1;
  const height = h ?? disY + rows * ch + (rows - 1) * 10 + 16;
  g.prepend(rect(0, 0, w, height, {rx: 16, fill: active ? "#ffffff" : "#f8fafc",
                                   stroke: active ? "#111827" : "#cfd6df", "stroke-width": active ? 4 : 2}));
  g.areaHeight = height;
  return g;
}

function centre(view, st, w, h, opts) {
  const g = svg("g", {class: "centre"});
  g.append(rect(0, 0, w, h, {rx: 26, fill: "#1f5f4a", stroke: "#174a3a", "stroke-width": 3}));
  const n = (view.seats || []).length;
  const talonSize = n + 1;
  const talon = st.talon || [];
  const cw = Math.min(74, (w - 220) / (talonSize + 0.5) - 12);
  const ch = cw * 1.45;
  const info = [`Round ${st.round ?? "–"} of ${st.max_rounds ?? "–"}`,
                st.target_points ? `first to ${st.target_points} points` : null]
    .filter(Boolean).join(" · ");
  const B = opts.big ? BIG : 0;
  g.append(label(w / 2, 36, info, B || 20, {"text-anchor": "middle", fill: "#d1fae5", "font-weight": 600}));
  // the deck
  const deck = st.deck ?? 0;
  g.append(label(30, 72, "deck", B || 16, {fill: "#a7f3d0", "font-weight": 700}),
           rect(30, 80, cw, ch, {rx: 7, fill: "#0b3b2d", stroke: "#a7f3d0", "stroke-width": 2}),
           rect(34, 84, cw - 8, ch - 8, {rx: 5, fill: "none", stroke: "#34d399", "stroke-dasharray": "3 3"}),
           label(30 + cw / 2, 80 + ch / 2 + 10, String(deck), 28,
                 {"text-anchor": "middle", fill: "#fff", "font-weight": 800}));
  // the talon
  const tx = 30 + cw + 50;
  g.append(label(tx, 72, "talon", B || 16, {fill: "#a7f3d0", "font-weight": 700}));
  for (let k = 0; k < Math.max(talonSize, talon.length); k++) {
    const x = tx + k * (cw + 12);
    if (talon[k]) g.append(face(x, 80, talon[k], cw, {big: opts.big}));
    else g.append(rect(x, 80, cw, ch, {rx: 7, fill: "none", stroke: "#6ee7b7", "stroke-width": 2,
                                       "stroke-dasharray": "6 5", opacity: 0.7}));
  }
  // the claimable discard, going out, flips
  let y = 80 + ch + 30;
  const out = st.going_out;
  if (st.claim && !out) {
    const who = seatName(view, st.claim.discarder);
    const tx2 = 30 + cw * 0.8 + 16;
    g.append(face(30, y, st.claim.card, cw * 0.8, {big: opts.big}),
             label(tx2, y + 30, `${who}'s discard can be claimed`, B || 21,
                   {fill: "#fde68a", "font-weight": 700}));
    const how = "“mine!” with two cards that make a set, or go out on it";
    const lines = opts.big ? ["“mine!” with two cards that make a set,", "or go out on it"] : [how];
    lines.forEach((line, k) => g.append(label(tx2, y + 62 + k * 32, line, B || 17,
                                              {fill: "#d1fae5"})));
  }
  if (!out && !st.claim) {
    // the two shared pads of the mat, empty
    const pw = (w - 90) / 2;
    [["going-out pad", 30], ["flip pad", 60 + pw]].forEach(([word, x]) => {
      g.append(rect(x, y, pw, h - y - 24, {rx: 14, fill: "none", stroke: "#6ee7b7", "stroke-width": 2,
                                           "stroke-dasharray": "8 6", opacity: 0.6}),
               label(x + pw / 2, y + (h - y - 24) / 2 + 7, word, B || 20,
                     {"text-anchor": "middle", fill: "#a7f3d0", opacity: 0.8}));
    });
  }
  if (out) {
    const who = seatName(view, out.seat);
    const via = out.via === "claim" ? `on ${seatName(view, out.discarder)}'s discard` : "by self-draw";
    const ow = Math.min(52, (w - 60) / 8.6 - 6);
    g.append(label(30, y + 2, `${who} goes out ${via}`, B || 21, {fill: "#fde68a", "font-weight": 700}));
    (out.cards || []).forEach((c, k) => g.append(face(30 + k * (ow + 6), y + 14, c, ow,
                                                      {big: opts.big})));
    const flips = out.flips || [];
    let fx = 30 + 8 * (ow + 6) + 20, fy = y;
    if (fx + 3 * (ow + 6) > w) { fx = 30; fy = y + ow * 1.45 + 50; }  // no room: below
    if (flips.length || st.phase === "flip") {
      g.append(label(fx, fy + 2, "flips", B || 18, {fill: "#a7f3d0", "font-weight": 700}));
      flips.forEach((f, k) => {
        const [c, pts] = Array.isArray(f) ? f : [f, null];
        g.append(face(fx + k * (ow + 6), fy + 14, c, ow, {big: opts.big}));
        if (pts !== null) g.append(label(fx + k * (ow + 6) + ow / 2, fy + 14 + ow * 1.45 + 26,
                                         `+${pts}`, B || 18, {"text-anchor": "middle", fill: "#fff", "font-weight": 800}));
      });
    }
  }
  return g;
}

const SPOTS = {
  2: ["bottom", "top"],
  3: ["bottom", "left", "right"],
  4: ["bottom", "left", "top", "right"],
};

function board(view, ctx) {
  const st = view.state || {};
  const n = (view.seats || []).length;
  if (ctx.narrow) {
    const W = 620;
    const parts = [];
    const ch = 330;
    parts.push(at(6, 6, centre(view, st, W - 12, ch, ctx)));
    let y = ch + 16;
    for (let i = 0; i < n; i++) {
      const area = seatArea(view, st, i, W - 12, null, {...ctx, cw: 50});
      parts.push(at(6, y, area));
      y += area.areaHeight + 10;
    }
    return svgRoot(W, y, {class: "board angels-and-demons narrow"}, parts);
  }
  const W = 1600, H = 930;
  const pic = svgRoot(W, H, {class: "board angels-and-demons"});
  pic.append(rect(0, 0, W, H, {fill: "#f3f1ec"}));
  const spots = SPOTS[n] || SPOTS[4];
  const box = {
    bottom: [400, 700, 800, 222], top: [400, 8, 800, 222],
    left: [8, 8, 380, 914], right: [1212, 8, 380, 914],
  };
  // the middle of the table takes whatever the seats leave free
  const has = (spot) => spots.slice(0, n).includes(spot);
  const cx0 = has("left") ? 400 : 8, cx1 = has("right") ? 1200 : 1592;
  const cy0 = has("top") ? 240 : 8, cy1 = has("bottom") ? 690 : 922;
  pic.append(at(cx0, cy0, centre(view, st, cx1 - cx0, cy1 - cy0, ctx)));
  for (let i = 0; i < n; i++) {
    const spot = spots[i % spots.length];
    let [x, y, w, h] = box[spot];
    if (n === 2) { x = 8; w = 1584; }  // two seats face each other across the whole table
    const side = spot === "left" || spot === "right";
    const cw = ctx.big ? (side ? 64 : 58) : side ? 60 : 46;
    pic.append(at(x, y, seatArea(view, st, i, w, h, {...ctx, cw})));
  }
  return pic;
}

// -- the page's other parts ----------------------------------------------------------------------

function phase(view) {
  const st = view.state || {};
  const bits = [];
  if (st.round) bits.push(`Round ${st.round} of ${st.max_rounds}`);
  if (PHASES[st.phase]) bits.push(PHASES[st.phase]);
  if (st.target_points && !view.over) bits.push(`first to ${st.target_points} points`);
  return bits.join(" · ");
}

function seatInfo(view, i) {
  const s = ((view.state || {}).seats || [])[i] || {};
  const out = [el("span", {}, `hand ${s.hand ?? 0}`)];
  if (s.waiting) out.push(el("strong", {}, "waiting for one card"));
  if ((s.melds || []).length) out.push(el("span", {}, plural(s.melds.length, "set")));
  if (s.go_outs) out.push(el("span", {}, `went out ${s.go_outs}×`));
  return out;
}

function myCards(view, seat) {
  const st = view.state || {};
  let taken = st.taken;
  if (taken && !Array.isArray(taken)) taken = taken[seat] ?? taken[String(seat)];
  taken = Array.isArray(taken) ? taken : [];
  return {
    title: "Cards you took from the talon",
    empty: "None of the talon cards you took is in your hand now.",
    cards: taken.map((id) => {
      const c = card(id);
      return {id, title: `${c.words} (${id})`, node: chipText(c), style: chipStyle(c)};
    }),
  };
}

function answerLabel(prompt, option, view) {
  const o = String(option);
  if (prompt.id === "draw_count") return `draw ${o}`;
  if (prompt.id === "claimant" && /^\d+$/.test(o)) return seatName(view, Number(o));
  if (prompt.id === "waiting" && o === "yes") return "yes, I am waiting";
  if (prompt.id === "claim" && o === "pass") return "pass: nobody claims";
  return o;
}

function decorate(text) {
  return decorateText(text, CARD_ID, (id) => chip(id));
}

function breakdown(view) {
  const st = view.state || {};
  const n = (view.seats || []).length;
  const rows = Array.from({length: n}, () => ({values: {}, outs: 0, self: 0}));
  const add = (i, key, v) => { if (rows[i] && v) rows[i].values[key] = (rows[i].values[key] || 0) + v; };
  for (const r of st.history || []) {
    if (r.end !== "out" || !rows[r.seat]) continue;
    rows[r.seat].outs += 1;
    if (r.via !== "claim") rows[r.seat].self += 1;
    add(r.seat, "base", r.base || 0);
    add(r.seat, "reds", (r.reds || []).reduce((a, x) => a + (Number(x[1]) || 0), 0));
    add(r.seat, "items", r.items || 0);
    add(r.seat, "flips", (r.flips || []).reduce((a, x) => a + (Number(x[1]) || 0), 0));
    if (r.penalty && Number.isInteger(r.discarder)) add(r.discarder, "penalty", -r.penalty);
  }
  // A server that sums the points by source (seats[i].points_by_source) is the authority.
  ((st.seats || [])).forEach((seat, i) => {
    const src = seat && seat.points_by_source;
    if (rows[i] && src && typeof src === "object") {
      rows[i].values = {};
      for (const [key, v] of Object.entries(src)) if (Number(v)) rows[i].values[key] = Number(v);
    }
  });
  return {
    columns: [{key: "base", label: "Going out"}, {key: "reds", label: "Red cards"},
              {key: "items", label: "Items"}, {key: "flips", label: "Flips"},
              {key: "penalty", label: "Penalties", title: "paid as the discarder (advanced game)"}],
    rows: rows.map((r) => ({values: r.values,
                            detail: r.outs ? `went out ${r.outs}×` +
                                             (r.self ? `, ${r.self} by self-draw` : "") : ""})),
  };
}

function history(view) {
  const rounds = ((view.state || {}).history || []).slice().reverse();
  if (!rounds.length) return null;
  const name = (i) => seatName(view, i);
  return el("div", {},
    el("h2", {}, "Rounds"),
    el("ol", {reversed: true}, rounds.map((r) => {
      if (r.end !== "out") {
        return el("li", {}, el("strong", {}, `Round ${r.round}`),
                  `: ended with no points (${r.end === "exhausted" ? "the deck ran out" : r.end})`);
      }
      const parts = [`going out ${r.base}`];
      for (const [c, pts] of r.reds || []) parts.push([chip(c), ` +${pts}`]);
      if (r.items) parts.push(`items +${r.items}`);
      for (const [c, pts] of r.flips || []) parts.push(["flip ", chip(c), ` +${pts}`]);
      return el("li", {},
        el("strong", {}, `Round ${r.round}: ${name(r.seat)} +${r.gain}`),
        r.via === "claim" ? ` on ${name(r.discarder)}'s discard` : " by self-draw",
        r.penalty ? ` (${name(r.discarder)} −${r.penalty})` : "",
        el("div", {class: "detail"}, parts.flatMap((p, k) => [k ? " · " : "", p])),
        el("div", {class: "detail cards"}, (r.hand || []).map(chip)));
    })));
}

registry["angels-and-demons"] = {
  title: "Angels & Demons",
  board,
  phase,
  seat: seatInfo,
  myCards,
  answerLabel,
  decorate,
  breakdown,
  history,
  quietPrompts: ["waiting"],
};
