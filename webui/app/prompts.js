// scorekeeper dashboard: the decisions the game waits for. Everyone sees them; a paired phone
// gets a button per answer for its own seat's prompts and the table's (POST .../decisions with
// its seat token). A refused answer stays under its prompt, with its rule, until it closes.

import {el, seatName} from "../kit.js";
import {page, mine} from "./state.js";
import {ruleLink, text} from "./words.js";
import {schedule} from "./render.js";

/** `prompts` under `title` in `box`; #prompts is hidden when there are none. */
export function drawPrompts(box, view, game, ctx, prompts, title) {
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
