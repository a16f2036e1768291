// Arcanum's play area (the turn's two cards, the decks and the discard piles) and the notes
// beside it (Judgement's tray, the Devil, the Tower, a sample board).

import {svg, label, rect, seatToken, cardBacks, seatName} from "../../kit.js";
import {cardFace, pawnPill, pillWidth, pawn, BIG} from "./pieces.js";

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

export function playArea(view, st, w, h, opts) {
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

export function sideNotes(view, st, w, opts) {
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
