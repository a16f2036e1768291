// scorekeeper dashboard: the table view (a TV or a laptop facing the table) and the seat view
// (a paired phone). No build step, no external asset: plain ES modules served from webui/.
//
// The page lists the tables (GET /api/tables), follows the chosen one over its WebSocket (each
// message is the whole view for this page's audience: public, or the paired seat's) and draws
// it. What is drawn per game lives in webui/games/<game-id>.js, loaded on first use, which
// registers itself in `registry` (webui/kit.js). Every value goes in as text (see kit.js).

import {registry, el, svg, svgRoot, label, rect, seatColour, shortNames, seatName, SVG_NS}
  from "./kit.js";

const KEYS = {tokens: "scorekeeper.tokens", organiser: "scorekeeper.organiser",
              big: "scorekeeper.big"};
const GAME_ID = /^[a-z0-9][a-z0-9-]{0,40}$/;

const page = {
  socketPath: "/ws/tables/",
  tables: [],
  current: null,       // table id shown
  socket: null,
  retry: 500,
  view: null,          // the newest view
  scheduled: false,
  narrow: null,
  answers: new Map(),  // "prompt|seat" -> {busy, error}: survives re-renders
  notice: null,        // a message about this page itself (pairing withdrawn, ...)
  pairTimer: null,
  pairLock: null,      // the timer that says when a pairing lockout is over
  feeds: new Map(),    // table id -> Map(seq -> feed entry): what this page has seen
};

const $ = (id) => document.getElementById(id);

// -- stored tokens ---------------------------------------------------------------------------------

function loadJson(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key) || "null") ?? fallback; }
  catch (e) { return fallback; }
}
const tokens = loadJson(KEYS.tokens, {});
function saveTokens() { localStorage.setItem(KEYS.tokens, JSON.stringify(tokens)); }
function organiserToken() { return localStorage.getItem(KEYS.organiser) || ""; }

/** This page's seat at `table` (paired phone), or null. */
function mine(table) {
  const t = tokens[table];
  return t && typeof t.token === "string" && Number.isInteger(t.seat) ? t : null;
}

// -- the URL: ?organiser=TOKEN (kept, then removed), ?pair=CODE, ?big=1 ----------------------------

function readUrl() {
  const url = new URL(location.href);
  const params = url.searchParams;
  let changed = false;
  if (params.has("organiser")) {
    const tok = params.get("organiser").trim();
    if (tok) localStorage.setItem(KEYS.organiser, tok);
    params.delete("organiser");
    changed = true;
  }
  const code = params.get("pair");
  if (code !== null) { params.delete("pair"); changed = true; }
  if (params.has("big")) localStorage.setItem(KEYS.big, params.get("big") === "0" ? "0" : "1");
  if (changed) history.replaceState(null, "", url.pathname + url.search + url.hash);
  return code;
}

// -- large type ------------------------------------------------------------------------------------

function applyBig(on) {
  document.body.classList.toggle("big", on);
  document.documentElement.classList.toggle("big", on);
  const button = $("big-toggle");
  button.setAttribute("aria-pressed", on ? "true" : "false");
  button.title = on ? "Normal type" : "Large type, readable from across the room";
  // Large type fits one screen: the score chart moves under the players, beside the picture.
  const chart = $("score-chart");
  if (on) document.querySelector(".feed-box").before(chart);
  else $("history").before(chart);
  fitBoard();
}
function toggleBig() {
  const on = !document.body.classList.contains("big");
  localStorage.setItem(KEYS.big, on ? "1" : "0");
  applyBig(on);
  schedule();
}

// -- pairing this phone ----------------------------------------------------------------------------

async function pairWith(code) {
  const status = $("pair-status");
  const clean = String(code || "").trim().toUpperCase().replace(/\s+/g, "");
  if (!clean) { status.textContent = "Type the code shown on the table's screen."; return null; }
  status.textContent = "Pairing…";
  status.className = "pair-status";
  let res, body;
  try {
    res = await fetch("/api/pair", {method: "POST", headers: {"Content-Type": "application/json"},
                                    body: JSON.stringify({code: clean})});
    body = await res.json();
  } catch (e) {
    status.textContent = "The server cannot be reached; try again.";
    return null;
  }
  clearTimeout(page.pairLock);
  if (res.status === 429) {
    // Too many wrong codes: the server looks at no code (a right one neither) for a while.
    // Said once (the status is a live region, a ticking count would be read out every second),
    // and again when the wait is over.
    const wait = Number(res.headers.get("Retry-After")) || body.retry_after || 60;
    const who = body.everyone ? "on this server" : "from this phone";
    status.textContent = `Too many wrong codes ${who}: wait ${wait} ` +
                         `second${wait === 1 ? "" : "s"}, then type the code again.`;
    status.className = "pair-status bad";
    page.pairLock = setTimeout(() => {
      status.textContent = "You can type the code again now.";
      status.className = "pair-status";
    }, wait * 1000);
    return null;
  }
  if (!res.ok) {
    status.textContent = body.error || "That code did not work; ask for a new one.";
    status.className = "pair-status bad";
    return null;
  }
  tokens[body.table] = {token: body.token, seat: body.seat, name: body.seat_name};
  saveTokens();
  status.textContent = `Paired: ${body.seat_name}.`;
  status.className = "pair-status ok";
  return body.table;
}

