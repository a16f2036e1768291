// Arcana's districts: each district's panel (its name and whose it is, the face-up stake with
// its type, major arcana and thresholds and a citizen's ducat, the pile's count, whether it
// awaits its next stake or is spent) with its agents in rows turned to their owners: one row
// per seat, headed by the seat's token, name and sum there, then its cards in the order laid:
// a face-up agent by name with its value in the stake's arcana, a face-down one as a card back
// (named, with its values, only where the view names it: its owner's phone, the organiser's),
// a relic beside the agent it bribes with, watch cards marked. The district being settled and
// the outcome of one settled this round are marked on it.
//
// Hazard: a face-down agent's card and name are null in the public view and another seat's;
// nothing here may draw anything else of it than a back and its owner.

import {svg, label, rect, seatName} from "../../kit.js";
import {sizes, seatMark, stakeLines, sumWords, valueWords, cardBack, fit, wrap, textWidth,
        named, districtTitle, friendsWords, cardName, EM, EM_REGULAR} from "./pieces.js";

/** The history entry of district `d` settled (or won at once) this round, the newest; null. */
export function settledNow(st, d) {
  const hist = st.history || [];
  for (let k = hist.length - 1; k >= 0; k--) {
    const h = hist[k];
    if (h.round !== st.round) break;
    if (h.district === d.id) return h;
  }
  return null;
}

/** The outcome of a history entry in words: "Cid won it with 8 against 5"; "nobody won". */
export function outcomeWords(view, h) {
  if (!h) return "";
  const reason = named(view, h.reason || "");
  if (Number.isInteger(h.winner)) {
    const who = seatName(view, h.winner);
    return reason && reason.startsWith(who) ? reason : `${who} won it` +
           (reason ? `: ${reason}` : "");
  }
  return reason ? `nobody won: ${reason}` : "nobody won";
}

/** An agent's values in the stake's majors, when the view gives them: its own `values`, or
 * for a face-down agent its owner's `face_down` list (in that seat's own view and the
 * organiser's only); else null. */
function agentValues(st, d, a, majors) {
  let values = a.values || null;
  if (!values && a.card) {
    const list = ((st.seats || [])[a.owner] || {}).face_down || [];
    const hit = list.find((f) => f.district === d.id && f.card === a.card);
    if (hit) values = hit.values;
  }
  if (!values) return null;
  const out = majors.filter((m) => values[m] !== undefined && values[m] !== null)
                    .map((m) => valueWords(m, values[m]));
  return out.length ? out.join(" ") : null;
}

// The pieces of an owner's row, in the order laid: {kind, text, title, agent}.
function rowPieces(view, st, d, owner) {
  const majors = (d.stake && d.stake.majors) || [];
  const who = seatName(view, owner);
  const out = [];
  for (const a of (d.agents || []).filter((x) => x.owner === owner)) {
    const watch = a.watch ? " (watch)" : "";
    if (!a.card) {
      out.push({kind: "back", text: a.watch ? "watch" : "",
                title: a.watch ? `${who}'s face-down watch card` : `${who}'s face-down agent`});
    } else {
      const values = agentValues(st, d, a, majors);
      const name = cardName(a) + watch;
      const down = a.face === "down";
      out.push({kind: down ? "down" : "up", text: values ? `${name} ${values}` : name,
                title: `${who}'s ${cardName(a)}${watch}` + (down ? ", face down" : "") +
                       (values ? `: ${values}` : "")});
    }
    for (const r of a.relics || []) {
      out.push({kind: "relic", text: `+ ${cardName(r)}`,
                title: `the relic ${cardName(r)} on ${a.card ? cardName(a) : "this agent"}`});
    }
  }
  return out;
}

// Lay out an owner's pieces in lines of width `w`, the first line from `start` (after the
// owner's name): [{piece, x, y, w}], and the height used.
function flow(pieces, w, z, start = 0) {
  const h = z.small + 14;
  const gap = 6;
  let x = start, y = 0;
  const out = [];
  for (const p of pieces) {
    const inner = p.kind === "back" ? Math.max(z.small * 1.5, p.text ? textWidth(p.text, z.small,
                                                                                 EM) + 14 : 0)
                : textWidth(p.text, z.small, p.kind === "up" ? EM_REGULAR : EM) +
                  (p.kind === "down" ? z.small * 0.9 + 20 : 18);
    const pw = Math.min(inner, w);
    if (x > 0 && x + pw > w) { x = 0; y += h + gap; }
    out.push({piece: p, x, y, w: pw, h});
    x += pw + gap;
  }
  return {items: out, height: y + h};
}

