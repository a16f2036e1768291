// Arcanum's table view: the city's ten locations with their pawns, the round and phase track,
// the reputation track, the VP track, the play area, decks and discard piles, and each seat's
// hand and hide strip. Keys of view.state: docs/games/arcanum.md ("The public view").
//
// The entry the page loads (webui/app/render.js imports webui/games/<game-id>.js): it registers
// the view; the drawing is in webui/games/arcanum/, one module per part:
//   pieces.js   the families, what a card id means, card faces and chips, pawns, text helpers
//   city.js     the ten locations as tiles with their icons and pawns
//   tracks.js   the round and phase track, the reputation track, the VP track
//   play.js     the play area (the turn's cards, decks, discard piles) and the notes beside it
//   hands.js    each seat's panel: score, tags, hand and hide strip
//   board.js    the whole picture, wide or narrow
//   words.js    the phase line, seat lines, a seat's own cards, answers' words, symbols in text
//   summary.js  where the VP came from, and the fame phases' history

import {registry} from "../kit.js";
import {board} from "./arcanum/board.js";
import {phase, seatInfo, myCards, answerLabel, decorate} from "./arcanum/words.js";
import {breakdown, history} from "./arcanum/summary.js";

export {FAMILIES, card} from "./arcanum/pieces.js";

registry["arcanum"] = {
  title: "Arcanum",
  board,
  phase,
  seat: seatInfo,
  myCards,
  answerLabel,
  decorate,
  breakdown,
  history,
};
