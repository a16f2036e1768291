// The organiser console (console.html): tables, enrollment, board profiles, reader health.
// Plain JavaScript, no build step, no external assets. Every value from the server is inserted
// as text (el() below), never as HTML. Every call carries the organiser token, kept in
// localStorage under "scorekeeper.organiser" (the live page reads the same key).
"use strict";

const TOKEN_KEY = "scorekeeper.organiser";
const ENROLL_KEY = "scorekeeper.enrollment";
const POLL_MS = 2000;

// -- tiny DOM helpers ---------------------------------------------------------------------------
const $ = (id) => document.getElementById(id);
function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k.startsWith("on")) node[k] = v;
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
// Replace a node's children: the same flattening as el() (arrays, null and false skipped).
function fill(node, ...children) {
  node.replaceChildren();
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}
const badge = (text, kind) => el("span", {class: "badge " + (kind || text)}, text);
function say(text, error) {
  const box = $("status");
  box.textContent = text || "";
  box.className = "status" + (error ? " error" : "");
  clearTimeout(say.timer);
  if (text) say.timer = setTimeout(() => { box.textContent = ""; }, error ? 12000 : 6000);
}
function ago(seconds) {
  if (seconds === null || seconds === undefined) return "never";
  if (seconds < 1.5) return "just now";
  if (seconds < 90) return `${Math.round(seconds)} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

// -- the organiser token and the API ------------------------------------------------------------
let token = localStorage.getItem(TOKEN_KEY) || "";

class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `the server answered ${status}`);
    this.status = status;
    this.body = body;
  }
}

async function api(method, path, body) {
  const headers = {};
  if (token) headers.Authorization = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    throw new ApiError(0, {error: "the server does not answer; is it running?"});
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = {error: text}; }
  if (res.status === 401) showTokenForm("This token is not accepted here: enter the organiser token.");
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

async function download(path, filename) {
  const res = await fetch(path, {headers: {Authorization: "Bearer " + token}});
  if (!res.ok) {
    let msg = `the server answered ${res.status}`;
    try { msg = (await res.json()).error || msg; } catch (e) { /* not JSON */ }
    throw new ApiError(res.status, {error: msg});
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const a = el("a", {href: url, download: filename});
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 5000);
}

function showTokenForm(message) {
  $("token-form").hidden = false;
  $("token-change").hidden = true;
  $("token-state").textContent = message ? "token refused" : "no token";
  $("token-state").className = "badge bad";
  if (message) say(message, true);
}
function tokenSaved() {
  $("token-form").hidden = true;
  $("token-change").hidden = false;
  $("token-state").textContent = "organiser";
  $("token-state").className = "badge ok";
}
$("token-form").onsubmit = async (ev) => {
  ev.preventDefault();
  const given = $("token").value.trim();
  if (!given) { say("Enter the organiser token.", true); return; }
  token = given;
  try {
    await api("GET", "/api/kits");
  } catch (e) {
    if (e.status === 401 || e.status === 403) { token = ""; showTokenForm(e.message); return; }
  }
  localStorage.setItem(TOKEN_KEY, token);
  $("token").value = "";
  tokenSaved();
  say("Organiser token saved in this browser.");
  tablesShown = ""; detailShown = "";
  await loadOrganiserData();
  refreshAll();
};
$("token-change").onclick = () => { showTokenForm(); $("token").focus(); };

// -- the confirmation dialog --------------------------------------------------------------------
function confirmDialog(title, lines, yesLabel, canConfirm = true) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-text").replaceChildren(...lines.map((l) => (l instanceof Node ? l : el("p", {}, l))));
  $("confirm-yes").textContent = yesLabel || "Yes";
  $("confirm-yes").hidden = !canConfirm;
  $("confirm-no").textContent = canConfirm ? "Cancel" : "Close";
  return new Promise((resolve) => {
    const done = (answer) => {
      $("confirm-yes").onclick = null; $("confirm-no").onclick = null; dialog.oncancel = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    $("confirm-yes").onclick = () => done(true);
    $("confirm-no").onclick = () => done(false);
    dialog.oncancel = (ev) => { ev.preventDefault(); done(false); };
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
  });
}

// What an undo or a correction changes, in words (from /undo-preview, /correct-preview).
function previewLines(p) {
  const lines = [];
  if (!p.accepted) {
    const r = p.rejection || {};
    lines.push(el("p", {class: "error-text"}, `The table would refuse it: ${r.reason || "refused"}` +
                  (r.hint ? ` (${r.hint})` : "")));
    return lines;
  }
  if (p.input) {
    lines.push(el("p", {}, el("strong", {}, p.action === "undo" ? "Takes back " : "Replaces "),
                  `#${p.input_seq}: `, el("code", {}, p.input),
                  p.words ? ` — ${p.words}` : ""));
  }
  if (p.action === "correct") {
    lines.push(el("p", {}, el("strong", {}, "With "), el("code", {}, p.replacement),
                  p.replacement_words ? ` — ${p.replacement_words}` : ""));
  }
  const changes = p.seats.map((name, i) => [name, p.scores_before[i], p.scores_after[i]])
    .filter(([, a, b]) => a !== b);
  lines.push(changes.length
    ? el("div", {}, el("strong", {}, "Scores: "),
         el("ul", {}, changes.map(([name, a, b]) => el("li", {}, `${name}: ${a} → ${b}`))))
    : el("p", {}, el("strong", {}, "Scores: "), "no change"));
  if (p.waiting_for_after !== p.waiting_for_before) {
    lines.push(el("p", {}, el("strong", {}, "Then waiting for: "), p.waiting_for_after));
  } else {
    lines.push(el("p", {}, el("strong", {}, "Still waiting for: "), p.waiting_for_after));
  }
  if ((p.events || []).length) {
    lines.push(el("p", {class: "muted"}, "The table will say: " + p.events.join(" · ")));
  }
  return lines;
}

