// Enrolling a kit (#enroll-form, #enroll-panel): each piece of a game is asked for in turn and
// tagged on a reader (or its uid typed); every tag is saved at once. An enrollment left open is
// picked up again after a reload (its id is kept in localStorage). A game that records its copy
// as it is tagged (a deck's cards and what is printed on them) asks, right after such a piece is
// tagged, its fields in a small form (#enroll-ask, the session's `ask`); the next tag waits.
import {$, el, say, message} from "./dom.js";
import {api} from "./api.js";
import {ENROLL_KEY, state} from "./state.js";
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
  const copy = document.getElementById("enroll-copy");
  if (copy && copy.value) body.options = {[copy.dataset.option]: copy.value};
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
  if (session.active && session.ask) next = session.ask.text;
  $("enroll-next").textContent = next;
  drawAsk(session);
  const last = session.last;
  $("enroll-last").textContent = last ? last.text : "";
  $("enroll-last").className = "message " + (last ? (last.ok ? "ok" : "error") : "");
  $("enroll-simulate").hidden = !(session.sim && session.active);
  for (const id of ["enroll-simulate", "enroll-type", "enroll-skip", "enroll-uid"]) {
    $(id).disabled = !session.active || !session.next || !!session.ask;
  }
  $("enroll-stop").disabled = !session.active;
  $("enroll-stop").textContent = session.complete ? "Finish" : "Stop";
  $("enroll-log").replaceChildren(...session.messages.slice().reverse().map((m) =>
    el("li", {class: m.ok ? "" : "refused"}, m.text)));
  // With readers, tags arrive by themselves: follow the session.
  if (session.active && session.readers) enrollTimer = setInterval(pollEnrollment, 1000);
}

// The small form asking what is printed on the piece just tagged: a choice list per field (its
// words from the game's data kind), or a text box for a field without choices. Redrawn only
// when another piece is asked, so that a poll never throws away what is being chosen.
function drawAsk(session) {
  const old = document.getElementById("enroll-ask");
  const ask = session.active ? session.ask : null;
  if (!ask) { if (old) old.remove(); return; }
  if (old && old.dataset.piece === ask.piece) return;
  const fields = ask.fields.map((f) => {
    const id = `enroll-ask-${f.field}`;
    const help = f.help ? el("span", {class: "muted small", id: id + "-help"}, f.help) : null;
    const input = f.choices.length
      ? el("select", {id, name: f.field, required: true, "data-field": f.field,
                      "aria-describedby": help ? id + "-help" : null},
          el("option", {value: ""}, `— choose the ${f.title} —`),
          f.choices.map((c) => el("option", {value: String(c.value)}, c.label)))
      : el("input", {id, name: f.field, required: true, "data-field": f.field,
                     "aria-describedby": help ? id + "-help" : null});
    return [el("label", {for: id}, f.title[0].toUpperCase() + f.title.slice(1)),
            el("div", {}, input, " ", help)];
  });
  const form = el("form", {id: "enroll-ask", class: "form", "data-piece": ask.piece,
                           "aria-label": ask.text},
    el("strong", {}, ask.text), el("span", {}),
    ...fields.flat(),
    el("div", {}, el("button", {type: "submit", class: "primary", id: "enroll-answer"},
                     "Save these answers")));
  form.onsubmit = (ev) => {
    ev.preventDefault();
    const answers = {};
    for (const f of ask.fields) answers[f.field] = form.elements[f.field].value;
    enrollAction("answer", {answers});
  };
  if (old) old.replaceWith(form); else $("enroll-next").after(form);
  const first = form.querySelector("select, input");
  if (first) first.focus();
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

// A game whose data kind is recorded while its copy is tagged (a deck manifest) may tag the
// pieces of one of that kind's entries instead of the usual copy's (a deck with more cards):
// a choice list after the game's, of the kind's complete entries. Nothing for other games.
function renderCopyChoice() {
  const select = document.getElementById("enroll-copy");
  const kept = select ? select.value : "";
  for (const old of document.querySelectorAll("[data-enroll-copy]")) old.remove();
  const game = $("enroll-game").value;
  const kind = state.dataKinds.find((k) => k.game === game && k.option && k.records_copy);
  if (!kind) return;
  const entries = (state.dataEntries[`${kind.game}/${kind.kind}`] || []).filter((e) => e.complete);
  const choice = el("select", {id: "enroll-copy", "data-option": kind.option,
                               "aria-describedby": "enroll-copy-help"},
    el("option", {value: ""}, "the usual copy's pieces"),
    entries.map((e) => el("option", {value: e.name},
      e.name + (e.sample ? ` — ${e.sample_word || "sample"}` : ""))));
  if (entries.some((e) => e.name === kept)) choice.value = kept;
  $("enroll-game").after(
    el("label", {for: "enroll-copy", "data-enroll-copy": ""}, "Pieces of"),
    el("div", {"data-enroll-copy": ""}, choice,
       el("div", {class: "muted small", id: "enroll-copy-help"},
          `a copy with other cards than usual: the entry of ${kind.title.toLowerCase()} ` +
          "that lists them")));
}

/** Wire the form and the panel's buttons (once, at start). */
export function initEnrollment() {
  $("enroll-game").addEventListener("change", renderCopyChoice);
  document.addEventListener("data-entries", renderCopyChoice);
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
