// The console's actions (console.html): seating, the timer, players (register, find a
// returning player, check in, sign a player's phones out, drop with a reason, bring back),
// judges' tokens and a game's result set by a judge (with a reason) or cleared. Each action's
// answer is the console's view, shown at once; refusals are shown in the hub's words.
import {$, el} from "./common.js";

let c = null;  // {api, say, showView, refresh, ctx} from console.js

/** Run an action: POST `path` with `body`; say `done` (or the refusal) and show the answer. */
async function act(path, body, done, button) {
  if (button) button.disabled = true;
  let answer = null;
  try {
    answer = await c.api("POST", path, body);
  } catch (e) {
    c.say(e.message, true);
  }
  // enabled again before the answer is shown: the view may disable it (seat the next round)
  if (button) button.disabled = false;
  if (answer) {
    c.showView(answer);
    c.say(done);
  }
  return answer;
}

/** The buttons of one player's row (the organiser's console). */
export function playerActions(p) {
  const path = `/api/event/players/${encodeURIComponent(p.id)}`;
  const cell = el("div", {class: "row"});
  if (p.dropped) {
    cell.append(el("button", {type: "button", class: "small",
      onclick: (ev) => act(`${path}/return`, undefined, `${p.name} is back in the event.`,
                           ev.currentTarget)}, "Bring back"));
    return cell;
  }
  if (!p.checked_in) {
    cell.append(el("button", {type: "button", class: "small",
      onclick: (ev) => act(`${path}/check-in`, undefined, `${p.name} is checked in.`,
                           ev.currentTarget)}, "Check in"));
  }
  if (p.checked_in) {  // a lost or lent phone: the player checks in again with their code
    cell.append(el("button", {type: "button", class: "small",
      "aria-label": `Sign out ${p.name}'s phones`, title: `Sign out ${p.name}'s phones`,
      onclick: (ev) => act(`${path}/forget-phones`, undefined,
                           `${p.name}'s phones are signed out: they check in again with ` +
                           "their code.", ev.currentTarget)}, "Sign out"));
  }
  cell.append(el("button", {type: "button", class: "small",
    onclick: () => askDrop(cell, p, path)}, "Drop…"));
  return cell;
}

function askDrop(cell, p, path) {
  const reason = el("input", {"aria-label": `Why ${p.name} leaves`, maxlength: 200,
                              placeholder: "reason (optional)"});
  const form = el("form", {class: "row"}, reason,
    el("button", {type: "submit", class: "small"}, `Drop ${p.name}`),
    el("button", {type: "button", class: "small", onclick: () => c.refresh()}, "Cancel"));
  form.onsubmit = (ev) => {
    ev.preventDefault();
    act(`${path}/drop`, {reason: reason.value.trim()}, `${p.name} has left the event.`);
  };
  cell.replaceChildren(form);
  reason.focus();
}

// -- a game's result ------------------------------------------------------------------------

/** Fill the override form's list of games (every round's) from results.json. */
export function showGames(games, view) {
  const label = (t) => (/^table/i.test(t) ? t : `Table ${t}`);
  c.ctx.games = games.map((g) => ({...g, table_label: label(g.table)}));
  const select = $("override-game");
  const chosen = select.value;
  const key = JSON.stringify(games.map((g) => [g.game, g.final, g.judge]));
  if (select.dataset.shown !== key) {
    select.dataset.shown = key;
    select.replaceChildren(el("option", {value: ""}, "choose a game"),
      ...c.ctx.games.slice().reverse().map((g) => el("option", {value: g.game},
        `Round ${g.round}, ${g.table_label}: ${g.players.map((p) => p.name).join(", ")}` +
        (g.judge ? " (set by a judge)" : g.final ? " (final)" : ""))));
    select.value = chosen;
    showPlaces(view);  // only when the games changed: never over places being typed
  }
}

function showPlaces(view) {
  const game = (c.ctx.games || []).find((g) => g.game === $("override-game").value);
  $("override-clear").hidden = !(game && game.judge);
  $("override-save").disabled = !game;
  if (!game) {
    $("override-places").replaceChildren(el("tr", null, el("td", {colspan: 3, class: "muted"},
      "Choose a game to set its places and scores.")));
    return;
  }
  // the table's own scores when the result is not final yet (the pod of this round)
  const pod = ((view || c.ctx.view || {}).pods || []).find((p) => p.game === game.game);
  const live = pod ? Object.fromEntries(pod.seats.map((s) => [s.player, s.score])) : {};
  $("override-places").replaceChildren(...game.players.map((p, i) => el("tr",
    {dataset: {player: p.player}},
    el("td", null, p.name),
    el("td", null, el("input", {type: "number", min: 1, max: game.players.length, required: true,
      class: "place", "aria-label": `${p.name}'s place`, value: p.rank ?? i + 1})),
    el("td", null, el("input", {type: "number", required: true, class: "score",
      "aria-label": `${p.name}'s score`, value: p.score ?? live[p.player] ?? 0})))));
}

