// King of the Elves on a seat's phone: the seat's own purse (big), its escrow, its tokens left
// this round and its hand count, then its gold ledger (newest first: the reason in words, the
// amount in or out, what caused it, the rule). The referee never sees a hand, so a seat has no
// secret cards: #my-cards stays without [data-card] items, and the purse stands in their place.
// Hazard: only the seat's own view carries `gold` and `ledger`; this draws nothing else's.
// Hazard: the purse goes in as myCards' `empty` node, which webui/app/phone.js shows where the
// cards would be, inside a muted span (hence the purse's own colour); should phone.js ever take
// `empty` as text only, the purse belongs at the head of `extra`.

import {el, seatName, plural} from "../../kit.js";
import {gold, crestWords, named} from "./pieces.js";

const SHOWN = 10;  // ledger entries shown at once; the earlier ones fold away

/** Who is at the other end of an entry: "the bank", "Bea", "your escrow". */
function party(view, where, seat) {
  const w = String(where || "");
  if (w === "bank") return "the bank";
  const m = /^(purse|escrow):(\d+)$/.exec(w);
  if (!m) return w;
  const s = Number(m[2]);
  if (s === seat) return m[1] === "escrow" ? "your escrow" : "your purse";
  return seatName(view, s);
}

/** An entry's reason in words, from this seat's side. */
export function reasonWords(view, e, seat) {
  const incoming = e.to === `purse:${seat}`;
  switch (e.reason) {
    case "start": return "Starting gold";
    case "buy": return "A card bought: set aside until planning ends";
    case "buy_paid": return "Purchases paid to the bank";
    case "remove": return "A village removed";
    case "thief":
      return incoming ? `Your thief: ${party(view, e.from, seat)} paid`
                      : `${party(view, e.to, seat)}'s thief`;
    case "village": return "A village visited";
    case "gold_card": return "Your gold card";
    case "bonus": return "Bonus: every village visited";
    case "teleport": return "Teleport";
    default: return String(e.reason || "").replaceAll("_", " ");
  }
}

/** The entry's effect on the purse: [text, sign] ("+7", "−2"; an escrow's payment "·": it
 * left the purse when the card was bought). */
export function entryAmount(e, seat) {
  const n = Number(e.amount) || 0;
  if (e.to === `purse:${seat}`) return [`+${n}`, 1];
  if (e.from === `purse:${seat}`) return [`−${n}`, -1];
  return ["·", 0];
}

function ruleLink(rule) {
  return el("a", {href: `/rules/king-of-the-elves#${encodeURIComponent(rule)}`, target: "_blank",
                  rel: "noopener", style: "white-space:nowrap",
                  title: "read this rule (opens the players' rules)"}, rule);
}

// One entry: what happened and why (what caused it, the round, the rule), and the gold.
function ledgerRow(view, e, seat) {
  const [amount, sign] = entryAmount(e, seat);
  const colour = sign > 0 ? "#0d7a4f" : sign < 0 ? "#b42318" : "#374151";
  const escrow = e.from === `escrow:${seat}` ? `${gold(e.amount)} from your escrow` : "";
  const about = [escrow, named(view, e.about), e.round ? `round ${e.round}` : ""]
    .filter(Boolean).join(" · ");
  return el("tr", {"data-ledger": e.n ?? ""},
    el("td", {style: "padding:.25rem .4rem .25rem 0"},
       el("div", {}, reasonWords(view, e, seat)),
       el("div", {style: "color:#4b5563;font-size:.85em"}, about,
          e.rule ? [" · ", ruleLink(e.rule)] : null)),
    el("td", {style: "text-align:right;white-space:nowrap;font-weight:800;font-size:1.15em;" +
                     `vertical-align:top;padding-top:.25rem;color:${colour}`}, amount));
}

function ledgerTable(view, entries, seat, caption) {
  return el("table", {class: "ledger", style: "width:100%;border-collapse:collapse"},
    el("caption", {style: "text-align:left;font-weight:700;padding:.3rem 0"}, caption),
    el("thead", {}, el("tr", {},
      el("th", {scope: "col", style: "text-align:left"}, "What"),
      el("th", {scope: "col", style: "text-align:right"}, "Gold"))),
    el("tbody", {}, entries.map((e) => ledgerRow(view, e, seat))));
}

/** The seat's gold ledger, newest first; the earlier entries inside a <details>. */
export function ledger(view, s, seat) {
  const entries = (s.ledger || []).slice().reverse();
  if (!entries.length) return el("p", {class: "muted"}, "No gold has moved yet.");
  const recent = entries.slice(0, SHOWN);
  const earlier = entries.slice(SHOWN);
  return el("div", {class: "ledger-box"},
    ledgerTable(view, recent, seat, "Your gold ledger, newest first"),
    earlier.length ? el("details", {},
      el("summary", {}, `${plural(earlier.length, "earlier entry", "earlier entries")}`),
      ledgerTable(view, earlier, seat, "Earlier entries")) : null);
}

/** The purse, big: the one number a player looks at on the phone. */
function purseNode(s) {
  const known = s.gold !== undefined && s.gold !== null;
  return el("span", {class: "purse", "data-purse": known ? s.gold : "",
                     style: "display:block;color:#111827;font-weight:800;font-size:2.6rem;" +
                            "line-height:1.1"},
    known ? `${s.gold} gold` : "—");
}

/** The phone's corner (#mine): title, the purse in place of private cards, then the rest. */
export function myCards(view, seat) {
  const st = view.state || {};
  const s = (st.seats || [])[seat] || {};
  const extra = [];
  const facts = [`${plural(s.hand ?? 0, "card")} in your hand`];
  const left = Math.max(0, 4 - (s.placed ?? 0));
  if (!view.over) facts.push(`${plural(left, "token")} left this round`);
  if (s.crest) facts.push(crestWords(s.crest));
  if ((s.bought ?? 0) > 0 && st.phase === "planning") facts.push(`${s.bought} bought this round`);
  extra.push(el("div", {class: "purse-facts", style: "font-size:1.05rem"}, facts.join(" · ")));
  if ((s.escrow ?? 0) > 0) {
    extra.push(el("div", {class: "escrow", style: "font-weight:700"},
      `Escrow: ${gold(s.escrow)} set aside for your purchases, paid when planning ends`));
  }
  if (view.over && (st.winners || []).includes(seat)) {
    extra.push(el("div", {style: "font-weight:800"}, "★ You are King of the Elves"));
  }
  extra.push(ledger(view, s, seat));
  return {
    title: "Your purse",
    empty: purseNode(s),
    cards: [],
    extra,
  };
}
