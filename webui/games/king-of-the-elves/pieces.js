// King of the Elves' pieces in words and colours: the six terrains (told apart by a drawn icon
// and their word as well as colour), the travel and special cards, villages and their owners
// ("Bea's forest village (4)"), the costs of a step ("1 unicorn, or 2 rafts"), seat marks,
// the sizes every part of the picture uses (large type: read from three metres) and text cut
// or wrapped to fit. Keys of view.state: docs/games/king-of-the-elves.md ("The views").

import {svg, rect, circle, seatName, seatToken} from "../../kit.js";

/** A seat's token beside its name: its colour with its short label, in large type its colour
 * only (the label could not be read from three metres inside a token; the name beside it is). */
export function seatMark(x, y, size, seat, opts) {
  return seatToken(x, y, size, seat, opts.big ? "" : (opts.short[seat] || ""));
}

/** Font sizes in user units: normal, and large type (read from three metres on a TV). */
export function sizes(opts) {
  if (opts.big) return {title: 38, text: 32, small: 29, value: 46};
  if (opts.narrow) return {title: 30, text: 25, small: 22, value: 38};
  return {title: 28, text: 23, small: 20, value: 36};
}

// Terrains: a light fill, a dark ink readable on it (7:1 or more), and an icon drawn in SVG
// (no emoji: a Pi's browser may have no colour font).
export const TERRAINS = {
  lake: {fill: "#cfe3fb", ink: "#0b3d75", water: true},
  river: {fill: "#d6f1f7", ink: "#0a4f60", water: true},
  desert: {fill: "#f8e6b8", ink: "#6b4200"},
  mountain: {fill: "#e2e0dc", ink: "#3d3a36"},
  forest: {fill: "#cfe9cf", ink: "#14532d"},
  plain: {fill: "#eef5c2", ink: "#3f5207"},
};
const UNKNOWN_TERRAIN = {fill: "#eef0f3", ink: "#374151"};

export function terrain(name) { return TERRAINS[name] || UNKNOWN_TERRAIN; }

/** A small icon for a terrain, centred on (x, y), `s` across. */
export function terrainIcon(x, y, s, name) {
  const t = terrain(name);
  const g = svg("g", {class: "terrain-icon", "aria-hidden": "true", fill: "none",
                      stroke: t.ink, "stroke-width": Math.max(2, s / 10),
                      "stroke-linecap": "round", "stroke-linejoin": "round"});
  const h = s / 2;
  const p = (d) => svg("path", {d});
  if (name === "lake" || name === "river") {
    const rows = name === "lake" ? [-h / 2, 0, h / 2] : [-h / 3, h / 3];
    for (const dy of rows) {
      g.append(p(`M${x - h} ${y + dy} q${h / 2} ${-h / 3} ${h} 0 t${h} 0`));
    }
  } else if (name === "mountain") {
    g.append(p(`M${x - h} ${y + h * 0.7} L${x - h * 0.2} ${y - h * 0.7} L${x + h * 0.25} ${y}` +
               ` L${x + h * 0.5} ${y - h * 0.35} L${x + h} ${y + h * 0.7} Z`));
  } else if (name === "forest") {
    for (const dx of [-h * 0.45, h * 0.45]) {
      g.append(p(`M${x + dx} ${y - h * 0.8} L${x + dx - h * 0.45} ${y + h * 0.35}` +
                 ` L${x + dx + h * 0.45} ${y + h * 0.35} Z M${x + dx} ${y + h * 0.35}` +
                 ` L${x + dx} ${y + h * 0.8}`));
    }
  } else if (name === "desert") {
    g.append(circle(x + h * 0.45, y - h * 0.4, h * 0.28),
             p(`M${x - h} ${y + h * 0.6} q${h / 2} ${-h * 0.7} ${h} 0 q${h / 2} ${-h * 0.5}` +
               ` ${h} 0`));
  } else if (name === "plain") {
    for (const dx of [-h * 0.6, 0, h * 0.6]) {
      g.append(p(`M${x + dx} ${y + h * 0.7} L${x + dx - h * 0.2} ${y - h * 0.3}` +
                 ` M${x + dx} ${y + h * 0.7} L${x + dx + h * 0.2} ${y - h * 0.1}`));
    }
    g.append(p(`M${x - h} ${y + h * 0.7} L${x + h} ${y + h * 0.7}`));
  } else {
    g.append(rect(x - h * 0.6, y - h * 0.6, h * 1.2, h * 1.2, {rx: 3}));
  }
  return g;
}

// -- text that fits -----------------------------------------------------------------------------

// The average advance of a letter of the page's sans-serif, as a share of the font size (bold
// runs wider); an estimate: SVG text is laid out before it is measured.
const EM = 0.6;

// The same for regular (not bold) text.
export const EM_REGULAR = 0.54;

/** `text` cut to about what fits `w` user units at font size `size` (an ellipsis marks it);
 * `em`: the letter's advance (EM for bold text, EM_REGULAR for regular). */
export function fit(text, w, size, em = EM) {
  const room = Math.max(3, Math.floor(w / (size * em)));
  const s = String(text);
  return s.length <= room ? s : s.slice(0, room - 1) + "…";
}

