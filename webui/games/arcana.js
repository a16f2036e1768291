// Arcana's table view: the districts with their stakes, piles and agents in rows turned to
// their owners (a face-down agent a card back to everyone but its owner), each seat's guild,
// counts, top discard, VP so far and stakes, the first player and whose turn, the district
// being settled or the last one settled with its sums, winner and reason, the events and the
// card pack; on a seat's phone its face-down agents named with their values, its known hand
// cards, exact VP, provisional sums and objectives; at the end each seat's VP by source and the
// history of the districts. Keys of view.state: docs/games/arcana.md ("The views").
//
// The entry the page loads (webui/app/render.js imports webui/games/<game-id>.js): it registers
// the view; the drawing is in webui/games/arcana/, one module per part:
//   pieces.js    arcana (symbol, word, ink), stakes and districts in words, sizes, text fitting
//   district.js  a district: its stake, pile, marks and its agents in rows by owner
//   head.js      the strip along the top and the result banner
//   seats.js     a seat's panel in the picture
//   board.js     the whole picture, side by side or in one column
//   words.js     the phase line, seat lines, whose turn, answers' words
//   mine.js      a seat's own cards and figures, on its phone
//   summary.js   VP by source, and the history of the districts settled

import {registry} from "../kit.js";
import {board} from "./arcana/board.js";
import {phase, seatInfo, active, answerLabel} from "./arcana/words.js";
import {myCards} from "./arcana/mine.js";
import {breakdown, history} from "./arcana/summary.js";

registry["arcana"] = {
  title: "Arcana",
  board,
  phase,
  seat: seatInfo,
  active,
  myCards,
  answerLabel,
  breakdown,
  history,
  // Every decision of a seat is asked on its phone (and the organiser's console) and said by
  // the waiting line on the table's screen, which answers nothing: listed again there, a
  // question such as "use the Foundry's ability?" would push the newest plays off a TV (the
  // guild master's "use" even stays open all through its owner's turn). The organiser's
  // "confirm" (no seat) stays listed.
  quietPrompts: ["location", "stake_discard", "bribe_arcanum", "relic_on", "move", "win_at",
                 "return", "master", "manual", "next_district", "declare", "copy", "set_aside"],
};
