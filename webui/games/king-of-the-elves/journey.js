// King of the Elves' centre of the table: the current journey (where the traveller is, the
// next village and what it costs, the move under way, the escort, the cards spent, the gold
// collected and paid, the villages visited in order), or the planning phase's state (the run
// of passes, the action in progress, villages to slide), or the result; and the strip along
// the top: round and phase, the deck's name, the draw and discard piles.

import {svg, label, rect, cardBacks, seatName, plural} from "../../kit.js";
import {sizes, villageAt, ownedVillage, costWords, travelWords, gold, cardType, seatMark,
        fit, wrap, EM_REGULAR} from "./pieces.js";

/** Words for the place {seat, slot} on the path: "Bea's forest village (4)", or the castle. */
export function placeWords(view, st, place) {
  if (!place) return "the castle";
  return ownedVillage(view, place.seat, villageAt(st, place));
}

/** The number of cards in a visit or a journey (a count, or a list of card ids). */
export function countCards(cards) {
  if (Array.isArray(cards)) return cards.length;
  return Number(cards) || 0;
}

/** The cards of a visit in words: "2 rafts", "1 dragon", "4 cards" (of several types). */
export function cardsWords(cards) {
  if (!Array.isArray(cards) || !cards.length) return "";
  const types = new Set(cards.map(cardType));
  if (types.size > 1) return plural(cards.length, "card");
  return travelWords([...types][0], cards.length);
}

/** The gold a visit brought from the bank (its income, gold card and bonus). */
export function visitIncome(v) {
  const amount = (x) => (typeof x === "number" ? x : x ? Number(x.amount ?? 0) : 0);
  const bonus = v.bonus === true ? 10 : amount(v.bonus);
  return amount(v.income) + amount(v.gold_card) + bonus;
}

/** The gold a visit cost the traveller: a thief's 2 and a teleport's 3. */
export function visitPaid(v) {
  const thief = typeof v.thief === "number" ? v.thief
              : v.thief ? Number(v.thief.amount ?? 2) : 0;
  const tele = v.teleport === true ? 3 : typeof v.teleport === "number" ? v.teleport : 0;
  return thief + tele;
}

/** The direction in words: clockwise, or turned around. */
function directionWords(d) {
  if (d === -1 || d === "counterclockwise" || d === "anticlockwise" || d === "back") {
    return "turned around (anticlockwise)";
  }
  return "clockwise";
}

/** Lines of the journey panel, each [text, style]. */
export function journeyLines(view, st) {
  const j = st.journey || {};
  const lines = [];
  lines.push([`at ${placeWords(view, st, j.at)}` + (j.at ? "" : " (setting out)"), "text"]);
  if (j.teleport && typeof j.teleport === "object") {
    if (!j.teleport.to) lines.push(["teleporting: choosing where to", "strong"]);
    else {
      lines.push([`teleporting to ${placeWords(view, st, j.teleport.to)}`, "strong"]);
      const laid = countCards(j.teleport.cards);
      lines.push([`${laid} of 4 travel cards laid; 3 gold to the bank on arrival`, "text"]);
    }
  } else if (j.next) {
    const v = villageAt(st, j.next) || j.next;
    lines.push([`next: ${ownedVillage(view, j.next.seat, v)}`, "strong"]);
    if (j.move && j.move.type) {
      const more = Math.max(0, (j.move.needed ?? 0) - countCards(j.move.cards));
      lines.push([more ? `this move: ${countCards(j.move.cards)} of ` +
                         `${travelWords(j.move.type, j.move.needed ?? 0)}, ${more} more`
                       : `this move: ${travelWords(j.move.type, j.move.needed ?? 0)} laid`,
                  "strong"]);
    } else {
      lines.push([`costs ${costWords(j.next.costs)}`, "text"]);
    }
  } else {
    lines.push(["no village ahead: turn around, or stop", "text"]);
  }
  const bits = [directionWords(j.direction)];
  if (Number.isInteger(j.escort)) bits.push(`escort in ${seatName(view, j.escort)}'s principality`);
  lines.push([bits.join(" · "), "soft"]);
  return lines;
}

