// What the console's views share: one plain object, so that every module reads and writes the
// same values (an imported `let` cannot be assigned by the module that imports it).
export const TOKEN_KEY = "scorekeeper.organiser";  // the live page reads the same key
export const ENROLL_KEY = "scorekeeper.enrollment";
export const POLL_MS = 2000;

export const state = {
  token: localStorage.getItem(TOKEN_KEY) || "",
  unlocked: false,  // the server accepted the token: only then are tables and forms shown
  tables: [],  // the table list as last loaded
  selected: null,  // the id of the table shown on the right
  pairing: null,  // {table, seat, code, url, qr_svg, expires}: a pairing code being shown
  games: [],  // GET /api/games
  kits: [],  // GET /api/kits
  dataEntries: {},  // "game/kind" -> GET /api/data/{game}/{kind}: that kind's entries
  dataKinds: [],  // GET /api/data: every game's data kinds ({game, kind, title, option, ...})
};

/** The game id of a table the console knows (for the rules links). */
export function gameOf(tableId) {
  const t = state.tables.find((x) => x.id === tableId);
  return t ? t.game : null;
}

/** A table's name, or its id when it has none. */
export function tableLabel(id) {
  const t = state.tables.find((x) => x.id === id);
  return t && t.name ? t.name : id;
}
