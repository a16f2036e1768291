// Check in (checkin.html): POST /api/event/check-in with the badge's code; the answer's seat
// token is kept in this phone's localStorage and the player's page (/me) opens.
import {$, call, SEAT_KEY} from "./common.js";

async function checkIn(ev) {
  ev.preventDefault();
  const code = $("code").value.trim();
  const result = $("result");
  result.classList.remove("why");
  if (!code) { result.textContent = "Type the code from your badge."; return; }
  $("checkin-button").disabled = true;
  try {
    const answer = await call("POST", "/api/event/check-in", {player: code});
    localStorage.setItem(SEAT_KEY, answer.token);
    result.textContent = `Welcome, ${answer.name}: you are checked in.`;
    location.assign("/me");
  } catch (e) {
    result.textContent = e.message;
    result.classList.add("why");
    $("code").select();
  } finally {
    $("checkin-button").disabled = false;
  }
}

async function start() {
  $("checkin-form").onsubmit = checkIn;
  const given = new URLSearchParams(location.search).get("code");
  if (given) $("code").value = given;
  $("already").hidden = !localStorage.getItem(SEAT_KEY);
  try {
    const v = await call("GET", "/api/event");
    $("event-name").textContent = `${v.event.name}: check in`;
    document.title = `${v.event.name} — check in`;
  } catch (e) { /* the form still works once the hub answers */ }
}

start();
