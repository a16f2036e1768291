// Arcana on a seat's phone (#mine): its face-down agents by name with their values and where
// they lie, the cards known to be in its hand (G-37), then its exact VP, its provisional sums
// at each district (its face-down agents counted), its objectives with how far each is met,
// what its deck and hand hold together and its discard pile. The platform draws the prompts.
// Hazard: only the seat's own view carries these keys (face_down, hand_known, owned,
// discard_cards, objectives as a list, sums); this draws nothing of another seat's.

import {el, plural} from "../../kit.js";
import {arcanum, valueWords, sumWords, cardName, districtName, districtOf} from "./pieces.js";

// An arcanum's symbol in its ink, then its value ("⚔ 3"), for an HTML chip.
function valueChip(name, n) {
  const a = arcanum(name);
  return el("span", {style: `color:${a.ink};font-weight:700;white-space:nowrap`},
            valueWords(name, n));
}

// The values that matter where the agent lies: the stake's majors (all four without a stake).
function shownValues(st, f) {
  const d = districtOf(st, f.district);
  const majors = (d && d.stake && d.stake.majors && d.stake.majors.length) ? d.stake.majors
               : Object.keys(f.values || {});
  return majors.filter((m) => (f.values || {})[m] !== null && (f.values || {})[m] !== undefined)
               .map((m) => [m, f.values[m]]);
}

function faceDownChip(view, st, f) {
  const where = districtName(districtOf(st, f.district) || f.district);
  const values = shownValues(st, f);
  const what = `${cardName(f)}${f.watch ? " (watch card)" : ""}`;
  return {
    id: f.card,
    class: "face-down",
    // one span: the chip lays its children out side by side, this reads as one line of words
    node: el("span", {}, el("strong", {}, what), ` face down at ${where}`,
             values.length ? ": " : "", values.map(([m, n], k) => [k ? " " : "", valueChip(m, n)])),
    title: `${what}, face down at ${where}` +
           (values.length ? `: ${values.map(([m, n]) => `${arcanum(m).word} ${n}`).join(", ")}`
                          : ""),
  };
}

/** The seat's provisional sums: a row per district where it has agents. */
function sumsTable(view, st, seat) {
  const rows = [];
  for (const d of st.districts || []) {
    const mine = (d.sums || {})[String(seat)];
    if (!mine) continue;
    const majors = (d.stake && d.stake.majors) || [];
    const need = majors.map((m) => valueWords(m, (d.stake.threshold || {})[m] ?? "?")).join(" ");
    const seen = (d.sums_seen || {})[String(seat)];
    rows.push(el("tr", {"data-my-sum": d.id},
      el("th", {scope: "row", style: "text-align:left;padding-right:.6rem"}, districtName(d)),
      el("td", {style: "font-weight:800;padding-right:.6rem"}, sumWords(mine, majors) || "0"),
      el("td", {style: "padding-right:.6rem"}, need || "no stake"),
      el("td", {}, seen ? sumWords(seen, majors) : "nothing face up")));
  }
  if (!rows.length) return el("p", {class: "muted"}, "You have no agents at the districts.");
  return el("table", {class: "my-sums", style: "border-collapse:collapse"},
    el("caption", {style: "text-align:left;font-weight:700;padding:.3rem 0"},
       "Your sums now, your face-down agents counted"),
    el("thead", {}, el("tr", {},
      el("th", {scope: "col", style: "text-align:left"}, "District"),
      el("th", {scope: "col", style: "text-align:left"}, "Your sum"),
      el("th", {scope: "col", style: "text-align:left"}, "To win"),
      el("th", {scope: "col", style: "text-align:left"}, "Others see"))),
    el("tbody", {}, rows));
}

function objectivesList(s, over) {
  const list = Array.isArray(s.objectives) ? s.objectives : [];
  if (!list.length) return null;
  return el("div", {class: "my-objectives"},
    el("h4", {style: "margin:.6rem 0 .2rem"}, "Your objectives"),
    el("ul", {style: "margin:0;padding-left:1.2rem"}, list.map((o, k) => {
      const progress = Number.isInteger(o.need)
        ? `: ${o.have ?? 0} of ${plural(o.need, "stake")}` + (o.domain ? ` of ${o.domain}` : "")
        : "";
      return el("li", {"data-objective": k},
                el("strong", {}, cardName(o)), progress,
                o.met ? " ✓ met" : over ? " ✗ not met" : "");
    })));
}

function namesLine(title, cards, empty) {
  return el("p", {style: "margin:.4rem 0"}, el("strong", {}, title + ": "),
            cards && cards.length ? cards.map(cardName).join(", ") : empty);
}

export function myCards(view, seat) {
  const st = view.state || {};
  const s = (st.seats || [])[seat] || {};
  const over = !!(view.over || st.phase === "over");
  const cards = (s.face_down || []).map((f) => faceDownChip(view, st, f));
  for (const c of s.hand_known || []) {
    cards.push({id: c.card, class: "in-hand",
                node: el("span", {}, el("strong", {}, cardName(c)), " in your hand"),
                title: `${cardName(c)}, known to be in your hand`});
  }
  const extra = [];
  const seen = (view.scores || [])[seat];
  extra.push(el("p", {class: "my-vp", style: "font-size:1.3rem;font-weight:800;margin:.5rem 0"},
                `Your VP ${over ? "" : "now "}${s.vp ?? 0}`,
                !over && seen !== undefined && seen !== s.vp
                  ? el("span", {style: "font-weight:400;font-size:1rem"},
                       ` (the table sees ${seen}: it does not know your hidden cards)`) : null));
  if (!over) extra.push(sumsTable(view, st, seat));
  extra.push(objectivesList(s, over));
  if (!over) {
    extra.push(namesLine("Your deck and hand hold", s.owned, "nothing"),
               namesLine("Your discard pile, top last", s.discard_cards, "empty"));
  }
  return {
    title: "Your face-down agents and known cards",
    empty: "No face-down agent, and no card known in your hand.",
    cards,
    extra: extra.filter(Boolean),
  };
}
