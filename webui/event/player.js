// A player's phone (player.html): GET /api/event/me with the seat token from check-in,
// followed by long-poll; "Confirm the result" once the game is over (POST confirm); once the
// result is final, "Add to BG Stats" and the play's JSON.
import {$, el, call, follow, syncClock, timerWords, everySecond, fill, decidedBy,
        SEAT_KEY} from "./common.js";

const token = localStorage.getItem(SEAT_KEY) || "";
let view = null;

function say(text, bad = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("bad", bad);
}

async function confirmResult(game, button) {
  button.disabled = true;
  try {
    show(await call("POST", `/api/event/games/${encodeURIComponent(game)}/confirm`, undefined,
                    token));
    say("Thank you: your confirmation is recorded.");
  } catch (e) {
    say(e.message, true);
    button.disabled = false;
  }
}

function seatBody(r, me) {
  const scores = r.state ? r.state.scores : null;
  const parts = [
    el("p", null, `Round ${r.round}. `, el("span", {class: "badge " + (r.status === "final"
      ? "final" : r.status === "over" ? "warn" : "")}, r.status_words)),
    el("h3", null, "Players, in seat order (seat 1 starts)"),
    el("ol", {class: "players"}, r.players.map((name, i) => el("li",
      {class: i === r.seat - 1 ? "me" : ""}, name, i === r.seat - 1 ? " (you)" : "",
      scores && scores[i] !== undefined ? `: ${scores[i]} points` : ""))),
  ];
  if (r.state && r.state.waiting_for && !r.state.over) {
    parts.push(el("p", {class: "small"}, `Waiting for: ${r.state.waiting_for}`));
  }
  if (r.can_confirm) {
    const button = el("button", {type: "button", class: "primary", id: "confirm"},
                      "Confirm the result");
    button.onclick = () => confirmResult(r.game, button);
    parts.push(el("p", null, "The game is over. Check the scores above, then:"),
               el("p", null, button));
  } else if (r.confirmed && r.status !== "final") {
    parts.push(el("p", {id: "confirmed"}, "You confirmed the result. Waiting for the others."));
  }
  if (r.status === "final") {
    parts.push(el("p", {id: "final"}, "The result is final."));
    if (r.bgstats) {
      parts.push(el("p", {class: "row"},
        el("a", {class: "button primary", href: r.bgstats, id: "bgstats", rel: "noopener"},
           "Add to BG Stats"),
        el("a", {href: `/api/event/games/${encodeURIComponent(r.game)}/bgstats.json`},
           "Download the play (JSON)")));
    }
  }
  return parts;
}

function show(v) {
  view = v;
  syncClock(v);
  document.title = `${v.event.name} — ${v.player.name}`;
  $("event-name").textContent = v.event.name;
  $("who").textContent = v.player.name;
  $("seat-panel").hidden = false;
  $("not-me").hidden = false;
  const r = v.round;
  const title = $("seat-title");
  if (v.player.dropped) {
    title.textContent = "You have left this event";
    fill($("seat-body"), "dropped", el("p", null, "Ask at the desk to come back."));
  } else if (v.bye) {
    title.textContent = "You have a bye this round";
    fill($("seat-body"), "bye", el("p", null, "Your points for the bye are counted. " +
                                   "Watch the projector for the next round."));
  } else if (r) {
    title.textContent = `${r.table_label}, seat ${r.seat}`;
    fill($("seat-body"), r, seatBody(r, v.player));
  } else {
    title.textContent = "Not seated yet";
    fill($("seat-body"), "waiting", el("p", null,
      v.player.checked_in ? "You are checked in. Your table and seat show here when the round "
        + "is seated." : "Check in at the desk or with your badge's code."));
  }
  const s = v.standing;
  $("standing-panel").hidden = !s;
  if (s) {
    const why = decidedBy(s);
    $("standing").textContent = `Place ${s.place} with ${s.points} points after ` +
      `${s.games} ${s.games === 1 ? "game" : "games"}` + (why ? ` (${why})` : "") + ".";
  }
  tick();
  return v.version;
}

function tick() {
  if (!view) return;
  const t = timerWords(view.timer);
  const box = $("timer");
  box.hidden = !view.timer;
  box.textContent = t.up ? "Time is up" : t.text;
  box.classList.toggle("up", t.up);
}

async function refresh() {
  try {
    return show(await call("GET", "/api/event/me", undefined, token));
  } catch (e) {
    if (e.status === 401 || e.status === 404) {
      localStorage.removeItem(SEAT_KEY);
      $("seat-panel").hidden = true;
      $("no-token").hidden = false;
      say("This phone's check-in is no longer valid: check in again with your badge's code.",
          true);
    }
    throw e;
  }
}

if (!token) {
  $("no-token").hidden = false;
} else {
  everySecond(tick);
  follow(refresh, (text) => say(text ? "The hub does not answer; showing the last view." : "",
                               !!text));
}
