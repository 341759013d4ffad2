// Auf die Eier on the table: the nine dice, the score sheet with every chicken ladder, and how
// the last turn scored, drawn from the viewer's view (and the log's notation) only.
//
// The dice lie in three rows: the rotten eggs (forced aside), the dice set aside, and the cup
// of dice to throw again. At the viewer's decision a click on a die moves it between the rows;
// "Throw" sends the matching `reroll` and "Stop" sends `stop`. A rotten egg is never a control
// (it can never be picked up): it is a picture named "forced aside", and a click on it shows
// its rule at hand. The keyboard focus stays on the dice (or Throw) from draw to draw of a turn.
// The log's move texts tell which dice the last throw brought and what the rotten eggs'
// re-throw showed; the view's `last` gives the turn's score, broken down.
import { N_, Nn_, translated } from "../i18n.js";
const CSS = "/static/draw/auf_die_eier.css";
const SVG = "http://www.w3.org/2000/svg";
const LETTERS = "WCRPFH";
const [WHOLE, CRACKED, ROTTEN, POT, PAN, CHICKEN] = [0, 1, 2, 3, 4, 5];
const LADDER = [1, 2, 3, 4, 5, 4, 3, 2, 1];
const DICE = 9;
const THROWS = 3;
// Each part's rule on the rules page (data-rule: a click shows it, see rules_at_hand.js), and
// each face's.
const FACE_RULES = ["eier.face-whole", "eier.face-cracked", "eier.face-rotten", "eier.face-pot", "eier.face-pan", "eier.face-chicken"];
const LINE_RULES = ["eier.fried", "eier.breakfast", "eier.chickens", "eier.spoilers"];

// The board's words: English msgids of the catalogs (spieltisch/locale), in the page's
// language through translated().
const TEXTS = {
  faces: [N_("whole egg"), N_("cracked egg"), N_("rotten egg"), N_("pot"), N_("frying pan"), N_("chicken")],
  sheet: N_("Score sheet"),
  ladder: N_("Chicken ladder"),
  shared: N_("shared ladder"),
  points: N_("points"),
  player: N_("Player"),
  goal: N_("goal"),
  you: N_("you"),
  turnOf: N_("Turn of"),
  throwOf: N_("Throw {n} of 3"),
  noThrow: N_("not thrown yet"),
  rotten: N_("Rotten eggs: stay aside (forced)"),
  aside: N_("Set aside"),
  cup: N_("To throw again"),
  hand: N_("In the hand, being thrown"),
  none: N_("none"),
  prompt: N_("Click the dice to throw again, then Throw."),
  throwN: N_("Throw {n}"),
  stop: N_("Stop and score"),
  clear: N_("Put all back"),
  all: N_("Pick up all"),
  rottenBy: N_("{thrower} throws the rotten eggs for {player}"),
  last: N_("Last turn: {player}"),
  rerolled: Nn_("{thrower} re-threw {player}'s {n} rotten egg", "{thrower} re-threw {player}'s {n} rotten eggs"),
  spoiler: N_("spoiler"),
  fried: N_("Fried eggs"),
  breakfast: N_("Breakfast"),
  chickens: N_("Chickens"),
  spoilers: N_("Spoilers"),
  total: N_("Total"),
  noLast: N_("No turn scored yet."),
  pairs: Nn_("{n} pair × 5", "{n} pairs × 5"),
  spoiledPairs: N_("{n} spoiled"),
  noBreakfast: N_("no pot with a whole egg"),
  breakfastDice: Nn_("pot + {n} whole egg", "pot + {n} whole eggs"),
  spoiledIt: N_("spoiled"),
  hens: Nn_("{n} chicken, the ladder asked for {need}", "{n} chickens, the ladder asked for {need}"),
  hensNone: N_("no chickens"),
  ladderDone: N_("ladder used up"),
  spoilNone: N_("none"),
  spoilSome: N_("{n}: ruined {ruined}"),
  spoilIdle: N_("{n}: nothing left to ruin"),
  scored: N_("Dice scored"),
  forcedLabel: N_("forced aside"),
  finalRound: N_("Final round"),
  tieTurns: N_("Tie turns"),
  fresh: N_("just thrown"),
  picked: N_("to throw"),
  need: N_("needs {n}"),
  done: N_("done"),
  crossed: N_("crossed off"),
  next: N_("next"),
};

