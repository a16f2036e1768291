// King of the Elves' principalities: each seat's panel (name, crest, the dragon marker, hand,
// tokens left, purchases and escrow, its journey's state) with its villages in slot order, each
// village a card in its terrain's colour with its value, its gold and thief cards (owner's
// token and name) and an obstacle drawn across it; the current journey's marks on the
// villages: where the traveller is, the next village, the ones visited.

import {svg, label, rect, circle, cardBacks, seatName, seatColour} from "../../kit.js";
import {sizes, terrain, terrainIcon, specialWords, crestWords, ordinal, seatMark, cardType,
        fit} from "./pieces.js";

const TOKENS = 4;  // ownership tokens per crest (R-SETUP-3)

/** How the current journey touches the village at (seat, slot): {here, next, visits}. */
export function journeyMarks(st, seat, slot) {
  const j = st.journey;
  if (!j || st.phase !== "travel") return {};
  const same = (p) => p && p.seat === seat && (p.slot ?? 1) === slot;
  return {
    here: same(j.at),
    next: same(j.next) || !!(j.teleport && same(j.teleport.to)),
    teleport: !!(j.teleport && same(j.teleport.to)),
    visits: (j.visits || []).filter(same).length,
    traveller: j.seat,
  };
}

// A special card lying beside the village: a chip with its owner's token, the card in words.
function specialChip(view, sp, x, y, w, opts) {
  const z = sizes(opts);
  const kind = sp.type || cardType(sp.card);
  const fill = kind === "gold" ? "#fef3c7" : "#fde2e2";
  const ink = kind === "gold" ? "#713f12" : "#7f1d1d";
  const h = z.small + 14;
  const g = svg("g", {class: "special", "data-special": kind});
  g.append(rect(x, y, w, h, {rx: h / 2, fill, stroke: ink, "stroke-width": 1.5}));
  if (Number.isInteger(sp.owner)) {
    g.append(seatMark(x + h / 2, y + h / 2, h - 8, sp.owner, opts));
  }
  // "Bea's gold card", or "Bea's gold" where the chip is short
  const full = specialWords(view, sp);
  const words = full.length * z.small * 0.62 > w - h - 6 ? full.replace(/ card$/, "") : full;
  g.append(label(x + h + 2, y + h / 2 + z.small * 0.36, fit(words, w - h - 6, z.small), z.small,
                 {fill: ink, "font-weight": 700}),
           svg("title", {}, specialWords(view, sp)));
  return g;
}

// The obstacle laid across the village: a band over the card, rotated, with its owner's name.
function obstacleBand(view, sp, w, h, opts, chips, wordBelow) {
  const z = sizes(opts);
  const kind = sp.type || cardType(sp.card);
  const fill = kind === "sea_monster" ? "#1e3a5f" : "#5b3a1a";
  const bh = z.small + 16;
  // between the card's head (terrain, value) and the special cards along its foot
  const headEnd = 14 + z.value * 1.44 + (wordBelow ? z.small + 6 : 0);
  const footTop = h - chips * (z.small + 20) - 4;
  // Level where a gold and a thief card leave little room (a tilted band's ends rise and fall
  // by half its width times the tilt, onto the value or the cards); it must clear the cards.
  const tilt = chips >= 2 ? 0 : 6;
  const rise = (w / 2) * Math.sin((tilt * Math.PI) / 180);
  const mid = chips ? (headEnd + footTop) / 2 : Math.max(h * 0.55, headEnd + bh / 2 + 4);
  const cy = chips ? Math.min(mid, footTop - bh / 2 - rise) : mid;
  return svg("g", {class: "obstacle", "data-special": kind,
                   transform: `rotate(-${tilt} ${w / 2} ${cy})`},
    rect(-4, cy - bh / 2, w + 8, bh, {rx: 6, fill, stroke: "#fff", "stroke-width": 2,
                                      opacity: 0.95}),
    label(w / 2, cy + z.small * 0.36, fit(specialWords(view, sp), w - 8, z.small), z.small,
          {"text-anchor": "middle", fill: "#fff", "font-weight": 700}),
    svg("title", {}, `${specialWords(view, sp)} across the village`));
}

