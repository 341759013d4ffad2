// A lesson: the game's own board at each step of its lesson, the step's words beside it, the
// part of the board it means highlighted, and, at a step that asks for a move, a line that
// says to make it on the board (the move in the board's words, its notation as an aside), the
// board's control for it marked where the board has one, and the learner's moves (on the
// board or typed) answered by the server: taken, or answered with why not and what the step
// asks for. After the last step, a short real game against the gentlest bot with hints.
//
// The server keeps nothing per learner: the page names its step (kept in the link, #step=N,
// so a reload stays there) and, in the closing game, its seed and its moves.
import { api, drawLog, drawView, el } from "./common.js";
import { language, setupLanguage, t } from "./i18n.js";
import { SEAT_COLOURS, boardFor } from "./draw/index.js";
import { refreshRuleAtHand, ruleAtHand, ruleElement, ruleTexts } from "./rules_at_hand.js";

const game = document.body.dataset.game;
const state = {
  at: 0, data: null, previous: null, board: null, answer: null, pending: false,
  finale: null,  // the closing game's answer: {seed, moves, view, legal, hint, result, ...}
  ticket: 0,     // the newest request: an answer to an older one is dropped
  relanguage: false,  // the language changed while a closing-game move was on its way
  focusPanel: false,  // the learner was working in the step's panel: keep their focus there
};

// Where the keyboard was before the panel is drawn again (the panel is rebuilt whole).
function keepFocus() {
  state.focusPanel = document.getElementById("lesson")?.contains(document.activeElement) ?? false;
}

// Back in the panel after it is drawn: the move box where there is one, else its first button.
function restoreFocus() {
  if (!state.focusPanel) return;
  const node = document.getElementById("lesson");
  (node.querySelector("#lesson-move") ?? node.querySelector("button:not([disabled])"))?.focus();
}

function fromLink() {
  const at = Number.parseInt(new URLSearchParams(location.hash.slice(1)).get("step") ?? "", 10);
  return Number.isInteger(at) && at >= 0 ? at : 0;
}

// Backticked notation in a step's words as code, the rest as text. At a step that asks for a
// move, a backticked move is also a button that puts it into the move box.
function words(text, fill = false) {
  return text.split(/(`[^`]*`)/).filter(Boolean).map((part) => {
    if (!(part.startsWith("`") && part.endsWith("`"))) return part;
    const code = el("code", {}, part.slice(1, -1));
    if (!fill) return code;
    return el("button", { type: "button", class: "link move-code", title: t("Put this move in the box"),
      on: { click: () => { const box = document.getElementById("lesson-move"); box.value = part.slice(1, -1); box.focus(); } } }, code);
  });
}

async function load(at) {
  const ticket = ++state.ticket;
  keepFocus();
  try {
    const data = await api(`/api/lessons/${game}?at=${at}&lang=${language()}`);
    if (ticket !== state.ticket) return;
    state.previous = state.data?.view ?? null;
    state.data = data;
    state.at = data.at;
    history.replaceState(null, "", `#step=${state.at}`);
    draw();
  } catch (error) {
    if (ticket !== state.ticket) return;
    if (at !== 0 && !state.data) return load(0);  // a link to a step the lesson has not: start
    const retry = el("button", { type: "button", id: "lesson-retry", on: { click: () => load(at) } }, t("Try again"));
    document.getElementById("lesson").replaceChildren(el("p", { class: "error", role: "alert" }, error.message), retry);
  }
}

async function tryMove(text) {
  if (state.pending) return;
  if (state.finale) return finaleMove(text);
  const step = state.data?.step;
  if (!step || step.kind !== "move") return;
  state.pending = true;
  const at = state.at;
  try {
    const answer = await api(`/api/lessons/${game}/try`, { method: "POST", body: { at, move: text, lang: language() } });
    state.pending = false;
    if (state.at !== at) return;  // the learner went on meanwhile
    state.answer = answer;
    if (answer.accepted) return load(answer.at);
  } catch (error) {
    state.pending = false;
    state.answer = { verdict: "refused", message: error.message };
  }
  keepFocus();
  drawPanel();
}

function boardTable(data, legal, status) {
  return {
    view: data.view, previous: state.previous, seat: data.seat, names: data.names, toAct: data.to_act,
    status, legal, events: data.events, colours: SEAT_COLOURS, t, lang: language(),
    aids: false,  // as a table shows it by default (a lesson step says what memory aids add)
    play: (move) => tryMove(move.text), try: (text) => tryMove(text),
  };
}

function drawBoard() {
  const node = document.getElementById("board");
  const data = state.finale ?? state.data;
  if (!data) return;
  const status = state.finale ? (data.result ? "finished" : "playing") : "playing";
  try {
    if (!state.board) node.replaceChildren(drawView(data.view));
    else state.board.draw(node, boardTable(data, data.legal, status));
  } catch (error) {
    console.error("the board failed; showing the view's fields instead:", error);
    node.replaceChildren(drawView(data.view));
  }
  highlight(node);
}