// The journey under way: its lines on the left, its figures (cards spent, gold collected and
// paid, villages visited) in a square beside them, the visits in order on the right (not in
// large type: the villages carry their ticks). Narrow: one under the other.
function journeyPanel(view, st, w, h, opts) {
  const z = sizes(opts);
  const j = st.journey || {};
  const g = svg("g", {class: "journey"});
  const tok = z.title + 8;
  g.append(seatMark(16 + tok / 2, 12 + tok / 2, tok, j.seat, opts),
           label(26 + tok, 12 + tok * 0.75, `${seatName(view, j.seat)}'s journey`, z.title,
                 {class: "ink", "font-weight": 800}));
  const linesW = opts.narrow ? w - 32 : w * (opts.big ? 0.6 : 0.42);
  let y = 12 + tok + z.text + (opts.big ? 6 : 10);
  // Lines in order of weight; in large type the last (direction, escort) gets one line, and
  // whatever would run past the panel's foot is left out (the seat's tags say it too).
  for (const [text, style] of journeyLines(view, st)) {
    for (const line of wrap(text, linesW, z.text, style === "soft" && opts.big ? 1 : 2)) {
      if (opts.big && y > h - 6) break;
      g.append(label(16, y, line, z.text,
                     style === "strong" ? {class: "ink", "font-weight": 700}
                                        : {class: style === "soft" ? "soft" : "ink"}));
      y += z.text + (opts.big ? 6 : 10);
    }
  }
  // the figures, two by two
  const spent = (j.visits || []).reduce((a, v) => a + countCards(v.cards), 0) +
                countCards((j.move || {}).cards);
  const figures = [[String(spent), "cards spent"],
                   [`${j.visited ?? 0} of ${j.villages ?? 0}`,
                    j.bonus ? "villages: bonus won" : "villages visited"],
                   [`+${j.collected ?? 0}`, "gold collected"],
                   [j.paid ? `−${j.paid}` : "0", "gold paid"]];
  const cellW = opts.narrow ? (w - 32) / 2 : (opts.big ? w * 0.19 : w * 0.12);
  const cellH = z.value + z.small + 18;
  const fx = opts.narrow ? 16 : linesW + 36;
  const fy = opts.narrow ? y : 18;
  g.append(svg("title", {}, figures.map(([a, b]) => `${b}: ${a}`).join(", ")));
  figures.forEach(([big, small], k) => {
    const x = fx + (k % 2) * cellW;
    const cy = fy + Math.floor(k / 2) * cellH;
    g.append(label(x, cy + z.value, big, z.value, {class: "ink", "font-weight": 800}),
             label(x, cy + z.value + z.small + 4, small, z.small, {class: "soft"}));
  });
  let bottom = opts.narrow ? fy + 2 * cellH : h;
  if (opts.big && !opts.narrow) return {g, height: h};
  // the visits in order, newest last
  const visits = j.visits || [];
  const vx = opts.narrow ? 16 : fx + 2 * cellW + 12;
  const vy0 = opts.narrow ? bottom + z.small : 12 + z.small + 4;
  g.append(label(vx, vy0, visits.length ? "Visits" : "No village reached yet", z.small,
                 {class: "soft", "font-weight": 700}));
  const step = z.small + 9;
  const room = opts.narrow ? 8 : Math.max(1, Math.floor((h - vy0 - 8) / step));
  const shown = visits.slice(-room);
  shown.forEach((v, k) => {
    const n = visits.length - shown.length + k + 1;
    const income = visitIncome(v), paid = visitPaid(v);
    const money = [income ? `+${income}` : "", paid ? `−${paid}` : ""].filter(Boolean).join(" ");
    const at = villageAt(st, v);
    const where = `${seatName(view, v.seat)}'s ${at ? `${at.terrain} (${at.value})` : "village"}`;
    const spent = cardsWords(v.cards);
    const text = `${n}. ${where}` + (money ? ` ${money}` : "") + (v.bonus ? " bonus" : "") +
                 (v.teleport ? " teleport" : "") + (spent ? ` · ${spent}` : "");
    g.append(label(vx, vy0 + (k + 1) * step, fit(text, w - vx - 12, z.small, EM_REGULAR), z.small,
                   {class: "ink"}));
  });
  if (opts.narrow) bottom = vy0 + shown.length * step + 16;
  return {g, height: bottom};
}

const ACTIONS = {
  draw3: (a) => `discards ${plural(Number(a.needs) || 0, "more card")} on the discard pad`,
  search: () => "puts one card back after the search",
  searched: () => "says whether the search found a village",
  pay: (a) => (a.needs ? `confirms paying ${gold(a.needs)} on the phone` : "confirms a payment"),
};

/** Lines of the planning panel, each [text, style]. */
export function planningLines(view, st) {
  const p = st.planning || {};
  const n = (st.seats || []).length;
  const lines = [];
  const a = p.action;
  if (a && Number.isInteger(a.seat)) {
    const what = (ACTIONS[a.kind] || (() => `finishes ${a.kind}`))(a);
    lines.push([`${seatName(view, a.seat)} ${what}`, "strong"]);
  }
  for (const s of p.slides || []) {
    const v = villageAt(st, {seat: s.seat, slot: s.to});
    lines.push([`move ${ownedVillage(view, s.seat, v)} one pad to the right`, "strong"]);
  }
  lines.push([`passes in a row: ${p.passes ?? 0} of ${n} (all pass: the journeys begin)`, "text"]);
  const bought = (st.seats || []).map((s, i) => [i, (s || {}).bought ?? 0]).filter(([, b]) => b);
  if (bought.length) {
    // "2 by Bot 1": a count beside a name that ends in a number ("Bot 1 2") reads as one
    const who = bought.map(([i, b]) => `${b} by ${seatName(view, i)}`);
    lines.push(["bought this round: " + who.join(", "), "soft"]);
  }
  return lines;
}

