// Enrolling a kit (#enroll-form, #enroll-panel): each piece of a game is asked for in turn and
// tagged on a reader (or its uid typed); every tag is saved at once. An enrollment left open is
// picked up again after a reload (its id is kept in localStorage).
import {$, el, say, message} from "./dom.js";
import {api} from "./api.js";
import {ENROLL_KEY} from "./state.js";
import {loadKits} from "./create.js";
import {plural} from "../kit.js";

let enrollment = null;  // the session as the server last described it
let enrollTimer = null;

async function startEnrolling(ev) {
  ev.preventDefault();
  const msg = $("enroll-message");
  message(msg, "");
  const body = {kit: $("enroll-kit").value.trim(), game: $("enroll-game").value};
  const readers = $("enroll-readers").value.trim();
  if (readers) body.readers = readers;
  const reader = $("enroll-reader").value.trim();
  if (reader) body.reader = reader;
  $("enroll-start").disabled = true;
  try {
    showEnrollment(await api("POST", "/api/enroll", body));
    message(msg, "enrolling: tags are saved as they come", "ok");
  } catch (e) {
    message(msg, e.message, "error");
  } finally {
    $("enroll-start").disabled = false;
  }
}

function showEnrollment(session) {
  enrollment = session;
  clearInterval(enrollTimer);
  enrollTimer = null;
  if (!session) {
    $("enroll-panel").hidden = true;
    localStorage.removeItem(ENROLL_KEY);
    return;
  }
  if (session.active) localStorage.setItem(ENROLL_KEY, session.sid);
  else localStorage.removeItem(ENROLL_KEY);
  $("enroll-panel").hidden = false;
  const where = session.readers
    ? ` · readers ${session.readers}${session.reader ? " (reader " + session.reader + ")" : ""}`
    : " · typed uids";
  $("enroll-title-kit").textContent = `${session.kit} — ${session.game_name}${where}`;
  $("enroll-progress").textContent = session.progress;
  $("enroll-progress").className = "badge " + (session.complete ? "ok" : "");
  $("enroll-bar").max = session.total || 1;
  $("enroll-bar").value = session.tagged;
  let next;
  if (!session.active) {
    next = `Stopped at ${session.progress}. Every tag is saved; start the same kit again ` +
      "to carry on.";
  } else if (session.next) {
    next = session.next.text + (session.readers ? "" : " — or type its uid");
  } else if (session.complete) {
    next = `Every piece of ${session.kit} is tagged.`;
  } else {
    next = `${plural(session.skipped.length, "piece")} skipped. Finish, then start ${session.kit} again ` +
      "to tag them.";
  }
  $("enroll-next").textContent = next;
  const last = session.last;
  $("enroll-last").textContent = last ? last.text : "";
  $("enroll-last").className = "message " + (last ? (last.ok ? "ok" : "error") : "");
  $("enroll-simulate").hidden = !(session.sim && session.active);
  for (const id of ["enroll-simulate", "enroll-type", "enroll-skip", "enroll-uid"]) {
    $(id).disabled = !session.active || !session.next;
  }
  $("enroll-stop").disabled = !session.active;
  $("enroll-stop").textContent = session.complete ? "Finish" : "Stop";
  $("enroll-log").replaceChildren(...session.messages.slice().reverse().map((m) =>
    el("li", {class: m.ok ? "" : "refused"}, m.text)));
  // With readers, tags arrive by themselves: follow the session.
  if (session.active && session.readers) enrollTimer = setInterval(pollEnrollment, 1000);
}

async function pollEnrollment() {
  if (!enrollment || !enrollment.active) return;
  try {
    const session = await api("GET", `/api/enroll/${encodeURIComponent(enrollment.sid)}`);
    if (JSON.stringify(session) !== JSON.stringify(enrollment)) showEnrollment(session);
  } catch (e) {
    if (e.status === 404) showEnrollment({...enrollment, active: false});
  }
}

async function enrollAction(path, body) {
  if (!enrollment) return;
  try {
    const sid = encodeURIComponent(enrollment.sid);
    showEnrollment(await api("POST", `/api/enroll/${sid}/${path}`, body));
    if (path === "stop") loadKits().catch(() => {});
  } catch (e) {
    if (e.status === 404) showEnrollment({...enrollment, active: false});
    say(e.message, true);
  }
}

async function typeUid() {
  const uid = $("enroll-uid").value.trim();
  if (!uid) { say("Type the tag's uid, e.g. 04A1B2C3", true); return; }
  await enrollAction("tag", {uid});
  if (enrollment && enrollment.last && enrollment.last.ok) $("enroll-uid").value = "";
  $("enroll-uid").focus();
}

/** Wire the form and the panel's buttons (once, at start). */
export function initEnrollment() {
  $("enroll-form").onsubmit = startEnrolling;
  $("enroll-simulate").onclick = () => enrollAction("simulate");
  $("enroll-skip").onclick = () => enrollAction("skip");
  $("enroll-stop").onclick = () => enrollAction("stop");
  $("enroll-type").onclick = typeUid;
  $("enroll-uid").onkeydown = (ev) => {
    if (ev.key === "Enter") { ev.preventDefault(); $("enroll-type").click(); }
  };
}

/** Show the enrollment this browser left open, if the server still has it. */
export async function resumeEnrollment() {
  const sid = localStorage.getItem(ENROLL_KEY);
  if (!sid) return;
  try { showEnrollment(await api("GET", `/api/enroll/${encodeURIComponent(sid)}`)); }
  catch (e) { localStorage.removeItem(ENROLL_KEY); }
}
