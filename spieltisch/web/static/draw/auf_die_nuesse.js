// Auf die Nüsse! drawn as it lies on a real table, from the viewer's view and legal moves only:
// the 4-, 3- and 2-area over the start track 2-12, the four face-up nuts below it, the three
// dice, the draw pile and the set-aside cards, and each player's squirrels, eight nut stores,
// kept jokers and David the raccoon. A click on a space, a die, a nut or a store plays the
// matching legal move; a click that matches none is sent by its notation (table.try), so the
// engine's refusal is shown. A joker that can count as either of its kinds asks which.
// Every part names the rule that governs it (data-rule, a rule id of the rules page, shown by
// the "rules at hand" panel on a click) and the lesson's board parts carry data-point (the
// names of the lesson's `points`, which the lesson page highlights).
// The pictures are this project's own SVG drawings (squirrels in the seats' colours with their
// letters, the four nuts, David, the tree the spaces sit in), shared as <symbol>s; what changed
// since table.previous moves briefly (a squirrel climbs, a nut travels to the hand and into its
// store, the dice roll), never under reduced motion and never holding up a click.
import { N_, translated } from "../i18n.js";
const CSS = "/static/draw/auf_die_nuesse.css";
const NUTS = ["walnut", "hazelnut", "beechnut", "acorn"];
const SIZES = [2, 2, 3, 3, 4, 4, 5, 6];
const VALUES = { standard: [5, 5, 10, 10, 15, 15, 20, 30], five_25: [5, 5, 10, 10, 15, 15, 25, 30] };
const SPACES = ["2-4", "5-6", "7", "8-9", "10-12", "3-left", "3-raccoon", "3-right", "4-area"];
const SLOTS = ["2-4", "5-6", "8-9", "10-12"];
const NEED = [2, 2, 2, 2, 2, 3, 3, 3, 4];
const RACCOONS = new Set([2, 6]);
// Each space's lesson part and rule: the 2-area, the raccoon spaces, the 3-area, the 4-area.
const PART_OF = (space) => (space === 8 ? "area-4" : RACCOONS.has(space) ? "raccoon" : space < 5 ? "area-2" : "area-3");
// Where each space lies on the board's grid of eleven columns (one per start-track space):
// [first column, columns spanned, row]. Row 1 is the 4-area at the top.
const PLACE_OF = [[1, 3, 3], [4, 2, 3], [6, 1, 3], [7, 2, 3], [9, 3, 3], [1, 5, 2], [6, 1, 2], [7, 5, 2], [1, 11, 1]];
const SLOT_COLUMNS = [[1, 3], [4, 2], [7, 2], [9, 3]];
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };
const SVG = "http://www.w3.org/2000/svg";
// A player's squirrels on one space are drawn one by one up to this many; beyond, one with a count.
const MANY = 6;

// The board's words: English msgids of the catalogs (spieltisch/locale), in the page's
// language through translated().
const TEXT = {
  walnut: N_("walnut"),
  hazelnut: N_("hazelnut"),
  beechnut: N_("beechnut"),
  acorn: N_("acorn"),
  walnuts: N_("walnuts"),
  hazelnuts: N_("hazelnuts"),
  beechnuts: N_("beechnuts"),
  acorns: N_("acorns"),
  joker: N_("joker"),
  board: N_("The board"),
  area4: N_("4-area"),
  area3: N_("3-area"),
  area2: N_("2-area"),
  raccoon: N_("raccoon"),
  track: N_("start track"),
  space: N_("space"),
  need: N_("pays with"),
  faceUp: N_("face-up nut under"),
  noCard: N_("no nut lies here"),
  squirrels: N_("squirrels"),
  squirrel: N_("squirrel"),
  of: N_("of"),
  green: N_("green die"),
  white: N_("white die"),
  dice: N_("The dice"),
  notRolled: N_("not rolled yet"),
  roll: N_("Roll again"),
  fails: N_("fails"),
  stop: N_("Stop"),
  moveUp: N_("move up"),
  passTake: N_("Take no nut"),
  passSteal: N_("Steal nothing"),
  passSetup: N_("Place no more"),
  keep: N_("Keep the joker"),
  as: N_("Count the joker as"),
  cancel: N_("Cancel"),
  pile: N_("Draw pile"),
  reserve: N_("Set aside"),
  cards: N_("cards"),
  unseen: N_("Not seen yet"),
  end: N_("The end has come: the set-aside cards are the pile."),
  supply: N_("in supply"),
  points: N_("points"),
  point: N_("point"),
  david: N_("David the raccoon sits here: nothing can be stolen"),
  davidShort: N_("David"),
  inHand: N_("In hand"),
  from: N_("from under"),
  theft: N_("the raccoon's theft is still owed"),
  store: N_("Store"),
  full: N_("full, turned over"),
  empty: N_("empty"),
  worth: N_("worth"),
  whenFull: N_("when full"),
  holds: N_("holds"),
  kept: N_("Kept jokers"),
  none: N_("none"),
  you: N_("you"),
  toMove: N_("to move"),
  winner: N_("winner"),
  collecting: N_("pays out now"),
  prompt: {
    setup: N_("Before the first turn: click a 2-area space for your squirrel."),
    place: N_("Click a white die (or its space on the start track) for your squirrel."),
    again: N_("Click the dice to roll again, or Stop to move your squirrels up."),
    againJoker: N_("A kept joker: click it, then one of your stores."),
    take: N_("Click one of the highlighted face-up nuts."),
    put: N_("Click one of your stores for the nut in hand."),
    steal: N_("Your raccoon may steal: click another player's store."),
    pick: N_("Now click one of your stores for the joker."),
    wait: N_("Waiting for"),
    over: N_("The game is over."),
    chance: N_("The dice are rolled or a card is drawn."),
    watch: N_("You are watching."),
  },
};

// What the board remembers between draws: the view it last drew (so that only a new view is
// animated), a joker chosen to lay, and a pending choice of the kind a joker counts as.
const ui = { view: null, version: 0, joker: null, choice: null, container: null, table: null };

function words(table) {
  const words = translated(TEXT);
  // A nut's letter is its name's first (W, H, B, A; in German W, H, B, E for Eichel).
  words.letters ??= Object.fromEntries(NUTS.map((kind) => [kind, words[kind][0].toUpperCase()]));
  return words;
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) if (child) node.append(child);
  return node;
}