function pieceNode(item, z) {
  const {piece: p, x, y, w, h} = item;
  const g = svg("g", {class: `agent ${p.kind}`});
  const base = y + h / 2 + z.small * 0.36;
  if (p.kind === "back") {
    g.setAttribute("data-agent-back", "");
    g.append(cardBack(x, y, w, h));
    if (p.text) {
      g.append(label(x + w / 2, base, p.text, z.small,
                     {"text-anchor": "middle", fill: "#ffffff", "font-weight": 700}));
    }
  } else if (p.kind === "relic") {
    g.append(rect(x, y, w, h, {rx: h / 2, fill: "#fef3c7", stroke: "#92400e",
                               "stroke-width": 1.5}),
             label(x + 9, base, fit(p.text, w - 14, z.small), z.small,
                   {fill: "#713f12", "font-weight": 700}));
  } else if (p.kind === "down") {
    // face down, named for this reader: a back's corner, then the name, in a dashed frame
    const bw = z.small * 0.9;
    g.setAttribute("data-agent-down", "");
    g.append(rect(x, y, w, h, {rx: 6, fill: "#eef2ff", stroke: "#27345a", "stroke-width": 2,
                               "stroke-dasharray": "6 4"}),
             cardBack(x + 4, y + 4, bw, h - 8),
             label(x + bw + 12, base, fit(p.text, w - bw - 16, z.small), z.small,
                   {fill: "#1e1b4b", "font-weight": 700}));
  } else {
    g.append(rect(x, y, w, h, {rx: 6, fill: "#ffffff", stroke: "#64748b", "stroke-width": 1.5}),
             label(x + 9, base, fit(p.text, w - 14, z.small, EM_REGULAR), z.small,
                   {class: "ink"}));
  }
  g.append(svg("title", {}, p.title));
  return g;
}

// An owner's row: its token, name and sum there, then its cards on the same line as far as
// they fit, and on lines under it. Returns {g, height}.
function ownerRow(view, st, d, owner, w, opts) {
  const z = sizes(opts);
  const g = svg("g", {class: "owner-row", "data-row-seat": owner});
  const h = z.small + 14;
  const tok = z.small + 4;
  const sums = (d.sums || d.sums_seen || {})[String(owner)];
  const majors = (d.stake && d.stake.majors) || [];
  const hidden = (d.agents || []).some((a) => a.owner === owner && !a.card);
  let sum = sums ? sumWords(sums, majors) : "";
  if (hidden) sum = sum ? `${sum} + ?` : "?";
  const who = seatName(view, owner);
  const nameW = Math.min(textWidth(who, z.small, 0.64), w * 0.45);
  const sumW = sum ? textWidth(sum, z.small, 0.64) : 0;
  const base = h / 2 + z.small * 0.36;
  g.append(seatMark(tok / 2, h / 2, tok, owner, opts),
           label(tok + 6, base, fit(who, nameW, z.small), z.small,
                 {class: "ink", "font-weight": 700}));
  if (sum) {
    g.append(label(tok + 6 + nameW + 8, base, sum, z.small, {class: "ink", "font-weight": 800}),
             svg("title", {}, `${who}'s sum here` + (hidden ? ", face-down agents not counted"
                                                            : "")));
  }
  const headW = tok + 6 + nameW + (sum ? 8 + sumW : 0) + 12;
  const laid = flow(rowPieces(view, st, d, owner), w, z, headW > w * 0.7 ? w : headW);
  for (const item of laid.items) g.append(pieceNode(item, z));
  return {g, height: laid.height};
}

/** The seats with cards at `d`, in seat order. */
function owners(d) {
  return [...new Set((d.agents || []).map((a) => a.owner))].sort((a, b) => a - b);
}

/** District `d`'s panel, `w` wide: {g, height, finish(h)}; finish draws its frame `h` high
 * (the row's tallest panel) behind the rest. */
