// scorekeeper dashboard: the recent plays (#feed), newest first: what each accepted input did,
// and each refusal with its rule, its reason and what to do.

import {el} from "../kit.js";
import {$, page} from "./state.js";
import {ruleLink, text} from "./words.js";

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

/** The last 40 plays worth showing (see mergeFeed) in #feed. */
export function drawFeed(view, game, ctx) {
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