/** One village card, `w` × `h`, at the origin; `v` null draws a free slot. */
export function villageCard(view, st, seat, slot, v, w, h, opts) {
  const z = sizes(opts);
  const marks = journeyMarks(st, seat, slot);
  const g = svg("g", {class: "village", "data-village": `${seat}.${slot}`});
  if (!v) {
    g.append(rect(0, 0, w, h, {rx: 12, fill: "none", stroke: "#9aa3ad", "stroke-width": 2,
                               "stroke-dasharray": "8 6"}),
             label(w / 2, h / 2 + 8, `${ordinal(slot)} village`, z.small,
                   {"text-anchor": "middle", class: "soft"}));
    return g;
  }
  const t = terrain(v.terrain);
  g.append(rect(0, 0, w, h, {rx: 12, fill: t.fill, stroke: marks.here ? "#111827" : t.ink,
                             "stroke-width": marks.here ? 5 : 2}));
  if (marks.next) {
    g.append(rect(-7, -7, w + 14, h + 14, {rx: 16, fill: "none", stroke: "#1f4fd1",
                                           "stroke-width": 4, "stroke-dasharray": "12 7"}));
  }
  const r = z.value * 0.72;
  // the terrain's word beside its icon, or on a line of its own when the card is narrow
  const word = v.terrain || "village";
  const room = w - z.text * 1.5 - 2 * r - 30;
  const inHead = word.length * z.text * 0.66 <= room;
  g.append(terrainIcon(12 + z.text * 0.7, 12 + z.text * 0.7, z.text * 1.3, v.terrain),
           inHead ? label(14 + z.text * 1.5, 14 + z.text * 0.95, word, z.text,
                          {fill: t.ink, "font-weight": 700})
                  : label(12, 20 + 2 * r + z.small * 0.9, fit(word, w - 24, z.small * 1.1),
                          z.small, {fill: t.ink, "font-weight": 700}),
           circle(w - r - 10, r + 10, r, {fill: "#fde68a", stroke: "#854d0e", "stroke-width": 2.5}),
           label(w - r - 10, r + 10 + z.value * 0.35, String(v.value ?? "?"), z.value,
                 {"text-anchor": "middle", fill: "#422006", "font-weight": 800}),
           svg("title", {}, `${seatName(view, seat)}'s ${ordinal(slot)} village: ` +
                            `${v.terrain}, ${v.value} gold`));
  // gold and thief cards beside the village, along its foot
  const specials = [v.gold, v.thief].filter(Boolean);
  const chipH = z.small + 14;
  specials.forEach((sp, k) => {
    const y = h - (specials.length - k) * (chipH + 6) - 4;
    g.append(specialChip(view, sp, 8, y, w - 16, opts));
  });
  if (v.obstacle) g.append(obstacleBand(view, v.obstacle, w, h, opts, specials.length, !inHead));
  // the journey: the traveller's pawn where they stand, "next", and visits so far
  if (marks.here) {
    const tr = marks.traveller;
    g.append(circle(w / 2, -4, z.text * 0.85, {fill: seatColour(tr), stroke: "#fff",
                                               "stroke-width": 3}),
             label(w / 2, -4 + z.text * 0.3, opts.short[tr] || "", Math.max(z.small, z.text * 0.8),
                   {"text-anchor": "middle", fill: "#fff", "font-weight": 800}),
             svg("title", {}, `${seatName(view, tr)} is here`));
  }
  // after a removal (G-10): the referee has moved this village one pad right; the table must too
  const slid = st.phase === "planning" &&
               ((st.planning || {}).slides || []).some((x) => x.seat === seat && x.to === slot);
  if (slid) {
    const word = "move here: one pad right";
    const tw = Math.min(w + 10, z.small * (word.length * 0.62 + 1));
    g.append(rect(-6, -6, w + 12, h + 12, {rx: 16, fill: "none", stroke: "#b45309",
                                           "stroke-width": 4, "stroke-dasharray": "12 7"}),
             rect(w / 2 - tw / 2, -z.small * 0.9 - 6, tw, z.small + 10, {rx: 8, fill: "#9a3412"}),
             label(w / 2, -6 + z.small * 0.05, fit(word, tw - 8, z.small), z.small,
                   {"text-anchor": "middle", fill: "#fff", "font-weight": 700}));
  }
  if (marks.next) {
    const word = marks.teleport ? "teleport" : "next";
    const tw = z.small * (word.length * 0.62 + 1);
    g.append(rect(w / 2 - tw / 2, -z.small * 0.9 - 6, tw, z.small + 10,
                  {rx: 8, fill: "#1f4fd1"}),
             label(w / 2, -6 + z.small * 0.05, word, z.small,
                   {"text-anchor": "middle", fill: "#fff", "font-weight": 700}));
  }
  if (marks.visits) {
    // a tick on the card's corner: visited on this journey (a number when more than once)
    const rr = z.small * 0.8;
    g.append(circle(2, 2, rr, {fill: "#065f46", stroke: "#fff", "stroke-width": 2}),
             label(2, 2 + z.small * 0.36, marks.visits > 1 ? `${marks.visits}✓` : "✓",
                   z.small,
                   {"text-anchor": "middle", fill: "#fff", "font-weight": 800}),
             svg("title", {}, `visited ${marks.visits === 1 ? "once" : marks.visits + " times"}` +
                              " on this journey"));
  }
  return g;
}