function planningPanel(view, st, w, h, opts) {
  const z = sizes(opts);
  const g = svg("g", {class: "planning"});
  const who = st.active_seat;
  const tok = z.title + 8;
  if (Number.isInteger(who)) {
    g.append(seatMark(16 + tok / 2, 12 + tok / 2, tok, who, opts));
  }
  g.append(label(Number.isInteger(who) ? 26 + tok : 16, 12 + tok * 0.75,
                 Number.isInteger(who) ? `Planning: ${seatName(view, who)}'s turn` : "Planning",
                 z.title, {class: "ink", "font-weight": 800}));
  let y = 12 + tok + z.text + (opts.big ? 6 : 10);
  for (const [text, style] of planningLines(view, st)) {
    for (const line of wrap(text, w - 32, z.text, opts.narrow ? 3 : 1)) {
      g.append(label(16, y, line, z.text,
                     style === "strong" ? {class: "ink", "font-weight": 700}
                                        : {class: style === "soft" ? "soft" : "ink"}));
      y += z.text + (opts.big ? 6 : 10);
    }
  }
  return {g, height: opts.narrow ? y : h};
}

function resultPanel(view, st, w, h, opts) {
  const z = sizes(opts);
  const g = svg("g", {class: "result"});
  const winners = st.winners || [];
  const names = winners.map((i) => seatName(view, i));
  const title = names.length > 1 ? `${names.join(" and ")} share the crown`
              : names.length ? `${names[0]} is King of the Elves` : "Game over";
  g.append(label(16, 16 + z.title, `★ ${title}`, z.title, {class: "ink", "font-weight": 800}));
  const order = (st.seats || []).map((s, i) => [i, Number((s || {}).gold ?? 0)])
                                .sort((a, b) => b[1] - a[1]);
  let y = 16 + z.title + z.text + 14;
  for (const [i, purse] of order) {
    g.append(label(16, y, `${seatName(view, i)}: ${gold(purse)}`, z.text,
                   {class: "ink", "font-weight": winners.includes(i) ? 800 : 400}));
    y += z.text + 8;
  }
  return {g, height: opts.narrow ? y : h};
}

/** The centre of the table, `w` wide (`h` tall when wide; narrow: as tall as it needs):
 * {g, height}. */
export function centre(view, st, w, h, opts) {
  let part;
  if (view.over || st.phase === "over") part = resultPanel(view, st, w, h, opts);
  else if (st.phase === "travel" && st.journey) part = journeyPanel(view, st, w, h, opts);
  else if (st.phase === "planning") part = planningPanel(view, st, w, h, opts);
  else {
    const z = sizes(opts);
    part = {g: svg("g", {}, label(16, 16 + z.title, "Between journeys", z.title,
                                  {class: "ink", "font-weight": 700})), height: 60 + z.title};
  }
  const box = svg("g", {class: "centre"});
  box.append(rect(0, 0, w, part.height, {rx: 16, class: "felt"}), part.g);
  return {g: box, height: part.height};
}

const PHASES = {planning: "planning", travel: "journeys", over: "game over"};

/** The strip along the top: round and phase, the deck, the piles (narrow: the piles on a
 * second line): {g, height}. */
export function strip(view, st, w, opts) {
  const z = sizes(opts);
  const g = svg("g", {class: "strip"});
  const line = z.title + (opts.big ? 18 : 30);
  const y = line / 2 + z.text * 0.36;
  const round = st.round ? `Round ${st.round} of ${st.rounds}` : "";
  const words = [round, PHASES[st.phase] || st.phase || ""].filter(Boolean).join(" · ");
  g.append(label(4, y, words, z.title, {class: "ink", "font-weight": 800}));
  const pileW = z.small * 10;
  const piles = [["draw pile", st.draw_pile ?? 0, "#3b4a6b"],
                 ["discard pile", st.discard_pile ?? 0, "#7c5a2e"]];
  const py = opts.narrow ? line : 0;
  piles.forEach(([what, n, fill], k) => {
    const x = opts.narrow ? 4 + k * (pileW + 20) : w - (piles.length - k) * pileW;
    g.append(label(x, py + y, what, z.small, {class: "soft"}),
             cardBacks(x + what.length * z.small * 0.56 + 8, py + line / 2 - z.small * 0.75, n,
                       {w: z.small * 0.95, h: z.small * 1.4, step: 3, max: 3, size: z.text,
                        fill}));
  });
  if (!opts.narrow && (st.deck || {}).name) {
    g.append(label(w - piles.length * pileW - 20, y, deckWords(st), z.small,
                   {"text-anchor": "end", class: "soft"}));
  }
  return {g, height: opts.narrow ? 2 * line - 10 : line};
}

/** The deck's words, for the narrow picture's second line. */
export function deckWords(st) {
  const deck = st.deck || {};
  if (!deck.name) return "";
  return `deck: ${deck.name}` + (deck.assumed && deck.name !== "assumed" ? " (assumed)" : "");
}

