// scorekeeper dashboard: the view of a game that has no module in webui/games/ yet (seats and
// scores only). The page also falls back on its picture when a game's own drawing throws.

import {svg, svgRoot, label, rect} from "../kit.js";

export const generic = {
  board(view, ctx) {
    const n = (view.seats || []).length || 1;
    const W = 1200, H = 420;
    const pic = svgRoot(W, H, {class: "board generic"});
    pic.append(rect(10, 10, W - 20, H - 20, {rx: 40, class: "felt"}),
               label(W / 2, 80, view.game_name || view.game, 40,
                     {"text-anchor": "middle", class: "ink", "font-weight": 700}));
    const w = (W - 80) / n;
    (view.seats || []).forEach((name, i) => {
      const x = 40 + i * w + w / 2;
      pic.append(svg("g", {"data-board-seat": i},
        rect(x - w / 2 + 10, 150, w - 20, 200, {rx: 18, class: "seat-area"}),
        label(x, 210, name, 28, {"text-anchor": "middle", class: "ink"}),
        view.scores_private  // kept to the end: words, not a zero
          ? label(x, 290, "score at the end", 24, {"text-anchor": "middle", class: "ink"})
          : label(x, 300, String((view.scores || [])[i] ?? ""), 64,
                  {"text-anchor": "middle", class: "ink", "font-weight": 800})));
    });
    return pic;
  },
  breakdown(view) {
    return {columns: [], rows: (view.seats || []).map(() => ({values: {}})),
            note: "This game's view does not break the points down yet."};
  },
};