function forgetSeat(table) {
  delete tokens[table];
  saveTokens();
  reconnect();
}

// -- the table list --------------------------------------------------------------------------------

async function loadTables() {
  try {
    const res = await fetch("/api/tables");
    if (!res.ok) return;
    // archived tables are over and put away: the strip lists the others (and the one shown)
    page.tables = (await res.json()).filter((t) => !t.archived || t.id === page.current ||
                                                  t.id === location.hash.slice(1));
  } catch (e) { return; }
  drawTables();
  if (!page.current && page.tables.length) {
    const wanted = location.hash.slice(1);
    const pick = page.tables.find((t) => t.id === wanted) ||
                 page.tables.find((t) => t.status === "running") ||
                 page.tables[page.tables.length - 1];
    choose(pick.id);
  }
}

function drawTables() {
  const focus = focusKey();
  drawTableLinks();
  restoreFocus(focus);
}

function drawTableLinks() {
  const nav = $("tables");
  if (!page.tables.length) {
    nav.replaceChildren(el("p", {class: "muted"},
      "No tables yet. The organiser creates them from the console."));
    return;
  }
  nav.replaceChildren(...page.tables.map((t) => {
    const paired = mine(t.id);
    return el("a", {href: "#" + t.id, "data-table": t.id, class: "table-link",
                    "aria-current": t.id === page.current ? "page" : null},
      el("span", {class: "table-name"}, t.name || t.id),
      el("span", {class: "table-meta"}, `${t.game_name || t.game} · ${t.id}`),
      el("span", {class: "badge " + (t.over ? "ended" : t.status)}, t.over ? "over" : t.status),
      paired ? el("span", {class: "badge me"}, `you: ${paired.name}`) : null);
  }));
  // Bring the current table into view only when it is out of sight, and then by its start: a
  // strip scrolled to centre its first table would start with a cut-off name.
  const here = nav.querySelector('[aria-current="page"]');
  if (here && nav.scrollWidth > nav.clientWidth) {
    const left = here.offsetLeft - nav.offsetLeft, right = left + here.offsetWidth;
    if (left < nav.scrollLeft || right > nav.scrollLeft + nav.clientWidth) {
      nav.scrollLeft = Math.max(0, left - 4);
    }
  }
}

// -- the live connection ---------------------------------------------------------------------------

function choose(id) {
  if (id === page.current && page.socket) return;
  page.current = id;
  page.view = null;
  page.answers.clear();
  if (location.hash.slice(1) !== id) history.replaceState(null, "", "#" + id);
  document.body.classList.remove("no-table");
  drawTables();
  reconnect();
}

function reconnect() {
  if (page.socket) { page.socket.onclose = null; page.socket.close(); page.socket = null; }
  page.retry = 500;
  connect();
}

function connect() {
  const id = page.current;
  if (!id) return;
  const seat = mine(id);
  const proto = location.protocol === "https:" ? "wss://" : "ws://";
  // The table view is always the public one, even on a page holding the organiser token (a TV
  // must never show hidden cards); a paired phone connects with its seat token.
  const query = seat ? "?token=" + encodeURIComponent(seat.token) : "";
  const socket = new WebSocket(proto + location.host + page.socketPath +
                               encodeURIComponent(id) + query);
  page.socket = socket;
  setLink("connecting…", "");
  socket.onopen = () => { page.retry = 500; setLink("live", "running"); };
  socket.onmessage = (msg) => {
    if (page.socket !== socket) return;  // a message from a table left meanwhile
    let view;
    try { view = JSON.parse(msg.data); } catch (e) { return; }
    if (view.error) { page.notice = view.error; schedule(); return; }
    page.view = view;
    schedule();
  };
  socket.onclose = (ev) => {
    if (page.socket !== socket) return;
    page.socket = null;
    if ((ev.code === 4401 || ev.code === 4403) && seat) {
      // The organiser withdrew this phone's pairing (the server closes the socket at once):
      // forget it, take the seat's own corner off the screen now, follow the public view.
      delete tokens[id];
      saveTokens();
      page.notice = "This phone's pairing has ended. Ask the organiser for a new pairing code.";
      page.view = null;
      $("mine").hidden = true;
      $("mine").replaceChildren();
      document.body.classList.remove("has-seat");
      schedule();
      connect();
      return;
    } else if (ev.code === 4404) {
      page.notice = `There is no table ${id}. Choose one from the list.`;
      setLink("no such table", "offline");
      schedule();
      return;
    }
    setLink("reconnecting…", "offline");
    setTimeout(() => { if (page.current === id && !page.socket) connect(); }, page.retry);
    page.retry = Math.min(page.retry * 2, 8000);
  };
}

function setLink(text, kind) {
  const link = $("link");
  link.textContent = text;
  link.className = "badge " + kind;
}

// -- rendering -------------------------------------------------------------------------------------