function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "on") for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
}

function loadCss() {
  if (document.querySelector(`link[href="${CSS}"]`)) return;
  document.head.append(h("link", { rel: "stylesheet", href: CSS }));
}

// --- Reading the view ---------------------------------------------------------------------

function kindsOf(card) {
  return card ? card.split("/") : [];
}

function cardName(w, card) {
  if (!card) return w.noCard;
  const kinds = kindsOf(card);
  return kinds.length === 2 ? `${w.joker} ${w[kinds[0]]}/${w[kinds[1]]}` : w[card];
}

const STANDARD_BY_SIZE = { 2: 5, 3: 10, 4: 15, 5: 20, 6: 30 };

// The table's store values: its store_table, where a store value parameter (store_value_N)
// left at its default does not override it (the engine's Config.store_values, restated).
function storeValues(view) {
  const table = VALUES[view.config.store_table] ?? VALUES.standard;
  return SIZES.map((size, i) => {
    const chosen = view.config[`store_value_${size}`];
    return chosen !== undefined && chosen !== STANDARD_BY_SIZE[size] ? chosen : table[i];
  });
}

function failCount(track) {
  const on = new Set(track);
  let fails = 0;
  for (let g = 1; g <= 6; g += 1) {
    for (let a = 1; a <= 6; a += 1) for (let b = 1; b <= 6; b += 1) if (on.has(g + a) && on.has(g + b)) fails += 1;
  }
  return fails;
}

function colourOf(table, seat) {
  const colours = table.colours ?? [];
  return colours[seat % Math.max(colours.length, 1)] ?? { fill: `var(--seat-${(seat % 6) + 1})`, letter: String(seat + 1) };
}

function nameOf(table, seat) {
  return table.names?.[seat] ?? `P${seat + 1}`;
}

// --- Moves: a click is matched to a legal move by its notation ------------------------------

function legalMap(table) {
  return new Map((table.legal ?? []).map((move) => [move.text, move]));
}

function canAct(table) {
  return table.seat !== null && table.seat !== undefined && (table.legal ?? []).length > 0
    && typeof table.play === "function";
}

function send(table, text) {
  const move = legalMap(table).get(text);
  ui.joker = null;
  ui.choice = null;
  if (move) table.play(move);
  else if (typeof table.try === "function") table.try(text);
}

function redraw() {
  if (ui.container && ui.table) draw(ui.container, ui.table);
}

// Several legal moves for one click (a joker counting as either kind): ask which.
function choose(table, texts, fallback) {
  const legal = legalMap(table);
  const open = texts.filter((text) => legal.has(text));
  if (open.length === 1) return send(table, open[0]);
  if (open.length === 0) return send(table, fallback);
  ui.choice = open;
  redraw();
}

function storeClick(table, view, player, index) {
  const stage = view.stage;
  const label = `S${index + 1}`;
  const store = view.stores[player][index];
  if (stage === "steal") return send(table, `steal P${player + 1} ${label}`);
  const card = stage === "put" ? view.pending : ui.joker;
  if (!card) return;
  const kinds = kindsOf(card);
  const first = store.kind && kinds.includes(store.kind) ? store.kind : kinds[0];
  if (stage === "put") {
    return choose(table, kinds.map((kind) => `put ${kind} ${label}`), `put ${first} ${label}`);
  }
  choose(table, kinds.map((kind) => `lay ${card} as ${kind} ${label}`), `lay ${card} as ${first} ${label}`);
}

// A clickable thing on the board: a button carrying the notation it sends (data-move), marked
// data-legal when that is one of the viewer's legal moves; anything else is a plain picture.
function target(table, tag, attrs, text, onClick, ...children) {
  const legal = text !== null && legalMap(table).has(text);
  const className = `${attrs.class ?? ""}${legal ? " nd-legal" : ""}`;
  if (!canAct(table) || (text === null && !onClick)) {
    return h(tag, { ...attrs, class: className, role: attrs.role ?? "img" }, ...children);
  }
  return h("button", {
    ...attrs, class: `${className} nd-click`, type: "button", "data-move": text ?? false,
    "data-legal": legal ? "1" : false,
    on: { click: (event) => { event.preventDefault(); if (onClick) onClick(); else send(table, text); } },
  }, ...children);
}

// --- Pictures: nuts, cards, dice, squirrels ------------------------------------------------