/** `text` broken into lines of about `w` user units at `size`, at most `most` lines. */
export function wrap(text, w, size, most = 2) {
  const room = Math.max(3, Math.floor(w / (size * EM)));
  const lines = [];
  let line = "";
  for (const word of String(text).split(" ")) {
    if (line && (line + " " + word).length > room) { lines.push(line); line = word; }
    else line = line ? line + " " + word : word;
  }
  if (line) lines.push(line);
  if (lines.length > most) {
    lines.splice(most - 1, lines.length, fit(lines.slice(most - 1).join(" "), w, size));
  }
  return lines;
}

// -- cards in words ------------------------------------------------------------------------------

const TRAVEL = {giant_pig: ["giant pig", "giant pigs"], elfcycle: ["elfcycle", "elfcycles"],
  magic_cloud: ["magic cloud", "magic clouds"], unicorn: ["unicorn", "unicorns"],
  troll_wagon: ["troll wagon", "troll wagons"], dragon: ["dragon", "dragons"],
  raft: ["raft", "rafts"]};
export const SPECIAL = {gold: "gold card", thief: "thief", fallen_tree: "fallen tree",
  sea_monster: "sea monster", escort: "escort", turnaround: "turnaround"};

/** "a raft" / "2 rafts": `n` cards of travel type `type` (a card id's type: raft_3 → raft). */
export function travelWords(type, n = 1, article = false) {
  const words = TRAVEL[type] || [String(type).replaceAll("_", " "),
                                 String(type).replaceAll("_", " ") + "s"];
  if (n === 1 && article) return (/^[aeiou]/.test(words[0]) ? "an " : "a ") + words[0];
  return `${n} ${n === 1 ? words[0] : words[1]}`;
}

/** A card id's type, without its number: "raft_10" → "raft", "village_05" → "village". */
export function cardType(id) { return String(id ?? "").replace(/_\d+$/, ""); }

/** "Bea's forest village (4)"; `me` (a seat) says "your" for that seat's own. */
export function ownedVillage(view, seat, v, me = null) {
  const who = seat === me && me !== null ? "your" : `${seatName(view, seat)}'s`;
  return `${who} ${v ? `${v.terrain} village (${v.value})` : "village"}`;
}

/** A special card on a village: "Bea's thief". */
export function specialWords(view, sp) {
  if (!sp) return "";
  const what = SPECIAL[sp.type || cardType(sp.card)] || "special card";
  return Number.isInteger(sp.owner) ? `${seatName(view, sp.owner)}'s ${what}` : what;
}

/** A text of the game's with its seat markers ("{seat:1}'s lake village") named. */
export function named(view, text) {
  return String(text ?? "").replace(/\{seat:(\d+)\}/g, (_, n) => seatName(view, Number(n)));
}

/** "crest A" from the view's crest letter ("a"). */
export function crestWords(crest) {
  return crest ? `crest ${String(crest).toUpperCase()}` : "";
}

const ORDINAL = ["first", "second", "third", "fourth"];
export function ordinal(slot) { return ORDINAL[slot - 1] || `${slot}th`; }

/** The village at {seat, slot} (slots count from 1) in the public view, or null. */
export function villageAt(st, place) {
  if (!place || !Number.isInteger(place.seat)) return null;
  const s = (st.seats || [])[place.seat] || {};
  return (s.villages || [])[(place.slot ?? 1) - 1] || null;
}

/** The costs of a step as pairs [type, cards], cheapest first: `costs` may be a mapping
 * {type: n} or a list of {type, cards}. */
export function costPairs(costs) {
  let pairs = [];
  if (Array.isArray(costs)) {
    pairs = costs.map((c) => (Array.isArray(c) ? c : [c.type, c.cards ?? c.count ?? c.n]));
  } else if (costs && typeof costs === "object") {
    pairs = Object.entries(costs);
  }
  return pairs.filter(([, n]) => Number(n) > 0).map(([t, n]) => [t, Number(n)])
              .sort((a, b) => a[1] - b[1]);
}

/** "1 magic cloud, unicorn or dragon, or 2 elfcycles or troll wagons": grouped by count. */
export function costWords(costs) {
  const pairs = costPairs(costs);
  if (!pairs.length) return "no travel card reaches it";
  const groups = new Map();
  for (const [t, n] of pairs) groups.set(n, [...(groups.get(n) || []), t]);
  const either = (words) => (words.length > 1 ? words.slice(0, -1).join(", ") + " or " +
                                                 words[words.length - 1] : words[0]);
  const parts = [...groups.entries()].map(([n, types]) =>
    `${n} ${either(types.map((t) => travelWords(t, n).replace(/^\d+ /, "")))}`);
  return parts.join(", or ");
}

/** "7 gold"; "+7" / "−2" with `signed`. */
export function gold(n, signed = false) {
  const v = Number(n) || 0;
  if (!signed) return `${v} gold`;
  return v > 0 ? `+${v}` : v < 0 ? `−${-v}` : "0";
}

