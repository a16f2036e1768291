// King of the Elves' end of the game: each purse by source (gold_sources: the start, villages,
// gold cards, bonuses, thieves in and out, purchases, removals, teleports; outgoing ones
// negative, adding up to the purse) and the history of the journeys (round, traveller,
// villages visited, cards, gold collected and paid, bonus).

import {el, seatName, plural} from "../../kit.js";
import {ordinal} from "./pieces.js";
import {countCards} from "./journey.js";

const COLUMNS = [
  ["start", "Start", "the starting purse"],
  ["villages", "Villages", "the value of every village visited"],
  ["gold_cards", "Gold cards", "own gold cards: a village's value again"],
  ["bonuses", "Bonuses", "10 gold for visiting every village on one journey"],
  ["thieves_in", "Thieves in", "paid to this player's thieves"],
  ["thieves_out", "Thieves out", "paid to other players' thieves"],
  ["purchases", "Purchases", "cards bought while planning"],
  ["removals", "Removals", "villages removed"],
  ["teleports", "Teleports", "3 gold a teleport"],
];

export function breakdown(view) {
  const st = view.state || {};
  const seats = st.seats || [];
  const n = (view.seats || []).length;
  const teleport = !!(st.options || {}).teleport;
  const sums = {};
  const rows = [];
  let other = false;
  const trips = journeysBySeat(st);
  for (let i = 0; i < n; i++) {
    const s = seats[i] || {};
    const src = s.gold_sources || {};
    const values = {};
    let sum = 0;
    for (const [key] of COLUMNS) {
      const v = Number(src[key]) || 0;
      values[key] = v;
      sum += v;
      sums[key] = (sums[key] || 0) + Math.abs(v);
    }
    const purse = Number(s.gold ?? (view.scores || [])[i] ?? 0);
    if (purse !== sum && s.gold_sources) { values.other = purse - sum; other = true; }
    const t = trips[i] || {journeys: 0, visits: 0};
    rows.push({values, detail: `${plural(t.journeys, "journey")}, ` +
                               `${plural(t.visits, "visit")}`});
  }
  const columns = COLUMNS.filter(([key]) => key !== "teleports" || teleport || sums[key])
                         .map(([key, label, title]) => ({key, label, title}));
  if (other) columns.push({key: "other", label: "Other", title: "not broken down"});
  return {columns, rows,
          note: "Gold by where it came from; what went out is negative. The columns add up to " +
                "each purse."};
}

function journeysBySeat(st) {
  const out = {};
  for (const h of st.history || []) {
    const t = out[h.seat] || (out[h.seat] = {journeys: 0, visits: 0});
    t.journeys += 1;
    t.visits += Array.isArray(h.visits) ? h.visits.length : Number(h.visits) || 0;
  }
  return out;
}

/** A visit of a past journey in words (the villages are swept each round, so the visit's own
 * terrain and value, when it carries them, rather than the table's). */
function visitWords(view, v) {
  const owner = Number.isInteger(v.seat) ? `${seatName(view, v.seat)}'s ` : "";
  if (v.terrain) return `${owner}${v.terrain} village (${v.value})`;
  return `${owner}${ordinal(v.slot ?? 1)} village`;
}

export function history(view) {
  const st = view.state || {};
  const trips = (st.history || []).slice().reverse();
  if (!trips.length) return null;
  return el("div", {},
    el("h2", {}, "Journeys"),
    el("ol", {reversed: true}, trips.map((h) => {
      const visits = Array.isArray(h.visits) ? h.visits : null;
      const count = visits ? visits.length : Number(h.visits) || 0;
      const money = [`+${h.collected ?? 0} gold`];
      if (h.paid) money.push(`−${h.paid} paid`);
      return el("li", {"data-journey": `${h.round}.${h.seat}`},
        el("strong", {}, `Round ${h.round}: ${seatName(view, h.seat)}`),
        ` — ${plural(count, "visit")}, ${plural(countCards(h.cards), "card")}, ` +
        money.join(", ") + (h.bonus ? ", bonus of 10" : ""),
        visits && visits.length ? el("div", {class: "detail"},
                                     visits.map((v) => visitWords(view, v)).join(" → ")) : null);
    })));
}