// The drawings, once per page: SVG symbols every nut, squirrel and raccoon on the page uses
// (<use>), coloured by the board's custom properties (auf_die_nuesse.css), never by values here.
const SPRITE_ID = "nd-sprite";
const SYMBOLS = {
  walnut: ["0 0 20 20", [
    ["circle", { cx: 10, cy: 10.5, r: 7.6, class: "nd-f-walnut" }],
    ["path", { d: "M10 3v15M6.5 5.5q2 2.2 0 4.4t0 4.6M13.5 5.5q-2 2.2 0 4.4t0 4.6M4 9.5q1.5 1 0 2.5M16 9.5q-1.5 1 0 2.5", class: "nd-l-walnut" }]]],
  hazelnut: ["0 0 20 20", [
    ["path", { d: "M10 18.6C4.6 18.6 3 14 3.8 10.6 4.6 7.4 7.4 5.6 10 5.6s5.4 1.8 6.2 5c.8 3.4-.8 8-6.2 8Z", class: "nd-f-hazel" }],
    ["path", { d: "M4.6 9.4C5.8 6.8 8 5.6 10 5.6s4.2 1.2 5.4 3.8c-2-1-8.8-1-10.8 0Z", class: "nd-f-hazel-top" }],
    ["path", { d: "M10 5.6V2.4M7 12.5q-.8 2.5.5 4.6", class: "nd-l-hazel" }]]],
  beechnut: ["0 0 20 20", [
    ["path", { d: "M10 1.6c2.2 5 6.4 10 5.8 15-1.6 2.4-10 2.4-11.6 0-.6-5 3.6-10 5.8-15Z", class: "nd-f-beech" }],
    ["path", { d: "M10 3.5v14.6M10 3.5c-1.6 4.4-3.6 8.6-3.2 13.4", class: "nd-l-beech" }]]],
  acorn: ["0 0 20 20", [
    ["path", { d: "M5.4 9.6c0 5.6 2.6 9 4.6 9s4.6-3.4 4.6-9Z", class: "nd-f-acorn" }],
    ["path", { d: "M3.4 10C3.2 5.2 16.8 5.2 16.6 10c-2.6 1.2-10.6 1.2-13.2 0Z", class: "nd-f-acorn-cap" }],
    ["path", { d: "M10 5.8l.8-3.4M6 8.2h1.6M9.2 7.8h1.6M12.4 8.2H14", class: "nd-l-acorn" }]]],
  raccoon: ["0 0 24 24", [
    ["path", { d: "M3.4 10 4.6 2.6 10.4 6.2ZM20.6 10l-1.2-7.4-5.8 3.6Z", class: "nd-f-coon" }],
    ["path", { d: "M2 12.4C2 7.4 7 5 12 5s10 2.4 10 7.4c0 4.2-5 8.4-10 8.8-5-.4-10-4.6-10-8.8Z", class: "nd-f-coon" }],
    ["path", { d: "M5.6 15c2.4 4.6 10.4 4.6 12.8 0-2.4-1.6-10.4-1.6-12.8 0ZM12 5.4c1 1.6 1 4 0 5.4-1-1.4-1-3.8 0-5.4Z", class: "nd-f-coon-light" }],
    ["path", { d: "M2.8 11.6c2.2-3.2 7.2-2.2 9.2.6 2-2.8 7-3.8 9.2-.6-1.4 3.2-6 3.8-9.2 2-3.2 1.8-7.8 1.2-9.2-2Z", class: "nd-f-coon-mask" }],
    ["circle", { cx: 7.6, cy: 12, r: 1.2, class: "nd-f-coon-light" }],
    ["circle", { cx: 16.4, cy: 12, r: 1.2, class: "nd-f-coon-light" }],
    ["ellipse", { cx: 12, cy: 16.4, rx: 1.6, ry: 1.1, class: "nd-f-coon-mask" }]]],
  // a sitting squirrel, its tail curled up behind it, its belly left light for the seat's letter
  squirrel: ["0 0 32 32", [
    ["path", { d: "M15 30c10 .5 16.5-7 15.5-16.5C29.5 5 22.5 1.5 17.5 4.5c-4 2.5-3 7 .5 7 2 0 2.5 2.5 2 5.5-.5 4-3 7.5-5 13Z", class: "nd-f-seat nd-l-piece" }],
    ["path", { d: "M8.4 29.5c-4.2 0-4.6-6-2.6-10.2 1.4-3 1.4-4.8 2.4-6.4l6.4.2c3.4 3.4 5.4 8.6 3.8 13-1 2.8-4.6 3.4-10 3.4Z", class: "nd-f-seat nd-l-piece" }],
    ["path", { d: "M5.8 14C2.6 13.6 1.6 11 3 8.8 4.4 6.8 6.6 6.2 8.2 6.2l1-3.4 2.2 3.6c2.2 1 3.2 3.4 2.2 6-1.2 2.2-4.6 2.4-7.8 1.6Z", class: "nd-f-seat nd-l-piece" }],
    ["ellipse", { cx: 11.6, cy: 22.6, rx: 4.4, ry: 5, class: "nd-f-belly" }],
    ["circle", { cx: 7.4, cy: 9.4, r: 1, class: "nd-f-eye" }]]],
};

function ensureSprite() {
  if (document.getElementById(SPRITE_ID)) return;
  const symbols = Object.entries(SYMBOLS).map(([name, [viewBox, parts]]) =>
    s("symbol", { id: `nd-s-${name}`, viewBox }, parts.map(([tag, attrs]) => s(tag, attrs))));
  document.body.append(s("svg", { id: SPRITE_ID, class: "nd-sprite", "aria-hidden": "true", focusable: "false" }, s("defs", {}, symbols)));
}

function use(name, attrs = {}, ...more) {
  ensureSprite();
  return s("svg", { "aria-hidden": "true", focusable: "false", ...attrs }, s("use", { href: `#nd-s-${name}` }), ...more);
}

function nutIcon(kind) {
  return use(kind, { viewBox: "0 0 20 20", class: `nd-nut nd-nut-${kind}` });
}

function cardFace(w, card) {
  const kinds = kindsOf(card);
  const parts = [];
  kinds.forEach((kind, i) => {
    if (i) parts.push(h("span", { class: "nd-slash", "data-letter": "/" }));
    parts.push(nutIcon(kind), h("span", { class: "nd-letter", "data-letter": w.letters[kind] }));
  });
  return parts;
}

function cardNode(w, card, extra = "") {
  const joker = kindsOf(card).length === 2;
  return h("span", {
    class: `nd-card ${joker ? "nd-joker" : `nd-kind-${card}`} ${extra}`,
    role: "img", "aria-label": cardName(w, card), "data-rule": joker ? "nuesse.jokers" : "nuesse.cards",
  }, cardFace(w, card));
}

// A log sentence with its nuts drawn as the board draws them: each nut card the sentence names
// ("a walnut", "The W/H joker", in the page's language: the server's phrases) becomes a small
// card, named by those same words.
const SAID_NUTS = {
  walnut: [N_("walnut"), N_("a walnut"), N_("the walnut"), N_("A walnut"), N_("The walnut")],
  hazelnut: [N_("hazelnut"), N_("a hazelnut"), N_("the hazelnut"), N_("A hazelnut"), N_("The hazelnut")],
  beechnut: [N_("beechnut"), N_("a beechnut"), N_("the beechnut"), N_("A beechnut"), N_("The beechnut")],
  acorn: [N_("acorn"), N_("an acorn"), N_("the acorn"), N_("An acorn"), N_("The acorn")],
  joker: [N_("{letters} joker"), N_("a {letters} joker"), N_("the {letters} joker"), N_("A {letters} joker"), N_("The {letters} joker")],
};
// A joker's letters in the server's phrases (notation, the same in every language).
const SAID_LETTERS = { W: "walnut", H: "hazelnut", B: "beechnut", A: "acorn" };
const JOKER_LETTERS = "[WHBA]/[WHBA]";
const logPattern = { said: null, pattern: null, cards: [] };

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