// The part of the board the step means: its elements marked data-point (the whole board when
// the board has no such part on show); and, at a step that asks for a move, the board's
// controls that make it (those whose data-move is its notation), marked as well.
function highlight(node) {
  for (const old of node.querySelectorAll(".lesson-point, .lesson-target")) old.classList.remove("lesson-point", "lesson-target");
  node.classList.remove("lesson-point-all");
  const step = state.finale ? null : state.data?.step;
  if (!step?.point) return;
  const parts = [...node.querySelectorAll(`[data-point="${CSS.escape(step.point)}"]`)];
  if (!parts.length) node.classList.add("lesson-point-all");
  for (const part of parts) part.classList.add("lesson-point");
  if (step.kind !== "move" || !step.expect_move) return;
  for (const control of node.querySelectorAll(`[data-move="${CSS.escape(step.expect_move)}"]`)) {
    control.classList.add("lesson-point", "lesson-target");
  }
}

// A board that draws itself again (a die picked up, a card chosen) keeps the step's marks.
new MutationObserver(() => highlight(document.getElementById("board")))
  .observe(document.getElementById("board"), { childList: true });

// At a step that asks for a move: make it on the board, said in the board's own words for the
// move where they are more than its notation, with the notation aside (a click on it puts the
// move in the box, for those who would rather type).
function howLine(step) {
  const move = `\`${step.expect}\``;
  const label = step.expect_label;
  const text = label && label !== step.expect && label !== step.expect_move
    ? t("Do it on the board: {what} (in notation: {move}).", { what: label, move })
    : t("Do it on the board (in notation: {move}).", { move });
  return el("p", { id: "lesson-how" }, words(text, true));  // its code styled as the step's (table.css)
}

function moveForm(id) {
  const input = el("input", { type: "text", id: "lesson-move", maxlength: "200", autocomplete: "off",
    autocapitalize: "off", spellcheck: "false", enterkeyhint: "send", "aria-label": t("Move in notation"),
    placeholder: t("Move in notation") });
  return el("form", { class: "seat-row", id, on: { submit: (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) tryMove(text);
  } } }, input, el("button", { type: "submit", id: "lesson-try" }, t("Play")));
}

function answerLine() {
  const answer = state.answer;
  if (!answer) return el("p", { id: "lesson-answer", role: "status" });
  const kind = answer.verdict === "refused" ? "error" : answer.verdict === "other" ? "warn" : "ok";
  return el("p", { id: "lesson-answer", class: kind, role: "status", "data-verdict": answer.verdict }, words(answer.message));
}

async function taught(step) {
  if (!step.teaches.length) return null;
  const rules = await ruleTexts(game);
  const items = step.teaches.filter((id) => rules[id]).map((id) => el("li", {}, ruleElement(id, rules[id])));
  return el("details", { id: "lesson-rules" }, el("summary", {}, t("The rules of this step")), el("ul", { class: "rule-list" }, items));
}

async function drawPanel() {
  const node = document.getElementById("lesson");
  if (state.finale) return drawFinalePanel(node);
  const data = state.data;
  const step = data?.step;
  if (!data) return;
  const back = el("button", { type: "button", id: "lesson-back", disabled: state.at === 0,
    on: { click: () => { state.answer = null; load(state.at - 1); } } }, t("Back"));
  if (!step) {
    node.replaceChildren(el("h2", {}, t("Your first game")), el("p", { id: "lesson-say" }, words(data.finale.say)),
      state.answer ? answerLine() : "",
      el("div", { class: "seat-row" }, back,
        el("button", { type: "button", id: "finale-start", on: { click: startFinale } }, t("Play the game"))));
    node.dataset.at = String(state.at);  // where the learner is, once it is drawn
    document.getElementById("finale-start")?.focus();
    return;
  }
  const heading = el("h2", { id: "lesson-step" }, t("Step {n} of {total}", { n: step.number, total: data.steps }));
  const progress = el("progress", { max: data.steps, value: step.number - 1, "aria-label": t("Lesson progress") });
  const say = el("p", { id: "lesson-say", "data-kind": step.kind }, words(step.say, step.kind === "move"));
  const next = el("button", { type: "button", id: "lesson-next", on: { click: () => { state.answer = null; load(state.at + 1); } } }, t("Next"));
  const rules = await taught(step);
  if (state.data !== data || state.finale) return;  // a newer step (or the game) came meanwhile
  const act = step.kind === "move" ? [howLine(step), moveForm("lesson-form"), answerLine()] : [];
  node.replaceChildren(...[heading, progress, say, ...act,
    el("div", { class: "seat-row" }, back, step.kind === "move" ? null : next), rules].filter(Boolean));
  node.dataset.at = String(state.at);
  if (step.kind !== "move") next.focus();
  else restoreFocus();
}