// The tokens a seat has left to place this round: filled circles for the ones left.
function tokensLeft(x, y, left, crest, z, colour) {
  const g = svg("g", {class: "tokens"});
  const r = z.small * 0.45;
  for (let k = 0; k < TOKENS; k++) {
    g.append(circle(x + r + k * (2 * r + 5), y, r, k < left ? {fill: colour, stroke: "#fff",
                                                              "stroke-width": 1.5}
                                                          : {fill: "none", stroke: "#9aa3ad",
                                                             "stroke-width": 1.5,
                                                             "stroke-dasharray": "3 2"}));
  }
  g.append(svg("title", {}, `${left} of ${TOKENS} tokens left this round (${crestWords(crest)})`));
  return g;
}

/** A seat's tags: whose turn, the dragon marker, the journey done, the purse at the end. */
function tags(view, st, i) {
  const s = (st.seats || [])[i] || {};
  const out = [];
  const active = st.active_seat === i && !view.over;
  if (active) {
    out.push([st.phase === "travel" ? "▶ travelling" : "▶ planning", "#111827", "#fff"]);
  }
  if (st.start_seat === i && !view.over) out.push(["dragon", "#14532d", "#fff"]);
  if (s.travelled && st.phase === "travel" && !active) {
    out.push(["journey done", "#e2e8f0", "#1f2937"]);
  }
  if (st.phase === "travel" && st.journey && st.journey.escort === i) {
    out.push(["escorted", "#ccfbf1", "#134e4a"]);
  }
  if ((s.escrow ?? 0) > 0) out.push([`escrow ${s.escrow}`, "#fef3c7", "#713f12"]);
  if (view.over && s.gold !== undefined) out.push([`${s.gold} gold`, "#fde68a", "#422006"]);
  // with the table option public_gold: band, the rough figure an open pile of coins gives
  if (!view.over && Number.isInteger(s.gold_about)) {
    out.push([`${s.gold_about}+ gold`, "#fef9c3", "#422006"]);
  }
  if (view.over && (st.winners || []).includes(i)) out.push(["★ king", "#854d0e", "#fff"]);
  return out;
}