function verdictText(v) {
  if (v.accepted) return `accepted (#${v.seq})` + ((v.events || []).length ? ": " + v.events.join(" · ") : "");
  return `refused (#${v.seq}): ` + (v.rule ? `[${v.rule}] ` : "") + (v.reason || "") + (v.hint ? ` → ${v.hint}` : "");
}

// -- games, boards, kits (for the forms) --------------------------------------------------------
let games = [];
let boards = [];
let kits = [];

async function loadGames() {
  games = await api("GET", "/api/games");
  for (const id of ["game", "enroll-game"]) {
    const select = $(id);
    const keep = select.value;
    select.replaceChildren(...games.map((g) => el("option", {value: g.id}, `${g.name} (${g.min_seats}–${g.max_seats} players)`)));
    if (keep && games.some((g) => g.id === keep)) select.value = keep;
  }
  renderOptions();
}

async function loadBoards() {
  boards = await api("GET", "/api/boards");
  const select = $("board");
  const keep = select.value;
  select.replaceChildren(el("option", {value: ""}, "— choose the board —"),
    ...boards.map((b) => el("option", {value: b.name, disabled: !b.complete},
      b.name + (b.stored ? " (stored)" : "") + (b.sample ? " — sample, not a printed board" : "") +
      (b.complete ? "" : ` — incomplete (${b.problems.length} to fill in)`))));
  if (keep && boards.some((b) => b.name === keep && b.complete)) select.value = keep;
  const from = $("board-from");
  const keepFrom = from.value;
  from.replaceChildren(...boards.map((b) => el("option", {value: b.name},
    b.name + (b.stored ? " (stored)" : " (shipped)") + (b.complete ? "" : " — incomplete"))));
  if (keepFrom && boards.some((b) => b.name === keepFrom)) from.value = keepFrom;
  else if (boards.some((b) => b.name === "known")) from.value = "known";
}

async function loadKits() {
  kits = await api("GET", "/api/kits");
  renderKitSelect();
  $("enroll-kits").replaceChildren(...kits.map((k) => el("option", {value: k.name},
    `${k.game_name}: ${k.tagged ?? k.tags}/${k.total ?? "?"} tagged`)));
}

function renderKitSelect() {
  const select = $("kit");
  const keep = select.value;
  const game = $("game").value;
  const mine = kits.filter((k) => k.game === game);
  select.replaceChildren(el("option", {value: ""}, "no kit (typed inputs only)"),
    ...mine.map((k) => el("option", {value: k.name}, `${k.name} — ${k.tagged ?? k.tags}/${k.total ?? "?"} tagged`)));
  if (mine.some((k) => k.name === keep)) select.value = keep;
}

// -- the create form ----------------------------------------------------------------------------
function currentGame() { return games.find((g) => g.id === $("game").value); }

