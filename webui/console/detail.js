// The chosen table (#detail): its seats and scores, the prompts it waits for (the organiser may
// answer for any seat), a phone's pairing code, the spectator delay, fixing a misread, and the
// recent plays in words.
import {registry, SVG_NS, plural} from "../kit.js";
import {$, el, badge, say, humanize, ruleLink, plainText} from "./dom.js";
import {update} from "./morph.js";
import {api} from "./api.js";
import {verdictText} from "./dialogs.js";
import {state, tableLabel} from "./state.js";
import {correct} from "./tables.js";
import {refreshAll} from "./refresh.js";

/** Load and show the chosen table (or say to choose one). */
export async function loadDetail() {
  const selected = state.selected;
  if (!selected) {
    $("detail-title").textContent = "Table";
    update($("detail-body"), el("p", {class: "muted"}, "Choose a table in the list."));
    return;
  }
  const view = await api("GET", `/api/tables/${encodeURIComponent(selected)}/organiser`);
  renderDetail(view, await gameView(view.game));
}

async function setDelay(id) {
  const seconds = Number($("delay-seconds").value || 0);
  const path = `/api/tables/${encodeURIComponent(id)}/spectator-delay`;
  try {
    const done = await api("POST", path, {seconds});
    say(done.spectator_delay
      ? `${tableLabel(id)}: the public view is now ${done.spectator_delay} s behind`
      : `${tableLabel(id)}: the public view is live again`);
  } catch (e) { say(e.message, true); }
  $("delay-seconds").blur();  // it shows the server's value again
  refreshAll();
}

// The game's own view module (webui/games/<id>.js, the one the table page draws with) gives
// each prompt's answers in words ("+1 ⚔ swords / −1 ◉ coins", "pass: nobody claims"); loaded
// once per game. null: the game has none (the answer is then shown as well as can be).
const gameViews = {};
async function gameView(game) {
  if (!game) return null;
  if (!(game in gameViews)) {
    gameViews[game] = (async () => {
      try {
        await import(`../games/${encodeURIComponent(game)}.js`);
        return registry[game] || null;
      } catch (e) { return null; }
    })();
  }
  return gameViews[game];
}

// An answer's value and words: {value, label} from the server, or the game view's words for
// it, or the value with its underscores as spaces ("end_turn" -> "end turn").
function answerWords(gv, view, p, option) {
  if (option !== null && typeof option === "object") {
    return [option.value, option.label || humanize(option.value)];
  }
  const shown = gv && gv.answerLabel ? gv.answerLabel(p, option, view) : option;
  return [option, typeof shown === "string" ? humanize(shown) : shown];
}

// One line of the feed: what happened in words (never the input syntax); a refusal with its rule
// linked to the rules reference, its reason and what to do.
function feedLine(game, e) {
  const r = e.rejection || {};
  return el("li", {"data-key": "seq" + e.seq},
    el("span", {class: "seq"}, "#" + e.seq),
    e.accepted ? e.words || (e.events || []).join(" · ") || "accepted" : null,
    e.accepted && e.put_back
      ? el("span", {class: "put-back"}, " — at the table: ", e.put_back) : null,
    e.accepted ? null
      : el("span", {class: "refused"}, ruleLink(game, r.rule || null), r.rule ? "" : "refused: ",
           e.words ? `${e.words}: ` : "", r.reason || "", r.hint ? ` → ${r.hint}` : ""));
}

// The prompts the table waits for, each with a button per answer. An ended table waits for
// nobody: no answer buttons.
function promptRows(view, gv) {
  if (view.status === "ended") return [];
  return (view.pending || []).map((p) => el("div", {class: "row",
                                                    "data-key": `prompt:${p.id}:${p.seat}`},
    el("span", {}, p.question), ...(p.options || []).map((option) => {
      const [value, words] = answerWords(gv, view, p, option);
      return el("button", {type: "button", "data-key": `answer:${p.id}:${p.seat}:${value}`,
                           "data-answer": value,
                           onclick: () => answer(view.id, p, value, plainText(words))}, words);
    })));
}