function schedule() {
  if (page.scheduled) return;
  page.scheduled = true;
  setTimeout(() => { page.scheduled = false; render(); }, 0);
}

async function gameModule(game) {
  if (registry[game]) return registry[game];
  if (GAME_ID.test(game || "")) {
    try { await import(`./games/${game}.js`); } catch (e) { /* no view for it yet */ }
  }
  if (!registry[game]) registry[game] = generic;
  return registry[game];
}

async function render() {
  const view = page.view;
  drawNotice();
  if (!view) return;
  const game = await gameModule(view.game);
  if (page.view !== view) return;  // a newer view arrived while the module loaded
  const seat = mine(view.id);
  const mySeat = seat && view.audience === `seat ${seat.seat}` ? seat.seat : null;
  const ctx = {
    seat: mySeat,
    big: document.body.classList.contains("big"),
    narrow: window.innerWidth < 760,
    short: shortNames(view.seats || []),
    names: view.seats || [],
    colour: seatColour,
  };
  page.narrow = ctx.narrow;
  document.title = `${view.name || view.id} · scorekeeper`;
  document.body.classList.toggle("has-seat", mySeat !== null);
  document.body.classList.toggle("over", !!view.over);
  $("table-name").textContent = view.name || view.id;
  $("game-name").textContent = view.game_name || view.game;
  const status = $("status");
  status.textContent = view.over ? "game over" : view.status;
  status.className = "badge " + (view.over ? "ended" : view.status);
  $("who").textContent = mySeat !== null ? `${seatName(view, mySeat)}'s phone` : "table view";

  const quiet = new Set(game.quietPrompts || []);
  const prompts = view.pending || [];
  const open = new Set(prompts.map((p) => `${p.id}|${p.seat}`));
  for (const key of [...page.answers.keys()]) if (!open.has(key)) page.answers.delete(key);
  const own = mySeat === null ? [] : prompts.filter((p) => p.seat === mySeat);
  const table = prompts.filter((p) => !own.includes(p) && !(quiet.has(p.id) && p.seat !== null));

  const focus = focusKey();
  drawMine(view, game, ctx, own);
  drawWaiting(view, game, ctx);
  drawSummary(view, game, ctx);
  drawBoard(view, game, ctx);
  drawSeats(view, game, ctx);
  drawPrompts($("prompts"), view, game, ctx, table, "Waiting for answers");
  drawFeed(view, game, ctx);
  drawChart(view, game, ctx);
  drawHistory(view, game, ctx);
  restoreFocus(focus);
  const row = page.tables.find((t) => t.id === view.id);
  if (row && (row.status !== view.status || String(row.scores) !== String(view.scores) ||
              row.over !== view.over)) {
    Object.assign(row, {status: view.status, scores: view.scores, over: view.over});
    drawTables();
  }
}

// -- keeping the keyboard's place ------------------------------------------------------------------

// Every update redraws the parts it changes; a focused button or link would go with them and the
// keyboard's place fall back to the page. So the focused element is named by a stable key (its
// path of ids and data- attributes, and its words) before a redraw and focused again after.
function focusKey() {
  const a = document.activeElement;
  if (!a || a === document.body || a === document.documentElement) return null;
  const parts = [];
  for (let n = a; n && n !== document.body; n = n.parentElement) {
    if (n.id) { parts.unshift("#" + CSS.escape(n.id)); break; }
    const data = [...n.attributes].filter((at) => at.name.startsWith("data-"))
      .map((at) => `[${at.name}="${CSS.escape(at.value)}"]`).join("");
    parts.unshift(n.tagName.toLowerCase() + data);
  }
  return {node: a, selector: parts.join(" > "), words: a.textContent};
}

function restoreFocus(key) {
  if (!key || document.activeElement === key.node) return;
  // Still on the page but moved (a node moved in the DOM loses the focus): focus it again.
  if (key.node.isConnected) { key.node.focus({preventScroll: true}); return; }
  let found = [];
  try { found = [...document.querySelectorAll(key.selector)]; } catch (e) { return; }
  const same = found.find((n) => n.textContent === key.words) || found[0];
  if (same && typeof same.focus === "function") same.focus({preventScroll: true});
}

function drawNotice() {
  const box = $("page-notice");
  box.hidden = !page.notice;
  box.replaceChildren(page.notice ? el("span", {}, page.notice) : "",
    page.notice ? el("button", {type: "button", class: "link",
                                onclick: () => { page.notice = null; drawNotice(); }}, "dismiss")
                : "");
}

/** A refusal's rule id as a link to that rule in the players' reference (/rules/<game>#<id>). */
function ruleLink(gameId, rule) {
  if (!rule) return el("span", {class: "rule"}, "?");
  const href = GAME_ID.test(gameId || "") ? `/rules/${gameId}#${encodeURIComponent(rule)}` : null;
  if (!href) return el("span", {class: "rule"}, rule);
  return el("a", {class: "rule", href, target: "_blank", rel: "noopener",
                  title: "read this rule (opens the players' rules)"}, rule);
}

function text(game, str) {
  return game.decorate ? game.decorate(String(str ?? "")) : [String(str ?? "")];
}

