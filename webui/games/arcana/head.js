// Arcana's strip along the top of the picture and the result banner under it: the round and
// phase (the last round marked), the first player and whose turn it is, the card pack (marked
// when it is the made-up sample), the watch deck and the events (the one in effect and the
// next); then the district being settled (what was declared and copied, the sums once every
// answer is in), or the last district settled with its sums per seat, the winner and the
// reason, or at the end the winners with every seat's VP.

import {svg, label, rect, seatName} from "../../kit.js";
import {sizes, seatMark, named, valueWords, sumWords, wrap, fit, textWidth, cardName,
        districtName, districtOf, EM, EM_REGULAR} from "./pieces.js";
import {outcomeWords} from "./district.js";

const PHASES = {setup: "Setting up", intrigue: "Intrigue", results: "Results",
                over: "Game over"};

/** "Round 4 · Intrigue · last round". */
export function roundWords(st) {
  const bits = [];
  if (st.round) bits.push(`Round ${st.round}`);
  bits.push(PHASES[st.phase] || st.phase || "");
  if (st.final_round && st.phase !== "over") bits.push("last round");
  return bits.filter(Boolean).join(" · ");
}

/** "the sample card pack (made up)"; "Card pack: Club copy". */
export function packWords(st) {
  const p = st.pack || {};
  if (!p.name) return "";
  if (p.sample) {
    return p.name === "sample" ? "the sample card pack (made up)"
                               : `Card pack: ${p.name} (a made-up sample)`;
  }
  return `Card pack: ${p.name}`;
}

/** The events line: "Event: Tournament, +1 sword at the neutral district · next: Council
 * Session · 9 left", or "". */
export function eventWords(st) {
  const ev = st.events;
  if (!ev) return "";
  const one = (e) => (e ? cardName(e) + (e.about ? ` (${e.about})` : "") : "");
  const bits = [];
  bits.push(ev.now ? `Event now: ${one(ev.now)}` : "No event in effect yet");
  if (ev.next) bits.push(`next: ${one(ev.next)}`);
  if (Number.isInteger(ev.left)) bits.push(`${ev.left} in the event deck`);
  return bits.join(" · ");
}

/** The strip: {g, height}, `w` wide. */
export function strip(view, st, w, opts) {
  const z = sizes(opts);
  const g = svg("g", {class: "strip"});
  let y = z.title;
  const head = roundWords(st);
  g.append(label(0, y, head, z.title, {class: "ink", "font-weight": 800}));
  // the first player and whose turn, on the same line where there is room, else below
  const who = [];
  if (Number.isInteger(st.first_seat) && st.phase !== "over") {
    who.push([st.first_seat, `first player: ${seatName(view, st.first_seat)}`]);
  }
  if (st.phase === "intrigue" && Number.isInteger(st.active_seat)) {
    who.push([st.active_seat, `▶ ${seatName(view, st.active_seat)}'s turn`]);
  }
  const tok = z.small + 4;
  let x = textWidth(head, z.title) + 30;
  for (const [seat, text] of who) {
    const tw = tok + 8 + textWidth(text, z.small);
    if (x + tw > w) { x = 0; y += z.small + 14; }
    g.append(seatMark(x + tok / 2, y - z.small * 0.36, tok, seat, opts),
             label(x + tok + 8, y, text, z.small, {class: "ink", "font-weight": 700}));
    x += tw + 24;
  }
  const facts = [packWords(st)];
  if (Number.isInteger(st.watch_deck)) facts.push(`watch deck: ${st.watch_deck}`);
  for (const line of wrap(facts.filter(Boolean).join(" · "), w, z.small, 2, EM_REGULAR)) {
    y += z.small + 10;
    g.append(label(0, y, line, z.small, {class: "soft"}));
  }
  const ev = eventWords(st);
  if (ev) {
    for (const line of wrap(ev, w, z.small, opts.narrow ? 4 : 2, EM_REGULAR)) {
      y += z.small + 10;
      g.append(label(0, y, line, z.small, {class: "ink"}));
    }
  }
  return {g, height: y + 12};
}

/** Each seat's sum of a history entry: "Ann ⚚ 6 · Bea ⚚ 4" (seats in order). */
export function historySums(view, h) {
  const sums = h.sums || {};
  const arcana = h.arcana || {};
  return Object.keys(sums).map(Number).sort((a, b) => a - b).map((s) => {
    const arc = arcana[String(s)];
    const v = sums[String(s)];
    return `${seatName(view, s)} ${arc ? valueWords(arc, v) : v}`;
  }).join(" · ");
}

