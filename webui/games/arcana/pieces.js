// Arcana's pieces in words and colours: the arcana (told apart by symbol and word as well as
// colour), stakes and agents in words, seat markers named, the sizes every part of the picture
// uses (large type: read from three metres) and text cut or wrapped to fit. Keys of view.state:
// docs/games/arcana.md ("The views"). Cards come with their `name` from the table's card pack;
// nothing here prints a card id.

import {svg, rect, seatName, seatToken, seatColour} from "../../kit.js";

// The arcana: a symbol, a word and a dark ink readable on white and on its light fill (7:1).
export const ARCANA = {
  wand: {symbol: "⚚", word: "wand", ink: "#14532d", fill: "#d9f0e1"},
  sword: {symbol: "⚔", word: "sword", ink: "#1e3a8a", fill: "#dbe7fb"},
  chalice: {symbol: "♥", word: "chalice", ink: "#7f1d1d", fill: "#f8dcdc"},
  coin: {symbol: "◉", word: "ducat", ink: "#713f12", fill: "#fbf1c9"},
};
const UNKNOWN_ARCANUM = {symbol: "•", word: "", ink: "#1f2937", fill: "#eef0f3"};

export function arcanum(name) {
  const a = ARCANA[name];
  return a || {...UNKNOWN_ARCANUM, word: String(name || "")};
}

/** "⚔ 5": a value in an arcanum, symbol first. */
export function valueWords(name, n) { return `${arcanum(name).symbol} ${n}`; }

/** "⚔ sword": an arcanum's symbol and word. */
export function arcanumWords(name) {
  const a = arcanum(name);
  return `${a.symbol} ${a.word}`;
}

/** A text of the game's with its seat markers ("{seat:1} wins with 8") named. */
export function named(view, text) {
  return String(text ?? "").replace(/\{seat:(\d+)\}/g, (_, n) => seatName(view, Number(n)));
}

/** A card's name from the view ({card, name}), never its id: "a card" when unnamed. */
export function cardName(entry) {
  return entry && entry.name ? String(entry.name) : "a card";
}

/** "district A", "the neutral district" (the view's own words when it has them). */
export function districtName(d) {
  if (d && d.name) return String(d.name);
  const id = d && typeof d === "object" ? d.id : d;
  return id === "n" ? "the neutral district" : `district ${String(id || "").toUpperCase()}`;
}

/** The district `id` of the view, or null. */
export function districtOf(st, id) {
  return (st.districts || []).find((d) => d.id === id) || null;
}

/** "District A", "Neutral district" (a heading). */
export function districtTitle(d) {
  const id = d && typeof d === "object" ? d.id : d;
  return id === "n" ? "Neutral district" : `District ${String(id || "").toUpperCase()}`;
}

/** Whose district it is: "Ann and Bea's", "Bea's"; the neutral one: "all play face up". */
export function friendsWords(view, d) {
  const f = (d && d.friends) || [];
  if (!f.length) return "all play face up";
  const names = f.map((i) => seatName(view, i));
  return (names.length > 1 ? names.slice(0, -1).join(", ") + " and " + names.at(-1)
                           : names[0]) + "'s";
}

const TYPE_WORDS = {citizen: "citizen", relic: "relic", location: "location",
                    princes_games: "the Prince's Games card"};

/** A stake's lines: [name, "citizen · ⚔ sword, needs 7", "◉ ducat 8"]. */
export function stakeLines(stake) {
  if (!stake) return [];
  if (stake.type === "princes_games") {
    return [cardName(stake), "no stake: the game ends after this round"];
  }
  const majors = (stake.majors || []).map((m) => {
    const need = (stake.threshold || {})[m];
    return `${arcanumWords(m)}` + (need !== undefined && need !== null ? ` ${need}` : "");
  });
  const lines = [cardName(stake), [TYPE_WORDS[stake.type] || stake.type || "stake",
                                   majors.join(", ")].filter(Boolean).join(" · ")];
  if (stake.type === "citizen" && stake.ducat !== null && stake.ducat !== undefined) {
    lines.push(`${ARCANA.coin.symbol} ducat ${stake.ducat}`);
  }
  return lines;
}