// The seat's own corner on a paired phone: its private cards and the decisions it answers.
function drawMine(view, game, ctx, own) {
  const box = $("mine");
  if (ctx.seat === null) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  const cards = game.myCards ? game.myCards(view, ctx.seat, ctx) : null;
  const holder = el("div", {id: "my-cards", class: "cards"});
  if (cards && cards.cards.length) {
    holder.append(...cards.cards.map((c) => el("span", {class: "card-chip " + (c.class || ""),
                                                        "data-card": c.id, title: c.title || c.id,
                                                        style: c.style || null},
                                                c.node || c.label || c.id)));
  } else {
    holder.append(el("span", {class: "muted"}, (cards && cards.empty) || "No private cards."));
  }
  const promptBox = el("div", {id: "my-prompts"});
  drawPrompts(promptBox, view, game, ctx, own, "Your decisions");
  box.replaceChildren(...[
    el("div", {class: "mine-head"},
      el("h2", {}, "Your seat: ", el("span", {class: "seat-dot",
                                              style: `background:${seatColour(ctx.seat)}`}),
         seatName(view, ctx.seat)),
      el("span", {class: "my-score"}, el("small", {}, "score "),
         String((view.scores || [])[ctx.seat] ?? ""))),
    promptBox,
    el("h3", {}, (cards && cards.title) || "Your cards"),
    holder,
    cards && cards.extra ? el("div", {class: "my-extra"}, cards.extra) : null,
    el("p", {class: "muted small"}, "Only this phone sees these. ",
       el("button", {type: "button", class: "link", onclick: () => {
         if (confirm("Forget this phone's seat? You will need a new code to pair again.")) {
           forgetSeat(view.id);
         }
       }}, "Forget this seat"))].filter(Boolean));
}

function drawWaiting(view, game, ctx) {
  const phase = game.phase ? game.phase(view, ctx) : "";
  const turn = activeSeat(view, game);
  const bits = [];
  if (phase) bits.push(el("span", {class: "phase-text"}, phase));
  if (turn !== null && turn !== undefined && !view.over) {
    bits.push(el("span", {class: "turn"},
      el("span", {class: "seat-dot", style: `background:${seatColour(turn)}`}),
      `${seatName(view, turn)}'s turn`));
  }
  if (view.status === "paused") bits.push(el("span", {class: "badge paused"}, "paused"));
  if (view.spectator_delay && ctx.seat === null) {
    bits.push(el("span", {class: "badge delayed", title: "the organiser holds the public view back"},
                 `delayed by ${Math.round(view.spectator_delay)} s`));
  }
  $("phase").replaceChildren(...bits);
  $("waiting").replaceChildren(el("span", {class: "waiting-label"},
                                   view.over ? "Result" : "Waiting for"),
                               el("span", {class: "waiting-text"}, text(game, view.waiting_for)));
  const notices = (view.notices || []).map((n) => el("div", {class: "notice"},
    n.rule ? ruleLink(view.game, n.rule) : null, " ", text(game, n.text || "")));
  $("notices").replaceChildren(...notices);
  drawPutBack(view, game);
}

// After an undo or a correction the pieces on the table no longer match the game: the server
// says in plain words what to move (view.put_back, until the next play). It stands out on the
// table view and on the phones; the text is only replaced when it changes (a screen reader
// hears it once).
function drawPutBack(view, game) {
  const box = $("put-back");
  const pb = view.put_back;
  const words = pb && typeof pb.text === "string" ? pb.text : "";
  const key = words ? `${pb.seq}|${words}` : "";
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.hidden = !words;
  box.replaceChildren(...(words ? [
    el("span", {class: "put-back-label"},
       pb.kind === "correct" ? "Corrected: move the pieces" : "Taken back: move the pieces"),
    el("span", {class: "put-back-text"}, text(game, words))] : []));
}

function activeSeat(view, game) {
  if (game.active) return game.active(view);
  const s = (view.state || {}).active_seat;
  return Number.isInteger(s) ? s : null;
}

function drawBoard(view, game, ctx) {
  let picture;
  try {
    picture = game.board(view, ctx);
  } catch (e) {
    console.error(e);
    picture = generic.board(view, ctx);
  }
  picture.setAttribute("aria-label", `${view.game_name || view.game}: the table`);
  // A group, not an image: what it holds (the VP track's tokens, its words) stays readable.
  picture.setAttribute("role", "group");
  $("board").replaceChildren(picture);
  fitBoard();
}

// Large type: the picture as wide as the screen's height allows, the side column takes the rest.
function fitBoard() {
  const layout = document.querySelector(".layout");
  const picture = $("board").querySelector("svg");
  if (!document.body.classList.contains("big") || !picture || window.innerWidth <= 900) {
    layout.style.removeProperty("--board-w");
    return;
  }
  const box = picture.viewBox.baseVal;
  if (!box || !box.height) return;
  const room = layout.clientHeight - 2;
  layout.style.setProperty("--board-w", `${Math.max(300, Math.floor(room * box.width / box.height))}px`);
  readableText(picture);
}