// --- the closing game ------------------------------------------------------------------------

async function startFinale() {
  if (state.pending) return;  // a second click while the first game is being dealt
  const seed = Math.floor(Math.random() * 2 ** 31);
  state.previous = null;
  state.answer = null;
  await finaleCall({ seed, moves: [], move: "" });
}

async function finaleMove(text) {
  const finale = state.finale;
  if (!finale || finale.result) return;
  await finaleCall({ seed: finale.seed, moves: finale.moves, move: text });
}

// One answer of the closing game (its seed, the learner's moves so far, the move tried now).
// If the game cannot go on (the first deal failed, or a restarted server deals anew), the
// learner is told and may start another.
async function finaleCall({ seed, moves, move }) {
  const ticket = ++state.ticket;
  keepFocus();
  state.pending = true;
  drawFinalePanel(document.getElementById("lesson"));
  try {
    const data = await api(`/api/lessons/${game}/finale`, { method: "POST",
      body: { seed, moves, move, lang: language(), hint: true } });
    if (ticket !== state.ticket) return;
    state.previous = state.finale?.view ?? null;
    state.finale = data;
  } catch (error) {
    if (ticket !== state.ticket) return;
    if (state.finale?.view) state.finale = { ...state.finale, rejected: error.message, broken: true };
    else {
      state.finale = null;  // no game to show: back to the lesson's end, with why
      state.answer = { verdict: "refused", message: error.message };
    }
  } finally {
    if (ticket === state.ticket) state.pending = false;
  }
  if (state.relanguage && state.finale) {
    state.relanguage = false;
    return finaleCall({ seed: state.finale.seed, moves: state.finale.moves, move: "" });
  }
  draw();
  restoreFocus();
}

function drawFinalePanel(node) {
  const data = state.finale;
  if (!data) return;
  node.dataset.at = "finale";
  node.dataset.moves = String(data.moves?.length ?? 0);
  const parts = [el("h2", { id: "finale-title" }, t("Your first game")),
    el("p", {}, t("Against the gentlest bot ({level}), with hints.", { level: data.bot_name ? t(data.bot_name) : data.bot ?? "" }))];
  if (state.pending) parts.push(el("p", { role: "status" }, t("Thinking…")));
  if (data.rejected) parts.push(el("p", { class: "error", role: "alert", id: "finale-rejected" }, data.rejected));
  if (data.hint && !data.result) parts.push(el("p", { class: "hint", id: "finale-hint" }, `${t("Hint")}: `, data.hint));
  if (data.legal?.length && !data.result) {
    parts.push(moveForm("finale-form"), el("details", { class: "move-list", id: "finale-moves" },
      el("summary", {}, t("All moves")),
      el("div", { class: "moves" }, data.legal.map((move) => el("button", { type: "button", class: "move",
        "data-text": move.text, disabled: state.pending, on: { click: () => tryMove(move.text) } }, move.label)))));
  }
  if (data.broken) {
    parts.push(el("button", { type: "button", id: "finale-again", on: { click: startFinale } }, t("Play again")));
  } else if (data.result) {
    parts.push(el("p", { id: "finale-result", role: "status" }, data.result.why ?? t("Game over")),
      el("div", { class: "seat-row" },
        el("button", { type: "button", id: "finale-again", on: { click: startFinale } }, t("Play again")),
        el("a", { href: "/", id: "finale-lobby" }, t("Play at a table"))));
  }
  node.replaceChildren(...parts);
}

function drawLogPanel() {
  const data = state.finale ?? state.data;
  if (!data) return;
  const list = Object.assign(drawLog(data.events, [], state.board?.logLine ?? undefined), { tabIndex: 0 });
  list.setAttribute("aria-labelledby", "log-title");
  document.getElementById("log").replaceChildren(el("h2", { id: "log-title" }, t("What happened")), list);
}

function draw() {
  drawBoard();
  drawPanel();
  drawLogPanel();
}

window.addEventListener("hashchange", () => {
  if (!state.finale && fromLink() !== state.at) load(fromLink());
});
// A new language: the step (or the closing game) asked for again in it; an answer in the old
// language is dropped, and so is the rule at hand's (shown again in the new one).
setupLanguage(() => {
  state.answer = null;
  document.getElementById("lesson-answer")?.replaceWith(answerLine());  // at once, not when the step comes again
  refreshRuleAtHand();
  if (!state.finale) return load(state.at);
  if (state.pending) state.relanguage = true;  // after the move on its way, not instead of it
  else finaleCall({ seed: state.finale.seed, moves: state.finale.moves, move: "" });
});
ruleAtHand(document.getElementById("board"), document.getElementById("rule-at-hand"), () => game);
boardFor(game).then((board) => {
  state.board = board;
  return load(fromLink());
});