// One pattern for every phrase, the longest first ("a walnut" before "walnut"), each its own
// group, whole words only; and the card (or "joker") each group names.
function nutPattern() {
  const said = translated(SAID_NUTS);
  if (logPattern.said === said) return logPattern;
  const phrases = Object.entries(said).flatMap(([card, texts]) => texts.map((text) => ({ card, text })))
    .sort((a, b) => b.text.length - a.text.length);
  const source = phrases.map(({ text }) => `(${escaped(text).replace(escaped("{letters}"), JOKER_LETTERS)})`).join("|");
  return Object.assign(logPattern, { said, pattern: new RegExp(`(?<![\\p{L}\\p{N}])(?:${source})(?![\\p{L}\\p{N}])`, "gu"),
    cards: phrases.map(({ card }) => card) });
}

export function logLine(text) {
  if (!text) return text;
  const { pattern, cards } = nutPattern();
  const w = words(null);
  let out = null;
  let at = 0;
  for (const found of text.matchAll(pattern)) {
    let card = cards[found.slice(1).findIndex((group) => group !== undefined)];
    if (card === "joker") card = found[0].match(new RegExp(JOKER_LETTERS))[0].split("/").map((letter) => SAID_LETTERS[letter]).join("/");
    out ??= document.createElement("span");
    out.append(text.slice(at, found.index), logCard(w, card, found[0]));
    at = found.index + found[0].length;
  }
  if (!out) return text;
  out.append(text.slice(at));
  return out;
}

function logCard(w, card, said) {
  const joker = kindsOf(card).length === 2;
  return h("span", { class: `nd-card nd-log-card ${joker ? "nd-joker" : `nd-kind-${card}`}`, role: "img",
    "aria-label": said, title: cardName(w, card) }, cardFace(w, card));
}

function dieFace(value) {
  const on = new Set(PIPS[value] ?? []);
  return Array.from({ length: 9 }, (_, i) => h("span", { class: on.has(i) ? "nd-pip nd-on" : "nd-pip" }));
}

// A squirrel in its seat's colour (the page's seat colours), its letter on its belly. On the
// board the letter and a count are drawn by the stylesheet (data-letter), so that a clickable
// space's visible words stay the start of its name; the player's own squirrel has it as text.
function squirrel(table, seat, count = 1, extra = "", text = false) {
  const colour = colourOf(table, seat);
  const letter = h("span", { class: "nd-sq-letter", "data-letter": text ? false : colour.letter }, text ? colour.letter : null);
  const node = h("span", { class: `nd-sq ${extra}`, "aria-hidden": "true", "data-rule": "nuesse.supplies", "data-seat": seat },
    use("squirrel", { viewBox: "0 0 32 32" }), letter, count > 1 ? h("small", { "data-letter": `×${count}` }) : null);
  node.style.color = colour.fill;
  return node;
}

function squirrels(table, counts, cap, changed) {
  const nodes = [];
  counts.forEach((count, seat) => {
    if (!count) return;
    const pop = changed?.has(seat) ? "nd-climb" : "";
    if (count > cap) nodes.push(squirrel(table, seat, count, pop));
    else for (let i = 0; i < count; i += 1) nodes.push(squirrel(table, seat, 1, pop));
  });
  return nodes;
}

function countsText(table, w, counts) {
  const parts = counts.map((count, seat) => (count ? `${nameOf(table, seat)} ${count}` : null)).filter(Boolean);
  return parts.length ? `${w.squirrels}: ${parts.join(", ")}` : `0 ${w.squirrels}`;
}

// --- What changed since the last view (for the short animations) -------------------------

function changes(view, previous) {
  const none = { spaces: new Map(), paid: new Set(), track: new Set(), slots: new Set(), stores: new Set(),
    filled: new Set(), jokers: new Set(), david: false, dice: false, pile: false };
  if (!previous || previous === view) return none;
  const found = none;
  view.areas.forEach((row, space) => row.forEach((count, seat) => {
    const before = previous.areas?.[space]?.[seat] ?? 0;
    if (count > before) {
      if (!found.spaces.has(space)) found.spaces.set(space, new Set());
      found.spaces.get(space).add(seat);
    } else if (count < before) found.paid.add(space);
  }));
  const had = new Set(previous.player === view.player ? previous.track : []);
  for (const n of view.track) if (!had.has(n)) found.track.add(n);
  view.face_up.forEach((card, slot) => { if (card && card !== previous.face_up?.[slot]) found.slots.add(slot); });
  view.stores.forEach((row, seat) => row.forEach((store, index) => {
    const before = previous.stores?.[seat]?.[index];
    if (!before || JSON.stringify(before) === JSON.stringify(store)) return;
    found.stores.add(`${seat}:${index}`);
    if (store.full && !before.full) found.filled.add(`${seat}:${index}`);
  }));
  view.jokers.forEach((held, seat) => { if (held.length > (previous.jokers?.[seat]?.length ?? 0)) found.jokers.add(seat); });
  found.david = view.david !== previous.david && view.david !== null;
  found.pile = view.pile !== previous.pile;
  return found;
}

function rolled(table) {
  // A roll since the last drawn view shows as a roll even when the dice read the same.
  return (table.events ?? []).some((event) => event.version > ui.version && String(event.text).startsWith("dice "));
}

// --- The parts of the table ----------------------------------------------------------------

function spaceNode(table, w, view, space, moved) {
  const [column, span, row] = PLACE_OF[space];
  const label = SPACES[space];
  const area = space < 5 ? w.area2 : space < 8 ? w.area3 : w.area4;
  const name = RACCOONS.has(space) ? `${area} ${w.raccoon}` : space < 5 ? `${area} ${label}` : space === 8 ? area
    : `${area} ${space === 5 ? "←" : "→"}`;
  const counts = view.areas[space];
  const setup = view.stage === "setup";
  const text = setup && space < 5 ? `setup ${label}` : null;
  const classes = ["nd-space", `nd-row${row}`, RACCOONS.has(space) ? "nd-raccoon" : "",
    view.space === space ? "nd-paying" : "", moved.paid.has(space) ? "nd-anim-flash" : "",
    moved.paid.has(space) || moved.spaces.has(space) ? "nd-changed" : ""].join(" ");
  const node = target(table, "div", {
    class: classes, "data-space": space, "data-point": PART_OF(space), "data-rule": `nuesse.${PART_OF(space)}`,
    "aria-label": `${name} (${w.need} ${NEED[space]}): ${countsText(table, w, counts)}${view.space === space ? `, ${w.collecting}` : ""}`,
  }, text, null,
  h("span", { class: "nd-space-label" }, RACCOONS.has(space) ? raccoonIcon() : null,
    space < 5 && !RACCOONS.has(space) ? label : "", h("span", { class: "nd-need", "data-letter": NEED[space] })),
  h("span", { class: "nd-tokens" }, squirrels(table, counts, space === 8 ? 12 : span > 1 ? MANY : 3, moved.spaces.get(space))));
  node.style.gridColumn = `${column} / span ${span}`;
  node.style.gridRow = String(row);
  return node;
}