// Large type is read from three metres: on a 1080p TV no word or number of the picture may
// render below BIG_TEXT_PX CSS pixels (on a smaller screen, proportionally less: it is seen
// from closer). The game views draw large type with large letters already and mark what is
// detail for a close look with class "fine" (left out); this pass is the guarantee for the
// rest: it raises what the picture's scale would still make too small. It runs again whenever
// the picture is fitted (a new view, a resize).
const BIG_TEXT_PX = 22.5;

function readableText(picture) {
  const m = picture.getScreenCTM();
  if (!m || !m.a) return;
  const least = BIG_TEXT_PX * Math.min(1, window.innerWidth / 1920, window.innerHeight / 1080);
  for (const t of picture.querySelectorAll("text")) {
    if (t.closest(".fine")) continue;
    const tm = t.getScreenCTM();
    const scale = tm ? Math.hypot(tm.a, tm.b) : m.a;
    const size = parseFloat(t.getAttribute("font-size")) || parseFloat(getComputedStyle(t).fontSize);
    if (size * scale < least) {
      t.setAttribute("font-size", (least / scale).toFixed(1));
      t.dataset.raisedFrom = String(size);  // what the game drew, for whoever tunes a view
    }
  }
}

function drawSeats(view, game, ctx) {
  const st = view.state || {};
  const winners = new Set(view.over ? (st.winners || []) : []);
  const turn = activeSeat(view, game);
  const canPair = !!organiserToken();
  const cards = (view.seats || []).map((name, i) => {
    const score = (view.scores || [])[i] ?? 0;
    const extra = game.seat ? game.seat(view, i, ctx) : null;
    return el("div", {class: "seat" + (turn === i && !view.over ? " active" : "") +
                             (ctx.seat === i ? " me" : "") + (winners.has(i) ? " winner" : ""),
                      "data-seat": i, "data-score": score},
      el("span", {class: "seat-token", style: `background:${seatColour(i)}`}, ctx.short[i]),
      el("span", {class: "seat-name"}, name,
         ctx.seat === i ? el("span", {class: "badge me"}, "you") : null,
         winners.has(i) ? el("span", {class: "badge win"}, "★ winner") : null,
         turn === i && !view.over ? el("span", {class: "badge turn"}, "turn") : null),
      el("span", {class: "seat-score", title: "score"}, String(score)),
      extra ? el("div", {class: "seat-extra"}, extra) : null,
      canPair ? el("button", {type: "button", class: "pair-seat", "data-pair-seat": i,
                              onclick: () => showPairing(view.id, i, name)}, "Pair a phone")
              : null);
  });
  $("seats").replaceChildren(el("h2", {}, "Players"), ...cards);
}

// -- prompts ---------------------------------------------------------------------------------------

function drawPrompts(box, view, game, ctx, prompts, title) {
  if (!prompts.length) {
    box.replaceChildren();
    box.hidden = box.id === "prompts";
    return;
  }
  box.hidden = false;
  box.replaceChildren(el("h2", {}, title), ...prompts.map((p) => promptNode(view, game, ctx, p)));
}

function promptNode(view, game, ctx, p) {
  const may = ctx.seat !== null && (p.seat === ctx.seat || p.seat === null);
  const key = `${p.id}|${p.seat}`;
  const state = page.answers.get(key) || {};
  const who = p.seat === null || p.seat === undefined ? "the table" : seatName(view, p.seat);
  const answers = el("div", {class: "answers"});
  for (const option of p.options || []) {
    const shown = game.answerLabel ? game.answerLabel(p, option, view) : option;
    if (may) {
      answers.append(el("button", {type: "button", "data-answer": option, disabled: state.busy,
                                   onclick: () => answer(view.id, p, option)}, shown));
    } else {
      answers.append(el("span", {class: "option"}, shown));
    }
  }
  return el("div", {class: "prompt" + (may ? " mine" : " readonly") + (p.private ? " private" : ""),
                    "data-prompt": p.id, "data-prompt-seat": p.seat ?? "table"},
    el("div", {class: "question"},
       p.seat === ctx.seat && ctx.seat !== null ? null : el("span", {class: "asked"}, who),
       p.private ? el("span", {class: "badge"}, "private") : null,
       el("span", {}, text(game, p.question))),
    answers,
    state.error ? el("div", {class: "prompt-error", role: "alert"},
                     state.rule ? [ruleLink(view.game, state.rule), " "] : null, state.error)
                : null);
}

