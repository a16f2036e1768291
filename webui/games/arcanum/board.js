// Arcanum's table picture: the parts of webui/games/arcanum/ laid out on one SVG, wide (the
// seat panels along the bottom; large type leaves them out) or narrow (one column, for phones).

import {svg, svgRoot, at, rect, hatch} from "../../kit.js";
import {city} from "./city.js";
import {roundTrack, reputationTrack, vpTrack} from "./tracks.js";
import {playArea, sideNotes} from "./play.js";
import {seatPanel} from "./hands.js";

// -- the picture ---------------------------------------------------------------------------------

export function board(view, ctx) {
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