export function districtPanel(view, st, d, w, opts) {
  const z = sizes(opts);
  const g = svg("g", {class: "district", "data-district": d.id});
  const pad = opts.big ? 12 : 14;
  const inner = w - 2 * pad;
  const res = st.results;
  const underWay = !!(res && res.district === d.id);
  let y = pad;
  // head: the district's name, its pile (a small stack and its count) beside it, whose it is
  const pile = d.empty ? null : String(d.pile ?? 0);
  const bw = z.small * 0.75;
  const pileW = pile ? bw + 8 + textWidth(pile, z.small) + 4 : 0;
  let title = districtTitle(d);
  if (textWidth(title, z.title) > inner - pileW && d.id === "n") title = "Neutral";
  g.append(label(pad, y + z.title * 0.85, fit(title, inner - pileW, z.title), z.title,
                 {class: "ink", "font-weight": 800}));
  if (pile) {
    const px = w - pad - pileW;
    g.append(svg("g", {class: "pile"},
      svg("title", {}, `${d.pile ?? 0} stake cards in its pile`),
      cardBack(px, y + z.title * 0.85 - z.small * 1.05, bw, z.small * 1.15),
      label(px + bw + 8, y + z.title * 0.85, pile, z.small, {class: "ink", "font-weight": 700})));
  }
  y += z.title + 6;
  g.append(label(pad, y + z.small * 0.85, fit(friendsWords(view, d), inner, z.small, EM_REGULAR),
                 z.small, {class: "soft"}));
  y += z.small + 10;
  // the stake
  const lines = stakeLines(d.stake);
  const box = svg("g", {class: "stake"});
  const sy = y;
  let ly = sy + 8;
  if (lines.length) {
    // "citizen · ⚔ sword 7" on two lines rather than broken inside "sword 7"
    const parts = lines.flatMap((text, k) => (k === 1 && textWidth(text, z.small, EM_REGULAR) >
                                                        inner - 16 ? text.split(" · ") : [text]));
    for (const [k, text] of parts.entries()) {
      const size = k === 0 ? z.text : z.small;
      for (const line of wrap(text, inner - 16, size, k === 0 ? 2 : 3,
                              k === 0 ? EM : EM_REGULAR)) {
        box.append(label(pad + 8, ly + size * 0.85, line, size,
                         k === 0 ? {fill: "#1f1a05", "font-weight": 800} : {fill: "#292524"}));
        ly += size + 6;
      }
    }
  } else {
    const words = d.empty ? "No stake left: nothing is laid here"
                : st.phase === "setup" ? "Waiting for its first stake"
                : d.awaiting ? "Waiting for its next stake" : "No stake";
    for (const line of wrap(words, inner - 16, z.small, 2, EM_REGULAR)) {
      box.append(label(pad + 8, ly + z.small * 0.85, line, z.small,
                       {fill: "#1f2937", "font-weight": 700}));
      ly += z.small + 6;
    }
  }
  const stakeH = ly - sy + 4;
  g.append(rect(pad, sy, inner, stakeH,
                lines.length ? {rx: 8, fill: "#fdf6e3", stroke: "#a16207", "stroke-width": 2}
                             : {rx: 8, fill: "#f1f5f9", stroke: "#94a3b8", "stroke-width": 2,
                                "stroke-dasharray": "8 6"}),
           box);
  y = sy + stakeH + 10;
  // tags: being settled, the outcome of this round's result there
  const tags = [];
  if (underWay) tags.push(["being settled now", "#1e3a8a", "#ffffff"]);
  const h = settledNow(st, d);
  if (h && !underWay) {
    tags.push([Number.isInteger(h.winner)
                 ? `${h.immediate ? "won at once" : "won"} by ${seatName(view, h.winner)}`
                 : "settled: nobody won", "#e2e8f0", "#111827"]);
  }
  for (const [text, bg, ink] of tags) {
    const tagH = z.small + 10;
    const tw = Math.min(inner, textWidth(text, z.small, EM) + 18);
    g.append(rect(pad, y, tw, tagH, {rx: tagH / 2, fill: bg}),
             label(pad + 9, y + tagH / 2 + z.small * 0.36, fit(text, tw - 14, z.small),
                   z.small, {fill: ink, "font-weight": 700}));
    y += tagH + 8;
  }
  // the agents, one row per owner
  const who = owners(d);
  if (!who.length && !d.empty) {
    g.append(label(pad, y + z.small * 0.85, "no agents yet", z.small, {class: "soft"}));
    y += z.small + 10;
  }
  for (const owner of who) {
    const row = ownerRow(view, st, d, owner, inner, opts);
    g.append(svg("g", {transform: `translate(${pad} ${y})`}, row.g));
    y += row.height + (opts.big ? 10 : 12);
  }
  const height = y + pad - 6;
  const finish = (fh) => {
    g.prepend(svg("title", {}, `${districtTitle(d)} (${friendsWords(view, d)})`),
              rect(0, 0, w, fh, {rx: 14, fill: underWay ? "#eff6ff" : "#ffffff",
                                 stroke: underWay ? "#1e3a8a" : "#cbd5e1",
                                 "stroke-width": underWay ? 5 : 2}));
  };
  return {g, height, finish};
}