// The lines of the banner, each [text, style]; none when there is nothing to say.
function bannerLines(view, st) {
  const lines = [];
  if (view.over || st.phase === "over") {
    const seats = st.seats || [];
    const names = (st.winners || []).map((i) => seatName(view, i));
    const best = (st.winners || []).map((i) => (seats[i] || {}).vp).find((v) => v !== undefined);
    lines.push([names.length ? `★ ${names.join(" and ")} ${names.length > 1 ? "share the win"
                                                                            : "wins"}` +
                (best !== undefined ? ` with ${best} VP` : "") : "Game over", "title"]);
    const order = seats.map((s, i) => [i, Number((s || {}).vp ?? 0), (s || {}).stakes])
                       .sort((a, b) => b[1] - a[1]);
    lines.push([order.map(([i, vp, stakes]) => `${seatName(view, i)} ${vp} VP` +
                          (Number.isInteger(stakes) ? ` (${stakes} stakes)` : "")).join(" · "),
                "text"]);
    return lines;
  }
  const res = st.results;
  if (res && res.district) {
    const d = districtOf(st, res.district);
    const stake = d && d.stake ? ` (${cardName(d.stake)})` : "";
    lines.push([`Settling ${districtName(d || res.district)}${stake}`, "title"]);
    const declared = Object.entries(res.declared || {}).map(([s, a]) =>
      `${seatName(view, Number(s))} counts ${a === "none" ? "nothing" : a}`);
    if (declared.length) lines.push([declared.join(" · "), "text"]);
    const majors = (d && d.stake && d.stake.majors) || [];
    if (majors.length > 1 && !res.sums) {
      lines.push(["Each seat with agents there says which arcanum it counts, in turn from the " +
                  "first player", "text"]);
    }
    for (const [copier, target] of Object.entries(res.copies || {})) {
      const agent = ((d && d.agents) || []).find((a) => a.card === copier);
      const name = agent ? cardName(agent) : "the Harlequin";
      lines.push([`${name} copies ${target && target.name ? target.name : "nothing: it counts 0"}`,
                  "text"]);
    }
    if (res.sums) {
      const sums = Object.keys(res.sums).map(Number).sort((a, b) => a - b).map((s) => {
        const v = res.sums[String(s)];
        const arc = (res.declared || {})[String(s)] || (majors.length === 1 ? majors[0] : "");
        if (typeof v === "object") return `${seatName(view, s)} ${sumWords(v, majors)}`;
        return `${seatName(view, s)} ` + (arc && arc !== "none" ? valueWords(arc, v) : v);
      });
      if (sums.length) lines.push([`Sums: ${sums.join(" · ")}`, "strong"]);
    }
    if (Number.isInteger(res.winner) || res.reason) {
      lines.push([outcomeWords(view, {winner: res.winner, reason: res.reason}), "strong"]);
    }
    return lines;
  }
  const hist = st.history || [];
  const last = hist[hist.length - 1];
  if (last && last.round === st.round) {
    const d = districtOf(st, last.district);
    const stake = last.stake ? ` (${cardName(last.stake)})` : "";
    const how = last.immediate ? "Won at once" : "Last settled";
    lines.push([`${how}: ${districtName(d || last.district)}${stake}`, "title"]);
    lines.push([outcomeWords(view, last), "strong"]);
    const sums = historySums(view, last);
    if (sums) lines.push([`Sums: ${sums}`, "text"]);
  }
  return lines;
}

/** The banner: {g, height} (height 0 when it has nothing to say), `w` wide. */
export function banner(view, st, w, opts) {
  const z = sizes(opts);
  const g = svg("g", {class: "banner"});
  const lines = bannerLines(view, st);
  if (!lines.length) return {g, height: 0};
  let y = 10;
  const body = svg("g", {});
  for (const [text, style] of lines) {
    const size = style === "title" ? z.text + 2 : z.small;
    const em = style === "text" ? EM_REGULAR : EM;
    for (const line of wrap(text, w - 32, size, 2, em)) {
      y += size;
      body.append(label(16, y, fit(line, w - 32, size, em), size,
                        style === "text" ? {class: "ink"} : {class: "ink", "font-weight":
                                                                  style === "title" ? 800 : 700}));
      y += 8;
    }
  }
  const height = y + 8;
  const over = view.over || st.phase === "over";
  g.append(rect(0, 0, w, height, {rx: 12, fill: over ? "#fef9c3" : "#f0f9ff",
                                  stroke: over ? "#a16207" : "#0369a1", "stroke-width": 2}),
           body);
  return {g, height};
}
