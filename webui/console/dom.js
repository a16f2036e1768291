// The console's small DOM helpers, on top of kit.js (the dashboard's shared kit).
//
// Every value from the server goes in as a text node or an attribute (kit.js's el()), never as
// markup. The console's el() differs from kit.js's in one way only: its event handlers
// (onclick, onchange, ...) are set as properties, not added as listeners, so that a live update
// (morph.js) can move a fresh rendering's handler onto the element it keeps. A listener added
// with addEventListener could not be moved, and a kept button would call a stale closure.
import {el as kitEl} from "../kit.js";

export const HANDLERS = ["onclick", "onchange", "oninput", "onkeydown", "onsubmit"];

export const $ = (id) => document.getElementById(id);

/** An HTML element, as kit.js's el(), with its handlers as properties (see above). */
export function el(tag, attrs, ...children) {
  const rest = {};
  const handlers = {};
  for (const [k, v] of Object.entries(attrs || {})) (HANDLERS.includes(k) ? handlers : rest)[k] = v;
  return Object.assign(kitEl(tag, rest, ...children), handlers);
}

/** The children as nodes: arrays flattened, null, undefined and false left out. */
export function nodes(children) {
  const out = [];
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    out.push(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return out;
}

/** Replace a node's children (the same flattening as el()). */
export function fill(node, ...children) {
  node.replaceChildren(...nodes(children));
  return node;
}

export const badge = (text, kind) => el("span", {class: "badge " + (kind || text)}, text);

/** A status line at the top: text, or nodes (a refusal carries a link to its rule). It goes
 * after 6 s (12 s for an error). */
export function say(text, error) {
  const box = $("status");
  fill(box, text || "");
  box.className = "status" + (error ? " error" : "");
  clearTimeout(say.timer);
  if (text) say.timer = setTimeout(() => { box.textContent = ""; }, error ? 12000 : 6000);
}

/** "end_turn" -> "end turn": the last resort for a value the server gave no words for. */
export const humanize = (value) => String(value).replaceAll("_", " ");

/** A rule id as a link to the players' rules reference (/rules/<game>#<rule id>), so that every
 * refusal the console shows can be read up in one click. */
export function ruleLink(game, rule) {
  if (!rule) return null;
  const href = game ? `/rules/${encodeURIComponent(game)}#${encodeURIComponent(rule)}` : null;
  return href ? el("a", {class: "rule", href, target: "_blank", rel: "noopener",
                         title: "this rule in the players' rules reference"}, rule)
              : el("span", {class: "rule"}, rule);
}

/** How long ago, in words ("just now", "12 s ago", "3 min ago"). */
export function ago(seconds) {
  if (seconds === null || seconds === undefined) return "never";
  if (seconds < 1.5) return "just now";
  if (seconds < 90) return `${Math.round(seconds)} s ago`;
  if (seconds < 5400) return `${Math.round(seconds / 60)} min ago`;
  return `${Math.round(seconds / 3600)} h ago`;
}

/** The plain text of words that may be nodes (for a status line). */
export const plainText = (words) => [words].flat(Infinity)
  .map((w) => (w instanceof Node ? w.textContent : w === null || w === undefined ? "" : String(w)))
  .join("");

/** A message line of a form: text, "ok" or "error" styled. */
export function message(node, text, kind) {
  node.textContent = text || "";
  node.className = "message" + (kind ? " " + kind : "");
}
