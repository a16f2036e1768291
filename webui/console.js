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
// A status line: text, or nodes (a refusal carries a link to its rule).
function say(text, error) {
  const box = $("status");
  fill(box, text || "");
  box.className = "status" + (error ? " error" : "");
  clearTimeout(say.timer);
  if (text) say.timer = setTimeout(() => { box.textContent = ""; }, error ? 12000 : 6000);
}
// "end_turn" -> "end turn": the last resort for a value the server gave no words for.
const humanize = (value) => String(value).replaceAll("_", " ");

// A rule id as a link to the players' rules reference (/rules/<game>#<rule id>), so that every
// refusal the console shows can be read up in one click.
function ruleLink(game, rule) {
  if (!rule) return null;
  const href = game ? `/rules/${encodeURIComponent(game)}#${encodeURIComponent(rule)}` : null;
  return href ? el("a", {class: "rule", href, target: "_blank", rel: "noopener",
                         title: "this rule in the players' rules reference"}, rule)
              : el("span", {class: "rule"}, rule);
}

// -- updating in place --------------------------------------------------------------------------
// The console follows the tables live (every POLL_MS). Rebuilding the DOM on each update would
// take the keyboard focus away from a Pause or pair button within seconds, so a new rendering is
// merged into the page instead: nodes that match (same tag, same data-key) are kept and only
// their text and attributes change. A focused button stays the same element.
const HANDLERS = ["onclick", "onchange", "oninput", "onkeydown", "onsubmit"];
const keyOf = (node) => (node.nodeType === Node.ELEMENT_NODE ? node.getAttribute("data-key") : null);

function morph(from, to) {
  if (from.nodeType !== to.nodeType || from.nodeName !== to.nodeName || keyOf(from) !== keyOf(to)) {
    from.replaceWith(to);
    return to;
  }
  if (from.nodeType !== Node.ELEMENT_NODE) {
    if (from.nodeValue !== to.nodeValue) from.nodeValue = to.nodeValue;
    return from;
  }
  for (const a of [...from.attributes]) if (!to.hasAttribute(a.name)) from.removeAttribute(a.name);
  for (const a of to.attributes) if (from.getAttribute(a.name) !== a.value) from.setAttribute(a.name, a.value);
  for (const h of HANDLERS) if (from[h] !== to[h]) from[h] = to[h];
  // What someone is typing stays; a box nobody is in follows the server.
  // (data-keep: a box whose text is the organiser's own, e.g. the input to feed, always stays.)
  if ((from.tagName === "INPUT" || from.tagName === "TEXTAREA") && from !== document.activeElement &&
      !from.hasAttribute("data-keep") && from.type !== "checkbox" && from.type !== "radio" && from.value !== to.value) from.value = to.value;
  morphChildren(from, [...to.childNodes]);
  return from;
}

function morphChildren(parent, wanted) {
  const keyed = new Map();
  for (const c of parent.childNodes) if (keyOf(c)) keyed.set(keyOf(c), c);
  wanted.forEach((node, i) => {
    const here = parent.childNodes[i] || null;
    const key = keyOf(node);
    let match = key ? keyed.get(key) : here && !keyOf(here) ? here : null;
    if (match && key) keyed.delete(key);
    if (!match) { parent.insertBefore(node, here); return; }
    if (match !== here) parent.insertBefore(match, here);
    morph(match, node);
  });
  while (parent.childNodes.length > wanted.length) parent.lastChild.remove();
}