function renderDetail(view, gv) {
  const id = view.id;
  const ended = view.status === "ended";
  const label = view.name || id;
  update($("detail-title"), `${label} `, badge(view.status), view.over ? " game over" : "");
  const seatRows = view.seats.map((name, i) => el("tr", {},
    el("td", {}, String(i + 1)), el("td", {}, name),
    el("td", {class: "score"},
       view.scores_private ? "at the end" : (view.scores || [])[i] ?? "")));
  const prompts = promptRows(view, gv);
  const feed = (view.feed || []).slice().reverse().slice(0, 15).map((e) => feedLine(view.game, e));
  // The box takes an input in its one-line form: the table's last accepted one is an example
  // in this game's own terms.
  const example = (view.feed || []).filter((e) => e.accepted && e.input).map((e) => e.input).pop();
  const notices = (view.notices || []).map((n) => el("div", {class: "notice"},
    ruleLink(view.game, n.rule), n.text));
  const counts = `${view.accepted} accepted of ${view.inputs} inputs`;
  update($("detail-body"),
    el("div", {class: "muted small"},
       `${view.game_name} · table ${id} · ${counts} · ${view.watchers ?? 0} watching · `,
       el("a", {href: "/#" + encodeURIComponent(id), "data-key": "live-link"},
          "open the live page")),
    chosenData(view),
    ended ? el("div", {class: "waiting ended", id: "detail-waiting"},
               view.over ? "The game is over." : "The table has ended.")
          : el("div", {class: "waiting", id: "detail-waiting"}, view.waiting_for || ""),
    notices,
    pairingBox(id),
    el("table", {class: "list"},
       el("thead", {}, el("tr", {}, ["Seat", "Player", "Score"].map((h) => el("th", {}, h)))),
       el("tbody", {}, seatRows)),
    el("div", {class: "muted small"},
       "Pair or unpair a player's phone with the buttons by each name in the table list."),
    prompts.length
      ? [el("h3", {}, "Waiting for answers (you may answer for any seat)"), prompts] : null,
    el("h3", {}, "Spectator delay"),
    el("div", {class: "row"},
      el("label", {for: "delay-seconds"}, "Public view behind by"),
      el("input", {id: "delay-seconds", "data-key": "delay-seconds", type: "number", min: "0",
                   max: "600", step: "1", value: String(view.spectator_delay || 0),
                   style: "width: 5rem"}),
      el("span", {}, "seconds"),
      el("button", {type: "button", id: "delay-set", "data-key": "delay-set",
                    onclick: () => setDelay(id)}, "Set"),
      el("span", {class: "muted small"}, "For streams: the TV and the public see the table this " +
         "much later; phones and this console stay live. 0 = off.")),
    el("h3", {}, "Fix a misread"),
    el("div", {class: "row"},
      el("input", {id: "fix-input", "data-key": "fix-input", "data-keep": true,
                   placeholder: example ? `e.g. ${example}` : "one input, as the log writes it",
                   spellcheck: "false", "aria-label": "an input in its one-line form", size: 34}),
      el("button", {type: "button", id: "fix-feed", "data-key": "fix-feed",
                    onclick: () => feed_(id)}, "Feed it"),
      el("button", {type: "button", id: "fix-correct", "data-key": "fix-correct",
                    onclick: () => correct_(id)}, "Correct the last play…")),
    el("h3", {id: "plays-title"}, "Recent plays"),
    // A scroll box: focusable so that it scrolls from the keyboard, named by its heading.
    el("ol", {class: "feed", id: "detail-feed", tabindex: "0", "aria-labelledby": "plays-title",
              "data-key": "feed"},
       feed.length ? feed : el("li", {class: "muted"}, "nothing yet")));
}

// The game data the table was created with (a board profile, a card pack): each option that a
// data kind selects, by its option's label, and SAMPLE when it is made-up data.
function chosenData(view) {
  const st = view.state || {};
  const game = state.games.find((g) => g.id === view.game);
  return state.dataKinds.filter((k) => k.game === view.game && k.option).map((k) => {
    const chosen = st[k.option] ?? (st.options || {})[k.option];
    if (!chosen) return null;
    const name = typeof chosen === "object" ? chosen.name : String(chosen);
    const sample = typeof chosen === "object" && chosen.sample;
    const option = game && game.options.find((o) => o.name === k.option);
    // The kind's own word for what it ships: "sample" (made up) or e.g. "assumed" (a guess).
    const word = k.sample_word || "sample";
    const said = word === "sample" ? " — a made-up SAMPLE, not taken from your own copy"
      : ` — ${word.toUpperCase()}: ${k.sample_note || "not read from your own copy"}`;
    return el("div", {class: sample ? "sample" : "muted", "data-chosen-data": k.kind},
      `${option ? option.label : k.title}: ${name}`, sample ? said : "");
  });
}

