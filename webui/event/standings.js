// The public standings page (standings.html): GET /api/event, followed by long-poll. Each
// place shows its tie-breaks' values and which one decided it (highlighted in its column).
import {$, el, follow, call, fill, tieBreakName, decidedBy} from "./common.js";

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

function show(v) {
  document.title = `${v.event.name} — standings`;
  $("event-name").textContent = v.event.name;
  $("round").textContent = v.round ? `after round ${v.round}` : "";
  const names = v.standings.length ? v.standings[0].tie_breaks.map((t) => t.name) : [];
  fill($("standings-head"), names,
    el("th", {class: "num", scope: "col"}, "Place"), el("th", {scope: "col"}, "Player"),
    el("th", {class: "num", scope: "col"}, "Points"),
    names.map((n) => el("th", {class: "num", scope: "col"}, capital(tieBreakName(n)))),
    el("th", {scope: "col"}, "Decided by"));
  fill($("standings"), v.standings, v.standings.length ? v.standings.map((s) =>
    el("tr", {class: s.dropped ? "dropped" : "", dataset: {player: s.player}},
      el("td", {class: "num"}, String(s.place)),
      el("td", null, s.name, s.dropped ? " (left the event)" : ""),
      el("td", {class: `num${s.decided_by === "points" ? " decider" : ""}`}, s.points),
      s.tie_breaks.map((t) => el("td", {class: `num${t.name === s.decided_by ? " decider" : ""}`},
                                 t.value === null ? "–" : t.value)),
      el("td", {class: "decided"}, decidedBy(s))))
    : el("tr", null, el("td", {colspan: 4 + names.length, class: "muted"},
                        "No results yet: the standings start with the first final result.")));
}

async function refresh() {
  const v = await call("GET", "/api/event");
  show(v);
  return v.version;
}

follow(refresh, (text) => {
  const s = $("status");
  s.textContent = text ? "The hub does not answer; these are the last standings shown." : "";
  s.classList.toggle("bad", !!text);
});
