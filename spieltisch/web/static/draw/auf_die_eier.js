// Auf die Eier on the table: the nine dice, the score sheet with every chicken ladder, and how
// the last turn scored, drawn from the viewer's view (and the log's notation) only.
//
// Drawn as a game night's table: a felt in a wooden frame, egg dice drawn as SVG (one sprite of
// faces, each with its letter), the chicken ladder as a wooden ladder with every seat's hen in
// its colour and letter, the score sheet as a scoreboard. Motion explains a change and only
// that (table.previous): the thrown dice tumble, a hen climbs, points count up; it never delays
// a click and is skipped under reduced motion (the design tokens' --motion-move is then 0).
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
// Each face is one <symbol> of a sprite put once into the page (the board's dice and the log's
// small dice <use> it); its colours are the board's --ade-* properties, read through classes.

const EGG = "M20 6.5 C27.5 6.5 31 17.5 31 23 C31 29.5 26.5 34 20 34 C13.5 34 9 29.5 9 23 C9 17.5 12.5 6.5 20 6.5 Z";
const FACES = [
  // whole egg: a plain egg with its shine
  `<path class="ade-shell" d="${EGG}"/><ellipse class="ade-shine" cx="15.5" cy="16" rx="2.4" ry="4.2" transform="rotate(20 15.5 16)"/>`,
  // cracked egg: a zigzag crack, the yolk running out
  `<path class="ade-shell" d="${EGG}"/><path class="ade-yolk" d="M17 23.5 q3 6 6 0 q-1 7 -3 9 q-2-3-3-9Z"/>`
    + `<polyline class="ade-crack" points="9.5,20.5 13,17 16,22 20,16.5 23.5,22 27,17 30.5,20.5"/>`,
  // rotten egg: green and spotted, with its stink rising
  `<path class="ade-rot" d="${EGG}"/><circle class="ade-spot" cx="16" cy="23" r="2.3"/><circle class="ade-spot" cx="24" cy="27.5" r="1.8"/>`
    + `<circle class="ade-spot" cx="23.5" cy="17.5" r="1.4"/><path class="ade-stink" d="M13 7q2.5-2 0-4.5M20 5.5q2.5-2 0-4.5M27 7q2.5-2 0-4.5"/>`,
  // pot: a cooking pot with lid, knob and two handles
  `<rect class="ade-metal" x="9" y="16" width="22" height="16" rx="3.5"/><rect class="ade-metal-dark" x="7" y="13" width="26" height="4" rx="2"/>`
    + `<rect class="ade-metal-dark" x="3.5" y="19" width="6" height="3.2" rx="1.6"/><rect class="ade-metal-dark" x="30.5" y="19" width="6" height="3.2" rx="1.6"/>`
    + `<rect class="ade-metal-dark" x="17.5" y="9.5" width="5" height="4" rx="1.5"/><path class="ade-shine-line" d="M12.5 20v8"/>`,
  // frying pan: a round pan seen from above, its long wooden handle
  `<rect class="ade-handle" x="25" y="18.5" width="13" height="4.4" rx="2.2" transform="rotate(-28 25 20.7)"/>`
    + `<circle class="ade-pan" cx="16" cy="23" r="10.5"/><circle class="ade-pan-in" cx="16" cy="23" r="7.6"/><path class="ade-shine-line" d="M11 19.5a6 6 0 0 1 4-2.8"/>`,
  // chicken: a hen with comb, beak, wing and feet
  `<path class="ade-feet" d="M17 31.5v4M21.5 31.5v4M15.5 35.5h3M20 35.5h3"/><path class="ade-hen-body" d="M7.5 15.5 L13 23 C12 30 17 33 21 32.5 C27 32 30.5 28 29 22 L27 19 Z"/>`
    + `<circle class="ade-hen-body" cx="26" cy="15" r="5.2"/><path class="ade-comb" d="M22.5 10.8q1-3.6 3-1.6q1.4-3.4 3.4-.4q2 .4.8 2.6Z"/>`
    + `<path class="ade-beak" d="M30.8 14 L35.5 15.6 L30.8 17.2 Z"/><circle class="ade-eye" cx="27.2" cy="14.2" r="1.05"/>`
    + `<path class="ade-wing" d="M15 23.5q5 5.5 10 0"/>`,
];

