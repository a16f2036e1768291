// The event console (console.html), for the organiser and judges. GET /api/event/console with
// the token kept in localStorage (asked once), followed by long-poll; the organiser's actions
// and a judge's override are in console-forms.js. A judge's console hides what only the
// organiser may do (the hub refuses it anyway).
import {$, el, call, follow, syncClock, timerWords, everySecond, fill, decidedBy,
        listWords, CONSOLE_KEY} from "./common.js";
import {initForms, playerActions, showGames} from "./console-forms.js";

export const ctx = {token: localStorage.getItem(CONSOLE_KEY) || "", view: null, following: false};

/** Say what happened (or went wrong) in the status line. */
export function say(text, bad = false) {
  const s = $("status");
  s.textContent = text;
  s.classList.toggle("bad", bad);
}

/** Call the API with the console's token; a refused token shows the token box again. */
export async function api(method, path, body) {
  try {
    return await call(method, path, body, ctx.token);
  } catch (e) {
    if (e.status === 401) lock("This token is not valid for this event: enter another.");
    throw e;
  }
}

function lock(message) {
  $("main").hidden = true;
  $("token-form").hidden = false;
  $("token-change").hidden = true;
  if (message) say(message, true);
}

function tableRow(t, pod) {
  const seats = pod ? el("ol", {class: "seats"}, pod.seats.map((s) => el("li", null, s.name,
    s.score !== null && s.score !== undefined ? `: ${s.score}` : "",
    s.confirmed ? " (confirmed)" : ""))) : el("span", {class: "muted"}, "no game this round");
  const readers = t.readers.length ? `${t.readers.filter((r) => r.online !== false).length} of `
    + `${t.readers.length} readers working` : "no reader report yet";
  // what the hub holds of what the table has (a table not heard from yet: the hub's count)
  const records = !t.game ? "" : t.at_table === null || t.at_table === undefined
    ? String(t.held) : `${t.held} of ${t.at_table}`;
  // data-label: the column's name, shown before each cell where a phone stacks the cells
  return el("tr", {class: t.attention.length ? "attention" : "", dataset: {table: t.name}},
    el("td", null, el("strong", null, t.label)),
    el("td", {dataset: {label: "Game"}}, pod ? el("span", {class: "badge " +
      ({final: "final", over: "warn"}[pod.status] || "")}, pod.status_words) : ""),
    el("td", {dataset: {label: "Players"}}, seats),
    el("td", {dataset: {label: "Connection"}}, el("span", {class: "badge " +
      (t.online ? "ok" : "bad")}, t.online ? "online" : "offline"),
      el("div", {class: "small"}, readers)),
    el("td", {class: "num", dataset: {label: "Records"},
              title: "records the hub holds of the ones the table has"}, records),
    // one block in the cell: a phone lays a cell's label and its content side by side
    el("td", {dataset: {label: "Needs attention"}}, el("div", null, t.attention.length
      ? el("ul", {class: "attention-list"}, t.attention.map((why) => el("li", null, why)))
      : el("span", {class: "muted"}, "all well"),
      pod && pod.status === "playing" ? undoButton(t, pod) : null)));
}

/** A judge's undo of a table's last play: it travels to the table and enters its own log
 * (at once, or when the table is back online). */
function undoButton(t, pod) {
  const button = el("button", {type: "button", class: "small"}, "Undo its last play");
  button.onclick = async () => {
    const reason = window.prompt(`Why undo the last play at ${t.label}? ` +
      "The reason is kept with the correction, at the table and in its record.");
    if (!reason || !reason.trim()) return;
    try {
      await api("POST", `/api/event/games/${encodeURIComponent(pod.game)}/correct`,
                {record: {type: "undo"}, expect_seq: null, reason: reason.trim()});
      say(`Sent to ${t.label}: it takes back its last play as soon as it gets this ` +
          "(at once, or when it is back online). The table shows what to put back.");
    } catch (e) {
      say(e.message, true);
    }
  };
  return el("div", null, button);
}

function playerState(p) {
  if (p.dropped) return el("span", {class: "badge bad"}, "dropped");
  if (p.checked_in) return el("span", {class: "badge ok"}, "checked in");
  return el("span", {class: "badge"}, "not checked in");
}