async function answer(tableId, prompt, option) {
  const seat = mine(tableId);
  if (!seat) return;
  const key = `${prompt.id}|${prompt.seat}`;
  page.answers.set(key, {busy: true});
  schedule();
  let res, body;
  try {
    res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/decisions`, {
      method: "POST",
      headers: {"Content-Type": "application/json", "Authorization": "Bearer " + seat.token},
      body: JSON.stringify({prompt: prompt.id, answer: option})});
    body = await res.json();
  } catch (e) {
    page.answers.set(key, {error: "The server cannot be reached; try again."});
    schedule();
    return;
  }
  if (!res.ok || body.accepted === false) {
    const parts = [body.reason || body.error || "refused", body.hint ? ` — ${body.hint}` : ""];
    page.answers.set(key, {error: parts.join(""), rule: body.rule || null});
  } else {
    page.answers.delete(key);
  }
  schedule();
}

// -- the feed --------------------------------------------------------------------------------------

// The server sends the last inputs of the table; lifting cards off the table can push the
// plays people care about out of that window, so the page keeps what it has seen.
function mergeFeed(view) {
  let seen = page.feeds.get(view.id);
  if (!seen) { seen = new Map(); page.feeds.set(view.id, seen); }
  for (const e of view.feed || []) {
    if (!Number.isInteger(e.seq)) continue;
    if (!e.accepted || (e.events || []).length || e.put_back) seen.set(e.seq, e);
    else seen.delete(e.seq);
  }
  const seqs = [...seen.keys()].sort((a, b) => a - b);
  for (const old of seqs.slice(0, Math.max(0, seqs.length - 120))) seen.delete(old);
  return seqs.slice(-120).map((q) => seen.get(q)).filter(Boolean);
}

function drawFeed(view, game, ctx) {
  const shown = mergeFeed(view).slice(-40).reverse();
  const items = shown.map((e) => {
    if (e.accepted) {
      return el("li", {"data-seq": e.seq, class: e.put_back ? "taken-back" : null},
        el("span", {class: "seq"}, "#" + e.seq),
        el("div", {class: "events"}, (e.events || []).map((t) => el("div", {}, text(game, t))),
           e.put_back ? el("div", {class: "hint"}, el("strong", {}, "Put back: "),
                           text(game, e.put_back)) : null));
    }
    const r = e.rejection || {};
    return el("li", {class: "refused", "data-seq": e.seq},
      el("span", {class: "seq"}, "#" + e.seq),
      el("div", {class: "events"},
        el("div", {class: "refused-head"}, el("span", {class: "cross", "aria-hidden": "true"}, "✗"),
           " Refused ", ruleLink(view.game, r.rule)),
        el("div", {class: "reason"}, text(game, r.reason || "this play is not allowed")),
        r.hint ? el("div", {class: "hint"}, el("strong", {}, "What to do: "), text(game, r.hint))
               : null));
  });
  $("feed").replaceChildren(...items);
  $("feed-empty").hidden = items.length > 0;
}

// -- the score chart -------------------------------------------------------------------------------

function drawChart(view, game, ctx) {
  const box = $("score-chart");
  const history = (view.score_history || []).filter((h) => Array.isArray(h.scores));
  const n = (view.seats || []).length;
  if (!n) { box.hidden = true; return; }
  box.hidden = false;
  const points = history.length ? history.slice() : [{seq: 0, scores: Array(n).fill(0)}];
  const last = {seq: Math.max(view.accepted || 0, points[points.length - 1].seq),
                scores: view.scores || points[points.length - 1].scores};
  points.push(last);
  const W = ctx.narrow ? 480 : 900, H = ctx.narrow ? 240 : ctx.big ? 300 : 260;
  const L = 44, R = 16, T = 16, B = 30;
  const maxSeq = Math.max(1, last.seq);
  const top = Math.max(5, ...points.flatMap((p) => p.scores));
  const step = niceStep(top);
  const yMax = Math.ceil(top / step) * step;
  const x = (s) => L + (W - L - R) * (s / maxSeq);
  const y = (v) => T + (H - T - B) * (1 - v / yMax);
  const chart = svgRoot(W, H, {class: "chart"});
  for (let v = 0; v <= yMax; v += step) {
    chart.append(svg("line", {x1: L, x2: W - R, y1: y(v), y2: y(v), class: "grid"}),
                 label(L - 8, y(v) + 5, String(v), 14, {"text-anchor": "end", class: "axis"}));
  }
  chart.append(label(L, H - 6, "start", 13, {class: "axis"}),
               label(W - R, H - 6, "now", 13, {"text-anchor": "end", class: "axis"}));
  const ends = [];
  for (let i = 0; i < n; i++) {
    let d = "";
    let prev = null;
    for (const p of points) {
      const v = p.scores[i] ?? 0;
      if (prev === null) d += `M${x(p.seq).toFixed(1)} ${y(v).toFixed(1)}`;
      else d += `H${x(p.seq).toFixed(1)}V${y(v).toFixed(1)}`;
      prev = v;
    }
    chart.append(svg("path", {d, fill: "none", stroke: seatColour(i),
                              "stroke-width": ctx.seat === i ? 5 : 3, "stroke-linejoin": "round",
                              "stroke-dasharray": DASHES[i % DASHES.length] || null,
                              class: "line", "data-chart-seat": i}));
    ends.push({i, v: last.scores[i] ?? 0});
  }
  // No labels at the lines' ends (equal scores would stack them out of the chart): a legend
  // names each seat with its score and its line's pattern, so lines that overlap stay told apart.
  ends.sort((a, b) => b.v - a.v || a.i - b.i);
  const summary = ends.map((e) => `${seatName(view, e.i)} ${e.v}`).join(", ");
  chart.setAttribute("aria-label", `Scores over the game; now: ${summary}`);
  const legend = el("ul", {class: "legend", "aria-label": "players and scores now"},
    ends.map((e) => el("li", {"data-legend-seat": e.i},
      svgRoot(44, 14, {class: "swatch", "aria-hidden": "true", role: null},
              svg("line", {x1: 2, x2: 42, y1: 7, y2: 7, stroke: seatColour(e.i), "stroke-width": 4,
                           "stroke-dasharray": DASHES[e.i % DASHES.length] || null})),
      el("span", {class: "legend-name"}, seatName(view, e.i)),
      el("strong", {class: "legend-score"}, String(e.v)))));
  box.replaceChildren(el("h2", {}, "Scores over the game"), chart, legend);
}

// Line patterns for the score chart, one per seat: colour is never the only difference.
const DASHES = ["", "12 6", "3 5", "16 5 3 5", "7 7", "2 3 9 3"];

function niceStep(top) {
  for (const s of [1, 2, 5, 10, 20, 25, 50, 100, 200, 500]) if (top / s <= 6) return s;
  return 1000;
}

// -- the end-of-game summary -----------------------------------------------------------------------

function drawSummary(view, game, ctx) {
  const old = $("summary");
  if (!view.over) { if (old) old.remove(); return; }
  const st = view.state || {};
  const scores = view.scores || [];
  const winners = new Set(st.winners || []);
  const data = game.breakdown ? game.breakdown(view, ctx) : generic.breakdown(view, ctx);
  const order = (view.seats || []).map((_, i) => i).sort((a, b) => (scores[b] ?? 0) - (scores[a] ?? 0));
  const names = [...winners].map((i) => seatName(view, i));
  const title = names.length > 1 ? `${names.join(" and ")} share the win`
              : names.length ? `${names[0]} wins` : "Game over";
  const head = el("tr", {}, el("th", {}, "Player"),
    data.columns.map((c) => el("th", {title: c.title || c.label, class: "num"}, c.label)),
    el("th", {class: "num total"}, "Total"));
  const rows = order.map((i, place) => {
    const row = data.rows[i] || {values: {}};
    return el("tr", {class: winners.has(i) ? "winner" : "", "data-summary-seat": i},
      el("td", {}, el("span", {class: "place"}, `${place + 1}.`),
         el("span", {class: "seat-dot", style: `background:${seatColour(i)}`}),
         el("strong", {}, seatName(view, i)), winners.has(i) ? " ★" : "",
         row.detail ? el("div", {class: "detail"}, text(game, row.detail)) : null),
      data.columns.map((c) => {
        const v = row.values[c.key];
        return el("td", {class: "num" + (v < 0 ? " neg" : ""), "data-label": c.label},
                  v === undefined || v === 0 ? "·" : (v > 0 ? String(v) : `−${-v}`));
      }),
      el("td", {class: "num total", "data-label": "Total"}, String(scores[i] ?? "")));
  });
  const box = el("section", {id: "summary", "aria-label": "end of game summary", tabindex: 0},
    el("h2", {}, "★ ", title),
    el("table", {class: "breakdown"}, el("thead", {}, head), el("tbody", {}, rows)),
    data.note ? el("p", {class: "muted small"}, data.note) : null);
  if (old) old.replaceWith(box); else $("waiting-box").after(box);
}

// -- the game's own history (rounds, fame phases) --------------------------------------------------

function drawHistory(view, game, ctx) {
  const box = $("history");
  const body = game.history ? game.history(view, ctx) : null;
  if (!body) { box.hidden = true; box.replaceChildren(); return; }
  box.hidden = false;
  box.replaceChildren(body);
}

// -- pairing a phone from the table view (organiser token on this page) ----------------------------

async function showPairing(tableId, seat, name) {
  const dialog = $("pair-dialog");
  const qr = $("pair-qr");
  const code = $("pair-shown-code");
  const info = $("pair-info");
  clearInterval(page.pairTimer);
  qr.replaceChildren();
  code.textContent = "…";
  $("pair-title").textContent = `Pair a phone with ${name}`;
  info.textContent = "Asking the server for a code…";
  dialog.hidden = false;
  $("pair-close").focus();
  $("pair-again").onclick = () => showPairing(tableId, seat, name);
  let res, body;
  try {
    res = await fetch(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}/pair`, {
      method: "POST", headers: {"Authorization": "Bearer " + organiserToken()}});
    body = await res.json();
  } catch (e) {
    info.textContent = "The server cannot be reached.";
    code.textContent = "";
    return;
  }
  if (!res.ok) {
    code.textContent = "";
    info.textContent = (body && body.error) || "No code: the organiser token was refused.";
    if (res.status === 401) {
      info.textContent += " This page's organiser token is not valid; open the console again.";
    }
    return;
  }
  code.textContent = body.code;
  // No QR code for an address no phone can open (a server on loopback only): the server says
  // instead how to serve on the network, and the code still pairs a phone on this machine.
  const picture = body.url ? qrPicture(body.qr_svg) : null;
  if (picture) qr.append(picture);
  qr.hidden = !picture;
  $("pair-code-label").textContent = picture ? "or type the code" : "the pairing code";
  const ends = Date.now() + (body.expires_in || 600) * 1000;
  const tick = () => {
    const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
    info.replaceChildren(
      picture ? el("div", {}, `Scan the code with ${body.seat_name || name}'s phone, or open ` +
                              "this page on the phone and type the code in “Pair this phone”.")
              : el("div", {}, `Type this code in “Pair this phone” on ${body.seat_name || name}'s ` +
                              "phone, once the phone can open this page."),
      !picture && body.hint ? el("div", {class: "pair-hint", "data-pair-hint": ""}, body.hint)
                            : null,
      el("div", {class: "muted"}, [
        picture ? body.url : "",
        left ? `expires in ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`
             : "expired: ask for a new code"].filter(Boolean).join(" · ")));
    if (!left) clearInterval(page.pairTimer);
  };
  tick();
  page.pairTimer = setInterval(tick, 1000);
}

