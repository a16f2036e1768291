// Arcanum's words on the page around the picture: the phase line, each seat's line in the
// players' list, a seat's own hidden cards (on the phone), the words of a prompt's answers, and
// the family symbols drawn in their colour inside any text.

import {el, plural, decorateText} from "../../kit.js";
import {FAMILIES, ORDER, card, cardChip, familyChip, pawnParts} from "./pieces.js";
import {locations} from "./city.js";

const PHASE_WORDS = {setup: "Setup: place the 16 pawns", round_start: "Start of the round",
  draw: "Phase A: draw", hide: "Phase A: hide a card", play: "Phase B: turns",
  fame: "Fame phase", over: "Game over"};

// -- the page's other parts ----------------------------------------------------------------------

export function phase(view) {
  const st = view.state || {};
  const bits = [];
  if (st.round) bits.push(`Round ${st.round} of ${st.rounds}`);
  let words = PHASE_WORDS[st.phase] || st.phase || "";
  if (st.phase === "fame" && st.fame) words += st.fame.kind === "world" ? " (XXI World: half values)" : "";
  if (words) bits.push(words);
  if ((st.fame_rounds || []).includes(st.round) && st.phase !== "fame" && st.phase !== "over") {
    bits.push("fame phase at the end of this round");
  }
  return bits.join(" · ");
}

export function seatInfo(view, i) {
  const st = view.state || {};
  const s = (st.seats || [])[i] || {};
  const out = [el("span", {}, `hand ${s.hand ?? 0}`), el("span", {}, `hidden ${s.hidden ?? 0}`)];
  if ((s.revealed || []).length) out.push(el("span", {}, `${s.revealed.length} shown by the Sun`));
  if (st.start_seat === i && !view.over) out.push(el("span", {}, "starts the round"));
  if (st.devil === i) out.push(el("span", {}, "Devil: VP doubled"));
  const owed = (st.owed || []).find((o) => o.seat === i);
  if (owed) out.push(el("strong", {}, `owes ${plural(owed.count, "discard")}`));
  return out;
}

export function myCards(view, seat) {
  const s = ((view.state || {}).seats || [])[seat] || {};
  const hidden = s.hidden_cards || [];
  const extra = [];
  if (s.minors !== undefined) {
    extra.push(el("div", {}, `In your hand: ${plural(s.minors, "minor")}, ${plural(s.majors ?? 0, "major")}.`));
  }
  if ((s.known_hand || []).length) {
    extra.push(el("div", {}, "Known to be in your hand: ",
      s.known_hand.map((c) => el("span", {class: "chip"}, cardChip(c))), ""));
  }
  const shown = new Set(s.revealed || []);
  return {
    title: `Your hidden cards (${hidden.length})`,
    empty: "No hidden cards.",
    cards: hidden.map((id) => {
      const c = card(id);
      const f = FAMILIES[c.family];
      return {id, title: c.words + (shown.has(id) ? " (shown by the Sun)" : ""),
              class: shown.has(id) ? "shown" : "",
              node: [f ? el("span", {class: "fam", style: `color:${f.colour}`}, f.symbol) : null,
                     el("span", {}, c.kind === "minor" ? c.spoken : c.words),
                     shown.has(id) ? el("small", {class: "muted"}, " shown") : null]};
    }),
    extra,
  };
}

export function answerLabel(prompt, option, view) {
  const o = String(option);
  let m;
  if (FAMILIES[o]) return familyChip(o);
  if ((m = /^(swords|coins|wands|cups)([+-]\d+)$/.exec(o))) {
    return [...familyChip(m[1]), ` ${m[2].replace("-", "−")}`];
  }
  if ((m = /^(swords|coins|wands|cups)\/(swords|coins|wands|cups)$/.exec(o))) {
    return ["+1 ", ...familyChip(m[1]), " / −1 ", ...familyChip(m[2])];
  }
  if (/^pawn_/.test(o)) {
    const p = pawnParts(o);
    return [el("span", {class: "fam", style: `color:${p.f.colour}`}, p.f.symbol), ` ${p.fig} pawn`];
  }
  if (/^(major_\d\d|(swords|coins|wands|cups)_\w+)(\+(major_\d\d|(swords|coins|wands|cups)_\w+))*$/.test(o)) {
    const parts = o.split("+");
    return parts.flatMap((c, k) => [k ? " + " : "", ...cardChip(c)]);
  }
  if (/^\d+$/.test(o) && ["tower", "judgement"].includes(prompt.id)) {
    const loc = locations(view.state || {})[o];
    return loc && loc.name ? `${o} ${loc.name}` : o;
  }
  const words = {"minor+minor": "2 minors", "minor+major": "a minor and a major",
                 "major+major": "2 majors", minors: "minors", major: "a major"};
  return words[o] || o;
}

const FAMILY_SYMBOLS = /[⚔◉⚚♥]/gu;
const BY_SYMBOL = Object.fromEntries(ORDER.map((f) => [FAMILIES[f].symbol, FAMILIES[f]]));

export function decorate(text) {
  return decorateText(text, FAMILY_SYMBOLS, (sym) =>
    el("span", {class: "fam", style: `color:${BY_SYMBOL[sym].colour}`}, sym));
}
