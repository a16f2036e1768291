// scorekeeper dashboard: the entry point webui/index.html imports (/static/app.js). The page
// itself is the ES modules of webui/app/, one per part (main.js lists them); this file only
// hands on start() so that the page's address for its script stays the same.
//
// The table view (a TV or a laptop facing the table, the public's view) and the seat view (a
// paired phone) are one page: no build step, no external asset. What is drawn per game lives in
// webui/games/<game-id>.js, found through the registry of webui/kit.js.

export {start} from "./app/main.js";