function renderOptions() {
  const game = currentGame();
  const box = $("options");
  box.replaceChildren();
  const hasBoard = !!game && game.options.some((o) => o.name === "board");
  for (const node of document.querySelectorAll(".board-only")) node.hidden = !hasBoard;
  $("board").required = hasBoard;
  if (!game) return;
  for (const o of game.options) {
    if (o.name === "board") continue;  // chosen with select#board
    const id = "opt-" + o.name;
    const input = el("input", {id, name: id, placeholder: o.default === null ? "" : String(o.default),
                               required: o.ask, spellcheck: "false", autocomplete: "off"});
    if (o.choices) {
      input.setAttribute("list", id + "-choices");
      box.append(el("datalist", {id: id + "-choices"}, o.choices.map((c) => el("option", {value: String(c)}))));
    } else if (typeof o.default === "boolean") {
      input.setAttribute("list", id + "-choices");
      box.append(el("datalist", {id: id + "-choices"}, el("option", {value: "true"}), el("option", {value: "false"})));
    }
    box.append(el("div", {class: "option"}, el("label", {for: id}, o.name.replaceAll("_", " ")), input,
                  el("div", {class: "help"}, o.help + (o.choices ? ` (${o.choices.join(", ")})` : ""))));
  }
  renderKitSelect();
}
$("game").onchange = renderOptions;

function parseLayout(text) {
  // "reader: zone" lines (a layout file's readers: section pasted as is also works)
  const layout = {};
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i].replace(/\s#.*$/, "").trim();
    if (!line || line.startsWith("#") || /^(game|seats|readers)\s*:/.test(line)) continue;
    const at = line.indexOf(": ") >= 0 ? line.indexOf(": ") : line.indexOf(":");
    if (at <= 0) throw new Error(`zone layout line ${i + 1}: write "reader: zone", e.g. "r0: talon"`);
    const reader = line.slice(0, at).trim();
    const zone = line.slice(at + 1).trim();
    if (!zone) throw new Error(`zone layout line ${i + 1}: reader ${reader} has no zone`);
    if (reader in layout) throw new Error(`zone layout line ${i + 1}: reader ${reader} is listed twice`);
    layout[reader] = zone;
  }
  return Object.keys(layout).length ? layout : null;
}

$("create-form").onsubmit = async (ev) => {
  ev.preventDefault();
  const msg = $("create-message");
  msg.textContent = ""; msg.className = "message";
  const game = currentGame();
  if (!game) return;
  const seatsText = $("seats").value.trim();
  const seats = /^\d+$/.test(seatsText) ? Number(seatsText)
    : seatsText.split(",").map((s) => s.trim()).filter(Boolean);
  const options = {};
  for (const o of game.options) {
    if (o.name === "board") continue;
    const value = ($("opt-" + o.name) || {}).value;
    if (value !== undefined && value.trim() !== "") options[o.name] = value.trim();
  }
  if (game.options.some((o) => o.name === "board")) {
    const name = $("board").value;
    const entry = boards.find((b) => b.name === name);
    if (!entry) { msg.textContent = "Choose the board profile."; msg.className = "message error"; return; }
    // A stored profile is sent whole (the table keeps it); a shipped one by its name.
    options.board = entry.stored ? entry.profile : entry.name;
  }
  const body = {game: game.id, seats, options, name: $("table-name").value.trim(),
                start: $("start").checked};
  try {
    body.layout = parseLayout($("layout").value);
  } catch (e) { msg.textContent = e.message; msg.className = "message error"; return; }
  if ($("kit").value) body.kit = $("kit").value;
  if ($("readers-spec").value.trim()) body.readers = $("readers-spec").value.trim();
  $("create-button").disabled = true;
  try {
    const made = await api("POST", "/api/tables", body);
    msg.textContent = `created ${made.id} (${made.status})`; msg.className = "message ok";
    selected = made.id;
    await refreshAll();
  } catch (e) {
    msg.textContent = e.message; msg.className = "message error";
  } finally {
    $("create-button").disabled = false;
  }
};

// -- the table list -----------------------------------------------------------------------------
let tables = [];
let tablesShown = "";
let selected = null;

async function loadTables() {
  tables = await api("GET", "/api/tables");
  if (!selected || !tables.some((t) => t.id === selected)) {
    const pick = tables.find((t) => t.status === "running") || tables[tables.length - 1];
    selected = pick ? pick.id : null;
  }
  const shown = JSON.stringify([tables, selected]);
  if (shown === tablesShown) return;  // unchanged: keep the DOM (and any focus) as it is
  tablesShown = shown;
  const body = $("tables");
  if (!tables.length) {
    body.replaceChildren(el("tr", {}, el("td", {colspan: 4, class: "muted"}, "No tables yet: create one below.")));
    return;
  }
  body.replaceChildren(...tables.map(tableRow));
}