// What the board remembers between draws: the dice picked up at the current decision, what was
// last animated, where the keyboard focus should return after a redraw, and where it was when a
// draw of the same turn had no control for it (the dice in the hand, being thrown).
const memo = { key: null, picked: new Set(), animated: null, rottenSeen: null, focus: null, carry: null, first: true };

function words(table) {
  const texts = translated(TEXTS);
  const said = (key, values) => (typeof texts[key] === "function" ? texts[key](values.n, values) : texts[key] ?? key);
  return (key, values = {}) => String(said(key, values))
    .replace(/\{(\w+)\}/g, (_, name) => String(values[name] ?? ""));
}

function faceName(table, face) {
  return translated(TEXTS).faces[face];
}

// A log sentence with its dice drawn as on the board: the words say a die as its symbol and
// letter ("◐ C"), which becomes a small die named for a screen reader.
const SAID_DIE = /[◯◐☠⊔⊖♣] ([WCRPFH])/g;
export function logLine(text) {
  if (!text || text.search(SAID_DIE) < 0) return text;
  const out = document.createElement("span");
  let at = 0;
  for (const found of text.matchAll(SAID_DIE)) {
    out.append(text.slice(at, found.index));
    const face = LETTERS.indexOf(found[1]);
    out.append(h("span", { class: "ade-die ade-log-die", role: "img", "aria-label": faceName(null, face), title: faceName(null, face) }, dieSvg(face)));
    at = found.index + found[0].length;
  }
  out.append(text.slice(at));
  return out;
}

