// scorekeeper dashboard: the words every part of the page shows the same way: a refusal's rule
// as a link into the players' rules reference, and a server text decorated by the game's view.

import {el} from "../kit.js";
import {GAME_ID} from "./state.js";

/** A refusal's rule id as a link to that rule in the players' reference (/rules/<game>#<id>). */
export function ruleLink(gameId, rule) {
  if (!rule) return el("span", {class: "rule"}, "?");
  const href = GAME_ID.test(gameId || "") ? `/rules/${gameId}#${encodeURIComponent(rule)}` : null;
  if (!href) return el("span", {class: "rule"}, rule);
  return el("a", {class: "rule", href, target: "_blank", rel: "noopener",
                  title: "read this rule (opens the players' rules)"}, rule);
}

/** A server text as nodes: the game's view may turn ids in it into chips (game.decorate). */
export function text(game, str) {
  return game.decorate ? game.decorate(String(str ?? "")) : [String(str ?? "")];
}