// Put `children` into `node` in place (see morph); if the focused element went anyway (its row
// was rebuilt), focus its successor by the same data-key.
function update(node, ...children) {
  const active = document.activeElement;
  const key = active && node.contains(active) ? keyOf(active) : null;
  const wanted = [];
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    wanted.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  morphChildren(node, wanted);
  // The focused element went (its row was rebuilt) or was moved (a node moved in the DOM loses
  // the focus): focus it, or its successor by the same data-key, again.
  if (key && document.activeElement !== active) {
    const again = node.contains(active) ? active
      : node.querySelector(`[data-key="${CSS.escape(key)}"]`);
    if (again) again.focus({preventScroll: true});
  }
  return node;
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
  if (res.status === 401 && path !== "/api/tables") lock(WRONG_TOKEN);
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

// Without the organiser token the console shows nothing but the token box: no tables, no
// buttons that would only be refused. `unlocked` holds once the server accepted the token.
const WHERE_TOKEN = "The server printed the organiser token " +
  "when it first started and saved it next to its database: var/organiser-token " +
  "(var/demo.organiser-token for make demo). Lost it? Start the server once with " +
  "--new-organiser-token to make a new one.";
const WRONG_TOKEN = "This is not the organiser token. " + WHERE_TOKEN;
let unlocked = false;

function lock(message) {
  unlocked = false;
  document.body.classList.add("locked");
  $("token-form").hidden = false;
  $("token-change").hidden = true;
  $("token-state").textContent = message ? "wrong token" : "no token";
  $("token-state").className = "badge bad";
  $("token-error").textContent = message || "";
  $("token-error").hidden = !message;
}
function unlock() {
  unlocked = true;
  document.body.classList.remove("locked");
  $("token-form").hidden = true;
  $("token-error").hidden = true;
  $("token-change").hidden = false;
  $("token-state").textContent = "organiser";
  $("token-state").className = "badge ok";
}

// Is `given` the organiser token? true, false (refused), or null (the server did not answer).
async function tokenAccepted(given) {
  try {
    const res = await fetch("/api/kits", {headers: {Authorization: "Bearer " + given}});
    if (res.status === 401 || res.status === 403) return false;
    return res.ok ? true : null;
  } catch (e) { return null; }
}

$("token-form").onsubmit = async (ev) => {
  ev.preventDefault();
  const given = $("token").value.trim();
  if (!given) { lock("Enter the organiser token. " + WHERE_TOKEN); return; }
  const ok = await tokenAccepted(given);
  if (ok === false) { lock(WRONG_TOKEN); $("token").select(); return; }
  if (ok === null) { say("The server does not answer; is it running? Try again in a moment.", true); return; }
  token = given;
  localStorage.setItem(TOKEN_KEY, token);
  $("token").value = "";
  unlock();
  // The token box is gone: carry on at the top of the console at once, never after the data
  // has loaded (by then the keyboard may have moved on, and would be pulled back).
  $("main").focus();
  say("Organiser token saved in this browser.");
  await loadOrganiserData();
  await refreshAll();
};
$("token-change").onclick = () => { lock(); $("token").focus(); };

// -- the confirmation dialog --------------------------------------------------------------------
function confirmDialog(title, lines, yesLabel, canConfirm = true) {
  const dialog = $("confirm");
  $("confirm-title").textContent = title;
  $("confirm-note").hidden = true;
  $("confirm-text").replaceChildren(...lines.map((l) => (l instanceof Node ? l : el("p", {}, l))));
  $("confirm-yes").textContent = yesLabel || "Yes";
  $("confirm-yes").hidden = !canConfirm;
  $("confirm-yes").disabled = false;
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

// An undo or a correction, pinned to what its preview showed. The dialog shows the preview and
// keeps its input_seq; while it is open it follows the table, and when the table moves on it shows
// the new preview and says so, before anyone confirms. Confirming sends the seq it showed: a 409
// (the table moved on in the last instant) changes nothing, and the dialog shows the fresh preview.
// `kind`: {title, yes, what} ("what": what the action takes, in the moved-on note).
// Resolves to the server's verdict, or null when cancelled.
function pinnedDialog(tableId, kind, getPreview, send, first) {
  const dialog = $("confirm");
  let preview = first;
  let busy = false;
  let timer = null;
  let seen = null;  // the table's accepted and inputs counts the preview was made at
  const note = (text) => {
    $("confirm-note").textContent = text || "";
    $("confirm-note").hidden = !text;
  };
  const show = () => {
    $("confirm-text").replaceChildren(...previewLines(preview));
    $("confirm-text").dataset.seq = preview.input_seq ?? "";
    $("confirm-yes").hidden = !preview.accepted;
    $("confirm-yes").disabled = false;
    $("confirm-no").textContent = preview.accepted ? "Cancel" : "Close";
  };
  const counts = async () => {
    const list = await api("GET", "/api/tables?archived=1");
    const t = list.find((x) => x.id === tableId);
    return t ? `${t.status}/${t.accepted}/${t.inputs}` : "gone";
  };
  const refresh = async (movedText) => {
    const fresh = await getPreview();
    const moved = fresh.input_seq !== preview.input_seq || fresh.accepted !== preview.accepted;
    preview = fresh;
    show();
    if (moved) note(movedText);
    return moved;
  };
  $("confirm-title").textContent = kind.title;
  $("confirm-yes").textContent = kind.yes;
  note("");
  show();
  return new Promise((resolve) => {
    const done = (answer) => {
      clearInterval(timer);
      $("confirm-yes").onclick = null; $("confirm-no").onclick = null; dialog.oncancel = null;
      if (dialog.open) dialog.close();
      resolve(answer);
    };
    // Follow the table: a cheap look at its counts every second, a new preview when they change.
    timer = setInterval(async () => {
      if (busy) return;
      busy = true;
      try {
        const now = await counts();
        if (seen === null) seen = now;
        else if (now !== seen) {
          seen = now;
          await refresh(`The table moved on: this is now what ${kind.what}.`);
        }
      } catch (e) { /* the next tick tries again */ } finally { busy = false; }
    }, 1000);
    $("confirm-yes").onclick = async () => {
      if (busy) return;
      busy = true;
      $("confirm-yes").disabled = true;
      try {
        done(await send(preview.input_seq));
      } catch (e) {
        if (e.status === 409) {
          try {
            await refresh("");
            note(`Nothing was changed: the table moved on before you confirmed. This is now ` +
                 `what ${kind.what}; confirm again or cancel.`);
          } catch (e2) { note(e2.message); }
          counts().then((c) => { seen = c; }).catch(() => {});
        } else {
          note(e.message);
          $("confirm-yes").disabled = false;
        }
      } finally { busy = false; }
    };
    $("confirm-no").onclick = () => done(null);
    dialog.oncancel = (ev) => { ev.preventDefault(); done(null); };
    counts().then((c) => { if (seen === null) seen = c; }).catch(() => {});
    if (typeof dialog.showModal === "function") dialog.showModal(); else dialog.setAttribute("open", "");
  });
}

// What an undo or a correction changes, in words (from /undo-preview, /correct-preview).
function previewLines(p) {
  const lines = [];
  if (!p.accepted) {
    const r = p.rejection || {};
    lines.push(el("p", {class: "error-text"}, "The table would refuse it: ", ruleLink(gameOf(p.table), r.rule),
                  r.reason || "refused", r.hint ? ` (${r.hint})` : ""));
    return lines;
  }
  if (p.input_seq !== null && p.input_seq !== undefined) {
    lines.push(el("p", {class: "taken"}, el("strong", {}, p.action === "undo" ? "Takes back " : "Replaces "),
                  `play #${p.input_seq}: `, p.words || "the last accepted play"));
  }
  if (p.action === "correct") {
    lines.push(el("p", {}, el("strong", {}, "With: "), p.replacement_words || "the input you typed"));
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
  const pieces = p.put_back || p.pieces || p.physical;
  if (pieces) {
    lines.push(el("p", {}, el("strong", {}, "At the table: "), [].concat(pieces).join(" · ")));
  }
  if ((p.events || []).length) {
    lines.push(el("p", {class: "muted"}, "The table will say: " + p.events.join(" · ")));
  }
  return lines;
}

// A verdict from the server as nodes for say(): what happened, and for a refusal its rule
// (linked), reason and what to do.
function verdictText(v, tableId) {
  if (v.accepted) return [`accepted (play #${v.seq})`, (v.events || []).length ? ": " + v.events.join(" · ") : ""];
  return [`refused (play #${v.seq}): `, ruleLink(gameOf(tableId), v.rule), " ", v.reason || "",
          v.hint ? ` → ${v.hint}` : ""];
}

// The game id of a table the console knows (for the rules links).
function gameOf(tableId) {
  const t = tables.find((x) => x.id === tableId);
  return t ? t.game : null;
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

// An option's choices as {value, label, help}: the server gives them so (older servers gave bare
// values; those are shown in words as well as can be). A yes/no option is a choice too.
function choicesOf(o) {
  if (Array.isArray(o.choices) && o.choices.length) {
    return o.choices.map((c) => (c !== null && typeof c === "object"
      ? {value: c.value, label: c.label || humanize(c.value), help: c.help || "",
         default: typeof c.default === "boolean" ? c.default : c.value === o.default}
      : {value: c, label: humanize(c), help: "", default: c === o.default}));
  }
  if (typeof o.default === "boolean") {
    return [{value: true, label: "yes", help: "", default: o.default === true},
            {value: false, label: "no", help: "", default: o.default === false}];
  }
  return null;
}
const optionLabel = (o) => o.label || humanize(o.name);

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
    const choices = choicesOf(o);
    if (choices) {
      // A choice: one radio button per value, each with its one-line explanation; the default
      // is checked and marked. The value sent is the server's, never shown as the label.
      box.append(el("fieldset", {class: "option choice", id, "data-option": o.name},
        el("legend", {}, optionLabel(o)),
        o.help ? el("div", {class: "help"}, o.help) : null,
        choices.map((c, i) => {
          const cid = `${id}-${i}`;
          const isDefault = c.default;
          return el("div", {class: "choice-line"},
            el("input", {type: "radio", id: cid, name: id, value: String(c.value), "data-index": i,
                         checked: isDefault, "aria-describedby": c.help ? cid + "-help" : null}),
            el("label", {for: cid}, c.label, isDefault ? el("span", {class: "default"}, " (default)") : null),
            c.help ? el("div", {class: "help", id: cid + "-help"}, c.help) : null);
        })));
    } else {
      const shownDefault = o.default === null || o.default === undefined ? "" : String(o.default);
      box.append(el("div", {class: "option", "data-option": o.name},
        el("label", {for: id}, optionLabel(o)),
        el("input", {id, name: id, placeholder: shownDefault, required: o.ask, spellcheck: "false",
                     autocomplete: "off", "aria-describedby": id + "-help"}),
        el("div", {class: "help", id: id + "-help"}, o.help || "",
           shownDefault ? ` Empty: ${shownDefault} (default).` : "")));
    }
  }
  renderKitSelect();
}

// The options the organiser changed: a choice sends its value as the server gave it; a free
// value is sent as typed; what stays at its default is left out (the game decides it).
function chosenOptions(game) {
  const options = {};
  for (const o of game.options) {
    if (o.name === "board") continue;
    const choices = choicesOf(o);
    if (choices) {
      const picked = document.querySelector(`input[name="opt-${CSS.escape(o.name)}"]:checked`);
      if (!picked) continue;
      const value = choices[Number(picked.dataset.index)].value;
      if (!choices[Number(picked.dataset.index)].default) options[o.name] = value;
    } else {
      const value = ($("opt-" + o.name) || {}).value;
      if (value !== undefined && value.trim() !== "") options[o.name] = value.trim();
    }
  }
  return options;
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
  const options = chosenOptions(game);
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
    msg.textContent = `created ${made.name || made.id} (${made.status})`; msg.className = "message ok";
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
let selected = null;

async function loadTables() {
  // Archived tables come only when asked for ("show archived").
  const showArchived = $("show-archived").checked;
  tables = await api("GET", showArchived ? "/api/tables?archived=1" : "/api/tables");
  if (!selected || !tables.some((t) => t.id === selected)) {
    const pick = tables.find((t) => t.status === "running") || tables[tables.length - 1];
    selected = pick ? pick.id : null;
  }
  const body = $("tables");
  if (!tables.length) {
    update(body, el("tr", {}, el("td", {colspan: 4, class: "muted"},
      showArchived ? "No tables yet: create one below." : "No tables to show: create one below" +
      " (archived tables show with “show archived”).")));
    return;
  }
  update(body, tables.map(tableRow));
}
$("show-archived").onchange = () => refreshAll();

function choose(id) {
  selected = id;
  refreshAll();
}

function tableRow(t) {
  const st = t.status;
  const ended = st === "ended";
  const label = t.name || t.id;
  // Every control carries a data-key unique on the page, so that a live update keeps it (and
  // the keyboard focus on it) or, if it had to be rebuilt, focuses its successor.
  const key = (what) => `${t.id}:${what}`;
  const action = (name, text, enabled, title) => el("button", {type: "button", "data-action": name,
    "data-key": key(name), disabled: !enabled, title, "aria-label": `${text.replace("…", "")} ${label}`,
    onclick: (ev) => { ev.stopPropagation(); act(t, name, ev.currentTarget); }}, text);
  // Each seat with its score and its phone: pair one (code and QR on the right), or withdraw
  // every phone paired with it (a lost or swapped phone). An ended table pairs no more phones.
  const seats = (t.seats || []).map((name, i) => el("div", {class: "seat-line", "data-row-seat": i, "data-key": key(`seat${i}`)},
    el("span", {class: "seat-name"}, name), " ", el("strong", {}, (t.scores || [])[i] ?? ""),
    el("span", {class: "phone"},
      el("button", {type: "button", class: "tiny", "data-pair-seat": i, "data-key": key(`pair${i}`),
                    disabled: !!t.error || ended, "aria-label": `pair a phone with ${name}'s seat at ${label}`,
                    onclick: (ev) => { ev.stopPropagation(); pair(t.id, i); }}, "pair"),
      el("button", {type: "button", class: "tiny danger", "data-unpair-seat": i, "data-key": key(`unpair${i}`),
                    "aria-label": `unpair ${name}'s phone at ${label}`,
                    title: `withdraw every phone paired with ${name}'s seat`,
                    onclick: (ev) => { ev.stopPropagation(); unpair(t.id, i, name, ev.currentTarget); }}, "unpair"))));
  return el("tr", {"data-table": t.id, "data-key": t.id,
                   class: (t.id === selected ? "current" : "") + (t.archived ? " archived" : ""),
                   "aria-current": t.id === selected ? "true" : null, onclick: () => choose(t.id)},
    el("td", {},
      // The row is chosen with this button too: keyboard and screen readers reach it.
      el("button", {type: "button", class: "link choose", "data-key": key("choose"), "data-choose": t.id,
                    "aria-pressed": t.id === selected ? "true" : "false",
                    onclick: (ev) => { ev.stopPropagation(); choose(t.id); }}, el("strong", {}, label)),
      el("div", {class: "muted small"}, `${t.id} · ${t.game_name || t.game}`)),
    el("td", {}, badge(st), t.archived ? [" ", badge("archived")] : null,
       t.over ? el("div", {class: "small"}, "game over") : null,
       t.error ? el("div", {class: "error-text small"}, t.error) : null),
    el("td", {}, seats, ended ? null : el("div", {class: "muted small"}, t.waiting_for || "")),
    el("td", {}, el("div", {class: "actions"},
      action("start", st === "paused" ? "Resume" : "Start", st === "created" || st === "paused"),
      action("pause", "Pause", st === "running"),
      action("end", "End", !ended),
      action("undo", "Undo…", !t.error && (t.accepted || 0) > 0, "take back the last accepted play"),
      action("export-json", "JSON", true, "the whole game as JSON"),
      action("export-csv", "CSV", true, "the scores as CSV"),
      t.archived ? action("unarchive", "Unarchive", true, "list the table again")
                 : action("archive", "Archive", st !== "running", st === "running"
                     ? "pause or end the table first" : "hide the table from the lists (its log stays)"),
      action("delete", "Delete…", ended || !!t.archived, ended || t.archived
        ? "delete the table and its log for good" : "end or archive the table first"))));
}

async function act(t, name, button) {
  const id = t.id;
  const label = t.name || id;
  const path = `/api/tables/${encodeURIComponent(id)}`;
  if (button) button.disabled = true;
  try {
    if (name === "start" || name === "pause") {
      const done = await api("POST", `${path}/${name}`);
      say(`${label}: ${done.status}`);
    } else if (name === "end") {
      const ok = await confirmDialog(`End ${label}?`, [
        "The game ends for good: the readers stop and no more plays are taken.",
        "Undo and corrections still work; to play again, create a new table."], "End the table");
      if (!ok) return;
      const done = await api("POST", `${path}/end`);
      say(`${label}: ${done.status}`);
    } else if (name === "undo") {
      await undo(id);
    } else if (name === "archive" || name === "unarchive") {
      await api("POST", `${path}/archive`, {archived: name === "archive"});
      say(name === "archive"
        ? `${label} is archived: hidden from the lists (tick “show archived” to see it); its log stays and can be exported.`
        : `${label} is listed again.`);
    } else if (name === "delete") {
      const ok = await confirmDialog(`Delete ${label} (${id})?`, [
        `The table ${label} and its whole log are deleted for good: it cannot be exported or ` +
        "replayed afterwards, and this cannot be undone.",
        "To keep the log but hide the table, archive it instead."], `Delete ${label}`);
      if (!ok) return;
      await api("DELETE", path);
      if (selected === id) selected = null;
      say(`${label} is deleted.`);
    } else if (name === "export-json") {
      await download(`${path}/export`, `${id}.json`);
      say(`${label}: exported as ${id}.json`);
    } else if (name === "export-csv") {
      await download(`${path}/scores.csv`, `${id}-scores.csv`);
      say(`${label}: scores exported as ${id}-scores.csv`);
    }
  } catch (e) {
    say(`${label}: ${e.message}`, true);
  } finally {
    if (button) button.disabled = false;
    await refreshAll();
    // Pause and Resume take turns: a keyboard user lands on the one that can be pressed now
    // rather than on the page (a disabled button cannot keep the focus).
    const other = {pause: "start", start: "pause"}[name];
    if (other && (document.activeElement === document.body || document.activeElement === null)) {
      const next = document.querySelector(`[data-key="${CSS.escape(`${id}:${other}`)}"]`);
      if (next && !next.disabled) next.focus();
    }
  }
}

async function undo(id) {
  const path = `/api/tables/${encodeURIComponent(id)}`;
  const getPreview = () => api("GET", `${path}/undo-preview`);
  const done = await pinnedDialog(id, {title: `Undo at ${tableLabel(id)}?`, yes: "Undo",
                                       what: "the undo would take back"},
    getPreview, (seq) => api("POST", `${path}/undo`, {seq}), await getPreview());
  if (done) say([`${tableLabel(id)}: undo `, verdictText(done, id), afterUndo(done)], !done.accepted);
}

async function correct(id, text) {
  const path = `/api/tables/${encodeURIComponent(id)}`;
  const getPreview = () => api("POST", `${path}/correct-preview`, {input: text});
  const done = await pinnedDialog(id, {title: `Correct the last play at ${tableLabel(id)}?`,
                                       yes: "Correct", what: "the correction would replace"},
    getPreview, (seq) => api("POST", `${path}/correct`, {input: text, seq}), await getPreview());
  if (!done) return false;
  say([`${tableLabel(id)}: correction `, verdictText(done, id), afterUndo(done)], !done.accepted);
  return done.accepted;
}

// What to do with the physical pieces after an undo or a correction, when the server says.
function afterUndo(done) {
  const pieces = done.put_back || done.pieces || done.physical;
  return pieces ? [" — at the table: ", [].concat(pieces).join(" · ")] : null;
}

function tableLabel(id) {
  const t = tables.find((x) => x.id === id);
  return t && t.name ? t.name : id;
}

// -- the chosen table ---------------------------------------------------------------------------
let pairing = null;  // {table, seat, code, url, qr_svg, expires}

async function loadDetail() {
  if (!selected) {
    $("detail-title").textContent = "Table";
    update($("detail-body"), el("p", {class: "muted"}, "Choose a table in the list."));
    return;
  }
  const view = await api("GET", `/api/tables/${encodeURIComponent(selected)}/organiser`);
  renderDetail(view, await gameView(view.game));
}

async function setDelay(id) {
  const seconds = Number($("delay-seconds").value || 0);
  try {
    const done = await api("POST", `/api/tables/${encodeURIComponent(id)}/spectator-delay`,
                           {seconds});
    say(done.spectator_delay ? `${tableLabel(id)}: the public view is now ${done.spectator_delay} s behind`
                             : `${tableLabel(id)}: the public view is live again`);
  } catch (e) { say(e.message, true); }
  $("delay-seconds").blur();  // it shows the server's value again
  refreshAll();
}

// The game's own view module (webui/games/<id>.js, the one the table page draws with) gives
// each prompt's answers in words ("+1 ⚔ swords / −1 ◉ coins", "pass: nobody claims"); loaded
// once per game. null: the game has none (the answer is then shown as well as can be).
const gameViews = {};
async function gameView(game) {
  if (!game) return null;
  if (!(game in gameViews)) {
    gameViews[game] = (async () => {
      try {
        const kit = await import("/static/kit.js");
        await import(`/static/games/${encodeURIComponent(game)}.js`);
        return kit.registry[game] || null;
      } catch (e) { return null; }
    })();
  }
  return gameViews[game];
}

// An answer's value and words: {value, label} from the server, or the game view's words for
// it, or the value with its underscores as spaces ("end_turn" -> "end turn").
function answerWords(gv, view, p, option) {
  if (option !== null && typeof option === "object") return [option.value, option.label || humanize(option.value)];
  const shown = gv && gv.answerLabel ? gv.answerLabel(p, option, view) : option;
  return [option, typeof shown === "string" ? humanize(shown) : shown];
}
// The plain text of words that may be nodes (for a status line).
const plainText = (words) => [words].flat(Infinity)
  .map((w) => (w instanceof Node ? w.textContent : w === null || w === undefined ? "" : String(w))).join("");

// One line of the feed: what happened in words (never the input syntax); a refusal with its rule
// linked to the rules reference, its reason and what to do.
function feedLine(game, e) {
  const r = e.rejection || {};
  return el("li", {"data-key": "seq" + e.seq},
    el("span", {class: "seq"}, "#" + e.seq),
    e.accepted ? e.words || (e.events || []).join(" · ") || "accepted" : null,
    e.accepted && e.put_back ? el("span", {class: "put-back"}, " — at the table: ", e.put_back) : null,
    e.accepted ? null
      : el("span", {class: "refused"}, ruleLink(game, r.rule || null), r.rule ? "" : "refused: ",
           e.words ? `${e.words}: ` : "", r.reason || "", r.hint ? ` → ${r.hint}` : ""));
}

function renderDetail(view, gv) {
  const id = view.id;
  const st = view.state || {};
  const ended = view.status === "ended";
  const label = view.name || id;
  update($("detail-title"), `${label} `, badge(view.status), view.over ? " game over" : "");
  const board = st.board;
  const seatRows = view.seats.map((name, i) => el("tr", {},
    el("td", {}, String(i + 1)), el("td", {}, name), el("td", {class: "score"}, (view.scores || [])[i] ?? "")));
  // An ended table waits for nobody: no "waiting for", no answer buttons.
  const prompts = ended ? [] : (view.pending || []).map((p) => el("div", {class: "row", "data-key": `prompt:${p.id}:${p.seat}`},
    el("span", {}, p.question), ...(p.options || []).map((option) => {
      const [value, words] = answerWords(gv, view, p, option);
      return el("button", {type: "button", "data-key": `answer:${p.id}:${p.seat}:${value}`, "data-answer": value,
                           onclick: () => answer(id, p, value, plainText(words))}, words);
    })));
  const feed = (view.feed || []).slice().reverse().slice(0, 15).map((e) => feedLine(view.game, e));
  const notices = (view.notices || []).map((n) => el("div", {class: "notice"}, ruleLink(view.game, n.rule), n.text));
  update($("detail-body"),
    el("div", {class: "muted small"}, `${view.game_name} · table ${id} · ${view.accepted} accepted of ${view.inputs} inputs · ` +
       `${view.watchers ?? 0} watching · `, el("a", {href: "/#" + encodeURIComponent(id), "data-key": "live-link"}, "open the live page")),
    board ? el("div", {class: board.sample ? "sample" : "muted"},
      `Board: ${board.name}` + (board.sample ? " — a SAMPLE board, not the printed one" : "")) : null,
    ended ? el("div", {class: "waiting ended", id: "detail-waiting"}, view.over ? "The game is over." : "The table has ended.")
          : el("div", {class: "waiting", id: "detail-waiting"}, view.waiting_for || ""),
    notices,
    pairingBox(id),
    el("table", {class: "list"}, el("thead", {}, el("tr", {}, ["Seat", "Player", "Score"].map((h) => el("th", {}, h)))),
       el("tbody", {}, seatRows)),
    el("div", {class: "muted small"}, "Pair or unpair a player's phone with the buttons by each name in the table list."),
    prompts.length ? [el("h3", {}, "Waiting for answers (you may answer for any seat)"), prompts] : null,
    el("h3", {}, "Spectator delay"),
    el("div", {class: "row"},
      el("label", {for: "delay-seconds"}, "Public view behind by"),
      el("input", {id: "delay-seconds", "data-key": "delay-seconds", type: "number", min: "0", max: "600", step: "1",
                   value: String(view.spectator_delay || 0), style: "width: 5rem"}),
      el("span", {}, "seconds"),
      el("button", {type: "button", id: "delay-set", "data-key": "delay-set", onclick: () => setDelay(id)}, "Set"),
      el("span", {class: "muted small"}, "For streams: the TV and the public see the table this " +
         "much later; phones and this console stay live. 0 = off.")),
    el("h3", {}, "Fix a misread"),
    el("div", {class: "row"},
      el("input", {id: "fix-input", "data-key": "fix-input", "data-keep": true,
                   placeholder: "+talon H1b1, -meld:0 A5r, decide 1 claim pass", spellcheck: "false",
                   "aria-label": "an input in its one-line form", size: 34}),
      el("button", {type: "button", id: "fix-feed", "data-key": "fix-feed", onclick: () => feed_(id)}, "Feed it"),
      el("button", {type: "button", id: "fix-correct", "data-key": "fix-correct", onclick: () => correct_(id)},
         "Correct the last play…")),
    el("h3", {id: "plays-title"}, "Recent plays"),
    // A scroll box: focusable so that it scrolls from the keyboard, named by its heading.
    el("ol", {class: "feed", id: "detail-feed", tabindex: "0", "aria-labelledby": "plays-title",
              "data-key": "feed"},
       feed.length ? feed : el("li", {class: "muted"}, "nothing yet")));
}

function pairingBox(id) {
  if (!pairing || pairing.table !== id) return null;
  const left = Math.max(0, Math.round((pairing.expires - Date.now()) / 60000));
  // Shown as an image (a data: URL), never inserted as markup; an image needs the SVG namespace.
  let svg = pairing.qr_svg || "";
  if (svg && !svg.includes("xmlns=")) svg = svg.replace("<svg", '<svg xmlns="http://www.w3.org/2000/svg"');
  const qr = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  return el("div", {class: "pairing", id: "pairing", "data-key": "pairing"},
    pairing.qr_svg ? el("img", {src: qr, alt: "QR code of the pairing link"}) : null,
    el("div", {},
      el("div", {}, `Seat ${pairing.seat + 1} (${pairing.seat_name}): open on the phone`),
      pairing.url ? el("div", {}, el("a", {href: pairing.url}, pairing.url)) : null,
      // No address a phone can open (the server listens on this machine only): how to serve
      // on the network instead of a QR code nobody can use.
      pairing.hint ? el("div", {class: "notice", id: "pair-hint"}, pairing.hint) : null,
      el("div", {}, "or type the code: ", el("span", {class: "code", id: "pair-code"}, pairing.code)),
      el("div", {class: "muted small"}, `single use, about ${left} min left`),
      el("button", {type: "button", "data-key": "pairing-done",
                    onclick: () => { pairing = null; loadDetail(); }}, "Done")));
}

async function pair(id, seat) {
  try {
    const got = await api("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/pair`);
    pairing = {...got, expires: Date.now() + got.expires_in * 1000};
    selected = id;  // the code and its QR show with the table, on the right
    await refreshAll();
    if ($("pairing")) $("pairing").scrollIntoView({block: "nearest"});
  } catch (e) { say(e.message, true); }
}

async function unpair(id, seat, name, button) {
  if (button) button.disabled = true;
  const label = tableLabel(id);
  try {
    const got = await api("DELETE", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/tokens`);
    const codes = got.codes_revoked ? ` and ${got.codes_revoked} unused pairing code(s)` : "";
    say(got.revoked ? `${label}: ${name}'s phone unpaired (${got.revoked} token(s)${codes} withdrawn); pair a new one when ready`
                    : `${label}: ${name} had no paired phone` + (codes ? `; ${codes.slice(5)} withdrawn` : ""));
    if (pairing && pairing.table === id && pairing.seat === seat) pairing = null;
  } catch (e) {
    say(`${label}: ${e.message}`, e.status !== 404);  // 404: no phone was paired with the seat
  } finally {
    if (button) button.disabled = false;
  }
}

async function answer(id, prompt, value, words) {
  try {
    const done = await api("POST", `/api/tables/${encodeURIComponent(id)}/decisions`,
                           {prompt: prompt.id, answer: value, seat: prompt.seat});
    say([`${tableLabel(id)}: “${words}” for ${prompt.question}: `, verdictText(done, id)], !done.accepted);
  } catch (e) { say(e.message, true); }
  refreshAll();
}

async function feed_(id) {
  const text = $("fix-input").value.trim();
  if (!text) { say("Type the input first, e.g. +talon H1b1", true); return; }
  try {
    const done = await api("POST", `/api/tables/${encodeURIComponent(id)}/inputs`, {input: text});
    say([`${tableLabel(id)}: ${text}: `, verdictText(done, id)], !done.accepted);
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
  if (!selected) { update(body); $("readers-note").textContent = "Choose a table to see its readers."; return; }
  const got = await api("GET", `/api/tables/${encodeURIComponent(selected)}/readers`);
  $("readers-note").textContent = got.error ? `The readers cannot be asked: ${got.error}`
    : got.backend ? `Table ${got.table} (${got.backend} readers) · refreshed every 2 s`
    : `Table ${got.table} has no readers attached` + (got.status === "ended" ? " (it has ended)" : "");
  update(body, got.readers.map((r) => el("tr", {"data-reader": r.reader, "data-key": r.reader, class: r.online ? "" : "offline"},
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

// The server's periodic backup (serve --backup-to): its last round, or its failure in words.
async function loadBackup() {
  const b = await api("GET", "/api/backup");
  const line = $("backup-line");
  line.hidden = !b.configured;
  line.textContent = b.words;
  line.classList.toggle("error-text", !b.ok);
  line.classList.toggle("muted", b.ok);
}

// -- refreshing ---------------------------------------------------------------------------------
let refreshing = null;  // the refresh under way (a promise), if any
let again = false;  // asked for while a refresh was under way: one more pass follows it
function refreshAll() {
  if (!unlocked) return Promise.resolve();  // nothing is shown without the organiser token
  if (refreshing) { again = true; return refreshing; }  // resolves after that extra pass
  refreshing = (async () => {
    try {
      do {
        again = false;
        await loadTables();
        await Promise.all([loadDetail(), loadReaders(), loadBackup()]);
      } while (again && unlocked);
    } catch (e) {
      if (e.status !== 401) say(e.message, true);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
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
  lock();
  if (token) {
    const ok = await tokenAccepted(token);
    if (ok === false) { token = ""; localStorage.removeItem(TOKEN_KEY); lock(WRONG_TOKEN); }
    else if (ok === null) say("The server does not answer; is it running? Reload the page when it is.", true);
    else unlock();
  }
  try {
    await loadGames();
  } catch (e) { say(e.message, true); }
  if (unlocked) await loadOrganiserData();
  await refreshAll();
  setInterval(refreshAll, POLL_MS);
}

start();
