// Arcana's seats in the picture: each seat's panel with its guild, its hand, deck and discard
// counts, the top card of its discard pile (public, G-28), its VP so far (what everyone has
// seen it own, G-36; exact at the end), its stakes, the stakes it set under its badge, its
// guild master and its objectives (a count during play; at the end each shown, met or not).
// Hazard: a seat's own entry carries private keys (face_down, hand_known, owned, exact vp) on
// its phone; nothing here draws them: the panel is what everyone sees.

import {svg, label, rect, seatName} from "../../kit.js";
import {sizes, seatMark, wrap, fit, textWidth, cardName, EM, EM_REGULAR} from "./pieces.js";

/** A seat's objectives in words: "2 secret objectives"; at the end "Old Families ✓ met". */
export function objectiveWords(objectives, over) {
  if (Array.isArray(objectives)) {
    if (!objectives.length) return "";
    if (!over) return `${objectives.length} secret objective${objectives.length === 1 ? "" : "s"}`;
    return "objectives: " + objectives.map((o) => `${cardName(o)} ${o.met ? "✓ met" : "✗ not met"}`)
                                      .join(", ");
  }
  const n = Number(objectives) || 0;
  return n ? `${n} secret objective${n === 1 ? "" : "s"}` : "";
}

/** The lines of seat `i`'s panel, each [text, style]. */
export function seatLines(view, st, i) {
  const s = (st.seats || [])[i] || {};
  const over = !!(view.over || st.phase === "over");
  const lines = [];
  lines.push([`hand ${s.hand ?? 0} · deck ${s.deck ?? 0} · discard ${s.discard ?? 0}`, "ink"]);
  if (s.discard_top) lines.push([`top of discard: ${cardName(s.discard_top)}`, "ink"]);
  const stakes = Number.isInteger(s.stakes) ? ` · ${s.stakes} stake${s.stakes === 1 ? "" : "s"}`
                                            : "";
  lines.push([over ? `${s.vp ?? 0} VP${stakes}` : `${s.vp ?? 0} VP so far${stakes}`, "strong"]);
  if ((s.set_aside || []).length) {
    lines.push([`under the badge: ${s.set_aside.map(cardName).join(", ")}`, "ink"]);
  }
  if (s.master) {
    lines.push([`master: ${cardName(s.master)}` + (s.master.used ? " (used this round)" : ""),
                "ink"]);
  }
  const obj = objectiveWords(s.objectives, over);
  if (obj) lines.push([obj, "soft"]);
  return lines;
}

/** Tags of seat `i`: first player, whose turn, winner. */
function tags(view, st, i) {
  const out = [];
  const over = !!(view.over || st.phase === "over");
  if (over && (st.winners || []).includes(i)) out.push(["★ winner", "#854d0e", "#ffffff"]);
  if (!over && st.phase === "intrigue" && st.active_seat === i) {
    out.push(["▶ turn", "#111827", "#ffffff"]);
  }
  if (!over && st.first_seat === i) out.push(["first player", "#14532d", "#ffffff"]);
  return out;
}

/** The height of a seat panel `w` wide (the tallest of the row sets the row). */
export function seatPanelHeight(view, st, i, w, opts) {
  return seatPanel(view, st, i, w, 0, opts).height;
}

/** Seat `i`'s panel, `w` × `h` (h 0: measure only): {g, height}. */
export function seatPanel(view, st, i, w, h, opts) {
  const z = sizes(opts);
  const s = (st.seats || [])[i] || {};
  const g = svg("g", {class: "seat-panel", "data-board-seat": i});
  const pad = 12;
  const tok = z.text + 8;
  const body = svg("g", {});
  // the name, and the guild beside it where it fits (else under it)
  const name = seatName(view, i);
  const nameW = Math.min(textWidth(name, z.text, 0.7), w - tok - 2 * pad - 10);
  body.append(seatMark(pad + tok / 2, pad + tok / 2, tok, i, opts),
              label(pad + tok + 10, pad + tok * 0.5 + z.text * 0.36,
                    fit(name, w - tok - 2 * pad - 10, z.text), z.text,
                    {class: "ink", "font-weight": 800}));
  let y = pad + tok + 6;
  if (s.guild_name) {
    const guild = `the ${s.guild_name}`;
    const gx = pad + tok + 10 + nameW + 12;
    if (gx + textWidth(guild, z.small, EM_REGULAR) <= w - pad) {
      body.append(label(gx, pad + tok * 0.5 + z.text * 0.36, guild, z.small, {class: "soft"}));
    } else {
      body.append(label(pad, y + z.small * 0.85, fit(guild, w - 2 * pad, z.small, EM_REGULAR),
                        z.small, {class: "soft"}));
      y += z.small + 8;
    }
  }
  // tags under the name
  let tx = pad;
  const tagH = z.small + 8;
  let tagged = false;
  for (const [text, bg, ink] of tags(view, st, i)) {
    const tw = textWidth(text, z.small, EM) + 16;
    if (tx > pad && tx + tw > w - pad) { tx = pad; y += tagH + 6; }
    body.append(rect(tx, y, tw, tagH, {rx: tagH / 2, fill: bg}),
                label(tx + 8, y + tagH / 2 + z.small * 0.36, text, z.small,
                      {fill: ink, "font-weight": 700}));
    tx += tw + 6;
    tagged = true;
  }
  if (tagged) y += tagH + 8;
  for (const [text, style] of seatLines(view, st, i)) {
    const em = style === "strong" ? EM : EM_REGULAR;
    for (const line of wrap(text, w - 2 * pad, z.small, 2, em)) {
      y += z.small;
      body.append(label(pad, y, line, z.small,
                        style === "strong" ? {class: "ink", "font-weight": 800}
                                           : {class: style === "soft" ? "soft" : "ink"}));
      y += 7;
    }
  }
  const height = y + pad;
  const active = st.phase === "intrigue" && st.active_seat === i && !view.over;
  g.append(rect(0, 0, w, Math.max(h, height), {rx: 14, fill: active ? "#ffffff" : "#f8fafc",
                                               stroke: active ? "#111827" : "#cbd5e1",
                                               "stroke-width": active ? 4 : 2}),
           body);
  return {g, height};
}