// The sprite, once per page (the log draws dice before the board may have drawn).
function sprite() {
  if (document.getElementById("ade-sprite")) return;
  const symbols = FACES.map((body, face) => `<symbol id="ade-face-${LETTERS[face]}" viewBox="0 0 40 40">${body}</symbol>`).join("");
  const holder = document.createElement("div");
  holder.innerHTML = `<svg xmlns="${SVG}" id="ade-sprite" class="ade-sprite" aria-hidden="true" focusable="false" width="0" height="0"><defs>${symbols}</defs></svg>`;
  document.body.append(holder.firstChild);
}

function dieSvg(face) {
  sprite();
  return s("svg", { viewBox: "0 0 40 40", class: "ade-face", "aria-hidden": "true", focusable: "false" },
    s("rect", { x: 1.5, y: 1.5, width: 37, height: 37, rx: 8, class: face === ROTTEN ? "ade-body ade-body-rotten" : "ade-body" }),
    s("rect", { x: 4, y: 3.5, width: 32, height: 32, rx: 6.5, class: "ade-bevel" }),
    s("use", { href: `#ade-face-${LETTERS[face]}` }),
    s("text", { x: 35.5, y: 36.5, "text-anchor": "end", class: "ade-letter" }, LETTERS[face]));
}

// One die: a button when a click on it means something, else an image with its label.
function die(table, face, { id, label, onClick, classes = [], delay = 0 }) {
  const attrs = { class: ["ade-die", `ade-f${LETTERS[face]}`, ...classes].filter(Boolean).join(" "), "data-die": id,
    "data-face": LETTERS[face], "data-rule": FACE_RULES[face], "aria-label": label, title: label };
  const node = onClick ? h("button", { ...attrs, type: "button", on: { click: onClick } }, dieSvg(face))
    : h("span", { ...attrs, role: "img" }, dieSvg(face));
  if (delay) node.style.setProperty("--ade-delay", `${delay}ms`);
  return node;
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

// Motion: the design system's move duration in ms (0 under reduced motion: nothing animates).
function motionMs() {
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return 0;
  const said = getComputedStyle(document.documentElement).getPropertyValue("--motion-move").trim();
  const ms = said.endsWith("ms") ? parseFloat(said) : parseFloat(said) * 1000;
  return Number.isFinite(ms) ? ms : 0;
}

// Animations started once the new drawing is in the page (see render()).
let after = [];

const seatColour = (seat) => `var(--seat-${(seat % 6) + 1})`;
const seatLetter = (table, seat) => table.colours?.[seat % (table.colours?.length || 1)]?.letter ?? "?";

function chip(table, seat) {
  const node = h("span", { class: "ade-chip", "aria-hidden": "true" }, seatLetter(table, seat));
  node.style.setProperty("--ade-seat", seatColour(seat));
  return node;
}

function nameOf(table, seat) {
  return table.names?.[seat] ?? `#${seat + 1}`;
}

// The paper sheet's ladder: 1 2 3 4 5 4 3 2 1, crossed off from the left.
function ladderCells(table, crossed, tr, prefix, seat) {
  const cells = LADDER.map((need, index) => {
    const state = index < crossed ? "crossed" : index === crossed ? "next" : "open";
    const label = `${need}: ${tr(state === "crossed" ? "crossed" : state === "next" ? "next" : "need", { n: need })}`;
    return h(state === "crossed" ? "s" : "span", { class: `ade-rung ade-${state}`, title: label,
      "aria-label": label, "data-rung": `${prefix}${index}` }, String(need));
  });
  const node = h("span", { class: "ade-ladder", role: "list", "aria-label": tr("ladder"), "data-point": "ladder", "data-rule": "eier.chickens" },
    cells.map((cell) => h("span", { role: "listitem" }, cell)));
  if (seat !== null) node.style.setProperty("--ade-seat", seatColour(seat));
  return node;
}

// Score, with the points counted up from where they were; the number read stays the final one.
function countUp(cell, from, to) {
  const ms = motionMs();
  if (!ms || from === to) return;
  const shown = h("span", { class: "ade-count", "aria-hidden": "true" }, String(from));
  cell.classList.add("ade-counting");
  cell.append(shown);
  let start = null;
  const step = (now) => {
    start ??= now;
    const t = Math.min(1, (now - start) / (ms + 80));
    shown.textContent = String(Math.round(from + (to - from) * (1 - (1 - t) ** 3)));
    if (t < 1) requestAnimationFrame(step);
    else { cell.classList.remove("ade-counting"); shown.remove(); }
  };
  after.push(() => requestAnimationFrame(step));
}

function sheet(table, view, tr, animate) {
  const shared = Boolean(view.config?.shared_chicken_ladder);
  const previous = animate ? table.previous?.scores ?? null : null;
  const leader = Math.max(...view.scores);
  const rows = view.scores.map((score, seat) => {
    const from = previous?.[seat] ?? score;
    const bar = h("span", { class: "ade-bar-fill" });
    bar.style.setProperty("--ade-seat", seatColour(seat));
    bar.style.width = `${Math.min(100, (100 * from) / view.goal)}%`;
    if (from !== score) after.push(() => requestAnimationFrame(() => { bar.style.width = `${Math.min(100, (100 * score) / view.goal)}%`; }));
    const points = h("span", { class: "ade-points" }, h("strong", { "data-score": seat }, String(score)));
    countUp(points, from, score);
    const gained = view.last?.player === seat && view.stage !== "over" ? view.last.points : 0;
    const current = view.player === seat && view.stage !== "over";
    const won = view.stage === "over" && (view.winners ?? []).includes(seat);
    const need = view.chicken_need?.[seat];
    return h("tr", { class: ["ade-seat", current ? "ade-current" : "", won ? "ade-won" : "", score === leader && score > 0 ? "ade-lead" : ""].join(" ").trim(), "data-seat": seat },
      h("th", { scope: "row" }, h("span", { class: "ade-who" }, h("span", { class: "ade-at", "aria-hidden": "true" }, current ? "▶" : won ? "★" : ""),
        chip(table, seat), h("span", { class: "ade-name" }, nameOf(table, seat),
          table.seat === seat ? h("span", { class: "ade-you" }, ` (${tr("you")})`) : null))),
      h("td", { class: "ade-score" }, points, h("span", { class: "ade-bar", "aria-hidden": "true" }, bar),
        gained > 0 ? h("span", { class: animate && from !== score ? "ade-gain ade-pop" : "ade-gain", "aria-hidden": "true" }, `+${gained}`) : null),
      shared ? null : h("td", { class: "ade-ladder-cell" }, ladderCells(table, view.crossed[seat], tr, `l${seat}-`, seat),
        h("span", { class: "visually-hidden" }, need === null ? tr("ladderDone") : tr("need", { n: need }))));
  });
  const head = h("tr", { class: "ade-head" }, h("th", { scope: "col" }, tr("player")), h("th", { scope: "col" }, `${tr("points")} (${tr("goal")} ${view.goal})`),
    shared ? null : h("th", { scope: "col", class: "ade-ladder-cell" }, tr("ladder")));
  const body = [head, ...rows];
  if (shared) {
    body.push(h("tr", {}, h("th", { scope: "row" }, tr("shared")), h("td", {}, ladderCells(table, view.crossed[0], tr, "l-", null))));
  }
  return h("section", { class: "ade-sheet", "aria-label": tr("sheet"), "data-point": "score-sheet", "data-rule": "eier.end" },
    h("h3", {}, tr("sheet"),
      view.tie_players?.length ? h("span", { class: "ade-badge" }, tr("tieTurns")) : view.final_round ? h("span", { class: "ade-badge" }, tr("finalRound")) : null),
    h("table", { class: "ade-table" }, h("tbody", {}, body)));
}

// --- the chicken ladder, drawn --------------------------------------------------------------------
// A wooden ladder of nine rungs (1 2 3 4 5 4 3 2 1 from the bottom); every seat's hen stands on
// the rung its next chickens must match, in its seat's colour with its letter, and climbs when
// a rung is crossed off. Upright beside the dice on a wide board, lying along them on a narrow
// one (CSS shows one of the two).

// hen: a hen's size; room: the length of a rung the hens share (a lying ladder grows wider
// for many hens, so that each keeps its letter in sight).
function ladderShape(orient, hens) {
  if (orient === "v") {
    const room = Math.max(72, (hens - 1) * 21);
    return { w: room + 60, h: 252, rails: [10, room + 52], along: (i) => 228 - i * 24, spot: (at, j, gap) => [42 + j * gap, at - 7], room, hen: 1.3 };
  }
  const room = Math.max(52, (hens - 1) * 22);
  return { w: 360, h: room + 70, rails: [12, room + 52], along: (i) => 36 + i * 33, spot: (at, j, gap) => [at, 46 + j * gap], room, hen: 1.6 };
}

// Where each hen stands: seat -> [x, y] (hens on one rung side by side, closer when many).
function henSpots(geometry, crossed) {
  const taken = new Map();
  const gap = Math.min(16 * geometry.hen, geometry.room / Math.max(1, crossed.length - 1));
  return crossed.map((rung) => {
    const j = taken.get(rung) ?? 0;
    taken.set(rung, j + 1);
    return geometry.spot(geometry.along(rung), j, gap);
  });
}

function hen(letter, colour, [x, y], current, size) {
  const body = s("g", { class: "ade-hen-move" },
    s("path", { class: "ade-comb", d: "M-4.8 -5.6q-.2-5.4 3-3.8q1.4-5 4-1q3-.6 1.8 3.8Z" }),
    s("path", { class: "ade-beak", d: "M6.8 -2.4 L12 .3 L6.8 3Z" }),
    s("circle", { r: 7.6, class: "ade-hen-ring" }), s("circle", { r: 5, class: "ade-hen-face" }),
    s("text", { y: 2.6, "text-anchor": "middle", class: "ade-hen-letter" }, letter));
  const node = s("g", { class: current ? "ade-hen ade-hen-now" : "ade-hen", transform: `translate(${x} ${y}) scale(${size})` }, body);
  node.style.setProperty("--ade-seat", colour);
  return { node, body };
}

function climb(body, dx, dy) {
  const ms = motionMs();
  if (!ms || (!dx && !dy)) return;
  after.push(() => body.animate([
    { transform: `translate(${dx}px, ${dy}px)` },
    { transform: `translate(${dx * 0.45}px, ${dy * 0.45 - 7}px)`, offset: 0.5 },
    { transform: "translate(0, 0)" },
  ], { duration: ms + 60, easing: "ease-out" }));
}

function ladderArt(table, view, tr, orient, animate) {
  const shared = Boolean(view.config?.shared_chicken_ladder);
  const crossed = shared ? [view.crossed[0]] : view.crossed;
  const g = ladderShape(orient, crossed.length);
  const said = (n) => (n >= LADDER.length ? tr("ladderDone") : tr("need", { n: LADDER[n] }));
  const label = `${tr("ladder")}: ${shared ? `${tr("shared")}, ${said(crossed[0])}`
    : crossed.map((n, seat) => `${nameOf(table, seat)} ${said(n)}`).join("; ")}`;
  const v = orient === "v";
  const wood = [];
  for (const side of g.rails) {
    wood.push(v ? s("rect", { x: side, y: 22, width: 8, height: g.h - 22, rx: 3, class: "ade-rail" })
      : s("rect", { x: 8, y: side, width: 314, height: 8, rx: 3, class: "ade-rail" }));
  }
  const tags = [];
  LADDER.forEach((need, i) => {
    const at = g.along(i);
    wood.push(v ? s("rect", { x: 16, y: at - 3, width: g.rails[1] - 14, height: 6, rx: 2.5, class: "ade-rung-wood" })
      : s("rect", { x: at - 3, y: 18, width: 6, height: g.rails[1] - 16, rx: 2.5, class: "ade-rung-wood" }));
    const off = shared && i < crossed[0];
    const [tx, ty] = v ? [14, at] : [at, 16];
    tags.push(s("g", { class: off ? "ade-tag ade-tag-off" : "ade-tag" },
      s("circle", { cx: tx, cy: ty, r: 9 }), s("text", { x: tx, y: ty + 4, "text-anchor": "middle" }, String(need)),
      off ? s("path", { d: `M${tx - 6} ${ty + 6}L${tx + 6} ${ty - 6}`, class: "ade-tag-cross" }) : null));
  });
  const spots = henSpots(g, crossed);
  const before = animate && table.previous?.crossed ? henSpots(g, shared ? [table.previous.crossed[0]] : table.previous.crossed) : null;
  const hens = crossed.map((_, seat) => {
    const letter = shared ? "" : seatLetter(table, seat);
    const colour = shared ? "var(--ade-shell)" : seatColour(seat);
    const drawn = hen(letter, colour, spots[seat], !shared && seat === view.player && view.stage !== "over", g.hen);
    const was = before?.[seat];
    if (was && (was[0] !== spots[seat][0] || was[1] !== spots[seat][1])) climb(drawn.body, (was[0] - spots[seat][0]) / g.hen, (was[1] - spots[seat][1]) / g.hen);
    return drawn.node;
  });
  // The hen at turn is drawn last, on top of the others.
  const now = hens.find((node) => node.classList.contains("ade-hen-now"));
  if (now) hens.push(hens.splice(hens.indexOf(now), 1)[0]);
  const art = s("svg", { viewBox: `0 0 ${g.w} ${g.h}`, class: `ade-ladder-art ade-ladder-${orient}`, role: "img",
    "aria-label": label, focusable: "false", "data-point": "ladder", "data-rule": "eier.chickens" }, wood, tags, hens);
  if (v) art.style.setProperty("--ade-ladder-w", `${(7.5 * g.w) / 132}rem`); // (CSSOM: the page's CSP allows no style attribute)
  return art;
}

// --- the tray of dice ---------------------------------------------------------------------------

function throwPips(view, tr) {
  const made = view.stage === "over" ? 0 : view.rolls;
  const pips = [];
  for (let i = 0; i < THROWS; i += 1) pips.push(h("span", { class: i < made ? "ade-pip ade-pip-on" : "ade-pip", "aria-hidden": "true" }));
  return h("span", { class: "ade-throws", id: "ade-throws", "data-rolls": made, "data-point": "throws", "data-rule": "eier.third-throw" },
    h("span", { class: "ade-pips" }, pips), made ? tr("throwOf", { n: made }) : tr("noThrow"));
}

function zone(kind, title, row, tr) {
  if (!row.childNodes.length) row.append(h("span", { class: "ade-empty" }, tr("none")));
  return h("div", { class: `ade-zone ade-zone-${kind}` }, h("h4", {}, title), row);
}

function tray(table, view, tr, current, animate) {
  const ladders = [ladderArt(table, view, tr, "v", animate), ladderArt(table, view, tr, "h", animate)];
  if (view.stage === "over") return overTray(table, view, tr, ladders);
  const mine = table.seat !== null && table.seat === view.player && view.stage === "decide" && table.legal?.length > 0;
  const dice = view.dice;
  const lastThrow = current?.throws?.at(-1)?.dice ?? [0, 0, 0, 0, 0, 0];
  const fresh = view.stage === "decide" ? lastThrow : [0, 0, 0, 0, 0, 0];
  let landed = 0;
  const tumble = () => (landed += 1) * 22;
  const rottenRow = h("div", { class: "ade-row ade-row-rotten", id: "ade-rotten", "data-point": "rotten", "data-rule": "eier.rotten-aside" });
  const asideRow = h("div", { class: "ade-row ade-row-aside", id: "ade-aside" });
  const cupRow = h("div", { class: "ade-row ade-row-cup", id: "ade-cup" });
  // A rotten egg stays aside for the rest of the turn: a picture, never a control to pick.
  for (let i = 0; i < dice[ROTTEN]; i += 1) {
    const isNew = animate && i >= dice[ROTTEN] - fresh[ROTTEN];
    rottenRow.append(die(table, ROTTEN, { id: `R${i}`, label: `${faceName(table, ROTTEN)} (${tr("forcedLabel")})`,
      classes: ["ade-forced", isNew ? "ade-new" : ""], delay: isNew ? tumble() : 0 }));
  }
  dice.forEach((n, face) => {
    if (face === ROTTEN) return;
    for (let i = 0; i < n; i += 1) {
      const inCup = mine && memo.picked.has(`${LETTERS[face]}${i}`);
      const isFresh = i >= n - fresh[face];
      const isNew = animate && isFresh;
      const label = `${faceName(table, face)}${inCup ? ` (${tr("picked")})` : isFresh && mine ? ` (${tr("fresh")})` : ""}`;
      const node = die(table, face, { id: `${LETTERS[face]}${i}`, label,
        classes: [isFresh && view.stage === "decide" && view.rolls > 1 ? "ade-fresh" : "", isNew ? "ade-new" : ""], delay: isNew ? tumble() : 0,
        onClick: mine ? () => toggle(table, `${LETTERS[face]}${i}`) : null });
      if (mine) node.setAttribute("aria-pressed", inCup ? "true" : "false");
      (inCup ? cupRow : asideRow).append(node);
    }
  });
  if (view.stage === "roll" || view.stage === "rotten") {
    for (let i = 0; i < view.to_throw; i += 1) {
      cupRow.append(h("span", { class: "ade-die ade-blank ade-shake", role: "img", "aria-label": tr("hand") },
        h("span", { "aria-hidden": "true" }, "?")));
    }
  }
  const zones = h("div", { class: "ade-zones" },
    zone("rotten", tr("rotten"), rottenRow, tr),
    zone("aside", tr("aside"), asideRow, tr),
    zone("cup", view.stage === "decide" ? tr("cup") : tr("hand"), cupRow, tr));
  const who = view.stage === "rotten"
    ? tr("rottenBy", { thrower: nameOf(table, view.rotten_thrower), player: nameOf(table, view.player) })
    : null;
  const head = h("div", { class: "ade-tray-head" },
    h("h3", { class: "ade-turn" }, `${tr("turnOf")}: `, chip(table, view.player), " ", h("strong", {}, nameOf(table, view.player))),
    throwPips(view, tr), who ? h("span", { class: "ade-badge" }, who) : null);
  const controls = mine ? decisionControls(table, view, tr) : null;
  return h("section", { class: mine ? "ade-tray ade-mine" : "ade-tray", "aria-label": tr("turnOf"), "data-point": "dice", "data-rule": "eier.throw" },
    head, lastSaid(table, animate), h("div", { class: "ade-tray-main" }, zones, h("figure", { class: "ade-ladder-fig" }, ladders[0], h("figcaption", { "aria-hidden": "true" }, tr("ladder")))),
    ladders[1], controls);
}

// What was last done at the table, in the log's words with its dice drawn, so that another
// player's throw can be followed on the table itself.
function lastSaid(table, animate) {
  const event = (table.events ?? []).findLast((e) => !e.hidden && (e.sentence || e.outcome));
  if (!event) return null;
  return h("p", { class: animate ? "ade-said ade-flash-felt" : "ade-said" },
    logLine(event.sentence ?? ""), event.outcome ? h("span", { class: "ade-outcome" }, " ", logLine(event.outcome)) : null);
}

// The game's end: the winners, each with a golden egg, the final standings, and where every hen
// ended on the ladder.
function overTray(table, view, tr, ladders) {
  const goldEgg = () => s("svg", { viewBox: "0 0 40 40", class: "ade-gold", "aria-hidden": "true", focusable: "false" },
    s("path", { d: EGG, class: "ade-gold-egg" }), s("ellipse", { cx: 15.5, cy: 16, rx: 2.4, ry: 4.2, class: "ade-shine" }));
  const won = new Set(view.winners ?? []);
  const winners = [...won].map((seat) => h("span", { class: "ade-winner" }, chip(table, seat), " ", nameOf(table, seat)));
  const over = h("div", { class: "ade-tray-head ade-over-head" }, h("strong", { id: "ade-over" }, table.t("The game is over")),
    winners.length ? h("span", {}, `${table.t("Winners")}: `) : null, ...winners);
  const order = view.scores.map((score, seat) => ({ score, seat })).sort((a, b) => b.score - a.score || a.seat - b.seat);
  const standings = h("ol", { class: "ade-standings" }, order.map(({ score, seat }) =>
    h("li", { class: won.has(seat) ? "ade-podium ade-won" : "ade-podium" },
      won.has(seat) ? goldEgg() : h("span", { class: "ade-gold" }), chip(table, seat),
      h("span", { class: "ade-name" }, nameOf(table, seat)), h("strong", {}, String(score)))));
  return h("section", { class: "ade-tray ade-tray-over", "aria-label": tr("turnOf") }, over,
    h("div", { class: "ade-tray-main" }, standings, h("figure", { class: "ade-ladder-fig" }, ladders[0], h("figcaption", { "aria-hidden": "true" }, tr("ladder")))),
    ladders[1]);
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
  const key = [table.seat, view.player, view.stage, view.rolls, view.dice.join(""), view.scores.join(","), view.crossed.join(",")].join("|");
  if (memo.key !== key) {
    memo.key = key;
    memo.picked = new Set();
  }
  // Only an update that changed the table animates, and only what it changed (table.previous).
  const animate = fromUpdate && memo.animated !== key && !memo.first && Boolean(table.previous);
  memo.animated = key;
  const { current, done } = story(table.events);
  const active = container.contains(document.activeElement) ? document.activeElement : null;
  const lost = !document.activeElement || document.activeElement === document.body;
  const focusId = memo.focus ?? (active ? active.dataset?.die ?? (active.id || null) : null) ?? (lost ? memo.carry : null);
  memo.focus = null;
  memo.carry = null;
  const before = fromUpdate ? null : positions(container);
  after = [];
  const board = h("div", { class: "ade-board", lang: table.lang === "de" ? "de" : "en", "data-point": "board",
    "data-stage": view.stage, "data-players": view.scores.length },
    tray(table, view, tr, current, animate), sheet(table, view, tr, animate), lastTurn(table, view, tr, done, animate));
  container.replaceChildren(board);
  for (const start of after) start();
  after = [];
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
    const ms = motionMs();
    if (ms) node.animate([{ transform: `translate(${dx}px, ${dy}px)` }, { transform: "none" }], { duration: ms * 0.7, easing: "ease-out" });
  }
}