/** A seat's principality, `w` × `h`: its head, then its villages in slot order (`reverse`:
 * drawn right to left, for the far side of the table, so the road keeps going round). */
export function principality(view, st, i, w, h, opts, reverse = false) {
  const z = sizes(opts);
  const s = (st.seats || [])[i] || {};
  const active = st.active_seat === i && !view.over;
  const escorted = st.phase === "travel" && st.journey && st.journey.escort === i;
  const g = svg("g", {class: "principality", "data-board-seat": i});
  g.append(rect(0, 0, w, h, {rx: 16, fill: active ? "#ffffff" : "#f8fafc",
                             stroke: active ? "#111827" : "#cfd6df",
                             "stroke-width": active ? 4 : 2}));
  if (escorted) {
    g.append(rect(-5, -5, w + 10, h + 10, {rx: 20, fill: "none", stroke: "#0f766e",
                                           "stroke-width": 4, "stroke-dasharray": "3 5"}));
  }
  const head = z.title + 22;
  const tok = z.title + 8;
  g.append(seatMark(10 + tok / 2, 8 + tok / 2, tok, i, opts),
           label(18 + tok, 8 + tok * 0.72, fit(seatName(view, i), w * 0.34, z.title), z.title,
                 {class: "ink", "font-weight": 700}));
  // right side of the head: hand, tokens left
  const left = Math.max(0, TOKENS - (s.placed ?? 0));
  const tw = TOKENS * (z.small * 0.9 + 5);
  g.append(tokensLeft(w - 12 - tw, 8 + tok / 2, left, s.crest, z, seatColour(i)),
           cardBacks(w - 24 - tw - z.small * 3.6, 10, s.hand ?? 0,
                     {w: z.small * 0.9, h: z.small * 1.3, step: 4, max: 3, size: z.small}),
           svg("title", {}, `${seatName(view, i)}: ${s.hand ?? 0} cards in hand, ` +
                            `${crestWords(s.crest)}, ${left} tokens left`));
  // tags under the name
  let tx = 10;
  const ty = head + 2;
  const tagH = z.small + 10;
  for (const [t, bg, ink] of tags(view, st, i)) {
    const tw2 = 16 + t.length * z.small * 0.62;
    g.append(rect(tx, ty, tw2, tagH, {rx: tagH / 2, fill: bg}),
             label(tx + tw2 / 2, ty + tagH * 0.72, t, z.small,
                   {"text-anchor": "middle", fill: ink, "font-weight": 700}));
    tx += tw2 + 6;
  }
  // the crest's words where the tags leave room (the tokens' circles carry it too)
  if (s.crest && tx + crestWords(s.crest).length * z.small * 0.6 < w - 12) {
    g.append(label(w - 12, ty + tagH * 0.72, crestWords(s.crest), z.small,
                   {"text-anchor": "end", class: "soft"}));
  }
  if (view.over) return g;  // the table is swept: no villages
  // villages in slot order
  const slots = Math.max((s.villages || []).length, slotCount(st));
  const vy = ty + tagH + 16;
  const gap = 14;
  const vw = (w - 20 - (slots - 1) * gap) / slots;
  const vh = h - vy - 10;
  for (let k = 0; k < slots; k++) {
    const col = reverse ? slots - 1 - k : k;
    const x = 10 + col * (vw + gap);
    const card = villageCard(view, st, i, k + 1, (s.villages || [])[k] || null, vw, vh, opts);
    g.append(svg("g", {transform: `translate(${x} ${vy})`}, card));
  }
  return g;
}

/** Village slots per principality: 3 with two players (unless the option says 2), else 2. */
export function slotCount(st) {
  const n = (st.seats || []).length;
  const opt = (st.options || {}).two_player_villages;
  return n === 2 && Number(opt ?? 3) === 3 ? 3 : 2;
}

