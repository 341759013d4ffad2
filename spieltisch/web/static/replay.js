// A replay: step through a finished game (or a record file dropped on the page) from any seat's
// side or a spectator's, and analyse one seat's decisions with the game's strongest agent.
import { api, drawLog, drawView, el } from "./common.js";
import { language, setupLanguage, t } from "./i18n.js";
import { SEAT_COLOURS, boardFor } from "./draw/index.js";
import { refreshRuleAtHand, ruleAtHand } from "./rules_at_hand.js";

const tableId = document.body.dataset.table;
const state = { at: 0, seat: -1, data: null, file: null, board: null, game: null, previous: null, analysis: null };
// A link may name the seat to see the game from (a profile's replay: the player's own seat),
// and "#analysis" to analyse that seat's decisions at once.
const askedSeat = Number.parseInt(new URLSearchParams(location.search).get("seat") ?? "", 10);
if (Number.isInteger(askedSeat) && askedSeat >= 0) state.seat = askedSeat;

async function step() {
  if (state.file) {
    const response = await fetch(`/api/replay?at=${state.at}&seat=${state.seat}&lang=${language()}`, {
      method: "POST", headers: { "Content-Type": "application/json" }, body: state.file });
    const data = await response.json();
    if (!response.ok) throw new Error(data.detail);
    return data;
  }
  return api(`/api/tables/${tableId}/replay?at=${state.at}&seat=${state.seat}&lang=${language()}`);
}

async function load() {
  try {
    const before = state.data;
    state.data = await step();
    // A board animates from the view before only when it is this side's, one move earlier: the
    // other seat's view, or a later point's, may hold cards this side cannot see here.
    const next = before && before.viewer === state.data.viewer && before.version === state.data.version - 1;
    state.previous = next ? before.view : null;
    if (state.data.game !== state.game) {
      state.game = state.data.game;
      state.board = await boardFor(state.game);
    }
    draw();
  } catch (error) {
    document.getElementById("controls").replaceChildren(el("p", { class: "error" }, error.message), dropZone());
  }
}

function go(at) {
  state.at = Math.max(0, Math.min(state.data?.last ?? 0, at));
  load();
}

function drawBoard(node, data) {
  if (!state.board) return node.replaceChildren(drawView(data.view));
  state.board.draw(node, {
    view: data.view, previous: state.previous, seat: data.viewer, names: data.names, toAct: null,
    status: "replay", legal: [], events: data.events, colours: SEAT_COLOURS, t, lang: language(),
    aids: true,  // a replay is for studying the game: every count may show
    play: () => {}, try: () => {},
  });
}

function dropZone() {
  const input = el("input", { type: "file", id: "record-file", accept: ".json,application/json",
    "aria-label": t("record file"), on: { change: (e) => openFile(e.target.files[0]) } });
  const zone = el("div", { class: "panel drop", id: "drop" }, t("Drop a record file here to replay it, or choose one:"), " ", input);
  zone.addEventListener("dragover", (e) => e.preventDefault());
  zone.addEventListener("drop", (e) => { e.preventDefault(); openFile(e.dataTransfer.files[0]); });
  return zone;
}

async function openFile(file) {
  if (!file) return;
  state.file = await file.text();
  state.at = 0;
  state.analysis = null;
  load();
}

function drawAnalysis() {
  const node = el("section", { class: "panel", id: "analysis", "aria-live": "polite" }, el("h2", {}, t("Analysis")));
  if (state.file) return node;
  const data = state.data;
  const choose = el("div", { class: "seat-row" }, data.names.map((name, seat) =>
    el("button", { type: "button", class: "analyse", "data-seat": seat, on: { click: () => analyse(seat) } }, t("Analyse {name}", { name }))));
  node.append(choose);
  const found = state.analysis;
  if (!found) return node;
  if (found.status === "running") node.append(el("p", { id: "analysis-progress" }, `${t("Analysing decisions:")} ${found.done} / ${found.total}`),
    el("progress", { max: found.total || 1, value: found.done }));
  if (found.status === "failed") node.append(el("p", { class: "error" }, found.error));
  if (found.decisions.length) {
    const rows = found.decisions.map((d) => el("tr", { class: d.costly ? "costly" : d.unsure ? "unsure" : "" },
      el("td", {}, el("button", { type: "button", class: "link", "aria-label": `${t("Go to move")} ${d.version}`,
        on: { click: () => go(d.version - 1) } }, String(d.version))),
      el("td", {}, decisionText(d)),
      el("td", {}, lossText(d)),
      el("td", {}, d.costly ? `⚠ ${t("costly")}` : d.unsure ? t("not sure") : "")));
    node.append(el("table", { class: "list", id: "analysis-table" },
      el("thead", {}, el("tr", {}, [t("Move"), t("Decision"), t("Lost"), t("Note")].map((h) => el("th", {}, h)))),
      el("tbody", {}, rows)));
  }
  if (found.status === "done") node.append(el("p", { id: "analysis-done" }, `${t("Analysis done")}: ${found.decisions.filter((d) => d.costly).length} ${t("costly decisions")}`));
  return node;
}