function loadCss() {
  if (document.querySelector(`link[href="${CSS}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href: CSS }));
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  fill(node, attrs, children);
  return node;
}

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  fill(node, attrs, children);
  return node;
}

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "on") for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// --- dice in notation ---------------------------------------------------------------------------

function counts(letters) {
  const dice = [0, 0, 0, 0, 0, 0];
  for (const letter of letters.toUpperCase()) {
    const face = LETTERS.indexOf(letter);
    if (face >= 0) dice[face] += 1;
  }
  return dice;
}

function letters(dice) {
  return dice.map((n, face) => LETTERS[face].repeat(n)).join("");
}

const sum = (dice) => dice.reduce((a, b) => a + b, 0);
const plus = (a, b) => a.map((n, face) => n + b[face]);
const minus = (a, b) => a.map((n, face) => n - b[face]);

// The turns told by the log's move texts: each turn's throws and its rotten eggs' re-throw.
// Only the notation is read (`roll ...`, `reroll ...`, `stop`), never a sentence.
function story(events) {
  const done = [];
  let turn = null;
  let phase = "start";
  let onTable = [0, 0, 0, 0, 0, 0];
  let rolls = 0;
  const finish = () => {
    if (turn) done.push(turn);
    turn = null;
    phase = "start";
  };
  const endThrowing = () => {
    if (onTable[ROTTEN] > 0) {
      phase = "rotten";
      if (turn) turn.rottenIn = onTable[ROTTEN];
    } else finish();
  };
  for (const event of events ?? []) {
    if (event.hidden || typeof event.text !== "string") continue;
    const [word, rest = ""] = event.text.split(" ", 2);
    if (word === "roll") {
      const dice = counts(rest);
      if (phase === "rotten") {
        if (turn) Object.assign(turn, { rotten: dice, rottenVersion: event.version });
        finish();
        continue;
      }
      if (phase === "start" || !turn) {
        turn = { player: null, throws: [], rotten: null, rottenIn: 0, rottenVersion: null };
        onTable = [0, 0, 0, 0, 0, 0];
        rolls = 0;
      }
      onTable = plus(onTable, dice);
      rolls += 1;
      turn.throws.push({ dice, version: event.version });
      if (rolls >= THROWS || onTable[ROTTEN] >= DICE) endThrowing();
      else phase = "decide";
    } else if (word === "reroll" && turn) {
      onTable = minus(onTable, counts(rest));
      turn.player = event.actor;
      phase = "roll";
    } else if (word === "stop" && turn) {
      turn.player = event.actor;
      endThrowing();
    }
  }
  return { current: turn, done };
}

// --- drawing a die ------------------------------------------------------------------------------

function egg(fillColour, stroke) {
  return s("path", { d: "M20 8 C27 8 30 18 30 23 C30 29 26 33 20 33 C14 33 10 29 10 23 C10 18 13 8 20 8 Z",
    fill: fillColour, stroke, "stroke-width": 1.4 });
}

function symbol(face) {
  if (face === WHOLE) return [egg("#fffaf0", "#8a7a5a"), s("ellipse", { cx: 17, cy: 17, rx: 2.2, ry: 3.5, fill: "#ffffff" })];
  if (face === CRACKED) {
    return [egg("#fff1d0", "#8a6a3a"),
      s("polyline", { points: "10.5,21 14,17.5 17,22 20,17 23,22 26,17.5 29.5,21", fill: "none", stroke: "#5b3d16", "stroke-width": 1.6 })];
  }
  if (face === ROTTEN) {
    return [egg("#9aa86a", "#3f4a1f"),
      s("circle", { cx: 16, cy: 22, r: 2, fill: "#4f5a2a" }), s("circle", { cx: 23, cy: 27, r: 1.6, fill: "#4f5a2a" }),
      s("circle", { cx: 24, cy: 18, r: 1.3, fill: "#4f5a2a" }),
      s("path", { d: "M13 6 q2 -2 0 -4 M20 5 q2 -2 0 -4 M27 6 q2 -2 0 -4", fill: "none", stroke: "#4f5a2a", "stroke-width": 1.2 })];
  }
  if (face === POT) {
    return [s("rect", { x: 9, y: 15, width: 22, height: 16, rx: 3, fill: "#7a808a", stroke: "#33373d", "stroke-width": 1.2 }),
      s("rect", { x: 7, y: 13, width: 26, height: 3.5, rx: 1.5, fill: "#5d636c" }),
      s("rect", { x: 4, y: 18, width: 5, height: 3, rx: 1.2, fill: "#33373d" }),
      s("rect", { x: 31, y: 18, width: 5, height: 3, rx: 1.2, fill: "#33373d" }),
      s("rect", { x: 18, y: 10, width: 4, height: 3, rx: 1, fill: "#33373d" })];
  }
  if (face === PAN) {
    return [s("rect", { x: 24, y: 18.5, width: 13, height: 4, rx: 2, fill: "#7b4a2a", transform: "rotate(-20 24 20)" }),
      s("circle", { cx: 16, cy: 22, r: 10, fill: "#2f3338" }), s("circle", { cx: 16, cy: 22, r: 7.5, fill: "#4b5158" })];
  }
  return [ // chicken
    s("path", { d: "M8 16 L12 24 L9 25 Z", fill: "#c9b98f", stroke: "#5a4a2a", "stroke-width": 1 }),
    s("ellipse", { cx: 18, cy: 24, rx: 9.5, ry: 7, fill: "#fff8e7", stroke: "#5a4a2a", "stroke-width": 1.3 }),
    s("circle", { cx: 26, cy: 15, r: 5, fill: "#fff8e7", stroke: "#5a4a2a", "stroke-width": 1.3 }),
    s("path", { d: "M23 10.5 q1.5 -3 3 -1 q1.5 -3 3 0 q0 2 -2 2 Z", fill: "#d03a2a" }),
    s("path", { d: "M30.5 14 L35 15.5 L30.5 17 Z", fill: "#e69a1a" }),
    s("circle", { cx: 27, cy: 14, r: 1, fill: "#222" }),
    s("path", { d: "M16 31 v4 M20 31 v4", stroke: "#e69a1a", "stroke-width": 1.5 }),
  ];
}

function dieSvg(face) {
  return s("svg", { viewBox: "0 0 40 40", class: "ade-face", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1, y: 1, width: 38, height: 38, rx: 7, class: face === ROTTEN ? "ade-body ade-body-rotten" : "ade-body" }),
    symbol(face),
    s("text", { x: 35, y: 37, "text-anchor": "end", class: "ade-letter" }, LETTERS[face]));
}

// One die: a button when a click on it means something, else an image with its label.
function die(table, face, { id, label, onClick, classes = [] }) {
  const attrs = { class: ["ade-die", `ade-f${LETTERS[face]}`, ...classes].join(" "), "data-die": id,
    "data-face": LETTERS[face], "data-rule": FACE_RULES[face], "aria-label": label, title: label };
  if (!onClick) return h("span", { ...attrs, role: "img" }, dieSvg(face));
  return h("button", { ...attrs, type: "button", on: { click: onClick } }, dieSvg(face));
}

function smallDice(table, dice, { marks = null, prefix = "s" } = {}) {
  const row = h("span", { class: "ade-small" });
  dice.forEach((n, face) => {
    for (let i = 0; i < n; i += 1) {
      const mark = marks?.(face, i);
      row.append(die(table, face, { id: `${prefix}${LETTERS[face]}${i}`,
        label: mark ? `${faceName(table, face)} (${mark})` : faceName(table, face), classes: mark ? ["ade-marked"] : [] }));
    }
  });
  return row;
}

// --- the parts of the board -------------------------------------------------------------------

function chip(table, seat) {
  const colour = table.colours?.[seat % (table.colours?.length || 1)] ?? { fill: "#777", letter: "?" };
  const node = h("span", { class: "ade-chip", "aria-hidden": "true" }, colour.letter);
  node.style.backgroundColor = colour.fill;
  return node;
}

function nameOf(table, seat) {
  return table.names?.[seat] ?? `#${seat + 1}`;
}

function ladderCells(table, crossed, tr, prefix) {
  const cells = LADDER.map((need, index) => {
    const state = index < crossed ? "crossed" : index === crossed ? "next" : "open";
    const label = `${need}: ${tr(state === "crossed" ? "crossed" : state === "next" ? "next" : "need", { n: need })}`;
    return h(state === "crossed" ? "s" : "span", { class: `ade-rung ade-${state}`, title: label,
      "aria-label": label, "data-rung": `${prefix}${index}` }, String(need));
  });
  return h("span", { class: "ade-ladder", role: "list", "aria-label": tr("ladder"), "data-point": "ladder", "data-rule": "eier.chickens" },
    cells.map((cell) => h("span", { role: "listitem" }, cell)));
}

function sheet(table, view, tr) {
  const shared = Boolean(view.config?.shared_chicken_ladder);
  const previous = table.previous?.scores ?? null;
  const rows = view.scores.map((score, seat) => {
    const bar = h("span", { class: "ade-bar-fill" });
    const from = previous && previous[seat] !== score && !memo.first ? previous[seat] : score;
    bar.style.width = `${Math.min(100, (100 * from) / view.goal)}%`;
    if (from !== score) {
      requestAnimationFrame(() => requestAnimationFrame(() => {
        bar.style.width = `${Math.min(100, (100 * score) / view.goal)}%`;
      }));
    }
    const current = view.player === seat && view.stage !== "over";
    const need = view.chicken_need?.[seat];
    return h("tr", { class: current ? "ade-current" : "", "data-seat": seat },
      h("th", { scope: "row" }, chip(table, seat), " ", nameOf(table, seat),
        table.seat === seat ? h("span", { class: "ade-you" }, ` (${tr("you")})`) : null),
      h("td", { class: "ade-score" }, h("strong", { "data-score": seat }, String(score)),
        h("span", { class: "ade-bar", "aria-hidden": "true" }, bar)),
      shared ? null : h("td", {}, ladderCells(table, view.crossed[seat], tr, `l${seat}-`),
        h("span", { class: "visually-hidden" }, need === null ? tr("ladderDone") : tr("need", { n: need }))));
  });
  const head = h("tr", {}, h("th", { scope: "col" }, tr("player")), h("th", { scope: "col" }, `${tr("points")} (${tr("goal")} ${view.goal})`),
    shared ? null : h("th", { scope: "col" }, tr("ladder")));
  const body = [head, ...rows];
  if (shared) {
    body.push(h("tr", {}, h("th", { scope: "row" }, tr("shared")), h("td", {}, ladderCells(table, view.crossed[0], tr, "l-"))));
  }
  return h("section", { class: "ade-sheet", "aria-label": tr("sheet"), "data-point": "score-sheet", "data-rule": "eier.end" },
    h("h3", {}, tr("sheet"),
      view.tie_players?.length ? h("span", { class: "ade-badge" }, tr("tieTurns")) : view.final_round ? h("span", { class: "ade-badge" }, tr("finalRound")) : null),
    h("table", { class: "ade-table" }, h("tbody", {}, body)));
}

function throwPips(view, tr) {
  const made = view.stage === "over" ? 0 : view.rolls;
  const pips = [];
  for (let i = 0; i < THROWS; i += 1) pips.push(h("span", { class: i < made ? "ade-pip ade-pip-on" : "ade-pip", "aria-hidden": "true" }));
  return h("span", { class: "ade-throws", id: "ade-throws", "data-rolls": made, "data-point": "throws", "data-rule": "eier.third-throw" },
    pips, " ", made ? tr("throwOf", { n: made }) : tr("noThrow"));
}

function tray(table, view, tr, current, animate) {
  const mine = table.seat !== null && table.seat === view.player && view.stage === "decide" && table.legal?.length > 0;
  const dice = view.dice;
  const lastThrow = current?.throws?.at(-1)?.dice ?? [0, 0, 0, 0, 0, 0];
  const fresh = view.stage === "decide" ? lastThrow : [0, 0, 0, 0, 0, 0];
  const rottenRow = h("div", { class: "ade-row ade-row-rotten", id: "ade-rotten", "data-point": "rotten", "data-rule": "eier.rotten-aside" });
  const asideRow = h("div", { class: "ade-row", id: "ade-aside" });
  const cupRow = h("div", { class: "ade-row ade-row-cup", id: "ade-cup" });
  // A rotten egg stays aside for the rest of the turn: a picture, never a control to pick.
  for (let i = 0; i < dice[ROTTEN]; i += 1) {
    const isNew = animate && i >= dice[ROTTEN] - fresh[ROTTEN];
    rottenRow.append(die(table, ROTTEN, { id: `R${i}`, label: `${faceName(table, ROTTEN)} (${tr("forcedLabel")})`,
      classes: ["ade-forced", isNew ? "ade-new" : ""] }));
  }
  dice.forEach((n, face) => {
    if (face === ROTTEN) return;
    for (let i = 0; i < n; i += 1) {
      const inCup = mine && memo.picked.has(`${LETTERS[face]}${i}`);
      const isFresh = i >= n - fresh[face];
      const label = `${faceName(table, face)}${inCup ? ` (${tr("picked")})` : isFresh && mine ? ` (${tr("fresh")})` : ""}`;
      const node = die(table, face, { id: `${LETTERS[face]}${i}`, label,
        classes: [isFresh && view.stage === "decide" ? "ade-fresh" : "", animate && isFresh ? "ade-new" : ""],
        onClick: mine ? () => toggle(table, `${LETTERS[face]}${i}`) : null });
      if (mine) node.setAttribute("aria-pressed", inCup ? "true" : "false");
      (inCup ? cupRow : asideRow).append(node);
    }
  });
  if (view.stage === "roll" || view.stage === "rotten") {
    for (let i = 0; i < view.to_throw; i += 1) {
      cupRow.append(h("span", { class: "ade-die ade-blank ade-shake", role: "img", "aria-label": tr("hand") }, "?"));
    }
  }
  const rows = [
    h("div", { class: "ade-zone" }, h("h4", {}, tr("rotten")), dice[ROTTEN] ? rottenRow : emptyRow(rottenRow, tr)),
    h("div", { class: "ade-zone" }, h("h4", {}, tr("aside")), asideRow.childNodes.length ? asideRow : emptyRow(asideRow, tr)),
    h("div", { class: "ade-zone ade-zone-cup" }, h("h4", {}, view.stage === "decide" || view.stage === "over" ? tr("cup") : tr("hand")),
      cupRow.childNodes.length ? cupRow : emptyRow(cupRow, tr)),
  ];
  const who = view.stage === "rotten"
    ? tr("rottenBy", { thrower: nameOf(table, view.rotten_thrower), player: nameOf(table, view.player) })
    : null;
  const head = h("div", { class: "ade-tray-head" },
    h("h3", { class: "ade-turn" }, `${tr("turnOf")}: `, chip(table, view.player), " ", h("strong", {}, nameOf(table, view.player))),
    throwPips(view, tr), who ? h("span", { class: "ade-badge" }, who) : null);
  if (view.stage === "over") {
    const winners = (view.winners ?? []).map((seat) => h("span", { class: "ade-turn" }, chip(table, seat), " ", nameOf(table, seat)));
    const over = h("div", { class: "ade-tray-head" }, h("strong", { id: "ade-over" }, table.t("The game is over")),
      winners.length ? h("span", {}, `${table.t("Winners")}: `) : null, ...winners);
    return h("section", { class: "ade-tray", "aria-label": tr("turnOf") }, over);
  }
  const controls = mine ? decisionControls(table, view, tr) : null;
  return h("section", { class: "ade-tray", "aria-label": tr("turnOf"), "data-point": "dice", "data-rule": "eier.throw" }, head, ...rows, controls);
}

function emptyRow(row, tr) {
  row.append(h("span", { class: "ade-empty" }, tr("none")));
  return row;
}

// The dice picked up, as counts per face.
function pickedDice() {
  const dice = [0, 0, 0, 0, 0, 0];
  for (const id of memo.picked) dice[LETTERS.indexOf(id[0])] += 1;
  return dice;
}

function decisionControls(table, view, tr) {
  const picked = pickedDice();
  const n = sum(picked);
  const free = [];
  view.dice.forEach((count, face) => {
    for (let i = 0; face !== ROTTEN && i < count; i += 1) free.push(`${LETTERS[face]}${i}`);
  });
  const everything = free.length === n;
  return h("div", { class: "ade-controls", id: "ade-controls", "data-point": "controls", "data-rule": "eier.reroll" },
    h("p", { class: "ade-prompt", id: "ade-prompt" }, tr("prompt")),
    h("div", { class: "ade-buttons" },
      h("button", { type: "button", class: "primary", id: "ade-throw", disabled: n === 0,
        on: { click: () => send(table, `reroll ${letters(picked)}`) } }, tr("throwN", { n })),
      h("button", { type: "button", id: "ade-stop", "data-ends-turn": "1", on: { click: () => send(table, "stop") } }, tr("stop")),
      h("button", { type: "button", id: "ade-all", class: "link", disabled: everything,
        on: { click: () => { memo.picked = new Set(free); redraw(table); } } }, tr("all")),
      h("button", { type: "button", id: "ade-clear", class: "link", disabled: n === 0,
        on: { click: () => { memo.picked = new Set(); redraw(table); } } }, tr("clear"))));
}

function lastTurn(table, view, tr, done, animate) {
  const last = view.last;
  if (!last) return h("section", { class: "ade-last", id: "ade-last", "data-point": "last-turn", "data-rule": "eier.score" }, h("p", { class: "ade-empty" }, tr("noLast")));
  const player = last.player;
  const turn = done.at(-1);
  const matches = turn && turn.rotten && (turn.player === null || turn.player === player) && turn.rotten[ROTTEN] === last.spoilers;
  let moment = null;
  if (matches) {
    const thrower = (player - 1 + view.scores.length) % view.scores.length;
    const fresh = animate || (!memo.first && memo.rottenSeen !== turn.rottenVersion);
    memo.rottenSeen = turn.rottenVersion;
    const shown = smallDice(table, turn.rotten, { prefix: "m", marks: (face) => (face === ROTTEN ? tr("spoiler") : null) });
    if (fresh) for (const node of shown.children) node.classList.add("ade-new");
    moment = h("div", { class: fresh ? "ade-moment ade-flash" : "ade-moment", id: "ade-moment" },
      h("p", {}, tr("rerolled", { thrower: nameOf(table, thrower), player: nameOf(table, player), n: sum(turn.rotten) })),
      shown);
  }
  const good = last.fried - last.spoiled_fried;
  const whole = last.breakfast ? last.breakfast / 3 - 1 : 0;
  const hens = last.dice[CHICKEN];
  const ruined = [];
  if (last.spoiled_fried) ruined.push(`${last.spoiled_fried} × ${tr("fried")}`);
  if (last.spoiled_breakfast) ruined.push(tr("breakfast"));
  const crossedNow = view.crossed[view.config?.shared_chicken_ladder ? 0 : player];
  const need = last.chickens ? LADDER[crossedNow - 1] : crossedNow < LADDER.length ? LADDER[crossedNow] : null;
  const lines = [
    [tr("fried"), last.fried ? `${tr("pairs", { n: last.fried })}${last.spoiled_fried ? `, ${tr("spoiledPairs", { n: last.spoiled_fried })}` : ""}` : tr("none"), 5 * good],
    [tr("breakfast"), last.breakfast ? `${tr("breakfastDice", { n: whole })} = ${last.breakfast}${last.spoiled_breakfast ? `, ${tr("spoiledIt")}` : ""}` : tr("noBreakfast"),
      last.spoiled_breakfast ? 0 : last.breakfast],
    [tr("chickens"), hens ? (need === null ? tr("ladderDone") : tr("hens", { n: hens, need })) : tr("hensNone"), last.chickens],
    [tr("spoilers"), last.spoilers ? (ruined.length ? tr("spoilSome", { n: last.spoilers, ruined: ruined.join(", ") }) : tr("spoilIdle", { n: last.spoilers })) : tr("spoilNone"), null],
  ];
  const rows = lines.map(([what, how, points], index) => h("tr", { "data-rule": LINE_RULES[index] }, h("th", { scope: "row" }, what), h("td", {}, how),
    h("td", { class: "ade-num" }, points === null ? "" : String(points))));
  rows.push(h("tr", { class: "ade-total" }, h("th", { scope: "row" }, tr("total")), h("td", {}),
    h("td", { class: "ade-num", id: "ade-total" }, String(last.points))));
  return h("section", { class: "ade-last", id: "ade-last", "data-point": "last-turn", "data-rule": "eier.score", "aria-label": tr("last", { player: nameOf(table, player) }) },
    h("h3", {}, chip(table, player), " ", tr("last", { player: nameOf(table, player) })),
    h("div", { class: "ade-last-body" },
      h("div", {}, moment,
        h("div", { class: "ade-scored" }, h("div", { class: "ade-caption" }, `${tr("scored")}:`), smallDice(table, last.dice, { prefix: "d" }))),
      h("table", { class: "ade-breakdown" }, h("tbody", {}, rows))));
}

// --- clicks -------------------------------------------------------------------------------------

function toggle(table, id) {
  if (!memo.picked.delete(id)) memo.picked.add(id);
  memo.focus = id;
  redraw(table);
}

// A move by its notation: the legal move with that text if there is one, else the server says
// which rule forbids it.
function send(table, text) {
  const move = table.legal?.find((m) => m.text === text);
  if (move) table.play(move);
  else table.try(text);
}

let lastDraw = null;

function redraw(table) {
  if (lastDraw) render(lastDraw.container, table, false);
}

// --- the board ----------------------------------------------------------------------------------

export function draw(container, table) {
  loadCss();
  lastDraw = { container };
  render(container, table, true);
}

function render(container, table, fromUpdate) {
  const view = table.view;
  if (!view || !Array.isArray(view.dice)) return container.replaceChildren();
  const tr = words(table);
  const key = [table.seat, view.player, view.stage, view.rolls, view.dice.join(""), view.scores.join(",")].join("|");
  if (memo.key !== key) {
    memo.key = key;
    memo.picked = new Set();
  }
  const animate = fromUpdate && memo.animated !== key && !memo.first;
  memo.animated = key;
  const { current, done } = story(table.events);
  const active = container.contains(document.activeElement) ? document.activeElement : null;
  const lost = !document.activeElement || document.activeElement === document.body;
  const focusId = memo.focus ?? (active ? active.dataset?.die ?? (active.id || null) : null) ?? (lost ? memo.carry : null);
  memo.focus = null;
  memo.carry = null;
  const before = fromUpdate ? null : positions(container);
  const board = h("div", { class: "ade-board", lang: table.lang === "de" ? "de" : "en", "data-point": "board" },
    tray(table, view, tr, current, animate), sheet(table, view, tr), lastTurn(table, view, tr, done, animate));
  container.replaceChildren(board);
  memo.first = false;
  if (before) slide(container, before);
  if (focusId) keepFocus(container, table, view, focusId);
}

// The keyboard focus back where it was (`focusId`: a die's or a control's id). Where that is
// gone or disabled now (a die thrown, Throw with nothing picked up after a throw), it goes to
// the first die to pick, else Throw, else Stop; where the draw has no control at all but the
// turn goes on (the dice being thrown), the next draw of it puts the focus back.
function keepFocus(container, table, view, focusId) {
  const usable = (node) => node && container.contains(node) && !node.disabled ? node : null;
  const target = usable(container.querySelector(`[data-die="${focusId}"]`) ?? document.getElementById(focusId));
  if (target) return target.focus();
  if (!container.querySelector("#ade-controls")) {
    const goesOn = table.seat !== null && view.player === table.seat && (view.stage === "roll" || view.stage === "decide");
    if (goesOn) memo.carry = focusId;
    return;
  }
  const die = usable(container.querySelector(".ade-tray button.ade-die"));
  const throwButton = usable(container.querySelector("#ade-throw"));
  const next = focusId === "ade-all" ? throwButton ?? die : die ?? throwButton;
  (next ?? usable(container.querySelector("#ade-stop")))?.focus();
}

function positions(container) {
  const found = new Map();
  for (const node of container.querySelectorAll(".ade-tray [data-die]")) found.set(node.dataset.die, node.getBoundingClientRect());
  return found;
}

// A die moved between rows slides from where it was (never delaying a click).
function slide(container, before) {
  for (const node of container.querySelectorAll(".ade-tray [data-die]")) {
    const was = before.get(node.dataset.die);
    if (!was) continue;
    const now = node.getBoundingClientRect();
    const dx = was.left - now.left;
    const dy = was.top - now.top;
    if (!dx && !dy) continue;
    node.style.transition = "none";
    node.style.transform = `translate(${dx}px, ${dy}px)`;
    requestAnimationFrame(() => requestAnimationFrame(() => {
      node.style.transition = "transform 220ms ease-out";
      node.style.transform = "";
    }));
  }
}