/** A seat's sums at a district ({arcanum: n}) in words: "⚔ 5", "⚚ 4 ⚔ 2". */
export function sumWords(sums, majors) {
  const keys = (majors && majors.length ? majors : Object.keys(sums || {}));
  return keys.filter((k) => (sums || {})[k] !== undefined)
             .map((k) => valueWords(k, sums[k])).join("  ");
}

/** A seat's token beside its name: its colour with its short label, in large type its colour
 * only (the label could not be read from three metres inside a token; the name beside it is). */
export function seatMark(x, y, size, seat, opts) {
  if (!opts.big) return seatToken(x, y, size, seat, (opts.short || [])[seat] || "");
  // no empty text either: the page would raise its size as if it were a word to read
  return svg("g", {class: "seat-token"},
             rect(x - size / 2, y - size / 2, size, size, {rx: size * 0.22, fill: seatColour(seat),
                                                           stroke: "#fff", "stroke-width": 2}));
}

/** Font sizes in user units: normal, a phone's column, and large type (three metres). */
export function sizes(opts) {
  if (opts.big) return {title: 38, text: 33, small: 30, value: 44};
  if (opts.narrow) return {title: 30, text: 25, small: 23, value: 36};
  return {title: 28, text: 23, small: 20, value: 34};
}

/** A card's back: a dark card with a light lattice, `w` × `h` at (x, y) (a face-down agent;
 * what it is stays unsaid). */
export function cardBack(x, y, w, h, attrs = {}) {
  const g = svg("g", {class: "card-back", ...attrs});
  g.append(rect(x, y, w, h, {rx: 5, fill: "#27345a", stroke: "#ffffff", "stroke-width": 2}));
  const step = Math.max(6, w / 4);
  for (let k = step; k < w + h; k += step) {
    // the lattice: diagonal strokes clipped to the card by their ends
    const x1 = x + Math.max(0, k - h), y1 = y + Math.min(h, k);
    const x2 = x + Math.min(w, k), y2 = y + Math.max(0, k - w);
    g.append(svg("line", {x1, y1, x2, y2, stroke: "#8ea2d6", "stroke-width": 1.5,
                          opacity: 0.8}));
  }
  return g;
}

// -- text that fits -----------------------------------------------------------------------------

// The average advance of a letter of the page's sans-serif, as a share of the font size (bold
// runs wider); an estimate: SVG text is laid out before it is measured.
export const EM = 0.63;
export const EM_REGULAR = 0.57;

/** The estimated width of `text` at `size` (bold with `em` EM). */
export function textWidth(text, size, em = EM) { return String(text).length * size * em; }

/** `text` cut to about what fits `w` user units at `size` (an ellipsis marks it). */
export function fit(text, w, size, em = EM) {
  const room = Math.max(3, Math.floor(w / (size * em)));
  const s = String(text);
  return s.length <= room ? s : s.slice(0, room - 1) + "…";
}

/** `text` broken into lines of about `w` user units at `size`, at most `most` lines; a line
 * breaks between the parts of "hand 3 · deck 7 · discard 0" before it breaks inside one. */
export function wrap(text, w, size, most = 2, em = EM) {
  const room = Math.max(3, Math.floor(w / (size * em)));
  const lines = [];
  let line = "";
  for (const part of String(text).split(" · ")) {
    const joined = line ? `${line} · ${part}` : part;
    if (joined.length <= room) { line = joined; continue; }
    if (line) { lines.push(line); line = ""; }
    for (const word of part.split(" ")) {
      if (line && (line + " " + word).length > room) { lines.push(line); line = word; }
      else line = line ? line + " " + word : word;
    }
  }
  if (line) lines.push(line);
  if (lines.length > most) {
    lines.splice(most - 1, lines.length, fit(lines.slice(most - 1).join(" "), w, size, em));
  }
  return lines.map((l) => fit(l, w, size, em));
}