function tableRow(t) {
  const st = t.status;
  const action = (name, label, enabled, title) => el("button", {type: "button", "data-action": name,
    disabled: !enabled, title, onclick: (ev) => { ev.stopPropagation(); act(t, name, ev.currentTarget); }}, label);
  // Each seat with its score and its phone: pair one (code and QR on the right), or withdraw
  // every phone paired with it (a lost or swapped phone).
  const seats = (t.seats || []).map((name, i) => el("div", {class: "seat-line", "data-row-seat": i},
    el("span", {class: "seat-name"}, name), " ", el("strong", {}, (t.scores || [])[i] ?? ""),
    el("span", {class: "phone"},
      el("button", {type: "button", class: "tiny", "data-pair-seat": i, disabled: !!t.error,
                    title: `pair a phone with ${name}'s seat`,
                    onclick: (ev) => { ev.stopPropagation(); pair(t.id, i); }}, "pair"),
      el("button", {type: "button", class: "tiny danger", "data-unpair-seat": i,
                    title: `withdraw every phone paired with ${name}'s seat`,
                    onclick: (ev) => { ev.stopPropagation(); unpair(t.id, i, name, ev.currentTarget); }}, "unpair"))));
  return el("tr", {"data-table": t.id, class: t.id === selected ? "current" : "",
                   onclick: () => { selected = t.id; tablesShown = ""; detailShown = ""; refreshAll(); }},
    el("td", {}, el("strong", {}, t.name || t.id), el("div", {class: "muted small"}, `${t.id} · ${t.game_name || t.game}`)),
    el("td", {}, badge(st), t.over ? el("div", {class: "small"}, "game over") : null,
       t.error ? el("div", {class: "error-text small"}, t.error) : null),
    el("td", {}, seats, el("div", {class: "muted small"}, t.waiting_for || "")),
    el("td", {}, el("div", {class: "actions"},
      action("start", st === "paused" ? "Resume" : "Start", st === "created" || st === "paused"),
      action("pause", "Pause", st === "running"),
      action("end", "End", st !== "ended"),
      action("undo", "Undo…", !t.error && (t.accepted || 0) > 0, "take back the last accepted input"),
      action("export-json", "JSON", true, "the whole game as JSON"),
      action("export-csv", "CSV", true, "the scores as CSV"))));
}

async function act(t, name, button) {
  const id = t.id;
  const path = `/api/tables/${encodeURIComponent(id)}`;
  if (button) button.disabled = true;
  try {
    if (name === "start" || name === "pause") {
      const done = await api("POST", `${path}/${name}`);
      say(`${id}: ${done.status}`);
    } else if (name === "end") {
      const ok = await confirmDialog(`End ${t.name || id}?`, [
        "The game ends for good: the readers stop and no more plays are taken.",
        "Undo and corrections still work; to play again, create a new table."], "End the table");
      if (!ok) return;
      const done = await api("POST", `${path}/end`);
      say(`${id}: ${done.status}`);
    } else if (name === "undo") {
      await undo(id);
    } else if (name === "export-json") {
      await download(`${path}/export`, `${id}.json`);
      say(`${id}: exported as ${id}.json`);
    } else if (name === "export-csv") {
      await download(`${path}/scores.csv`, `${id}-scores.csv`);
      say(`${id}: scores exported as ${id}-scores.csv`);
    }
  } catch (e) {
    say(`${id}: ${e.message}`, true);
  } finally {
    if (button) button.disabled = false;
    tablesShown = "";
    refreshAll();
  }
}

async function undo(id) {
  const path = `/api/tables/${encodeURIComponent(id)}`;
  const preview = await api("GET", `${path}/undo-preview`);
  const ok = await confirmDialog(`Undo at ${id}?`, previewLines(preview), "Undo", preview.accepted);
  if (!ok) return;
  const done = await api("POST", `${path}/undo`);
  say(`${id}: undo ${verdictText(done)}`, !done.accepted);
}

async function correct(id, text) {
  const path = `/api/tables/${encodeURIComponent(id)}`;
  const preview = await api("POST", `${path}/correct-preview`, {input: text});
  const ok = await confirmDialog(`Correct the last input at ${id}?`, previewLines(preview), "Correct", preview.accepted);
  if (!ok) return false;
  const done = await api("POST", `${path}/correct`, {input: text});
  say(`${id}: correction ${verdictText(done)}`, !done.accepted);
  return done.accepted;
}

// -- the chosen table ---------------------------------------------------------------------------
let detailShown = "";
let pairing = null;  // {table, seat, code, url, qr_svg, expires}

async function loadDetail() {
  if (!selected) {
    $("detail-title").textContent = "Table";
    $("detail-body").replaceChildren(el("p", {class: "muted"}, "Choose a table in the list."));
    return;
  }
  const view = await api("GET", `/api/tables/${encodeURIComponent(selected)}/organiser`);
  const shown = JSON.stringify([view, pairing]);
  if (shown === detailShown) return;
  // Keep what the organiser is typing across a refresh.
  const kept = ["fix-input", "delay-seconds"].map((key) => [key, ($(key) || {}).value,
    document.activeElement && document.activeElement.id === key]);
  detailShown = shown;
  renderDetail(view);
  for (const [key, value, focused] of kept) {
    if (!$(key) || value === undefined) continue;
    if (key === "fix-input" || focused) $(key).value = value;
    if (focused) $(key).focus();
  }
}

