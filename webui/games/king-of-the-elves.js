// King of the Elves' table view: the principalities round the table with their villages and
// special cards, the current journey (where the traveller is, the next village and its cost,
// the cards spent, the gold collected and paid), the round, phase, dragon marker, deck and
// piles; on a seat's phone its own purse and gold ledger; at the end, each purse by source and
// the history of the journeys. Keys of view.state: docs/games/king-of-the-elves.md ("The
// views"). Scores are purses, private during play: nothing here draws another seat's gold
// before the game is over (the public view holds none).
//
// The entry the page loads (webui/app/render.js imports webui/games/<game-id>.js): it registers
// the view; the drawing is in webui/games/king-of-the-elves/, one module per part:
//   pieces.js   terrains (colour, icon, word), cards and villages in words, costs, sizes
//   realm.js    a principality: its head and its villages with their special cards
//   journey.js  the centre (journey, planning or result) and the strip of round and piles
//   board.js    the whole picture, round the table or in one column
//   words.js    the phase line, seat lines, answers' words
//   purse.js    a seat's own purse and gold ledger, on its phone
//   summary.js  each purse by source, and the history of the journeys

import {registry} from "../kit.js";
import {board} from "./king-of-the-elves/board.js";
import {phase, seatInfo, answerLabel} from "./king-of-the-elves/words.js";
import {myCards} from "./king-of-the-elves/purse.js";
import {breakdown, history} from "./king-of-the-elves/summary.js";

registry["king-of-the-elves"] = {
  title: "King of the Elves",
  board,
  phase,
  seat: seatInfo,
  myCards,
  answerLabel,
  breakdown,
  history,
  // The planning turn's choices and the traveller's "stop" stay open all through planning and
  // a journey: the waiting line says them on the table's screen (which answers nothing), the
  // buttons are on the seat's phone and the organiser's console.
  quietPrompts: ["plan", "journey"],
};