/** The server's QR code (an SVG it drew from our own URL), parsed, cleaned and imported. */
function qrPicture(source) {
  if (typeof source !== "string" || !source) return null;
  // Parsed as HTML (inert: nothing in a parsed document runs), which puts an <svg> without an
  // xmlns in the SVG namespace, as in a page; only the drawing itself is kept.
  const doc = new DOMParser().parseFromString(source, "text/html");
  const root = doc.body && doc.body.querySelector("svg");
  if (!root || root.namespaceURI !== SVG_NS) return null;
  for (const bad of root.querySelectorAll("script, foreignObject, iframe, a, image, use")) bad.remove();
  for (const node of [root, ...root.querySelectorAll("*")]) {
    for (const attr of [...node.attributes]) {
      if (/^on/i.test(attr.name) || /href$/i.test(attr.name)) node.removeAttribute(attr.name);
    }
  }
  if (!root.getAttribute("viewBox")) {
    const w = parseFloat(root.getAttribute("width")), h = parseFloat(root.getAttribute("height"));
    if (w && h) root.setAttribute("viewBox", `0 0 ${w} ${h}`);
  }
  root.removeAttribute("width");
  root.removeAttribute("height");
  root.setAttribute("role", "img");
  root.setAttribute("aria-label", "QR code to pair a phone");
  return document.importNode(root, true);
}