// A number as the page's language writes it (12,19 in German).
function decimal(value, digits = 2) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

// One decision in words: what was played, what the strongest bot would have played, and why.
function decisionText(d) {
  const labels = d.labels?.[language()] ?? { made: d.made, preferred: d.preferred };
  const percent = (x) => `${Math.round(100 * x)} %`;
  if (d.made === d.preferred) return t("Played {made}, as the strongest bot would have.", { made: labels.made });
  const said = t("Played {made}; the strongest bot would have played {preferred}.", labels);
  const why = d.unit === "win chance"
    ? t("It won {best} of the games simulated from here ({samples}), the move played {value}.",
      { best: percent(d.best), value: percent(d.value), samples: d.best_samples ?? "?" })
    : d.unit === "win and lead"
    ? t("It scored {best} over the games simulated from here ({samples}), half for winning and half for the lead; the move played {value}.",
      { best: percent(d.best), value: percent(d.value), samples: d.best_samples ?? "?" })
    : d.unit === "chance to win"
      ? t("It leaves a {best} chance to win the game by the exact odds, the move played {value}.",
        { best: percent(d.best), value: percent(d.value) })
      : t("It expects {best} points this turn, the move played {value}.", { best: decimal(d.best), value: decimal(d.value) });
  return `${said} ${why}`;
}

// The loss in its unit, with its rough 95 % interval when it rests on simulated games.
function lossText(d) {
  const show = (x) => (d.unit === "expected points this turn" ? decimal(x) : `${decimal(100 * x, 1)}\u00a0%`);
  if (!d.interval) return `${show(d.loss)} (${t("exact")})`;
  return `${show(d.loss)} (${show(Math.max(-1, d.interval[0]))} … ${show(Math.min(1, d.interval[1]))})`;
}

async function analyse(seat) {
  state.analysis = await api(`/api/tables/${tableId}/analysis/${seat}`, { method: "POST" });
  draw();
  while (state.analysis.status === "running") {
    await new Promise((resolve) => setTimeout(resolve, 700));
    state.analysis = await api(`/api/tables/${tableId}/analysis/${seat}`);
    draw();
  }
}

function draw() {
  const data = state.data;
  if (!data) return;
  const side = el("select", { id: "side", "aria-label": t("Seen from"), on: { change: (e) => { state.seat = Number(e.target.value); load(); } } },
    el("option", { value: -1, selected: state.seat === -1 }, t("spectator")),
    data.names.map((name, seat) => el("option", { value: seat, selected: state.seat === seat }, name)));
  const slider = el("input", { type: "range", min: 0, max: data.last, value: data.version, id: "at",
    "aria-label": t("move"), on: { change: (e) => go(Number(e.target.value)) } });
  document.getElementById("controls").replaceChildren(el("div", { class: "seat-row" },
    el("button", { type: "button", id: "first", on: { click: () => go(0) } }, t("Start")),
    el("button", { type: "button", id: "back", on: { click: () => go(state.at - 1) } }, t("Back")),
    el("button", { type: "button", id: "next", on: { click: () => go(state.at + 1) } }, t("Next")),
    el("button", { type: "button", id: "last", on: { click: () => go(data.last) } }, t("End")),
    slider, el("span", { id: "position" }, `${data.version} / ${data.last}`),
    el("label", { for: "side" }, t("Seen from")), side), dropZone(), drawAnalysis());
  drawBoard(document.getElementById("board"), data);
  const list = Object.assign(drawLog(data.events, [], state.board?.logLine ?? undefined), { tabIndex: 0 });
  list.setAttribute("aria-labelledby", "log-title");
  document.getElementById("log").replaceChildren(el("h2", { id: "log-title" }, t("What happened")), list);
}

document.addEventListener("keydown", (event) => {
  if (event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  if (event.key === "ArrowRight") go(state.at + 1);
  if (event.key === "ArrowLeft") go(state.at - 1);
});
setupLanguage(() => { draw(); refreshRuleAtHand(); if (state.data) load(); });  // the log is worded by the server
const analyseIfAsked = () => {
  if (location.hash === "#analysis" && state.data && state.seat >= 0 && !state.analysis) analyse(state.seat);
};
window.addEventListener("hashchange", analyseIfAsked);
ruleAtHand(document.getElementById("board"), document.getElementById("rule-at-hand"), () => state.game);
load().then(analyseIfAsked);
