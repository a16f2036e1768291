// Arcanum's seat panels: each seat's score, tags (turn, first, Devil, discards owed), hand
// size and hide strip (face-down cards, the ones the Sun revealed face up).

import {svg, label, rect, seatToken, cardBacks, stride, seatName} from "../../kit.js";
import {cardFace} from "./pieces.js";

export function seatPanel(view, st, i, w, h, opts) {
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