async function saveOverride(ev) {
  ev.preventDefault();
  const game = $("override-game").value;
  const places = [...$("override-places").querySelectorAll("tr[data-player]")].map((tr) => [
    tr.dataset.player, Number(tr.querySelector(".place").value),
    Number(tr.querySelector(".score").value)]);
  const reason = $("override-reason").value.trim();
  if (!reason) { c.say("Give the reason for the audit first.", true); return; }
  if (await act(`/api/event/games/${encodeURIComponent(game)}/override`, {places, reason},
                "The result is set; the standings are recomputed.", $("override-save"))) {
    $("override-reason").value = "";
    await c.refresh();
  }
}

async function clearOverride() {
  const game = $("override-game").value;
  const reason = $("override-reason").value.trim();
  if (!reason) { c.say("Give the reason for clearing it first.", true); return; }
  if (await act(`/api/event/games/${encodeURIComponent(game)}/override/clear`, {reason},
                "The override is cleared: the table's own result counts again.",
                $("override-clear"))) {
    $("override-reason").value = "";
    await c.refresh();
  }
}

// -- the rest -------------------------------------------------------------------------------

async function findPlayers(ev) {
  ev.preventDefault();
  const search = $("find-name").value.trim();
  try {
    const found = await c.api("GET", `/api/players?search=${encodeURIComponent(search)}`);
    const inEvent = new Set(c.ctx.view.players_list.map((p) => p.id));
    const out = found.filter((p) => !inEvent.has(p.id));
    $("found").replaceChildren(...(out.length ? out.map((p) => el("li", {class: "row"},
      `${p.name} (${p.id})`, el("button", {type: "button", class: "small",
        onclick: (e) => act(`/api/event/players/${encodeURIComponent(p.id)}/enter`, undefined,
                            `${p.name} is entered in this event.`, e.currentTarget)
          .then(() => e.target.closest("li")?.remove())}, "Enter")))
      : [el("li", {class: "muted"}, "Nobody else by that name: register them above.")]));
  } catch (e) { c.say(e.message, true); }
}

export function initForms(deps) {
  c = deps;
  $("seat-next").onclick = (ev) => act("/api/event/rounds", undefined,
                                       "The round is seated: the tables have their games.",
                                       ev.currentTarget);
  $("reseat").onclick = (ev) => act("/api/event/rounds/reseat", undefined,
                                    "The round is seated again.", ev.currentTarget);
  $("close-round").onclick = (ev) => act("/api/event/rounds/close", undefined,
                                         "The round is closed.", ev.currentTarget);
  $("timer-form").onsubmit = (ev) => {
    ev.preventDefault();
    const minutes = Number($("minutes").value);
    act("/api/event/timer", {minutes}, `The timer runs: ${minutes} minutes.`, $("timer-start"));
  };
  $("timer-stop").onclick = (ev) => act("/api/event/timer/stop", undefined,
                                        "The timer is stopped.", ev.currentTarget);
  $("register-form").onsubmit = async (ev) => {
    ev.preventDefault();
    const name = $("new-name").value.trim();
    if (!name) return;
    try {
      const p = await c.api("POST", "/api/event/players",
                            {name, check_in: $("new-checked").checked});
      $("new-name").value = "";
      c.say(`${p.name} is registered. Their badge code: ${p.player}`);
      await c.refresh();
    } catch (e) { c.say(e.message, true); }
  };
  $("find-form").onsubmit = findPlayers;
  $("judge-form").onsubmit = async (ev) => {
    ev.preventDefault();
    try {
      const j = await c.api("POST", "/api/event/judges", {name: $("judge-name").value.trim()});
      $("judge-name").value = "";
      const box = $("judge-token");
      box.hidden = false;
      box.textContent = `${j.name}'s token (shown once; give it to them): ${j.token}`;
    } catch (e) { c.say(e.message, true); }
  };
  $("override-game").onchange = () => showPlaces();
  $("override-form").onsubmit = saveOverride;
  $("override-clear").onclick = clearOverride;
}
