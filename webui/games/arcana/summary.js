// Arcana's end of the game: each seat's VP by source (vp_sources: guild cards, stakes, stakes
// under the badge, objectives, cards left at the districts; adding up to its VP) with its
// stakes and objectives in the detail; and the history of the districts settled (round,
// district, stake, each seat's sum in the arcanum it counted, the winner and the reason).

import {el} from "../../kit.js";
import {named, cardName, districtName, districtOf} from "./pieces.js";
import {historySums} from "./head.js";
import {outcomeWords} from "./district.js";

const COLUMNS = [
  ["guild_cards", "Guild cards", "VP of the guild cards in the deck and discard pile"],
  ["stakes", "Stakes", "VP of the stakes won, in the deck and discard pile"],
  ["set_aside", "Under the badge", "VP of the stakes set aside under the badge"],
  ["objectives", "Objectives", "VP of the objectives met"],
  ["leftovers", "Left at districts", "VP of the cards left at unsettled districts"],
];

export function breakdown(view) {
  const st = view.state || {};
  const seats = st.seats || [];
  const used = {};
  const rows = (view.seats || []).map((_, i) => {
    const s = seats[i] || {};
    const src = s.vp_sources || {};
    const values = {};
    for (const [key] of COLUMNS) {
      values[key] = Number(src[key]) || 0;
      if (values[key]) used[key] = true;
    }
    const bits = [];
    if (Number.isInteger(s.stakes)) bits.push(`${s.stakes} stake${s.stakes === 1 ? "" : "s"}`);
    if (s.guild_name) bits.push(`the ${s.guild_name}`);
    const objectives = Array.isArray(s.objectives) ? s.objectives : [];
    if (objectives.length) {
      bits.push("objectives: " + objectives.map((o) => `${cardName(o)} ${o.met ? "met" : "not met"}`)
                                         .join(", "));
    }
    return {values, detail: bits.join(" · ")};
  });
  // the options' columns only where the table played them or they scored
  const opts = st.options || {};
  const columns = COLUMNS.filter(([key]) => key === "guild_cards" || key === "stakes" ||
                                            used[key] || (key === "set_aside" && opts.set_aside) ||
                                            (key === "objectives" && opts.objectives) ||
                                            (key === "leftovers" && opts.leftovers === "returned"))
                         .map(([key, label, title]) => ({key, label, title}));
  return {columns, rows,
          note: "VP by where they came from; the columns add up to each total. A tie for the " +
                "most VP goes to the most stake cards."};
}

export function history(view) {
  const st = view.state || {};
  const list = (st.history || []).slice().reverse();
  if (!list.length) return null;
  return el("div", {},
    el("h2", {}, "Districts settled"),
    el("ol", {reversed: true}, list.map((h) => {
      const d = districtOf(st, h.district);
      const sums = historySums(view, h);
      return el("li", {"data-settled": `${h.round}.${h.district}`},
        el("strong", {}, `Round ${h.round}, ${districtName(d || h.district)}`),
        ` (${cardName(h.stake)}): `, named(view, outcomeWords(view, h)),
        h.immediate ? " (at once)" : "",
        sums ? el("div", {class: "detail"}, `Sums: ${sums}`) : null);
    })));
}
