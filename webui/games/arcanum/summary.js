// Arcanum's end-of-game summary: where each seat's VP came from (fame phases by family,
// locations, majors) and the history of the fame phases.

import {el, seatName} from "../../kit.js";
import {FAMILIES, ORDER, card, familyChip} from "./pieces.js";
import {locations} from "./city.js";

export function breakdown(view) {
  const st = view.state || {};
  const seats = st.seats || [];
  const n = (view.seats || []).length;
  const locs = locations(st);
  const locName = {};
  for (const loc of Object.values(locs)) if (loc.id) locName[loc.id] = loc.name || loc.id;
  const famCols = ORDER.map((f) => ({key: "fame:" + f, label: `Fame ${FAMILIES[f].symbol}`,
                                     title: `fame phases, ${f} ${FAMILIES[f].symbol}`}));
  const haveSources = seats.some((s) => s && s.vp_sources && typeof s.vp_sources === "object");
  if (haveSources) {
    const columns = [...famCols, {key: "locations", label: "Locations"},
                     {key: "majors", label: "Majors"}];
    let other = false;
    const rows = [];
    for (let i = 0; i < n; i++) {
      const src = (seats[i] || {}).vp_sources || {};
      const values = {};
      const detail = [];
      let sum = 0;
      for (const [key, raw] of Object.entries(src)) {
        const v = Number(raw) || 0;
        sum += v;
        const [kind, what] = key.split(":");
        let col;
        if ((kind === "fame" || kind === "world") && FAMILIES[what]) col = "fame:" + what;
        else if (kind === "location") {
          col = "locations";
          detail.push([locName[what] || what.replaceAll("_", " "), v]);
        } else if (kind === "major") {
          col = "majors";
          detail.push([card(what).words, v]);
        } else { col = "other"; other = true; detail.push([key, v]); }
        values[col] = (values[col] || 0) + v;
      }
      const vp = Number((view.scores || [])[i] ?? (seats[i] || {}).vp ?? 0);
      if (vp !== sum) { values.other = (values.other || 0) + vp - sum; other = true; }
      detail.sort((a, b) => b[1] - a[1]);
      rows.push({values, detail: detail.map(([k, v]) => `${k} ${v >= 0 ? "+" : "−"}${Math.abs(v)}`)
                                       .join(" · ")});
    }
    if (other) columns.push({key: "other", label: "Other"});
    const world = (st.history || []).some((h) => h.kind === "world");
    return {columns, rows,
            note: world ? "Fame columns include the XXI World's fame phases (half values)." : ""};
  }
  // An older server: the fame phases' awards from the history; the rest together.
  const rows = [];
  for (let i = 0; i < n; i++) rows.push({values: {}});
  for (const h of st.history || []) {
    for (const f of h.families || []) {
      (f.awards || []).forEach((a, i) => {
        if (!rows[i] || !a) return;
        rows[i].values["fame:" + f.family] = (rows[i].values["fame:" + f.family] || 0) + a;
      });
    }
  }
  rows.forEach((r, i) => {
    const fame = Object.values(r.values).reduce((a, b) => a + b, 0);
    r.values.rest = Number((view.scores || [])[i] ?? 0) - fame;
  });
  return {columns: [...famCols, {key: "rest", label: "Locations & majors"}], rows,
          note: "Locations and majors are shown together: this server does not break them down."};
}

export function history(view) {
  const st = view.state || {};
  const phases = (st.history || []).slice().reverse();
  if (!phases.length) return null;
  const name = (i) => seatName(view, i);
  return el("div", {},
    el("h2", {}, "Fame phases"),
    el("ol", {reversed: true}, phases.map((h) => el("li", {},
      el("strong", {}, `Round ${h.round}: ${h.kind === "world" ? "XXI World (half values)" : "fame phase"}`),
      " — ", (h.totals || []).map((t, i) => `${name(i)} +${t}`).join(" · "),
      el("div", {class: "detail"}, (h.families || []).map((f) => el("div", {},
        ...familyChip(f.family), ` row ${f.row}: `,
        (f.awards || []).map((a, i) => (a ? `${name(i)} +${a}` : null)).filter(Boolean).join(", ") ||
          "no awards")))))));
}
