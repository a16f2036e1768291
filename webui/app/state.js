// scorekeeper dashboard: the page's shared state and this browser's stored tokens.
//
// One plain object, `page`, holds what every part of the page reads and changes (the table
// shown, its socket, the newest view, the answers in flight); the modules of webui/app/ share
// it by import. Nothing here touches the DOM except `$`, and nothing runs on import but reading
// the stored seat tokens.

export const KEYS = {tokens: "scorekeeper.tokens", organiser: "scorekeeper.organiser",
                     big: "scorekeeper.big"};

/** What a game id looks like: only such an id is put into a module path or a rules link. */
export const GAME_ID = /^[a-z0-9][a-z0-9-]{0,40}$/;

export const page = {
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

export const $ = (id) => document.getElementById(id);

// -- stored tokens ---------------------------------------------------------------------------------

function loadJson(key, fallback) {
  try { return JSON.parse(localStorage.getItem(key) || "null") ?? fallback; }
  catch (e) { return fallback; }
}

/** Table id -> {token, seat, name}: the seats this browser is paired with (a phone's). Changed
 * in place; saveTokens() writes it back. */
export const tokens = loadJson(KEYS.tokens, {});
export function saveTokens() { localStorage.setItem(KEYS.tokens, JSON.stringify(tokens)); }
export function organiserToken() { return localStorage.getItem(KEYS.organiser) || ""; }

/** This page's seat at `table` (paired phone), or null. */
export function mine(table) {
  const t = tokens[table];
  return t && typeof t.token === "string" && Number.isInteger(t.seat) ? t : null;
}
