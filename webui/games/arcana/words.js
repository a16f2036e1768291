// Arcana's words on the page around the picture: the phase line, each seat's line in the
// players' list, whose turn it is, and a prompt's answers in words. The answers' words come
// from the view itself (state.answer_words, written by the rules module from the table's
// pack: "Use its ability: draw 2, keep 1", "district C (Cid's): the Sword, sword 4"), so no
// card id or answer code reaches a button.
// Hazard: nothing here may show a seat's exact VP or secrets but the reader's own (ctx.seat).

import {el, seatName} from "../../kit.js";
import {roundWords, packWords} from "./head.js";
import {cardName, named} from "./pieces.js";

export function phase(view) {
  const st = view.state || {};
  const bits = [roundWords(st)];
  if (Number.isInteger(st.first_seat) && st.phase !== "over" && st.phase !== "setup") {
    bits.push(`${seatName(view, st.first_seat)} plays first`);
  }
  const pack = st.pack || {};
  if (pack.sample) bits.push(packWords(st));
  return bits.filter(Boolean).join(" · ");
}

/** Whose turn: the actor during the intrigue; in the results the seat a prompt waits for;
 * nobody while the table is set up or once the game is over. */
export function active(view) {
  const st = view.state || {};
  if (view.over || st.phase === "over" || st.phase === "setup") return null;
  return Number.isInteger(st.active_seat) ? st.active_seat : null;
}

/** The extra lines of seat `i` in the players' list: guild, hand, deck, discard and its top
 * card, stakes; on the seat's own phone its exact VP. */
export function seatInfo(view, i, ctx = {}) {
  const st = view.state || {};
  const s = (st.seats || [])[i] || {};
  // Large type: the picture's seat panels say it all; the side column keeps one short line
  // (it must leave the score chart and the newest plays on the screen).
  if (ctx && ctx.big) return [el("span", {}, `hand ${s.hand ?? 0}`)];
  const out = [];
  if (s.guild_name) out.push(el("span", {}, `the ${s.guild_name}`));
  out.push(el("span", {}, `hand ${s.hand ?? 0} · deck ${s.deck ?? 0} · ` +
                          `discard ${s.discard ?? 0}`));
  if (s.discard_top) out.push(el("span", {}, `top of discard: ${cardName(s.discard_top)}`));
  if (Number.isInteger(s.stakes)) {
    out.push(el("span", {}, `${s.stakes} stake${s.stakes === 1 ? "" : "s"}`));
  }
  if (st.first_seat === i && !view.over && st.phase !== "setup") {
    out.push(el("span", {}, "first player"));
  }
  // the exact figure is in the seat's own view only (the scores are the public VP, G-36)
  if (ctx && ctx.seat === i && Array.isArray(s.face_down) && !view.over) {
    out.push(el("strong", {}, `your VP now ${s.vp ?? 0}`));
  }
  return out;
}

// Plain words for the answers the view may not word (a view from before answer_words).
const FALLBACK = {play: "Use its ability", discard: "Discard it", watch: "Call the watch",
                  none: "None", use: "Use your guild master", done: "Done",
                  yes: "It was done as the card says", no: "Undo it", badge: "Under your badge",
                  wand: "wand", sword: "sword", chalice: "chalice"};

export function answerLabel(prompt, option, view) {
  const st = view.state || {};
  const words = ((st.answer_words || {})[prompt.id] || {})[option];
  if (words) return named(view, words);
  const o = String(option);
  if (FALLBACK[o]) return FALLBACK[o];
  const m = /^drew:(\d+)$/.exec(o);
  if (m) return `I drew ${m[1]} card${m[1] === "1" ? "" : "s"}`;
  if (/^[a-dn]$/.test(o)) return o === "n" ? "the neutral district" : `district ${o.toUpperCase()}`;
  return "this answer";  // never a card id: the view words every answer it offers
}
