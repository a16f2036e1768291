// What every page of the event hub shares: calling the API, following the event's changes by
// long-polling, the round timer and the words players read. ES module, no build step; the
// DOM helpers come from kit.js, so every value from the server goes in as text, never as HTML.
import {el} from "/static/kit.js";

export {el};
export const $ = (id) => document.getElementById(id);

// localStorage keys: the console's token (an organiser's or a judge's) and a phone's seat token.
export const CONSOLE_KEY = "scorekeeper.event.console";
export const SEAT_KEY = "scorekeeper.event.seat";

/** A refusal or failure from the hub: `message` is its words, `status` the HTTP status. */
export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || `the hub answered ${status}`);
    this.status = status;
  }
}

/** Call the API (with `token` when given): the JSON answer, or an ApiError in words. */
export async function call(method, path, body, token) {
  const headers = {};
  if (token) headers.Authorization = "Bearer " + token;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, {method, headers, cache: "no-store",
                             body: body === undefined ? undefined : JSON.stringify(body)});
  } catch (e) {
    throw new ApiError(0, {error: "the hub does not answer: check the network, then try again"});
  }
  const text = await res.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch (e) { data = {error: text}; }
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** Keep a page up to date: `refresh()` loads and shows the view (returning its `version`),
 * then each answer of GET /api/event/changes that brings another version refreshes it again.
 * `offline(text)` is told when the hub cannot be reached ("" once it can again). */
export async function follow(refresh, offline = () => {}) {
  let version = null;
  for (;;) {
    try {
      version = await refresh();
      offline("");
      for (;;) {
        const next = await call("GET", `/api/event/changes?since=${version}`);
        // another version (a hub that restarted counts again from 0): show the event again
        if (next.version !== version) break;
      }
    } catch (e) {
      // no access (the page asks for a token again) or nothing to show: stop following
      if (e.status === 401 || e.status === 403 || e.status === 404) return;
      offline(e.message);
      await sleep(2000);
    }
  }
}

// -- the round timer -------------------------------------------------------------------------

let clockOffset = 0;  // the hub's clock minus this device's, from each view's `now`

/** Note the hub's time from a view, so that countdowns follow the hub's clock. */
export function syncClock(view) {
  if (view && view.now) clockOffset = Date.parse(view.now) - Date.now();
}

/** The timer in words: {clock: "12:05" or "", text, up: time is up, running}. */
export function timerWords(timer) {
  if (!timer) return {clock: "", text: "No timer running", up: false, running: false};
  if (timer.stopped_at) {
    return {clock: "", text: `Round ${timer.round}: timer stopped`, up: false, running: false};
  }
  const left = Date.parse(timer.ends_at) - (Date.now() + clockOffset);
  if (left <= 0) {
    return {clock: "0:00", text: `Time is up: round ${timer.round} has ended`, up: true,
            running: false};
  }
  const secs = Math.ceil(left / 1000);
  const h = Math.floor(secs / 3600);
  const m = Math.floor((secs % 3600) / 60);
  const s = String(secs % 60).padStart(2, "0");
  const clock = h ? `${h}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
  return {clock, text: `Round ${timer.round}: ${clock} left`, up: false, running: true};
}

/** Call `tick()` every second (the countdown), from now on. */
export function everySecond(tick) {
  tick();
  setInterval(tick, 1000);
}

// -- words -----------------------------------------------------------------------------------

const TIE_BREAKS = {
  points: "points",
  game_points: "game points",
  table_share: "share of the table",
  opponents: "opponents",
  head_to_head: "head to head",
};

/** A tie-break's name as people read it. */
export function tieBreakName(name) { return TIE_BREAKS[name] || name.replaceAll("_", " "); }

/** What decided a place, in words ("" for the first place). */
export function decidedBy(s) {
  if (!s.decided_by) return "";
  if (s.decided_by === "tied") return "tied: shares the place";
  return "decided by: " + tieBreakName(s.decided_by);
}

/** "Ann, Bea and Cid". */
export function listWords(names) {
  if (names.length < 2) return names.join("");
  return names.slice(0, -1).join(", ") + " and " + names[names.length - 1];
}

/** Replace `node`'s children with `children`, only when what it would show has changed (a
 * re-render would otherwise take the keyboard focus away from a button being used). */
export function fill(node, key, ...children) {
  const json = JSON.stringify(key);
  if (node.dataset.shown === json) return false;
  node.dataset.shown = json;
  node.replaceChildren(...children.flat());
  return true;
}
