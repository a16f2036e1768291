// Following the tables: the list, the chosen table, its readers and the backup line, loaded
// again every 2 s and after every action. One pass at a time; a call made while a pass is under
// way is answered by one more pass after it (never by a second pass running alongside).
import {say} from "./dom.js";
import {state} from "./state.js";
import {loadTables} from "./tables.js";
import {loadDetail} from "./detail.js";
import {loadReaders, loadBackup} from "./readers.js";

let refreshing = null;  // the refresh under way (a promise), if any
let again = false;  // asked for while a refresh was under way: one more pass follows it

/** Load and show what the tables are doing now; resolves once the page shows it. */
export function refreshAll() {
  if (!state.unlocked) return Promise.resolve();  // nothing is shown without the organiser token
  if (refreshing) { again = true; return refreshing; }  // resolves after that extra pass
  refreshing = (async () => {
    try {
      do {
        again = false;
        await loadTables();
        await Promise.all([loadDetail(), loadReaders(), loadBackup()]);
      } while (again && state.unlocked);
    } catch (e) {
      if (e.status !== 401) say(e.message, true);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}