function raccoonIcon() {
  return use("raccoon", { viewBox: "0 0 24 24", class: "nd-raccoon-icon" });
}

function trackNode(table, w, view, n, moved) {
  const on = view.track.includes(n);
  const text = view.stage === "place" ? `place ${n}` : null;
  const offered = view.stage === "place" && view.placements.includes(n);
  const node = target(table, "div", {
    class: `nd-track${offered ? " nd-offered" : ""}`, "data-track": n, "data-point": "track", "data-rule": "nuesse.start-track",
    "aria-label": `${w.track} ${n}${on ? `: ${w.squirrel} ${nameOf(table, view.player)}` : ""}`,
  }, text, null, h("span", { class: "nd-track-number" }, String(n)),
  on ? squirrel(table, view.player, 1, moved.track.has(n) ? "nd-placed" : "") : null);
  node.style.gridColumn = String(n - 1);
  node.style.gridRow = "4";
  return node;
}

function slotNode(table, w, view, slot, moved) {
  const card = view.face_up[slot];
  const [column, span] = SLOT_COLUMNS[slot];
  const text = view.stage === "take" ? `take ${SLOTS[slot]}` : null;
  const offered = view.stage === "take" && view.offer.includes(slot);
  const node = target(table, "div", {
    class: `nd-slot${offered ? " nd-offered" : ""}${view.refill === slot ? " nd-refill" : ""}`, "data-slot": slot,
    "data-point": "face-up", "data-rule": "nuesse.face-up-row",
    "aria-label": `${w.faceUp} ${SLOTS[slot]}: ${cardName(w, card)}`,
  }, text, null, card ? cardNode(w, card, moved.slots.has(slot) ? "nd-dealt" : "") : h("span", { class: "nd-card nd-gap", "aria-hidden": "true" }));
  node.style.gridColumn = `${column} / span ${span}`;
  node.style.gridRow = "5";
  return node;
}

// The tree the spaces sit in, behind the grid: its crown behind the 4-area, branches under the
// 3- and 2-area, the trunk (with the raccoon's hollows) over space 7, roots over the start track.
const TREE = [
  ["nd-crown", "M4 26C-2 14 10 2 24 6 32-2 46 2 55 5c9-3 24-7 31 1 14-4 26 8 20 20Z"],
  ["nd-bark", "M51 104c1-20 2-50 0-100h8c-2 50-1 80 0 100ZM51 80c-7 1-9 4-12 7l3 1c3-3 6-5 10-5ZM59 80c7 1 9 4 12 7l-3 1c-3-3-6-5-10-5Z"],
  ["nd-bark", "M52 44C40 41 24 45 3 40v5c21 4 37 1 49 4ZM58 44c12-3 28 1 49-4v5c-21 4-37 1-49 4ZM52 74c-12-3-26 1-48-5v5c22 6 36 3 48 5ZM58 74c12-3 26 1 48-5v5c-22 6-36 3-48 5Z"],
];

function treeNode() {
  const node = s("svg", { class: "nd-tree", viewBox: "0 0 110 100", preserveAspectRatio: "none", "aria-hidden": "true", focusable: "false" },
    TREE.map(([cls, d]) => s("path", { d, class: cls })));
  node.style.gridColumn = "1 / -1";
  node.style.gridRow = "1 / 5";
  return node;
}

function boardNode(table, w, view, moved) {
  const cells = [];
  for (let space = 8; space >= 0; space -= 1) cells.push(spaceNode(table, w, view, space, moved));
  for (let n = 2; n <= 12; n += 1) cells.push(trackNode(table, w, view, n, moved));
  for (let slot = 0; slot < 4; slot += 1) cells.push(slotNode(table, w, view, slot, moved));
  cells.unshift(treeNode());
  return h("div", { class: "nd-board", role: "group", "aria-label": w.board, "data-point": "board", "data-rule": "nuesse.checks" }, cells);
}

function diceNode(table, w, view, moved) {
  const dice = view.dice;
  const stage = view.stage;
  const spin = moved.dice ? " nd-anim-roll" : "";
  const die = (key, value, colour, sum) => {
    const white = key !== "green";
    const text = stage === "again" && legalMap(table).has("roll") ? "roll"
      : stage === "place" && white && dice ? `place ${dice.green + value}` : null;
    const label = value ? `${white ? w.white : w.green}: ${value}${white && dice ? ` (${dice.green} + ${value} = ${dice.green + value})` : ""}`
      : `${white ? w.white : w.green}: ${w.notRolled}`;
    return h("span", { class: "nd-die-box" },
      target(table, "div", { class: `nd-die nd-${colour}${spin}`, "data-die": key, "aria-label": label, "data-rule": white ? "nuesse.place" : "nuesse.roll" }, text, null, dieFace(value)),
      h("span", { class: "nd-die-caption", "aria-hidden": "true" }, white ? (sum ? `= ${sum}` : "") : w.green));
  };
  return h("div", { class: "nd-dice", role: "group", "aria-label": w.dice, "data-point": "dice", "data-rule": "nuesse.roll" },
    die("green", dice?.green, "green", null), h("span", { class: "nd-plus", "aria-hidden": "true" }, "+"),
    die("white1", dice?.white1, "white", dice ? dice.green + dice.white1 : null),
    die("white2", dice?.white2, "white", dice ? dice.green + dice.white2 : null));
}