function pairingBox(id) {
  const pairing = state.pairing;
  if (!pairing || pairing.table !== id) return null;
  const left = Math.max(0, Math.round((pairing.expires - Date.now()) / 60000));
  // Shown as an image (a data: URL), never inserted as markup; an image needs the SVG namespace.
  let svg = pairing.qr_svg || "";
  if (svg && !svg.includes("xmlns=")) svg = svg.replace("<svg", `<svg xmlns="${SVG_NS}"`);
  const qr = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  return el("div", {class: "pairing", id: "pairing", "data-key": "pairing"},
    pairing.qr_svg ? el("img", {src: qr, alt: "QR code of the pairing link"}) : null,
    el("div", {},
      el("div", {}, `Seat ${pairing.seat + 1} (${pairing.seat_name}): open on the phone`),
      pairing.url ? el("div", {}, el("a", {href: pairing.url}, pairing.url)) : null,
      // No address a phone can open (the server listens on this machine only): how to serve
      // on the network instead of a QR code nobody can use.
      pairing.hint ? el("div", {class: "notice", id: "pair-hint"}, pairing.hint) : null,
      el("div", {}, "or type the code: ",
         el("span", {class: "code", id: "pair-code"}, pairing.code)),
      el("div", {class: "muted small"}, `single use, about ${left} min left`),
      el("button", {type: "button", "data-key": "pairing-done",
                    onclick: () => { state.pairing = null; loadDetail(); }}, "Done")));
}

export async function pair(id, seat) {
  try {
    const got = await api("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/pair`);
    state.pairing = {...got, expires: Date.now() + got.expires_in * 1000};
    state.selected = id;  // the code and its QR show with the table, on the right
    await refreshAll();
    if ($("pairing")) $("pairing").scrollIntoView({block: "nearest"});
  } catch (e) { say(e.message, true); }
}

export async function unpair(id, seat, name, button) {
  if (button) button.disabled = true;
  const label = tableLabel(id);
  try {
    const got = await api("DELETE", `/api/tables/${encodeURIComponent(id)}/seats/${seat}/tokens`);
    const codes = got.codes_revoked ? ` and ${plural(got.codes_revoked, "unused pairing code")}` : "";
    say(got.revoked
      ? `${label}: ${name}'s phone unpaired (${plural(got.revoked, "token")}${codes} withdrawn); ` +
        "pair a new one when ready"
      : `${label}: ${name} had no paired phone` + (codes ? `; ${codes.slice(5)} withdrawn` : ""));
    const p = state.pairing;
    if (p && p.table === id && p.seat === seat) state.pairing = null;
  } catch (e) {
    say(`${label}: ${e.message}`, e.status !== 404);  // 404: no phone was paired with the seat
  } finally {
    if (button) button.disabled = false;
  }
}

async function answer(id, prompt, value, words) {
  try {
    const done = await api("POST", `/api/tables/${encodeURIComponent(id)}/decisions`,
                           {prompt: prompt.id, answer: value, seat: prompt.seat});
    say([`${tableLabel(id)}: “${words}” for ${prompt.question}: `, verdictText(done, id)],
        !done.accepted);
  } catch (e) { say(e.message, true); }
  refreshAll();
}

async function feed_(id) {
  const text = $("fix-input").value.trim();
  if (!text) {
    say("Type the input first, in the form the log writes it (the box shows an example).", true);
    return;
  }
  try {
    const done = await api("POST", `/api/tables/${encodeURIComponent(id)}/inputs`, {input: text});
    say([`${tableLabel(id)}: ${text}: `, verdictText(done, id)], !done.accepted);
    if (done.accepted) $("fix-input").value = "";
  } catch (e) { say(e.message, true); }
  refreshAll();
}

async function correct_(id) {
  const text = $("fix-input").value.trim();
  if (!text) {
    say("Type the input that should replace the last one, in the form the log writes it.", true);
    return;
  }
  try {
    if (await correct(id, text)) $("fix-input").value = "";
  } catch (e) { say(e.message, true); }
  refreshAll();
}