function showRound(v) {
  const organiser = v.you && v.you.scope === "organiser";
  for (const node of document.querySelectorAll(".org-only")) node.hidden = !organiser;
  $("round-title").textContent = v.round ? `Round ${v.round}${v.round_closed ? " (closed)" : ""}`
    : "No round seated yet";
  fill($("waiting"), v.waiting, v.waiting.map((w) => el("li", null, w.why)));
  const next = $("seat-next");
  next.textContent = v.round ? `Seat round ${v.round + 1}` : "Seat round 1";
  next.disabled = !v.can_seat;
  let why = "";
  if (!v.open) why = "The event is not open yet.";
  else if (v.waiting.length) {
    const tables = v.waiting.map((w) => (/^table/i.test(w.table) ? w.table : `Table ${w.table}`));
    why = `The next round waits for ${listWords([...new Set(tables)])}: every result must be ` +
      "final first.";
  } else if (v.players < 2) why = "Check in at least two players first.";
  $("seat-why").textContent = why;
  $("reseat").disabled = !v.round || v.round_closed;
  $("close-round").disabled = !v.round || v.round_closed || v.waiting.length > 0;
}

function show(v) {
  ctx.view = v;
  syncClock(v);
  document.title = `${v.event.name} — console`;
  $("event-name").textContent = v.event.name;
  $("you").textContent = v.you ? (v.you.scope === "organiser" ? "organiser"
    : `judge ${v.you.name}`) : "";
  showRound(v);
  const pods = Object.fromEntries(v.pods.map((p) => [p.table, p]));
  fill($("tables"), [v.tables, v.pods], v.tables.map((t) => tableRow(t, pods[t.name])));
  const byes = $("byes");
  byes.hidden = !v.byes.length;
  byes.textContent = `Bye this round: ${v.byes.map((b) => b.name).join(", ")}`;
  fill($("standings"), v.standings, v.standings.map((s) => el("tr", null,
    el("td", {class: "num"}, String(s.place)),
    el("td", null, `${s.name}${s.dropped ? " (dropped)" : ""}`),
    el("td", {class: "num"}, s.points), el("td", null, decidedBy(s)))));
  const organiser = v.you && v.you.scope === "organiser";
  fill($("players"), [v.players_list, organiser], v.players_list.map((p) => el("tr",
    {dataset: {player: p.id}}, el("td", null, p.name), el("td", {class: "code"}, p.id),
    el("td", null, playerState(p)), organiser ? el("td", null, playerActions(p)) : null)));
  fill($("audit"), v.audit, v.audit.length ? v.audit.map((a) => el("li", null,
    `${a.kind === "result_override" ? "Result set" : "Override cleared"} by ${a.judge}: ` +
    `${gameWords(a.game)}. Reason: ${a.reason}`)) : el("li", {class: "muted"}, "no override yet"));
  fill($("changed"), v.changed, v.changed.length ? v.changed.map((c) => el("li", null, c))
    : el("li", {class: "muted"}, "nothing"));
  tick();
}

/** "Round 1, Table 2" for a game id (from the games list the override form holds). */
function gameWords(game) {
  const found = (ctx.games || []).find((g) => g.game === game);
  return found ? `round ${found.round}, ${found.table_label}` : "a game";
}

function tick() {
  if (!ctx.view) return;
  const t = timerWords(ctx.view.timer);
  $("clock").textContent = t.up ? "Time is up" : t.clock;
}

/** Load the console's view and every game of the event; returns the view's version. */
export async function refresh() {
  const [v, results] = await Promise.all([api("GET", "/api/event/console"),
                                          call("GET", "/api/event/results.json")]);
  showGames(results.games, v);
  show(v);
  return v.version;
}

/** Show a view an action answered with (the console's view) at once. */
export function showView(v) {
  if (v && v.pods) show({...v, you: ctx.view ? ctx.view.you : v.you});
}

async function open() {
  $("token-form").hidden = true;
  $("main").hidden = false;
  $("token-change").hidden = false;
  await refresh();
  if (!ctx.following) {
    ctx.following = true;
    follow(refresh, (text) => text && say(text, true)).finally(() => { ctx.following = false; });
  }
}

async function saveToken(ev) {
  ev.preventDefault();
  const given = $("token").value.trim();
  if (!given) { say("Enter the organiser's or a judge's token.", true); return; }
  ctx.token = given;
  try {
    await refresh();
  } catch (e) {
    if (e.status !== 401) say(e.message, true);
    return;
  }
  localStorage.setItem(CONSOLE_KEY, given);
  $("token").value = "";
  say("Token saved in this browser.");
  await open();
  $("main").focus();
}

async function start() {
  $("token-form").onsubmit = saveToken;
  $("token-change").onclick = () => { lock(); $("token").focus(); };
  initForms({api, say, showView, refresh, ctx});
  everySecond(tick);
  call("GET", "/api/event").then((v) => { $("event-name").textContent = v.event.name; },
                                 () => {});  // the event's name above the token box
  if (!ctx.token) { lock(); return; }
  try {
    await open();
  } catch (e) {
    if (e.status !== 401) say(e.message, true);
  }
}

start();