function actionsNode(table, w, view) {
  if (!canAct(table)) return null;
  const legal = legalMap(table);
  const buttons = [];
  // "data-ends-turn": the page never puts a new turn's focus there
  const button = (text, label, extra = "", rule = "nuesse.roll-or-stop") => buttons.push(target(table, "span", { class: `nd-action ${extra}`, "aria-label": label,
    "data-ends-turn": text === "stop" ? "1" : false, "data-rule": rule }, text, null, label));
  if (legal.has("roll")) button("roll", `${w.roll} (${w.fails} ${failCount(view.track)}/216)`, "nd-roll");
  if (legal.has("stop")) button("stop", `${w.stop}: ${view.track.length} ${w.moveUp}`, "nd-stop", "nuesse.stop-move-up");
  if (legal.has("keep")) button("keep", w.keep, "", "nuesse.jokers");
  if (legal.has("pass")) {
    button("pass", view.stage === "steal" ? w.passSteal : view.stage === "setup" ? w.passSetup : w.passTake, "",
      view.stage === "setup" ? "nuesse.setup-always" : "nuesse.ruling-raccoon");
  }
  return buttons.length ? h("div", { class: "nd-actions", "data-rule": "nuesse.roll-or-stop" }, buttons) : null;
}

// The piles; the count of each kind of nut not seen yet is a memory aid (the cards drawn were
// seen by all, but keeping count is each player's own work), shown where the house allows.
function pileNode(w, view, moved, aids) {
  const unseen = view.unseen ?? [];
  const plain = NUTS.map((kind, i) => `${w.letters[kind]} ${unseen[i] ?? 0}`).join(" · ");
  const jokers = unseen.slice(4).reduce((a, b) => a + b, 0);
  return h("div", { class: "nd-piles", "data-point": "piles", "data-rule": "nuesse.setup-aside" },
    h("div", { class: `nd-pile${moved.pile ? " nd-anim-flash" : ""}`, role: "img", "aria-label": `${w.pile}: ${view.pile} ${w.cards}`, "data-pile": view.pile, "data-rule": "nuesse.setup-aside" },
      h("span", { class: "nd-back" }, nutIcon("acorn")), h("span", {}, `${w.pile}: `, h("strong", {}, String(view.pile)))),
    h("div", { class: "nd-pile", role: "img", "aria-label": `${w.reserve}: ${view.set_aside} ${w.cards}`, "data-rule": "nuesse.setup-aside" },
      h("span", { class: "nd-back nd-aside" }, nutIcon("walnut")), h("span", {}, `${w.reserve}: `, h("strong", {}, String(view.set_aside)))),
    aids ? h("div", { class: "nd-unseen", "data-rule": "nuesse.memory-aids" }, `${w.unseen}: ${plain} · ${w.joker} ${jokers}`) : null,
    view.ending !== "not yet" ? h("div", { class: "nd-ending", "data-rule": "nuesse.end" }, w.end) : null);
}

function storeNode(table, w, view, player, index, moved) {
  const store = view.stores[player][index];
  const size = SIZES[index];
  const value = storeValues(view)[index];
  const key = `${player}:${index}`;
  const stage = view.stage;
  const mine = player === table.seat;
  let text = null;
  let click = null;
  let options = [];
  if (canAct(table)) {
    if (stage === "steal") text = `steal P${player + 1} S${index + 1}`;
    else if (mine && (stage === "put" || (stage === "again" && ui.joker))) {
      click = () => storeClick(table, view, player, index);
      options = storeOptions(table, view, index);
      if (options.length === 1) text = options[0];
    }
  }
  const kind = store.kind;
  const fill = store.nuts + store.jokers;
  const contents = kind ? `${fill} ${w.of} ${size}, ${w[`${kind}s`]}${store.jokers ? `, ${store.jokers} ${w.joker}` : ""}` : w.empty;
  // The name starts with the words the store shows ("S1 5"), as a voice user says them.
  const label = `S${index + 1} ${value} – ${w.store} ${w.of} ${nameOf(table, player)}: ${store.full ? `${w.full}, ${value} ${w.points}`
    : `${contents}; ${w.holds} ${size}, ${w.worth} ${value} ${w.whenFull}`}`;
  const pips = [];
  for (let i = 0; i < size; i += 1) {
    const joker = i >= store.nuts && i < fill;
    pips.push(h("span", { class: `nd-hole${i < fill ? " nd-filled" : ""}${joker ? " nd-held-joker" : ""}`, "aria-hidden": "true" },
      i < fill && kind ? nutIcon(kind) : null));
  }
  const anim = moved.filled.has(key) ? " nd-anim-flip nd-changed" : moved.stores.has(key) ? " nd-changed" : "";
  const node = target(table, "div", { class: `nd-store${store.full ? " nd-full" : ""}${anim}`, "data-store": key, "aria-label": label,
    "data-rule": store.full ? "nuesse.store-full" : "nuesse.file-at-once" },
    text, click,
    h("span", { class: "nd-store-head", "aria-hidden": "true" }, h("span", {}, `S${index + 1}`), " ", h("span", { class: "nd-value" }, String(value))),
    store.full ? h("span", { class: "nd-turned", "aria-hidden": "true", "data-letter": "✓" }) : h("span", { class: "nd-holes" }, pips));
  if (options.length > 1) {
    node.dataset.choose = "1";
    node.classList.add("nd-legal");
  }
  return node;
}

// The legal moves a click on one of the viewer's stores can make: the nut in hand, or the
// chosen kept joker, put there (a joker as either of its kinds).
function storeOptions(table, view, index) {
  const card = view.stage === "put" ? view.pending : ui.joker;
  const legal = legalMap(table);
  const label = `S${index + 1}`;
  return kindsOf(card).map((kind) => (view.stage === "put" ? `put ${kind} ${label}` : `lay ${card} as ${kind} ${label}`))
    .filter((text) => legal.has(text));
}

function keptNode(table, w, view, player, moved) {
  const held = view.jokers[player] ?? [];
  const legal = legalMap(table);
  const cards = held.map((card, i) => {
    const canLay = player === table.seat && view.stage === "again" && [...legal.keys()].some((text) => text.startsWith(`lay ${card} as`));
    const chosen = ui.joker === card && canLay;
    const node = target(table, "span", { class: `nd-kept${chosen ? " nd-chosen" : ""}${canLay ? " nd-legal" : ""}`, "data-joker": card, "aria-label": `${w.kept}: ${cardName(w, card)}`, "data-rule": "nuesse.lay-jokers" },
      null, canLay ? () => { ui.joker = chosen ? null : card; ui.choice = null; redraw(); } : null,
      cardNode(w, card, moved.jokers.has(player) && i === held.length - 1 ? "nd-anim-pop" : ""));
    if (canLay) node.dataset.choose = "1";
    return node;
  });
  return h("div", { class: "nd-kept-row", "data-point": player === table.seat ? "kept-jokers" : false, "data-rule": "nuesse.jokers" },
    h("span", { class: "nd-small" }, `${w.kept}: `), cards.length ? cards : w.none);
}

