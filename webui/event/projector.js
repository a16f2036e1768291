// The projector (projector.html): a TV at 3 m. Public: GET /api/event, followed by long-poll.
// The standings show as many places as fit on the screen, and say how many more there are.
import {$, el, follow, call, syncClock, timerWords, everySecond, fill} from "./common.js";

let view = null;

function podCard(pod) {
  return el("article", {class: `pod ${pod.status}`, dataset: {table: pod.table}},
    el("h2", null, pod.table_label, el("span", {class: "state"}, pod.status_words)),
    el("ol", null, pod.seats.map((s, i) => el("li", null,
      el("span", {class: "who"}, s.name, i === 0 ? el("span", {class: "starts"}, " starts") : ""),
      s.score !== null && s.score !== undefined
        ? el("span", {class: "score", title: "score"}, String(s.score)) : ""))));
}

function showStandings(rows) {
  const body = $("standings");
  body.replaceChildren(...rows.map((s) => el("tr", {class: s.dropped ? "dropped" : ""},
    el("td", {class: "num"}, String(s.place)),
    el("td", null, s.name, s.dropped ? " (left)" : ""),
    el("td", {class: "num"}, `${s.points} pts`))));
  // Keep only the rows that fit above the check-in box: a TV cannot scroll.
  const box = body.closest(".standings");
  const limit = box.getBoundingClientRect().bottom - 40;
  let shown = rows.length;
  for (const tr of [...body.children].reverse()) {
    if (tr.getBoundingClientRect().bottom <= limit) break;
    tr.remove();
    shown -= 1;
  }
  const more = $("more");
  more.hidden = shown >= rows.length;
  more.textContent = `and ${rows.length - shown} more at /standings`;
}

// Shrink the pods' type until every pod fits the screen (a TV cannot scroll): a big event's
// 25 tables get smaller cards, a club night's 3 stay large.
function fitPods() {
  const box = $("pods");
  let size = 1;
  box.style.fontSize = "1em";
  while (box.scrollHeight > box.clientHeight + 1 && size > 0.45) {
    size -= 0.05;
    box.style.fontSize = `${size}em`;
  }
}

function show(v) {
  view = v;
  syncClock(v);
  document.title = `${v.event.name} — projector`;
  $("event-name").textContent = v.event.name;
  $("round").textContent = v.round ? `Round ${v.round}` : "Not started";
  fill($("pods"), v.pods, v.pods.length ? v.pods.map(podCard)
    : el("p", {class: "empty"}, `${v.players} players checked in. Seating soon.`));
  const byes = $("byes");
  byes.hidden = !v.byes.length;
  byes.textContent = `Bye this round: ${v.byes.map((b) => b.name).join(", ")}`;
  showStandings(v.standings);
  if (window.innerWidth > 800) fitPods();
  tick();
}

function tick() {
  if (!view) return;
  const t = timerWords(view.timer);
  const clock = $("countdown");
  clock.textContent = t.up ? "Time is up" : t.clock;
  clock.classList.toggle("up", t.up);
  const banner = $("announce");
  banner.hidden = !t.up;
  banner.textContent = t.up ? `Time is up: round ${view.timer.round} has ended. ` +
    "Finish the turn you are playing, then confirm your result." : "";
}

async function refresh() {
  const v = await call("GET", "/api/event");
  show(v);
  return v.version;
}

function offline(text) {
  const box = $("offline");
  box.hidden = !text;
  box.textContent = text ? "The hub does not answer; showing the last view." : "";
}

everySecond(tick);
window.addEventListener("resize", () => {
  if (!view) return;
  showStandings(view.standings);
  if (window.innerWidth > 800) fitPods(); else $("pods").style.fontSize = "";
});
$("checkin-address").textContent = `${location.host}/check-in`;
follow(refresh, offline);