function closePairing() {
  clearInterval(page.pairTimer);
  $("pair-dialog").hidden = true;
  $("pair-qr").replaceChildren();
  $("pair-shown-code").textContent = "";
}

// -- a view for a game with no module yet ----------------------------------------------------------

const generic = {
  board(view, ctx) {
    const n = (view.seats || []).length || 1;
    const W = 1200, H = 420;
    const pic = svgRoot(W, H, {class: "board generic"});
    pic.append(rect(10, 10, W - 20, H - 20, {rx: 40, class: "felt"}),
               label(W / 2, 80, view.game_name || view.game, 40,
                     {"text-anchor": "middle", class: "ink", "font-weight": 700}));
    const w = (W - 80) / n;
    (view.seats || []).forEach((name, i) => {
      const x = 40 + i * w + w / 2;
      pic.append(svg("g", {"data-board-seat": i},
        rect(x - w / 2 + 10, 150, w - 20, 200, {rx: 18, class: "seat-area"}),
        label(x, 210, name, 28, {"text-anchor": "middle", class: "ink"}),
        label(x, 300, String((view.scores || [])[i] ?? ""), 64,
              {"text-anchor": "middle", class: "ink", "font-weight": 800})));
    });
    return pic;
  },
  breakdown(view) {
    return {columns: [], rows: (view.seats || []).map(() => ({values: {}})),
            note: "This game's view does not break the points down yet."};
  },
};

// -- start -----------------------------------------------------------------------------------------

export async function start(options = {}) {
  if (options.socket) page.socketPath = options.socket;
  const code = readUrl();
  applyBig(localStorage.getItem(KEYS.big) === "1");
  $("big-toggle").addEventListener("click", toggleBig);
  $("pair-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const table = await pairWith($("pair-code").value);
    if (table) {
      $("pair-code").value = "";
      page.current = null;
      choose(table);
    }
  });
  $("pair-close").addEventListener("click", closePairing);
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape") closePairing(); });
  $("pair-dialog").addEventListener("click", (ev) => { if (ev.target.id === "pair-dialog") closePairing(); });
  window.addEventListener("hashchange", () => {
    const id = location.hash.slice(1);
    if (id && id !== page.current) choose(id);
  });
  window.addEventListener("resize", () => {
    if (page.view && (window.innerWidth < 760) !== page.narrow) schedule();
    fitBoard();
  });
  // For browser tests and fixtures: draw a view without a server.
  window.scorekeeper = {registry, view: () => page.view,
                        render: (view) => { page.view = view; return render(); }};
  if (!location.hash) document.body.classList.add("no-table");
  if (code) {
    const table = await pairWith(code);
    if (table) choose(table);
  }
  await loadTables();
  setInterval(loadTables, 5000);
}