function playerNode(table, w, view, player, moved) {
  const colour = colourOf(table, player);
  // Who decides now is marked (during a collection or the deal that is not always the player
  // whose turn it is); while chance acts, the player whose turn it is.
  const active = (view.actor ?? view.player) === player && view.stage !== "over";
  const you = player === table.seat;
  const won = view.stage === "over" && [...(view.winners ?? [])].includes(player);
  const head = h("div", { class: "nd-player-head" },
    squirrel(table, player, 1, "", true),
    h("strong", {}, nameOf(table, player)), you ? h("span", { class: "nd-small" }, ` (${w.you})`) : null,
    active ? h("span", { class: "nd-turn-mark", "data-rule": "nuesse.next-turn" }, ` ◀ ${w.toMove}`) : null,
    won ? h("span", { class: "nd-winner", "data-rule": "nuesse.score" }, nutIcon("acorn"), w.winner) : null,
    h("span", { class: "nd-grow" }),
    view.david === player ? h("span", { class: "nd-david", role: "img", "aria-label": w.david, title: w.david, "data-rule": "nuesse.raccoon" }, raccoonIcon(), w.davidShort) : null,
    h("span", { class: "nd-supply", "aria-label": `${view.supply[player]} ${w.squirrels} ${w.supply}`, "data-rule": "nuesse.supplies" }, `${view.supply[player]} ${w.supply}`),
    h("span", { class: "nd-score", "data-score": view.scores[player], "data-point": "scores", "data-rule": "nuesse.score" }, `${view.scores[player]} ${view.scores[player] === 1 ? w.point : w.points}`));
  const hand = view.pending && view.receiver === player && view.stage === "put"
    ? h("div", { class: "nd-hand", "data-rule": "nuesse.file-at-once" }, `${w.inHand}: `, cardNode(w, view.pending),
      view.refill !== null && view.refill !== undefined ? h("span", { class: "nd-small" }, ` ${w.from} ${SLOTS[view.refill]}`) : null)
    : null;
  const theft = view.theft && view.receiver === player ? h("div", { class: "nd-small", "data-rule": "nuesse.raccoon" }, w.theft) : null;
  const stores = h("div", { class: "nd-stores", "data-point": you ? "your-stores" : "opponent-stores", "data-rule": "nuesse.store-values" }, SIZES.map((_, index) => storeNode(table, w, view, player, index, moved)));
  const node = h("section", { class: `nd-player${active ? " nd-active" : ""}${you ? " nd-you" : ""}${won ? " nd-won" : ""}`, "data-player": player,
    "aria-label": `${nameOf(table, player)} (${colour.letter})`, "data-rule": "nuesse.supplies" }, head, hand, theft, stores, keptNode(table, w, view, player, moved));
  node.style.borderColor = colour.fill;
  return node;
}

function promptText(table, w, view) {
  if (view.stage === "over") return w.prompt.over;
  if (!canAct(table)) {
    if (table.seat === null || table.seat === undefined) return w.prompt.watch;
    return table.toAct === null || table.toAct === undefined ? w.prompt.chance : `${w.prompt.wait} ${nameOf(table, table.toAct)}…`;
  }
  if (ui.joker) return w.prompt.pick;
  const text = w.prompt[view.stage] ?? "";
  return view.stage === "again" && (view.jokers[table.seat] ?? []).length && view.config.late_jokers ? `${text} ${w.prompt.againJoker}` : text;
}

function choiceNode(table, w) {
  if (!ui.choice) return null;
  const options = ui.choice.map((text) => {
    const kind = text.match(/(?:put|as) (\w+) S\d$/)?.[1];
    return target(table, "span", { class: "nd-action nd-kind-choice", "aria-label": w[kind] ?? text }, text, null,
      kind ? nutIcon(kind) : null, w[kind] ?? text);
  });
  return h("div", { class: "nd-choice", role: "group", "aria-label": w.as, "data-rule": "nuesse.jokers" }, h("span", {}, `${w.as}: `), options,
    h("button", { type: "button", class: "nd-cancel", on: { click: () => { ui.choice = null; ui.joker = null; redraw(); } } }, w.cancel));
}

// --- The entry point -----------------------------------------------------------------------

export function draw(container, table) {
  loadCss();
  const view = table.view;
  if (!view || !view.areas) {
    container.replaceChildren();
    return;
  }
  const w = words(table);
  const fresh = view !== ui.view;
  const moved = fresh ? changes(view, table.previous) : changes(view, null);
  moved.dice = fresh && rolled(table);
  if (fresh) {
    ui.view = view;
    ui.joker = null;
    ui.choice = null;
  }
  ui.version = Math.max(0, ...(table.events ?? []).map((event) => event.version));
  ui.container = container;
  ui.table = table;
  const focusKey = container.contains(document.activeElement) ? keyOf(document.activeElement) : null;
  const before = fresh && table.previous && !still() ? placesOf(container) : null;
  const players = view.stores.map((_, player) => playerNode(table, w, view, player, moved));
  const root = h("div", {
    class: "nd-root", "data-stage": view.stage, "data-pile": view.pile, "data-mine": canAct(table) ? "1" : "0",
  },
  h("p", { class: "nd-prompt", role: "status" }, promptText(table, w, view)),
  choiceNode(table, w),
  boardNode(table, w, view, moved),
  h("div", { class: "nd-middle" }, diceNode(table, w, view, moved), actionsNode(table, w, view), pileNode(w, view, moved, Boolean(table.aids))),
  h("div", { class: "nd-players" }, players));
  container.replaceChildren(root);
  if (focusKey) root.querySelector(focusKey)?.focus();
  if (before) animate(root, table, view, table.previous, moved, before);
}

// --- Motion: what moved travels from where it was, a new view only, never under reduced ----
// motion; the board is already drawn and clickable while it runs (transforms only).

