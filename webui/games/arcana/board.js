// Arcana's table picture: the strip (round, phase, first player, turn, pack, watch deck,
// events), the result banner (the district being settled, the last one settled, or the
// winners), the districts side by side in the table's order (A … D, then the neutral one), and
// under them each seat's panel. Narrow (a phone): everything in one column, the seats two by
// two. Large type (a TV read from three metres): the same, wider, in larger letters.

import {svgRoot, at, rect} from "../../kit.js";
import {strip, banner} from "./head.js";
import {districtPanel} from "./district.js";
import {seatPanel, seatPanelHeight} from "./seats.js";

const MARGIN = 20;

// Panels side by side in rows of at most `per` (each row as tall as its tallest): the parts
// to append and the height used.
function rows(items, per, w, gap, draw) {
  const parts = [];
  let y = 0;
  for (let k = 0; k < items.length; k += per) {
    const row = items.slice(k, k + per);
    const cw = (w - (per - 1) * gap) / per;
    const drawn = row.map((item) => draw(item, cw));
    const h = Math.max(...drawn.map((d) => d.height));
    drawn.forEach((d, j) => {
      d.finish(h);
      parts.push(at(j * (cw + gap), y, d.g));
    });
    y += h + gap;
  }
  return {parts, height: Math.max(0, y - gap)};
}

function seatDrawer(view, st, opts) {
  return (i, w) => {
    const height = seatPanelHeight(view, st, i, w, opts);
    const out = {height, g: null, finish: (h) => { out.g = seatPanel(view, st, i, w, h, opts).g; }};
    return out;
  };
}

function districtDrawer(view, st, opts) {
  return (d, w) => districtPanel(view, st, d, w, opts);
}

export function board(view, ctx) {
  const st = view.state || {};
  const opts = {...ctx, big: ctx.narrow ? false : !!ctx.big};
  const narrow = !!ctx.narrow;
  const W = narrow ? 560 : opts.big ? 1900 : 1600;
  const inner = W - 2 * MARGIN;
  const gap = narrow ? 14 : 16;
  const districts = st.districts || [];
  const seats = (st.seats || []).map((_, i) => i);
  const parts = [];
  let y = 10;
  const head = strip(view, st, inner, opts);
  parts.push(at(MARGIN, y, head.g));
  y += head.height + 4;
  const news = banner(view, st, inner, opts);
  if (news.height) {
    parts.push(at(MARGIN, y, news.g));
    y += news.height + gap;
  }
  const perRow = narrow ? 1 : Math.max(1, districts.length);
  const placed = rows(districts, perRow, inner, gap, districtDrawer(view, st, opts));
  parts.push(at(MARGIN, y, ...placed.parts));
  y += placed.height + gap;
  if (seats.length) {
    const per = narrow ? 2 : seats.length;
    const people = rows(seats, per, inner, gap, seatDrawer(view, st, opts));
    parts.push(at(MARGIN, y, ...people.parts));
    y += people.height + gap;
  }
  const H = y + 4;
  return svgRoot(W, H, {class: "board arcana" + (narrow ? " narrow" : "")},
                 rect(0, 0, W, H, {fill: "#faf7f0"}), ...parts);
}