async function setDelay(id) {
  const seconds = Number($("delay-seconds").value || 0);
  try {
    const done = await api("POST", `/api/tables/${encodeURIComponent(id)}/spectator-delay`,
                           {seconds});
    say(done.spectator_delay ? `${id}: the public view is now ${done.spectator_delay} s behind`
                             : `${id}: the public view is live again`);
  } catch (e) { say(e.message, true); }
  detailShown = "";
  refreshAll();
}

function renderDetail(view) {
  const id = view.id;
  const st = view.state || {};
  fill($("detail-title"), `${view.name || id} `, badge(view.status), view.over ? " game over" : "");
  const board = st.board;
  const seatRows = view.seats.map((name, i) => el("tr", {},
    el("td", {}, String(i)), el("td", {}, name), el("td", {class: "score"}, (view.scores || [])[i] ?? "")));
  const prompts = (view.pending || []).map((p) => el("div", {class: "row"},
    el("span", {}, p.question), ...(p.options || []).map((option) => el("button", {type: "button",
      onclick: () => answer(id, p, option)}, option))));
  const feed = (view.feed || []).slice().reverse().slice(0, 15).map((e) => el("li", {},
    el("span", {class: "seq"}, "#" + e.seq),
    e.accepted ? (e.events || []).join(" · ") || "accepted"
      : el("span", {class: "refused"}, el("span", {class: "rule"}, (e.rejection || {}).rule || "refused"),
           (e.rejection || {}).reason || "", (e.rejection || {}).hint ? ` → ${e.rejection.hint}` : ""),
    e.input ? el("span", {class: "raw"}, e.input) : null));
  const notices = (view.notices || []).map((n) => el("div", {class: "notice"}, n.rule ? `[${n.rule}] ` : "", n.text));
  fill($("detail-body"),
    el("div", {class: "muted small"}, `${view.game_name} · table ${id} · ${view.accepted} accepted of ${view.inputs} inputs · ` +
       `${view.watchers ?? 0} watching · `, el("a", {href: "/#" + encodeURIComponent(id)}, "open the live page")),
    board ? el("div", {class: board.sample ? "sample" : "muted"},
      `Board: ${board.name}` + (board.sample ? " — a SAMPLE board, not the printed one" : "")) : null,
    el("div", {class: "waiting"}, view.waiting_for || ""),
    notices,
    pairingBox(id),
    el("table", {class: "list"}, el("thead", {}, el("tr", {}, ["Seat", "Player", "Score"].map((h) => el("th", {}, h)))),
       el("tbody", {}, seatRows)),
    el("div", {class: "muted small"}, "Pair or unpair a player's phone with the buttons by each name in the table list."),
    prompts.length ? [el("h3", {}, "Waiting for answers (you may answer for any seat)"), prompts] : null,
    el("h3", {}, "Spectator delay"),
    el("div", {class: "row"},
      el("label", {for: "delay-seconds"}, "Public view behind by"),
      el("input", {id: "delay-seconds", type: "number", min: "0", max: "600", step: "1",
                   value: String(view.spectator_delay || 0), style: "width: 5rem"}),
      el("span", {}, "seconds"),
      el("button", {type: "button", id: "delay-set", onclick: () => setDelay(id)}, "Set"),
      el("span", {class: "muted small"}, "For streams: the TV and the public see the table this " +
         "much later; phones and this console stay live. 0 = off.")),
    el("h3", {}, "Fix a misread"),
    el("div", {class: "row"},
      el("input", {id: "fix-input", placeholder: "+talon H1b1, -meld:0 A5r, decide 1 claim pass", spellcheck: "false",
                   "aria-label": "an input in its one-line form", size: 34}),
      el("button", {type: "button", id: "fix-feed", onclick: () => feed_(id)}, "Feed it"),
      el("button", {type: "button", id: "fix-correct", onclick: () => correct_(id)}, "Correct the last input…")),
    el("h3", {}, "Recent plays"),
    el("ol", {class: "feed"}, feed.length ? feed : el("li", {class: "muted"}, "nothing yet")));
}

