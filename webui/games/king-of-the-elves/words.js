// King of the Elves' words on the page around the picture: the phase line, each seat's line in
// the players' list, and the words of a prompt's answers ("Buy the top card for 2 gold",
// "Cid's first village (forest, 4)"). Hazard: nothing here may show a purse but the reader's
// own (ctx.seat) during play; the public view holds none, a seat's view only its own.

import {el, seatName, plural} from "../../kit.js";
import {crestWords, ordinal, villageAt, gold} from "./pieces.js";

const PHASE_WORDS = {planning: "Planning", travel: "Journeys", over: "Game over"};

export function phase(view) {
  const st = view.state || {};
  const bits = [];
  if (st.round) bits.push(`Round ${st.round} of ${st.rounds}`);
  const words = PHASE_WORDS[st.phase] || st.phase || "";
  if (words) bits.push(words);
  if (st.phase === "travel" && st.journey && Number.isInteger(st.journey.seat)) {
    bits.push(`${seatName(view, st.journey.seat)}'s journey`);
  }
  if (Number.isInteger(st.start_seat) && !view.over) {
    bits.push(`the dragon: ${seatName(view, st.start_seat)} starts`);
  }
  const deck = st.deck || {};
  if (deck.assumed) bits.push(`deck: ${deck.name}` + (deck.name === "assumed" ? "" : " (assumed)"));
  return bits.join(" · ");
}

/** The extra line of seat `i` in the players' list: hand, tokens, escrow, marker, journey. */
export function seatInfo(view, i, ctx = {}) {
  const st = view.state || {};
  const s = (st.seats || [])[i] || {};
  const out = [el("span", {}, `hand ${s.hand ?? 0}`)];
  if (s.crest) out.push(el("span", {}, crestWords(s.crest)));
  const left = Math.max(0, 4 - (s.placed ?? 0));
  if (!view.over) out.push(el("span", {}, `${plural(left, "token")} left`));
  if ((s.bought ?? 0) > 0 && st.phase === "planning") {
    out.push(el("span", {}, `bought ${s.bought}`));
  }
  if ((s.escrow ?? 0) > 0) out.push(el("span", {}, `escrow ${gold(s.escrow)}`));
  if (st.start_seat === i && !view.over) out.push(el("span", {}, "holds the dragon"));
  if (s.travelled && st.phase === "travel") out.push(el("span", {}, "journey done"));
  // Only the reader's own purse during play (a seat's view holds no other); all at the end.
  const own = ctx && ctx.seat === i;
  if (s.gold !== undefined && (view.over || own)) {
    out.push(el("strong", {}, own && !view.over ? `your purse ${gold(s.gold)}` : gold(s.gold)));
  }
  return out;
}

/** The answer's price or payee, from what everyone sees. */
function payWords(prompt, view) {
  const st = view.state || {};
  const a = (st.planning || {}).action;
  if (st.phase === "planning" && a && a.kind === "pay") {
    return a.needs ? `Pay ${gold(a.needs)} to the bank` : "Pay the bank";
  }
  const j = st.journey;
  if (st.phase === "travel" && j) {
    const v = villageAt(st, j.next) || villageAt(st, j.at);
    const thief = v && v.thief;
    if (thief && Number.isInteger(thief.owner)) {
      return `Pay 2 gold to ${seatName(view, thief.owner)}`;
    }
  }
  return "Pay";
}

export function answerLabel(prompt, option, view) {
  const o = String(option);
  const st = view.state || {};
  if (prompt.id === "plan") {
    if (o === "buy") {
      const bought = (((st.seats || [])[prompt.seat]) || {}).bought ?? 0;
      return `Buy the top card for ${gold(Math.min(3, bought + 1))}`;
    }
    const words = {pass: "Pass", draw3: "Draw 3 cards, then discard 4",
                   search: "Search the draw pile for a village"};
    return words[o] || o;
  }
  if (prompt.id === "searched") {
    return {found: "I took a village", none: "There is no village anywhere"}[o] || o;
  }
  if (prompt.id === "pay" && o === "pay") return payWords(prompt, view);
  if (prompt.id === "journey") {
    return {stop: "Stop the journey here",
            teleport: "Teleport: 3 gold and any 4 travel cards"}[o] || o;
  }
  const m = /^(\d+)\.(\d+)$/.exec(o);
  if (prompt.id === "teleport_to" && m) {
    const seat = Number(m[1]), slot = Number(m[2]);
    const v = villageAt(st, {seat, slot});
    const what = v ? ` (${v.terrain}, ${v.value})` : "";
    return `${seatName(view, seat)}'s ${ordinal(slot)} village${what}`;
  }
  return o;
}
