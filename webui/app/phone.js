// scorekeeper dashboard: the phone, a seat's private view. Pairing this phone with a code (the
// "Pair this phone" box or ?pair=CODE), forgetting its seat, and the seat's own corner (#mine):
// its score, the decisions it answers and its private cards, which only this phone is sent.

import {el, seatColour, seatName} from "../kit.js";
import {$, page, tokens, saveTokens} from "./state.js";
import {drawPrompts} from "./prompts.js";
import {reconnect} from "./socket.js";

/** Trade a pairing code for a seat token (POST /api/pair), stored in this browser; says how it
 * went in #pair-status. The table's id, or null when it did not pair. */
export async function pairWith(code) {
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

/** The seat's own corner on a paired phone: its private cards and the decisions it answers
 * (`own`); hidden on the table view (ctx.seat null). */
export function drawMine(view, game, ctx, own) {
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
      view.scores_private  // the game keeps its scores to the end: words, not a zero
        ? el("span", {class: "my-score later"}, el("small", {}, "score at the end"))
        : el("span", {class: "my-score"}, el("small", {}, "score "),
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