function pairingBox(id) {
  if (!pairing || pairing.table !== id) return null;
  const left = Math.max(0, Math.round((pairing.expires - Date.now()) / 60000));
  // Shown as an image (a data: URL), never inserted as markup; an image needs the SVG namespace.
  let svg = pairing.qr_svg || "";
  if (svg && !svg.includes("xmlns=")) svg = svg.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"');
  const qr = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  return el("div", {class: "pairing", id: "pairing"},
    pairing.qr_svg ? el("img", {src: qr, alt: "QR code of the pairing link"}) : null,
    el("div", {},
      el("div", {}, `Seat ${pairing.seat} (${pairing.seat_name}): open on the phone`),
      el("div", {}, el("a", {href: pairing.url}, pairing.url)),
      el("div", {}, "or type the code: ", el("span", {class: "code", id: "pair-code"}, pairing.code)),
      el("div", {class: "muted small"}, `single use, about ${left} min left`),
      el("button", {type: "button", onclick: () => { pairing = null; detailShown = ""; loadDetail(); }}, "Done")));
}

async function pair(id, seat) {
  try {
    const got = await api("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/pair`);
    pairing = {...got, expires: Date.now() + got.expires_in * 1000};
    selected = id;  // the code and its QR show with the table, on the right
    tablesShown = ""; detailShown = "";
    await refreshAll();
    if ($("pairing")) $("pairing").scrollIntoView({block: "nearest"});
  } catch (e) { say(e.message, true); }
}

async function unpair(id, seat, name, button) {
  if (button) button.disabled = true;
  try {
    const got = await api("DELETE", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/tokens`);
    say(got.revoked ? `${id}: ${name}'s phone unpaired (${got.revoked} token(s) withdrawn); pair a new one when ready`
                    : `${id}: ${name} had no paired phone`);
    if (pairing && pairing.table === id && pairing.seat === seat) pairing = null;
    detailShown = "";
  } catch (e) {
    say(`${id}: ${e.message}`, e.status !== 404);  // 404: no phone was paired with the seat
  } finally {
    if (button) button.disabled = false;
  }
}

async function answer(id, prompt, option) {
  try {
    const done = await api("POST", `/api/tables/${encodeURIComponent(id)}/decisions`,
                           {prompt: prompt.id, answer: option, seat: prompt.seat});
    say(`${id}: ${prompt.id} ${option}: ${verdictText(done)}`, !done.accepted);
  } catch (e) { say(e.message, true); }
  refreshAll();
}

async function feed_(id) {
  const text = $("fix-input").value.trim();
  if (!text) { say("Type the input first, e.g. +talon H1b1", true); return; }
  try {
    const done = await api("POST", `/api/tables/${encodeURIComponent(id)}/inputs`, {input: text});
    say(`${id}: ${text}: ${verdictText(done)}`, !done.accepted);
    if (done.accepted) $("fix-input").value = "";
  } catch (e) { say(e.message, true); }
  refreshAll();
}

async function correct_(id) {
  const text = $("fix-input").value.trim();
  if (!text) { say("Type the input that should replace the last one, e.g. +talon H1b1", true); return; }
  try {
    if (await correct(id, text)) $("fix-input").value = "";
  } catch (e) { say(e.message, true); }
  refreshAll();
}

// -- reader health ------------------------------------------------------------------------------
async function loadReaders() {
  const body = $("readers");
  if (!selected) { body.replaceChildren(); $("readers-note").textContent = "Choose a table to see its readers."; return; }
  const got = await api("GET", `/api/tables/${encodeURIComponent(selected)}/readers`);
  $("readers-note").textContent = got.error ? `The readers cannot be asked: ${got.error}`
    : got.backend ? `Table ${got.table} (${got.backend} readers) · refreshed every 2 s`
    : `Table ${got.table} has no readers attached` + (got.status === "ended" ? " (it has ended)" : "");
  body.replaceChildren(...got.readers.map((r) => el("tr", {"data-reader": r.reader, class: r.online ? "" : "offline"},
    el("td", {}, el("code", {}, r.reader)),
    el("td", {}, r.online ? badge("online") : badge("offline")),
    el("td", {}, ago(r.age_s)),
    el("td", {}, `${r.read_rate}/s`),
    el("td", {}, String(r.reads)),
    el("td", {class: r.errors ? "error-text" : ""}, String(r.errors)),
    el("td", {class: "muted small"}, r.detail || ""))));
}

// -- enrollment ---------------------------------------------------------------------------------
let enrollment = null;
let enrollTimer = null;

$("enroll-form").onsubmit = async (ev) => {
  ev.preventDefault();
  const msg = $("enroll-message");
  msg.textContent = ""; msg.className = "message";
  const body = {kit: $("enroll-kit").value.trim(), game: $("enroll-game").value};
  const readers = $("enroll-readers").value.trim();
  if (readers) body.readers = readers;
  const reader = $("enroll-reader").value.trim();
  if (reader) body.reader = reader;
  $("enroll-start").disabled = true;
  try {
    showEnrollment(await api("POST", "/api/enroll", body));
    msg.textContent = "enrolling: tags are saved as they come"; msg.className = "message ok";
  } catch (e) {
    msg.textContent = e.message; msg.className = "message error";
  } finally {
    $("enroll-start").disabled = false;
  }
};

function showEnrollment(state) {
  enrollment = state;
  if (!state) {
    $("enroll-panel").hidden = true;
    localStorage.removeItem(ENROLL_KEY);
    clearInterval(enrollTimer); enrollTimer = null;
    return;
  }
  if (state.active) localStorage.setItem(ENROLL_KEY, state.sid); else localStorage.removeItem(ENROLL_KEY);
  $("enroll-panel").hidden = false;
  $("enroll-title-kit").textContent = `${state.kit} — ${state.game_name}` +
    (state.readers ? ` · readers ${state.readers}${state.reader ? " (reader " + state.reader + ")" : ""}` : " · typed uids");
  $("enroll-progress").textContent = state.progress;
  $("enroll-progress").className = "badge " + (state.complete ? "ok" : "");
  $("enroll-bar").max = state.total || 1;
  $("enroll-bar").value = state.tagged;
  let next;
  if (!state.active) next = `Stopped at ${state.progress}. Every tag is saved; start the same kit again to carry on.`;
  else if (state.next) next = state.next.text + (state.readers ? "" : " — or type its uid");
  else if (state.complete) next = `Every piece of ${state.kit} is tagged.`;
  else next = `${state.skipped.length} piece(s) skipped. Finish, then start ${state.kit} again to tag them.`;
  $("enroll-next").textContent = next;
  const last = state.last;
  $("enroll-last").textContent = last ? last.text : "";
  $("enroll-last").className = "message " + (last ? (last.ok ? "ok" : "error") : "");
  $("enroll-simulate").hidden = !(state.sim && state.active);
  for (const id of ["enroll-simulate", "enroll-type", "enroll-skip", "enroll-uid"]) $(id).disabled = !state.active || !state.next;
  $("enroll-stop").disabled = !state.active;
  $("enroll-stop").textContent = state.complete ? "Finish" : "Stop";
  $("enroll-log").replaceChildren(...state.messages.slice().reverse().map((m) =>
    el("li", {class: m.ok ? "" : "refused"}, m.text)));
  clearInterval(enrollTimer); enrollTimer = null;
  if (state.active && state.readers) enrollTimer = setInterval(pollEnrollment, 1000);  // tags arrive by themselves
}

async function pollEnrollment() {
  if (!enrollment || !enrollment.active) return;
  try {
    const state = await api("GET", `/api/enroll/${encodeURIComponent(enrollment.sid)}`);
    if (JSON.stringify(state) !== JSON.stringify(enrollment)) showEnrollment(state);
  } catch (e) {
    if (e.status === 404) showEnrollment({...enrollment, active: false});
  }
}

async function enrollAction(path, body) {
  if (!enrollment) return;
  try {
    const state = await api("POST", `/api/enroll/${encodeURIComponent(enrollment.sid)}/${path}`, body);
    showEnrollment(state);
    if (path === "stop") { loadKits().catch(() => {}); }
  } catch (e) {
    if (e.status === 404) showEnrollment({...enrollment, active: false});
    say(e.message, true);
  }
}
$("enroll-simulate").onclick = () => enrollAction("simulate");
$("enroll-skip").onclick = () => enrollAction("skip");
$("enroll-stop").onclick = () => enrollAction("stop");
$("enroll-type").onclick = async () => {
  const uid = $("enroll-uid").value.trim();
  if (!uid) { say("Type the tag's uid, e.g. 04A1B2C3", true); return; }
  await enrollAction("tag", {uid});
  if (enrollment && enrollment.last && enrollment.last.ok) $("enroll-uid").value = "";
  $("enroll-uid").focus();
};
$("enroll-uid").onkeydown = (ev) => { if (ev.key === "Enter") { ev.preventDefault(); $("enroll-type").click(); } };

async function resumeEnrollment() {
  const sid = localStorage.getItem(ENROLL_KEY);
  if (!sid) return;
  try { showEnrollment(await api("GET", `/api/enroll/${encodeURIComponent(sid)}`)); }
  catch (e) { localStorage.removeItem(ENROLL_KEY); }
}

// -- board profiles -----------------------------------------------------------------------------
const EFFECTS = "wizard_tower, artists_quarter, harbor, throne_room, market, fields, treasury, cathedral, ballroom, castle";
const ICONS = "swords, coins, wands, cups, page, knight, queen, king";
$("board-help").textContent = `Each location: {id: EFFECT, name: "…", icons: {KIND: COUNT}}. Effects: ${EFFECTS}. ` +
  `Icons: ${ICONS} (a count may be negative). cathedral_gain: {vp: N}.`;

function showBoardResult(result, note) {
  const box = $("board-problems");
  const profile = result.profile || {};
  fill(box,
    note ? el("div", {class: "ok-text"}, note) : null,
    result.complete
      ? el("div", {class: "ok-text"}, `${result.name}: complete — every location is known; it can start a table.`)
      : el("div", {}, el("strong", {}, `${result.name}: ${result.problems.length} thing(s) to fill in`),
           el("ul", {}, result.problems.map((p) => el("li", {}, p)))));
  const locs = profile.locations || {};
  const rows = [];
  for (let n = 1; n <= 10; n++) {
    const loc = locs[n] || locs[String(n)] || {};
    const icons = loc.icons === undefined ? "unknown"
      : Object.entries(loc.icons).map(([k, v]) => `${k} ${v}`).join(", ") || "none";
    rows.push(el("tr", {}, el("td", {}, String(n)), el("td", {}, loc.id || "?"), el("td", {}, loc.name || "?"),
                 el("td", {}, icons)));
  }
  $("board-locations").replaceChildren(
    el("thead", {}, el("tr", {}, ["#", "Effect", "Name", "Icons"].map((h) => el("th", {}, h)))),
    el("tbody", {}, rows),
    el("tfoot", {}, el("tr", {}, el("td", {colspan: 4, class: "muted"},
      "Cathedral's gain: " + (profile.cathedral_gain ? `${profile.cathedral_gain.vp} VP` : "unknown")))));
}
function showBoardError(e) {
  $("board-problems").replaceChildren(el("div", {class: "error-text"}, e.message));
  $("board-locations").replaceChildren();
}

async function checkBoard() {
  try {
    const result = await api("POST", "/api/boards/check", {yaml: $("board-yaml").value});
    showBoardResult(result);
    if (!$("board-name").value && !boards.some((b) => b.name === result.name && !b.stored)) {
      $("board-name").value = result.name;
    }
    return result;
  } catch (e) { showBoardError(e); return null; }
}
$("board-check").onclick = checkBoard;

$("board-save").onclick = async () => {
  let name = $("board-name").value.trim();
  if (!name) {
    const checked = await checkBoard();
    if (!checked) return;
    name = checked.name;
  }
  try {
    const saved = await api("PUT", `/api/boards/${encodeURIComponent(name)}`, {yaml: $("board-yaml").value});
    $("board-yaml").value = saved.yaml;
    $("board-name").value = saved.name;
    showBoardResult(saved, `Saved as ${saved.name}` + (saved.complete ? ": it can be chosen for a new Arcanum table." : " (incomplete: it can be finished later)."));
    await loadBoards();
    $("board-from").value = saved.name;
  } catch (e) { showBoardError(e); }
};

$("board-load").onclick = async () => {
  const entry = boards.find((b) => b.name === $("board-from").value);
  if (!entry) return;
  try {
    const profile = {...entry.profile};
    if (!entry.stored) {
      // A copy keeps its sample mark: a made-up board stays labelled until you change it.
      Object.assign(profile, {name: "my-board",
                              description: `started from ${entry.name}; fill it in from your board`});
    }
    const result = await api("POST", "/api/boards/check", profile);
    $("board-yaml").value = result.yaml;
    $("board-name").value = entry.stored ? entry.name : "";
    showBoardResult(result, entry.stored ? `Loaded ${entry.name}.` : `A copy of ${entry.name}: give it your board's name and fill it in.`);
  } catch (e) { showBoardError(e); }
};

// -- refreshing ---------------------------------------------------------------------------------
let busy = false;
async function refreshAll() {
  if (busy) return;
  busy = true;
  try {
    await loadTables();
    if (token) {
      await Promise.all([loadDetail(), loadReaders()]);
    }
  } catch (e) {
    if (e.status !== 401) say(e.message, true);
  } finally {
    busy = false;
  }
}

// What needs the token: the kits, the stored boards, an enrollment left open.
async function loadOrganiserData() {
  await Promise.all([loadBoards(), loadKits()].map((p) => p.catch((e) => say(e.message, true))));
  renderKitSelect();
  if (!$("board-yaml").value && boards.length) {
    await $("board-load").onclick();
    $("board-problems").replaceChildren();
    $("board-locations").replaceChildren();
  }
  await resumeEnrollment();
}

async function start() {
  if (token) tokenSaved(); else showTokenForm();
  try {
    await loadGames();
  } catch (e) { say(e.message, true); }
  if (token) await loadOrganiserData();
  await refreshAll();
  setInterval(refreshAll, POLL_MS);
}

start();
