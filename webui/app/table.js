// scorekeeper dashboard: the table itself, as the TV, the public and every phone see it: the
// waiting line (phase, turn, notices, what to put back), the game's picture and the players.
// The picture is the game view's board(); a drawing that throws falls back on the generic one.

import {el, seatColour, seatName} from "../kit.js";
import {$, organiserToken} from "./state.js";
import {ruleLink, text} from "./words.js";
import {fitBoard} from "./big.js";
import {generic} from "./generic.js";
import {showPairing} from "./pairing.js";

/** The phase, whose turn, paused or delayed, and the "Waiting for" line with the notices. */
export function drawWaiting(view, game, ctx) {
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

/** The game's picture in #board (exactly one <svg>), fitted for large type. */
export function drawBoard(view, game, ctx) {
  let picture;
  try {
    picture = game.board(view, ctx);
  } catch (e) {
    console.error(e);
    picture = generic.board(view, ctx);
  }
  picture.setAttribute("aria-label", `${view.game_name || view.game}: the table`);
  // A group, not an image: what it holds (its tokens and tracks, their words) stays readable.
  picture.setAttribute("role", "group");
  $("board").replaceChildren(picture);
  fitBoard();
}

/** The players: a card per seat with its score, turn, winner and the game's extra lines; with
 * the organiser token on this page, a "Pair a phone" button each. */
export function drawSeats(view, game, ctx) {
  const st = view.state || {};
  const winners = new Set(view.over ? (st.winners || []) : []);
  const turn = activeSeat(view, game);
  const canPair = !!organiserToken();
  const cards = (view.seats || []).map((name, i) => {
    // A game that keeps its scores to the end has none to show during play: words, not zeros.
    const later = !!view.scores_private;
    const score = later ? null : (view.scores || [])[i] ?? 0;
    const extra = game.seat ? game.seat(view, i, ctx) : null;
    return el("div", {class: "seat" + (turn === i && !view.over ? " active" : "") +
                             (ctx.seat === i ? " me" : "") + (winners.has(i) ? " winner" : ""),
                      "data-seat": i, "data-score": later ? null : score},
      el("span", {class: "seat-token", style: `background:${seatColour(i)}`}, ctx.short[i]),
      el("span", {class: "seat-name"}, name,
         ctx.seat === i ? el("span", {class: "badge me"}, "you") : null,
         winners.has(i) ? el("span", {class: "badge win"}, "★ winner") : null,
         turn === i && !view.over ? el("span", {class: "badge turn"}, "turn") : null),
      later ? el("span", {class: "seat-score later", title: "score"}, "score at the end")
            : el("span", {class: "seat-score", title: "score"}, String(score)),
      extra ? el("div", {class: "seat-extra"}, extra) : null,
      canPair ? el("button", {type: "button", class: "pair-seat", "data-pair-seat": i,
                              onclick: () => showPairing(view.id, i, name)}, "Pair a phone")
              : null);
  });
  $("seats").replaceChildren(el("h2", {}, "Players"), ...cards);
}