function still() {
  return matchMedia("(prefers-reduced-motion: reduce)").matches;
}

function duration() {
  const value = getComputedStyle(document.documentElement).getPropertyValue("--motion-move").trim();
  return value.endsWith("ms") ? parseFloat(value) : parseFloat(value) * 1000 || 0;
}

// Where the old board's moving parts were: the nut in hand, the face-up nuts, stores, piles.
function placesOf(container) {
  const places = new Map();
  for (const node of container.querySelectorAll("[data-slot], [data-store], .nd-hand .nd-card, .nd-pile[data-pile], .nd-david")) {
    const key = node.dataset.slot !== undefined ? `slot:${node.dataset.slot}` : node.dataset.store !== undefined
      ? `store:${node.dataset.store}` : node.dataset.pile !== undefined ? "pile"
        : node.classList.contains("nd-david") ? "david" : "hand";
    places.set(key, node.getBoundingClientRect());
  }
  // and each squirrel on the board, by seat and by where it stood
  for (const node of container.querySelectorAll("[data-space] .nd-sq, [data-track] .nd-sq")) {
    const where = node.closest("[data-space]")?.dataset.space ?? "track";
    const key = `sq:${node.dataset.seat}:${where}`;
    places.set(key, [...(places.get(key) ?? []), node.getBoundingClientRect()]);
  }
  return places;
}

function fly(node, from, time, scale = 1) {
  if (!node || !from || !from.width) return;
  const to = node.getBoundingClientRect();
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  if (Math.abs(dx) + Math.abs(dy) < 2) return;
  node.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})`, zIndex: 5 }, { transform: "none", zIndex: 5 }],
    { duration: time, easing: "cubic-bezier(.2, .7, .2, 1)" });
}

function animate(root, table, view, previous, moved, before) {
  const time = duration();
  if (!time) return;
  // A squirrel climbs into its space from the row below it.
  for (const node of root.querySelectorAll(".nd-climb")) {
    const space = node.closest("[data-space]").getBoundingClientRect();
    const at = node.getBoundingClientRect();
    fly(node, { left: at.left, width: at.width, top: at.top + space.height + 5, height: at.height }, time);
  }
  // A squirrel put on the start track comes from the white die that, with the green one, named it.
  for (const node of root.querySelectorAll(".nd-placed")) {
    const n = Number(node.closest("[data-track]").dataset.track);
    const dice = view.dice;
    const key = dice && ["white1", "white2"].find((die) => dice.green + dice[die] === n);
    fly(node, key && root.querySelector(`[data-die="${key}"]`)?.getBoundingClientRect(), time, 1.4);
  }
  // A nut comes from where it lay: a face-up nut (or a robbed store, or the pile) into the hand,
  // the hand's nut into a store.
  const robbed = [...before.keys()].find((key) => key.startsWith("store:") && storeShrank(view, previous, key.slice(6)));
  const source = (slot) => before.get(`slot:${slot}`) ?? (robbed && before.get(robbed)) ?? before.get("pile");
  // Squirrels that paid out (or a failed turn's start track) run home to their player.
  view.supply.forEach((count, seat) => {
    let home = count - (previous.supply?.[seat] ?? count);
    const to = root.querySelector(`[data-player="${seat}"] .nd-player-head .nd-sq`);
    if (home <= 0 || !to) return;
    const left = view.areas.map((row, space) => (previous.areas?.[space]?.[seat] ?? 0) > row[seat] ? String(space) : null).filter(Boolean);
    for (const where of [...left, "track"]) {
      for (const from of before.get(`sq:${seat}:${where}`) ?? []) if (home-- > 0) runHome(root, table, seat, from, to, time);
    }
  });
  // A new face-up nut is dealt from the draw pile; David walks over to the player just robbed.
  for (const node of root.querySelectorAll(".nd-dealt")) fly(node, before.get("pile"), time, 0.7);
  if (moved.david) fly(root.querySelector(".nd-david"), before.get("david") ?? root.querySelector(".nd-raccoon")?.getBoundingClientRect(), time);
  const hand = root.querySelector(".nd-hand .nd-card");
  if (hand && (previous.stage !== "put" || previous.pending !== view.pending)) fly(hand, source(view.refill), time, 0.8);
  for (const key of moved.stores) {
    const [seat, index] = key.split(":").map(Number);
    const store = view.stores[seat][index];
    const old = previous.stores[seat][index];
    if (store.nuts + store.jokers <= old.nuts + old.jokers && !store.full) continue;
    const target = root.querySelector(`[data-store="${key}"]`);
    const holes = target?.querySelectorAll(".nd-hole.nd-filled");
    fly(holes?.length ? holes[holes.length - 1] : target, before.get("hand") ?? source(previous.refill), time, 1.6);
  }
}

// A squirrel drawn where it stood, running to its player's tray and gone when it arrives.
function runHome(root, table, seat, from, to, time) {
  const ghost = squirrel(table, seat, 1, "nd-ghost");
  Object.assign(ghost.style, { left: `${from.left}px`, top: `${from.top}px` });
  root.append(ghost);
  const end = to.getBoundingClientRect();
  const move = `translate(${end.left - from.left}px, ${end.top - from.top}px)`;
  ghost.animate([{ transform: "none" }, { transform: `${move} scale(1.1)`, opacity: 0.4 }], { duration: time, easing: "cubic-bezier(.6, 0, .3, 1)" })
    .finished.then(() => ghost.remove(), () => ghost.remove());
}

function storeShrank(view, previous, key) {
  const [seat, index] = key.split(":").map(Number);
  const now = view.stores[seat]?.[index];
  const old = previous.stores?.[seat]?.[index];
  return Boolean(now && old && !old.full && now.nuts + now.jokers < old.nuts + old.jokers);
}

// The selector of a board element, so that the keyboard focus stays on it across a redraw.
function keyOf(node) {
  for (const name of ["data-space", "data-track", "data-slot", "data-die", "data-store", "data-joker"]) {
    if (node.hasAttribute?.(name)) return `[${name}="${node.getAttribute(name)}"]`;
  }
  if (node.classList?.contains("nd-action")) return node.dataset.move ? `.nd-action[data-move="${node.dataset.move}"]` : null;
  return null;
}
