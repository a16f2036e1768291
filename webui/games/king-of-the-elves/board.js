// King of the Elves' table picture: the principalities in seating order round the table (the
// first half along the top, left to right, the rest along the bottom, right to left, so the
// road runs clockwise round the centre), the centre with the journey or the planning phase,
// and the strip of round, phase, deck and piles. Narrow (a phone): one column in seat order.

import {svg, svgRoot, at, rect, label} from "../../kit.js";
import {principality, slotCount} from "./realm.js";
import {centre, strip, deckWords} from "./journey.js";
import {sizes} from "./pieces.js";

// The road round the table: a loop behind the principalities with an arrow on each side.
function road(x, y, w, h) {
  const g = svg("g", {class: "road", "aria-hidden": "true"});
  g.append(rect(x, y, w, h, {rx: 60, fill: "none", stroke: "#e4dccb", "stroke-width": 14}));
  const mid = y + h / 2;
  const arrow = (cx, down) => svg("path", {
    d: down ? `M${cx - 14} ${mid - 10} L${cx} ${mid + 10} L${cx + 14} ${mid - 10}`
            : `M${cx - 14} ${mid + 10} L${cx} ${mid - 10} L${cx + 14} ${mid + 10}`,
    fill: "none", stroke: "#9a8a66", "stroke-width": 5, "stroke-linecap": "round"});
  g.append(arrow(x + w, true), arrow(x, false));
  return g;
}

// A principality's height: its head, then its villages (none once the game is over: the
// table has been swept, and the purses are what counts).
function principalityHeight(opts, slots, over) {
  const z = sizes(opts);
  const top = z.title + 22 + 2 + z.small + 10 + 16;
  if (over) return top;
  const village = opts.narrow ? (slots > 2 ? 200 : 190) : (opts.big ? 214 : 190);
  return top + village + 10;
}

function narrowBoard(view, st, opts) {
  const W = 560;
  const n = (st.seats || []).length;
  const z = sizes(opts);
  const parts = [];
  let y = 6;
  const top = strip(view, st, W - 20, opts);
  parts.push(at(10, y, top.g));
  y += top.height;
  const deck = deckWords(st);
  if (deck) {
    parts.push(label(14, y + z.small, deck, z.small, {class: "soft"}));
    y += z.small + 12;
  }
  const mid = centre(view, st, W - 20, 0, opts);
  parts.push(at(10, y, mid.g));
  y += mid.height + 24;
  const ph = principalityHeight(opts, slotCount(st), view.over);
  for (let i = 0; i < n; i++) {
    parts.push(at(10, y, principality(view, st, i, W - 20, ph, opts)));
    y += ph + 24;
  }
  return svgRoot(W, y, {class: "board king-of-the-elves narrow"}, parts);
}

export function board(view, ctx) {
  const st = view.state || {};
  const opts = {...ctx};
  if (ctx.narrow) return narrowBoard(view, st, {...opts, big: false});
  opts.narrow = false;
  const n = Math.max(1, (st.seats || []).length);
  const W = 1600;
  const gap = opts.big ? 16 : 24;
  const topN = Math.ceil(n / 2);
  const bottomN = n - topN;
  const slots = slotCount(st);
  const ph = principalityHeight(opts, slots, view.over);
  const pw = Math.min((W - 40 - (topN - 1) * gap) / topN, slots * 360 + 20);
  const head = strip(view, st, W - 40, opts);
  const topY = head.height + 20;
  const ch = opts.big ? 258 : 247;  // the journey's lines, one of them on two
  const midY = topY + ph + gap;
  const bottomY = midY + ch + gap;
  const H = (bottomN ? bottomY + ph : midY + ch) + 10;
  const pic = svgRoot(W, H, {class: "board king-of-the-elves"});
  pic.append(rect(0, 0, W, H, {fill: "#faf7f0"}), at(20, 8, head.g));
  if (bottomN) pic.append(road(40, topY + ph / 2, W - 80, bottomY + ph / 2 - (topY + ph / 2)));
  // the centre first, so that the journey's marks on the villages lie over nothing
  pic.append(at(120, midY, centre(view, st, W - 240, ch, opts).g));
  const row = (count) => (W - count * pw - (count - 1) * gap) / 2;
  for (let k = 0; k < topN; k++) {
    pic.append(at(row(topN) + k * (pw + gap), topY, principality(view, st, k, pw, ph, opts)));
  }
  for (let k = 0; k < bottomN; k++) {
    // seat topN + k, placed from the right: the far side of the table, seen from the TV
    const x = row(bottomN) + (bottomN - 1 - k) * (pw + gap);
    pic.append(at(x, bottomY, principality(view, st, topN + k, pw, ph, opts, true)));
  }
  return pic;
}
