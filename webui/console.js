// The organiser console (console.html): tables, enrollment, game data, reader health. Its
// entry module; each view is a module of webui/console/ (ES modules, no build step, no external
// assets) and the DOM helpers come from kit.js. Every value from the server is inserted as text,
// never as HTML. Every call carries the organiser token, kept in localStorage under
// "scorekeeper.organiser" (the live page reads the same key).
import {$, say} from "./console/dom.js";
import {lock, unlock, tokenAccepted, saveToken, WHERE_TOKEN, WRONG_TOKEN} from "./console/api.js";
import {state, POLL_MS} from "./console/state.js";
import {refreshAll} from "./console/refresh.js";
import {initTables} from "./console/tables.js";
import {loadGames, loadKits, initCreate} from "./console/create.js";
import {initEnrollment, resumeEnrollment} from "./console/enrollment.js";
import {loadData} from "./console/data-editor.js";

// What needs the token: the kits, the game data, an enrollment left open.
async function loadOrganiserData() {
  await Promise.all([loadData(), loadKits()].map((p) => p.catch((e) => say(e.message, true))));
  await resumeEnrollment();
}

async function saveTokenBox(ev) {
  ev.preventDefault();
  const given = $("token").value.trim();
  if (!given) { lock("Enter the organiser token. " + WHERE_TOKEN); return; }
  const ok = await tokenAccepted(given);
  if (ok === false) { lock(WRONG_TOKEN); $("token").select(); return; }
  if (ok === null) {
    say("The server does not answer; is it running? Try again in a moment.", true);
    return;
  }
  saveToken(given);
  $("token").value = "";
  unlock();
  // The token box is gone: carry on at the top of the console at once, never after the data
  // has loaded (by then the keyboard may have moved on, and would be pulled back).
  $("main").focus();
  say("Organiser token saved in this browser.");
  await loadOrganiserData();
  await refreshAll();
}

async function start() {
  $("token-form").onsubmit = saveTokenBox;
  $("token-change").onclick = () => { lock(); $("token").focus(); };
  initTables();
  initCreate();
  initEnrollment();
  lock();
  if (state.token) {
    const ok = await tokenAccepted(state.token);
    if (ok === false) { saveToken(""); lock(WRONG_TOKEN); }
    else if (ok === null) {
      say("The server does not answer; is it running? Reload the page when it is.", true);
    } else unlock();
  }
  try {
    await loadGames();
  } catch (e) { say(e.message, true); }
  if (state.unlocked) await loadOrganiserData();
  await refreshAll();
  setInterval(refreshAll, POLL_MS);
}

start();
