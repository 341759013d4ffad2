// Auweier's board: the females with their eggs, every player's worm stacks before them, the
// hand, the decks and the wedding phase, drawn in HTML from the viewer's view and legal moves.
//
// Moves are clicks on what they act on: a hand card, then the female (a worm, a Wedding), the
// stack a Crow should eat from, or the own card a False Worm exchange replaces. Only what some
// legal move of the update's list uses is offered: the hand cards that can be played now stand
// out (outlined), the others are dimmed, marked unavailable (aria-disabled) and out of the Tab
// order, and a click on them sends nothing; once a card is chosen, the same goes for the
// females, stacks and cards it can and cannot go to. Before play, the deck is put in order in a
// list: cards are clicked (or dragged) from the tray into the order, dragged (or moved with the
// arrow keys) within it, and placed in one go, with "shuffle the rest" as a shortcut.
//
// Colours: the game names its players and females red, blue, green and yellow (seat 1 red...),
// and the notation uses those letters, so the board keeps them, drawn in the colour-blind-safe
// shades of the same palette as table.colours (Okabe and Ito), each with its letter.
//
// Art: every card, female, egg card and nest is an original drawing, a <symbol> of one sprite
// (SPRITE) used by <use>; a card keeps its value in its corner and its name for a screen reader.
// Motion: an update's changes (table.previous against the view) travel on the new drawing:
// a card from its player's hand or place to the stack, egg cards to their winner, cleared cards
// to their owner, a Crow onto the stack it eats from; never under reduced motion, never
// holding up a click. Another player's last card stays marked until the next move.
import { N_, Nn_, tn, translated } from "../i18n.js";

const CSS = "/static/draw/auweier.css";
const CARD_TEXT = ["1", "2", "2*", "3", "4", "5*", "6", "7", "F", "K", "H"];
const WORM_VALUE = [1, 2, 2, 3, 4, 5, 6, 7, 0, 0, 0];
const F = 8;
const K = 9;
const H = 10;
const LETTERS = "RBGY";
// Each colour's fill and its ink are custom properties of the board's stylesheet (--aw-c0...),
// chosen by the class aw-c<colour>; here only the letter each colour is named by.
const COLOURS = [{ letter: "R" }, { letter: "B" }, { letter: "G" }, { letter: "Y" }];
const SVG = "http://www.w3.org/2000/svg";
// The rule (an id of the rules page, docs/rules/auweier.md) that governs each card kind and
// stage: boards mark cards and parts with data-rule, lesson steps point at data-point parts.
const CARD_RULE = ["auweier.worms", "auweier.worms", "auweier.star-worms", "auweier.worms", "auweier.worms",
  "auweier.star-worms", "auweier.worms", "auweier.worms", "auweier.false-worm", "auweier.crow-card", "auweier.wedding-card"];
const STAGE_RULE = {
  order: "auweier.deck-order",
  shuffle: "auweier.deck-shuffle",
  spread: "auweier.spread",
  play: "auweier.turn",
  weddings: "auweier.wedding-stage",
  worms: "auweier.worm-stage",
  over: "auweier.end",
};

// The board's words: English msgids of the catalogs (spieltisch/locale), in the page's
// language through translated().
const TEXTS = {
  colour: [N_("red"), N_("blue"), N_("green"), N_("yellow")],
  card: [N_("worm 1"), N_("worm 2"), N_("worm 2* (crow-proof)"), N_("worm 3"), N_("worm 4"), N_("worm 5* (crow-proof)"), N_("worm 6"), N_("worm 7"), N_("False Worm (worth 0)"), N_("Crow"), N_("Wedding")],
  stage: {
    order: N_("Arranging the decks"),
    shuffle: N_("Shuffling a deck"),
    spread: N_("Shuffling a deck"),
    play: N_("Normal turn"),
    weddings: N_("Wedding phase"),
    worms: N_("Wedding phase"),
    over: N_("Game over"),
  },
  steps: [N_("Normal turns"), N_("Wedding stage"), N_("Worm stage"), N_("Mating")],
  stepHelp: {
    play: N_("play a worm, a Crow, a False Worm exchange, or open a wedding phase with a Wedding where you lead"),
    weddings: N_("each go: a Wedding before a female where you have none yet, or a final pass"),
    worms: N_("players with a Wedding: a worm or a False Worm exchange per go, or a final pass"),
  },
  female: N_("female"),
  neutral: N_("neutral"),
  eggsLeft: N_("egg cards left"),
  noEggs: N_("no eggs left"),
  closed: N_("closed"),
  you: N_("you"),
  hand: N_("Your hand"),
  handOf: N_("hand"),
  pile: N_("pile"),
  pileMine: N_("Your draw pile"),
  next: N_("next"),
  unknownOrder: N_("shuffled"),
  score: N_("points"),
  eggsWon: N_("eggs won"),
  startCard: N_("start player"),
  passed: N_("passed"),
  inPhase: N_("in the phase"),
  notInPhase: N_("takes no part"),
  ready: N_("deck ready"),
  settingUp: N_("arranging (secret)"),
  total: N_("total"),
  top: N_("top"),
  place: N_("place"),
  wedding: N_("Wedding"),
  stackOf: N_("stack of"),
  before: N_("before"),
  discarded: N_("discarded"),
  toAct: N_("to act"),
  turnOf: N_("turn"),
  choose: N_("Choose a card from your hand."),
  chosen: N_("Chosen"),
  chooseWorm: N_("click a female to lay it before her, or your card in a stack to exchange it"),
  chooseF: N_("click a female to lay it there, or one of your worms in a stack to exchange it for the False Worm"),
  chooseK: N_("click the stack whose top worm the Crow should eat"),
  chooseH: N_("click a female to lay the Wedding before her"),
  allowed: N_("outlined: allowed"),
  noUse: N_("this card has no legal use now"),
  notYourTurn: N_("It is not your turn: wait for {who}."),
  watching: N_("You are watching."),
  pickCardFirst: N_("First choose the card from your hand that this should be."),
  crowWhich: N_("Click the stack (the row of a player) the Crow should eat from."),
  passBtn: N_("Pass (final)"),
  lastMating: N_("Last mating"),
  wins: N_("{who} wins {female}'s egg card {n}"),
  noEgg: N_("no egg"),
  cleared: N_("cleared"),
  opener: N_("opened by"),
  orderTitle: N_("Arrange your deck"),
  orderHelp: N_("Places 1 to 6 are your starting hand; place 7 is the first card you draw. Click cards in the tray (or drag them) to put them in order; drag or use the arrow keys to move them; click one in your order to take it back."),
  tray: N_("Cards not placed"),
  order: N_("Your order"),
  placed: N_("placed"),
  handZone: N_("starting hand"),
  pileZone: N_("draw pile"),
  placeBtn: Nn_("Place this card", "Place these {n} cards"),
  shuffleBtn: N_("Shuffle the rest"),
  spreadBtn: N_("Shuffle the rest, Weddings spread"),
  clearBtn: N_("Take all back"),
  starterTitle: N_("First-game hand (Crow, Wedding, False Worm and:)"),
  starterBtn: N_("Use this hand"),
  dropHere: N_("drop here"),
  waitDeck: N_("{who} is arranging their deck in secret."),
  myDeckDone: N_("Your deck is ready: {known} placed, {unknown} shuffled."),
  left: N_("left"),
  empty: N_("empty"),
  lane: N_("{who}'s cards before the {female} female: total {total}"),
  remove: N_("take back"),
  moveHint: N_("position {n}"),
  over: N_("Final scores"),
  breakdown: N_("{eggs} eggs + {own} own colour + {bonus} colours"),
};

// What the board remembers between redraws (the page redraws it after every update).
const ui = {
  selected: null, // the hand card chosen for the next click, or null
  note: "", // a local explanation (a click that cannot be a move)
  draft: [], // the deck order being put together, not yet sent
  draftBase: -1, // how many cards were placed when the draft was started
  queue: [], // a move to send once the draft has been placed ("shuffle the rest")
  drag: null,
  seen: null, // the last view drawn (a new one is animated, a redraw of the same is not)
  version: -1,
  args: null,
};

let cssLoaded = false;

function loadCss() {
  if (cssLoaded || document.querySelector(`link[href="${CSS}"]`)) return;
  cssLoaded = true;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = CSS;
  document.head.append(link);
}

function words(table) {
  return translated(TEXTS);
}

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (_, key) => String(values[key] ?? ""));
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "on") for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    else if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

function expand(counts) {
  const cards = [];
  (counts ?? []).forEach((n, card) => { for (let i = 0; i < n; i += 1) cards.push(card); });
  return cards;
}

function sum(values) {
  return (values ?? []).reduce((a, b) => a + b, 0);
}

// --- moves ----------------------------------------------------------------------------------

function parseMove(text) {
  let m;
  if ((m = /^worm (\S+) ([RBGY])$/.exec(text))) return { kind: "worm", card: CARD_TEXT.indexOf(m[1]), female: LETTERS.indexOf(m[2]) };
  if ((m = /^wedding ([RBGY])$/.exec(text))) return { kind: "wedding", card: H, female: LETTERS.indexOf(m[1]) };
  if ((m = /^crow ([RBGY])@([RBGY])$/.exec(text))) return { kind: "crow", card: K, owner: LETTERS.indexOf(m[1]), female: LETTERS.indexOf(m[2]) };
  if ((m = /^swap ([RBGY])#(\d+) (\S+)$/.exec(text))) return { kind: "swap", female: LETTERS.indexOf(m[1]), place: Number(m[2]), card: CARD_TEXT.indexOf(m[3]) };
  if (text === "pass") return { kind: "pass" };
  if (text === "deck shuffle" || text === "deck spread") return { kind: "shuffle", spread: text === "deck spread" };
  if ((m = /^deck starter (\S+) (\S+) (\S+)$/.exec(text))) return { kind: "starter", cards: m.slice(1).map((c) => CARD_TEXT.indexOf(c)) };
  if ((m = /^deck (\S+)$/.exec(text))) return { kind: "deck", card: CARD_TEXT.indexOf(m[1]) };
  return { kind: "other" };
}

function legalMoves(table) {
  return (table.legal ?? []).map((move) => ({ ...move, parsed: parseMove(move.text) }));
}

function send(table, text) {
  const move = (table.legal ?? []).find((m) => m.text === text);
  ui.selected = null;
  ui.note = "";
  if (move && table.play) table.play(move);
  else if (table.try) table.try(text);
}

// --- pieces -----------------------------------------------------------------------------------

// --- the art: original drawings, each a <symbol> of one sprite put in the page once and used
// by every card, female and egg (their colours are the stylesheet's custom properties).

const SPRITE = `<symbol id="aw-s-worm" viewBox="0 0 40 40"><ellipse class="aw-soil" cx="20" cy="34" rx="15" ry="3.5"/><path class="aw-wb" d="M7 31C10 19 19 34 23 23S32 9 33 15"/><path class="aw-ws" d="M7 31C10 19 19 34 23 23S32 9 33 15"/><circle class="aw-eye" cx="33.6" cy="13.6" r="1"/></symbol>`
  + `<symbol id="aw-s-hook" viewBox="0 0 40 40"><path class="aw-line" d="M30 3v14a4 4 0 0 1-8 0v-2"/><path class="aw-line" d="M20 17l2-3 2 3"/></symbol>`
  + `<symbol id="aw-s-spots" viewBox="0 0 40 40"><path class="aw-star-art" d="M9 4l1.6 3.4 3.7.4-2.8 2.5.8 3.7L9 12.1l-3.3 1.9.8-3.7-2.8-2.5 3.7-.4z"/></symbol>`
  + `<symbol id="aw-s-crow" viewBox="0 0 40 40"><path class="aw-ink" d="M3 29c5-7 13-12 22-13l5-5c3-2 6-1 8 2l-4 2c0 5-3 9-8 11l-3 1 2 7h-3l-2-6h-4l-1 6h-3l1-6c-4 0-8 0-13 1z"/><path class="aw-wing" d="M12 24c6-5 12-6 18-4-4 3-10 5-18 4z"/><circle class="aw-eyew" cx="32" cy="12.5" r="1.1"/></symbol>`
  + `<symbol id="aw-s-wed" viewBox="0 0 40 40"><circle class="aw-ring" cx="15" cy="26" r="7.5"/><circle class="aw-ring" cx="25" cy="26" r="7.5"/><path class="aw-heart" d="M20 14c0-3-4-5-6.5-2.5S13 17 20 21c7-4 9-7 6.5-9.5S20 11 20 14z"/></symbol>`
  + `<symbol id="aw-s-egg" viewBox="0 0 10 13"><path class="aw-eggshell" d="M5 .6C8 .6 9.4 6 9.4 8.4S7.5 12.4 5 12.4.6 11 .6 8.4 2 .6 5 .6z"/><ellipse class="aw-shine" cx="3.4" cy="4.6" rx="1" ry="1.6"/></symbol>`
  + `<symbol id="aw-s-nest" viewBox="0 0 40 14"><path class="aw-nest" d="M1 3c6 2 32 2 38 0-1 7-8 10-19 10S2 10 1 3z"/><path class="aw-twig" d="M4 6c8 2 24 2 32 0M7 9c7 2 19 2 26 0M2 3l5 2M38 3l-6 2"/></symbol>`
  + `<symbol id="aw-s-bird" viewBox="0 0 64 48"><path class="aw-legs" d="M27 38v8m-3 0h6m4-8v8m-3 0h6"/><path class="aw-body" d="M13 29c2-9 14-13 26-10 8 2 10 11 6 17-6 6-22 6-28 2-3-2-5-5-4-9z"/><circle class="aw-body" cx="45" cy="18" r="9"/><path class="aw-belly" d="M24 35c6 3 15 3 19-2-3 1-12 3-19 2z"/><path class="aw-wing" d="M19 26c7-5 15-4 18 3-6 3-13 3-18-3z"/><path class="aw-beak" d="M53 16l8 3-8 3z"/><circle class="aw-eye" cx="48" cy="16" r="1.9"/><circle class="aw-eyew" cx="48.6" cy="15.4" r=".6"/></symbol>`
  + `<symbol id="aw-s-b0" viewBox="0 0 64 48"><path class="aw-body" d="M15 27L3 17l3 14zM40 12l-3-9 6 6 2-8 3 10z"/></symbol>`
  + `<symbol id="aw-s-b1" viewBox="0 0 64 48"><path class="aw-body" d="M15 30L0 25l8 6-8 7z"/></symbol>`
  + `<symbol id="aw-s-b2" viewBox="0 0 64 48"><path class="aw-body" d="M15 27C7 19 0 24 2 31s9 5 13 3z"/></symbol>`
  + `<symbol id="aw-s-b3" viewBox="0 0 64 48"><path class="aw-body" d="M15 30l-8-6 1 8z"/></symbol>`
  + `<symbol id="aw-s-f2" viewBox="0 0 64 48"><path class="aw-mask" d="M38 15l15 0"/></symbol>`
  + `<symbol id="aw-s-f3" viewBox="0 0 64 48"><path class="aw-curl" d="M44 9c-3-6 4-8 4-3"/><circle class="aw-cheek" cx="44" cy="21" r="2.4"/></symbol>`;

function loadSprite() {
  if (document.getElementById("aw-sprite")) return;
  const holder = s("svg", { id: "aw-sprite", class: "aw-sprite", "aria-hidden": "true", focusable: "false", width: 0, height: 0 });
  holder.innerHTML = SPRITE;
  document.body.append(holder);
}

function use(id, attrs = {}) {
  return s("use", { href: `#aw-s-${id}`, ...attrs });
}

function art(viewBox, cls, ...uses) {
  return s("svg", { viewBox, class: cls, "aria-hidden": "true", focusable: "false" }, ...uses);
}

// A card kind's middle picture: a worm (a starred one marked with the star crows dislike, the
// False Worm a rubber worm on a hook), a Crow, or a Wedding's rings.
function cardArt(card) {
  if (card === K) return art("0 0 40 40", "aw-art", use("crow"));
  if (card === H) return art("0 0 40 40", "aw-art", use("wed"));
  const parts = [use("worm")];
  if (card === F) parts.push(use("hook"));
  if (card === 2 || card === 5) parts.push(use("spots"));
  return art("0 0 40 40", "aw-art", ...parts);
}

// Small rings for a player's Weddings in the players' strip.
function icon(card) {
  return art("0 0 40 40", "aw-icon", use(card === H ? "wed" : card === K ? "crow" : "worm"));
}

function cardFace(card) {
  const text = CARD_TEXT[card];
  const big = text.replace("*", "");
  const star = text.endsWith("*") ? h("span", { class: "aw-star" }, "★") : null;
  return [h("span", { class: "aw-value" }, big, star), cardArt(card),
    // The corner turned upside down is drawn by the stylesheet: no second text in the card's name.
    h("span", { class: "aw-value aw-value-b", "aria-hidden": "true", "data-v": big })];
}

function cardEl(table, card, { tag = "div", classes = "", attrs = {}, label = null } = {}) {
  const w = words(table);
  const node = h(tag, { class: `aw-card aw-k${card} ${classes}`, role: tag === "div" ? "img" : null,
    "aria-label": label ?? w.card[card], title: label ?? w.card[card], "data-rule": CARD_RULE[card], ...attrs }, cardFace(card));
  if (tag === "button") node.type = "button";
  return node;
}

// A log sentence with its cards drawn as the board draws them: a card the sentence names in
// notation ("3", "2*", "F") becomes a small card, named by those same words (its full name as
// its tooltip). The sentences that name cards are known by their words: the server's, in the
// page's language, each card's place in them a placeholder.
const LOG_SENTENCES = [
  N_("{actor} places {cards} next in their deck."),
  N_("{actor} plays {card} {before_female} (now {total})."),
  N_("{actor}'s Crow eats {owner}'s {top} {before_female}."),
  N_("{actor} exchanges their {out} {before_female} for {card} from hand."),
];
const SAID_CARD = String.raw`2\*|5\*|[1-7FKH]`;
const CARD_PLACES = new Set(["card", "top", "out"]);
const logPatterns = { said: null, patterns: [] };

const escaped = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

// A sentence's words as a pattern that finds it in a log line (several sentences may share
// one), and which of its groups are cards (`many`: several, as "7 2* H").
function sentencePattern(sentence) {
  let source = "";
  let at = 0;
  const cards = [];
  let group = 0;
  for (const found of sentence.matchAll(/\{(\w+)\}/g)) {
    source += escaped(sentence.slice(at, found.index));
    group += 1;
    if (found[1] === "cards") {
      source += `((?:(?:${SAID_CARD}) )*(?:${SAID_CARD}))`;
      cards.push({ group, many: true });
    } else if (CARD_PLACES.has(found[1])) {
      source += `(${SAID_CARD})`;
      cards.push({ group, many: false });
    } else source += "(.+?)";
    at = found.index + found[0].length;
  }
  source += escaped(sentence.slice(at));
  return { pattern: new RegExp(source, "gd"), cards };
}

function sentencePatterns() {
  const said = translated(LOG_SENTENCES);
  if (logPatterns.said !== said) Object.assign(logPatterns, { said, patterns: said.map(sentencePattern) });
  return logPatterns.patterns;
}

function logCard(said) {
  loadSprite();
  const card = CARD_TEXT.indexOf(said);
  const name = words(null).card[card];
  return h("span", { class: `aw-card aw-k${card} aw-log-card`, role: "img", "aria-label": said, title: name }, cardFace(card));
}

export function logLine(text) {
  if (!text) return text;
  const places = [];
  for (const { pattern, cards } of sentencePatterns()) {
    for (const found of text.matchAll(pattern)) {
      for (const { group, many } of cards) places.push({ start: found.indices[group][0], end: found.indices[group][1], many });
    }
  }
  if (!places.length) return text;
  places.sort((a, b) => a.start - b.start);
  const out = document.createElement("span");
  let at = 0;
  for (const { start, end, many } of places) {
    if (start < at) continue;
    out.append(text.slice(at, start));
    const said = text.slice(start, end);
    (many ? said.split(" ") : [said]).forEach((one, i) => out.append(...(i ? [" "] : []), logCard(one)));
    at = end;
  }
  out.append(text.slice(at));
  return out;
}

function colourChip(colour, extra = "") {
  return h("span", { class: `aw-chip aw-c${colour} ${extra}`, "aria-hidden": "true" }, COLOURS[colour].letter);
}

// A female: the one drawing of a bird, told apart by her tail, crest and marks (red's spiky
// crest, blue's forked tail, green's eye-stripe and fan tail, yellow's curl and cheek), her
// colour and her letter.
function bird(colour, neutral) {
  const parts = [use(`b${colour}`), use("bird")];
  if (colour >= 2) parts.push(use(`f${colour}`));
  const svg = art("0 0 64 48", `aw-bird aw-c${colour}`, ...parts);
  svg.append(s("text", { x: 30, y: 33, "text-anchor": "middle", class: "aw-bird-letter" }, document.createTextNode(COLOURS[colour].letter + (neutral ? "·" : ""))));
  return svg;
}

// An egg card: the female's letter and egg number on her colour's band, over a nest of eggs.
function eggCard(table, female, eggs, classes = "", rule = "auweier.egg-cards") {
  const w = words(table);
  const label = `${w.colour[female]}: ${tn("{n} egg", "{n} eggs", eggs)}`;
  const svg = art("0 0 40 26", "aw-eggsvg", use("nest", { x: 0, y: 12, width: 40, height: 14 }));
  for (let i = 0; i < eggs; i += 1) {
    svg.append(use("egg", { x: 15 + (i - (eggs - 1) / 2) * 9, y: 3 + (i === 1 ? -2 : 0), width: 10, height: 13 }));
  }
  return h("span", { class: `aw-egg aw-c${female} ${classes}`, role: "img", "aria-label": label, title: label, "data-rule": rule },
    h("span", { class: "aw-egg-letter" }, `${COLOURS[female].letter}${eggs}`), svg);
}

function nameOf(table, seat) {
  const w = words(table);
  const name = table.names?.[seat] ?? `#${seat + 1}`;
  return seat === table.seat ? `${name} (${w.you})` : name;
}

// --- diffing for the animations -----------------------------------------------------------------

function changes(view, previous) {
  const out = { stacks: new Map(), eggs: new Set(), won: new Map(), hand: new Map(), stage: false, totals: new Set() };
  if (!previous || previous.females?.length !== view.females?.length) return out;
  out.stage = previous.stage !== view.stage;
  view.females.forEach((female, f) => {
    const before = previous.females[f];
    if (female.eggs_left.length < before.eggs_left.length) out.eggs.add(f);
    female.stacks.forEach((stack, p) => {
      const old = before.stacks[p]?.cards ?? [];
      const key = `${f}:${p}`;
      if (stack.cards.length > old.length) out.stacks.set(key, { added: stack.cards.length - 1 });
      else if (stack.cards.length === old.length) {
        const swapped = stack.cards.findIndex((c, i) => c !== old[i]);
        if (swapped >= 0) out.stacks.set(key, { added: swapped });
      } else if (stack.cards.length < old.length && stack.cards.length > 0) out.stacks.set(key, { eaten: true });
      if (stack.total !== before.stacks[p]?.total) out.totals.add(key);
    });
  });
  view.players.forEach((player, p) => {
    const old = previous.players[p]?.eggs?.length ?? 0;
    if (player.eggs.length > old) out.won.set(p, old);
  });
  const oldHand = previous.hand ?? [];
  (view.hand ?? []).forEach((n, card) => { if (n > (oldHand[card] ?? 0)) out.hand.set(card, n - (oldHand[card] ?? 0)); });
  return out;
}

// --- the parts of the table ---------------------------------------------------------------------

function stageBanner(table, view, diff) {
  const w = words(table);
  const stage = view.stage;
  const stepIndex = { play: 0, weddings: 1, worms: 2 }[stage];
  const banner = h("div", { class: `aw-stage aw-stage-${stage}${diff.stage ? " aw-flash" : ""}`, id: "aw-stage",
    "data-stage": stage, role: "status", "data-point": "stage", "data-rule": STAGE_RULE[stage] ?? null });
  banner.append(h("strong", { class: "aw-stage-name" }, w.stage[stage] ?? stage));
  if (stepIndex !== undefined) {
    const steps = h("ol", { class: "aw-steps" });
    w.steps.forEach((name, i) => steps.append(h("li", { class: i === stepIndex ? "aw-step-now" : i < stepIndex && stepIndex > 0 ? "aw-step-done" : "",
      "aria-current": i === stepIndex ? "step" : null }, name)));
    banner.append(steps);
    if (stepIndex > 0) {
      banner.append(h("span", { class: "aw-opener", "data-rule": "auweier.phase-order" }, `${w.opener} `, colourChip(view.start_player), " ", nameOf(table, view.start_player)));
    }
    banner.append(h("p", { class: "aw-stage-help" }, w.stepHelp[stage]));
  }
  return banner;
}

function playersStrip(table, view, diff, arranging) {
  const w = words(table);
  // While the decks are arranged a player is a name and a state: one short line, no score yet.
  const strip = h("div", { class: `aw-players${arranging ? " aw-players-compact" : ""}`, "data-point": "players", "data-rule": "auweier.colours" });
  const phase = view.stage === "weddings" || view.stage === "worms";
  view.players.forEach((player, p) => {
    const acting = table.toAct === p || (view.stage === "order" && view.player === p);
    const box = h("div", { class: `aw-player aw-c${player.colour}${acting ? " aw-acting" : ""}${p === table.seat ? " aw-me" : ""}`,
      "data-seat": p, "aria-label": `${nameOf(table, p)}, ${w.colour[player.colour]}`, "data-rule": "auweier.colours" });
    const head = h("div", { class: "aw-player-head" }, colourChip(player.colour), h("span", { class: "aw-name" }, nameOf(table, p)));
    if (acting && view.stage !== "over") head.append(h("span", { class: "aw-badge aw-badge-act" }, w.toAct));
    if (view.start_player === p && view.stage !== "order") head.append(h("span", { class: "aw-badge aw-startcard", title: w.startCard, id: p === view.start_player ? "aw-start-card" : null, "data-rule": "auweier.refill" }, `★ ${w.startCard}`));
    box.append(head);
    const facts = h("div", { class: "aw-facts" });
    if (view.stage === "order" || !player.ready) {
      facts.append(h("span", { "data-rule": "auweier.deck-secret" }, player.ready ? w.ready : p === table.seat ? `${player.pile_size ?? 0} ${w.placed}` : w.settingUp));
    } else {
      facts.append(h("span", { class: "aw-count", title: w.handOf, "aria-label": `${w.handOf}: ${player.hand_size}`, "data-rule": "auweier.refill" }, h("span", { class: "aw-back aw-back-hand", "aria-hidden": "true" }), ` ${player.hand_size ?? "?"}`));
      facts.append(h("span", { class: "aw-count", title: w.pile, "aria-label": `${w.pile}: ${player.pile_size}`, "data-rule": "auweier.empty-pile" }, h("span", { class: "aw-back", "aria-hidden": "true" }), ` ${player.pile_size ?? "?"}`));
      const gone = sum(player.discarded);
      if (gone) facts.append(h("span", { class: "aw-count aw-dim", title: w.discarded, "data-rule": "auweier.clean-up" }, `${w.discarded} ${gone}`));
    }
    box.append(facts);
    if (phase) {
      const status = player.passed ? (player.weddings.length || view.stage === "weddings" ? w.passed : w.notInPhase) : w.inPhase;
      const line = h("div", { class: `aw-phase${player.passed ? " aw-passed" : ""}`, "data-passed": player.passed ? "1" : "0",
        "data-rule": view.stage === "worms" ? "auweier.worm-stage" : "auweier.wedding-stage" },
        player.weddings.map((f) => h("span", { class: "aw-ring", title: `${w.wedding} ${w.before} ${w.colour[f]}`, "data-rule": "auweier.wedding-card" }, icon(H), LETTERS[f])), ` ${status}`);
      box.append(line);
    }
    if (arranging) {
      strip.append(box);
      return;
    }
    const eggs = h("div", { class: "aw-won", "aria-label": w.eggsWon, "data-point": "score", "data-rule": "auweier.scoring" });
    player.eggs.forEach((egg, i) => eggs.append(eggCard(table, egg.female, egg.eggs, diff.won.has(p) && i >= diff.won.get(p) ? "aw-pop" : "")));
    eggs.append(h("span", { class: "aw-score", "data-score": player.score, "data-rule": "auweier.scoring" }, `${player.score} ${w.score}`));
    box.append(eggs);
    strip.append(box);
  });
  return strip;
}

// The hand cards some legal move plays (a worm, a Wedding, a Crow, the card a False Worm
// exchange brings in): the ones the board offers.
function playableCards(legal) {
  return new Set(legal.map((m) => m.parsed.card).filter((c) => c !== undefined && c >= 0));
}

// What the chosen hand card can go to, by the legal moves that play it: females (a worm, a
// Wedding; a Crow where it may eat, which asks for the stack if there are several), the stacks
// a Crow may eat from ("female:owner") and the own cards an exchange may replace
// ("female:place").
function targetsFor(legal, selected) {
  const t = { females: new Set(), lanes: new Set(), places: new Set() };
  if (selected === null) return t;
  for (const { parsed } of legal) {
    if ((parsed.kind === "worm" || parsed.kind === "wedding") && parsed.card === selected) t.females.add(parsed.female);
    if (parsed.kind === "crow" && selected === K) {
      t.lanes.add(`${parsed.female}:${parsed.owner}`);
      t.females.add(parsed.female);
    }
    if (parsed.kind === "swap" && parsed.card === selected) t.places.add(`${parsed.female}:${parsed.place}`);
  }
  return t;
}

// A control the board does not offer now: it stays in its place, but says it is unavailable,
// leaves the Tab order and ignores its clicks (a click still shows its rule at hand).
function offerAttrs(offered) {
  return offered ? {} : { "aria-disabled": "true", tabindex: "-1" };
}

function femaleColumn(table, view, female, f, targets, diff, interactive, compact) {
  const w = words(table);
  // The female is a choice only while a chosen card can go before her.
  const offered = interactive && ui.selected !== null && targets.females.has(f);
  const off = interactive && ui.selected !== null && !offered;
  const col = h("section", { class: `aw-female aw-c${female.colour}${female.closed ? " aw-closed" : ""}${offered ? " aw-target" : ""}`,
    "data-female": LETTERS[f], "aria-label": `${w.colour[female.colour]} ${w.female}`,
    "data-rule": female.neutral ? "auweier.two-players" : "auweier.females" });
  const eggs = h("div", { class: "aw-eggstack", role: "img",
    "aria-label": female.eggs_left.length ? `${w.eggsLeft}: ${female.eggs_left.join(", ")}` : w.noEggs,
    "data-point": "eggs", "data-rule": female.eggs_left.length ? "auweier.mating" : "auweier.empty-nests" });
  if (!female.eggs_left.length) eggs.append(h("span", { class: "aw-dim" }, w.noEggs));
  female.eggs_left.forEach((n, i) => {
    if (i === 0) eggs.append(eggCard(table, female.colour, n, `aw-egg-top${diff.eggs.has(f) ? " aw-in" : ""}`, "auweier.mating"));
    else eggs.append(h("span", { class: `aw-egg-under aw-c${female.colour}`, "aria-hidden": "true", "data-rule": "auweier.females" }, `${COLOURS[female.colour].letter}${n}`));
  });
  // Its name starts with the words it shows (the bird's letter, the colour), as a voice user says them.
  const shown = `${COLOURS[female.colour].letter} ${w.colour[female.colour]}${female.neutral ? ` ${w.neutral}` : ""}`;
  const head = h("button", { type: "button", class: `aw-female-head${off ? " aw-off" : ""}`, "data-female": LETTERS[f], "data-rule": "auweier.females",
    "aria-label": `${shown}: ${w.female}${female.closed ? `, ${w.closed}` : ""}`, ...offerAttrs(offered),
    on: { click: () => (offered ? clickFemale(table, view, f) : clickUnoffered(table, interactive)) } },
  bird(female.colour, female.neutral), " ",
  h("span", { class: "aw-female-name" }, `${w.colour[female.colour]}${female.neutral ? ` · ${w.neutral}` : ""}`));
  col.append(h("div", { class: "aw-female-top" }, head, eggs));
  // While the decks are arranged nothing lies before the females: their empty stacks are left out.
  if (!compact) female.stacks.forEach((stack, p) => col.append(lane(table, view, stack, f, p, targets, diff, interactive)));
  return col;
}

function lane(table, view, stack, f, p, targets, diff, interactive) {
  const w = words(table);
  const key = `${f}:${p}`;
  const change = diff.stacks.get(key);
  const mine = p === table.seat;
  const label = fill(w.lane, { who: nameOf(table, p), female: w.colour[f], total: stack.total });
  // A stack is a choice only for a chosen Crow that may eat from it (its top card is then the
  // button a keyboard reaches), a card in it only for an exchange that may replace it.
  const crowHere = interactive && ui.selected === K && targets.lanes.has(key);
  const row = h("div", { class: `aw-lane aw-c${view.players[p].colour}${crowHere ? " aw-target" : ""}${mine ? " aw-mine" : ""}${change?.eaten ? " aw-hit" : ""}`,
    "data-owner": LETTERS[p], "data-female": LETTERS[f], role: "group", "aria-label": label,
    "data-point": "stacks", "data-rule": "auweier.play-worm",
    on: { click: (event) => { if (crowHere && !event.defaultPrevented) clickLane(table, view, p, f); } } });
  const total = h("span", { class: `aw-total${diff.totals.has(key) ? " aw-bump" : ""}`, title: w.total, "data-total": stack.total, "data-rule": "auweier.mating" }, colourChip(view.players[p].colour, "aw-chip-small"), String(stack.total));
  row.append(total);
  if (stack.wedding) row.append(cardEl(table, H, { classes: "aw-wedding-card", label: `${w.wedding}: ${nameOf(table, p)}` }));
  const cards = h("div", { class: "aw-stack", "data-rule": "auweier.crow-top" });
  // Each card under the top one shows its corner; the more cards, the narrower the strip.
  const n = stack.cards.length;
  const strip = n <= 3 ? 1.3 : n <= 5 ? 1.0 : n <= 8 ? 0.8 : 0.62;
  const overlap = `${(strip - 2.1).toFixed(2)}rem`;
  stack.cards.forEach((card, i) => {
    const place = i + 1;
    const top = i === stack.cards.length - 1;
    const swapHere = interactive && mine && ui.selected !== null && targets.places.has(`${f}:${place}`);
    const offered = swapHere || (crowHere && top);
    const cls = `aw-in-stack${top ? " aw-top" : ""}${swapHere ? " aw-target" : ""}${change?.added === i ? " aw-in" : ""}`;
    const node = cardEl(table, card, { tag: offered ? "button" : "div", classes: cls,
      attrs: { "data-place": place },
      label: `${w.card[card]}, ${w.place} ${place}${top ? `, ${w.top}` : ""}` });
    if (i > 0) node.style.marginLeft = overlap;
    if (offered) node.addEventListener("click", (event) => { event.preventDefault(); clickStackCard(table, view, p, f, place, card); });
    cards.append(node);
  });
  if (!stack.cards.length && !stack.wedding) cards.append(h("span", { class: "aw-dim aw-emptylane" }, "–"));
  row.append(cards);
  return row;
}

function handArea(table, view, legal, diff, interactive) {
  const w = words(table);
  const box = h("section", { class: "aw-hand-area", "aria-label": w.hand, "data-point": "hand", "data-rule": "auweier.turn" });
  const cards = expand(view.hand);
  const usable = playableCards(legal);
  const row = h("div", { class: "aw-hand", role: "group", "aria-label": w.hand, "data-rule": "auweier.turn" });
  const newCount = new Map(diff.hand);
  // New cards are the last ones of their kind in the sorted hand.
  const seenOf = new Map();
  cards.forEach((card) => {
    const index = (seenOf.get(card) ?? 0) + 1;
    seenOf.set(card, index);
    const total = view.hand[card];
    const fresh = newCount.has(card) && index > total - newCount.get(card);
    const selected = ui.selected === card && index === 1;
    // Offered: a card some legal move plays, on the seat's turn; the others are dimmed then.
    const offered = interactive && usable.has(card);
    const state = offered ? " aw-playable" : interactive ? " aw-unusable" : "";
    const node = cardEl(table, card, { tag: "button",
      classes: `aw-in-hand${selected ? " aw-selected" : ""}${state}${fresh ? " aw-in" : ""}`,
      attrs: { "data-hand": CARD_TEXT[card], "aria-pressed": selected ? "true" : "false", ...offerAttrs(offered) },
      label: `${w.card[card]}${interactive && !offered ? ` (${w.noUse})` : ""}` });
    node.addEventListener("click", () => (offered ? clickHand(table, view, card) : clickUnoffered(table, interactive, w.noUse)));
    row.append(node);
  });
  const pile = view.pile_known.length + sum(view.pile_unknown);
  const deck = h("div", { class: "aw-mypile", "aria-label": `${w.pileMine}: ${pile}`, "data-point": "deck", "data-rule": "auweier.deck-order" },
    h("span", { class: "aw-back aw-back-big", "aria-hidden": "true" }, h("span", { class: "aw-pile-n" }, String(pile))),
    h("span", { class: "aw-pile-text" }, `${w.pileMine}: ${pile}`,
      view.pile_known.length ? h("span", { class: "aw-next" }, ` · ${w.next}: `, view.pile_known.slice(0, 6).map((c) => cardEl(table, c, { classes: "aw-mini" }))) : null,
      sum(view.pile_unknown) ? ` · ${sum(view.pile_unknown)} ${w.unknownOrder}` : null));
  box.append(h("h3", { class: "aw-h" }, w.hand), h("div", { class: "aw-hand-row" }, row, deck));
  return box;
}

function prompt(table, view, legal, interactive) {
  const w = words(table);
  const line = h("div", { class: "aw-prompt", id: "aw-prompt", role: "status", "aria-live": "polite", "data-rule": STAGE_RULE[view.stage] ?? null });
  let text = "";
  if (table.seat === null || table.seat === undefined) text = w.watching;
  else if (!interactive) text = view.stage === "over" ? "" : fill(w.notYourTurn, { who: table.toAct === null || table.toAct === undefined ? "…" : nameOf(table, table.toAct) });
  else if (ui.selected === null) text = playableCards(legal).size ? w.choose : "";  // else only a pass is left
  else {
    const c = ui.selected;
    const how = c === K ? w.chooseK : c === H ? w.chooseH : c === F ? w.chooseF : w.chooseWorm;
    text = `${w.chosen}: ${w.card[c]} — ${how} (${w.allowed}).`;
  }
  if (text) line.append(h("span", {}, text));
  if (ui.note) line.append(h("span", { class: "aw-note", id: "aw-note" }, ` ${ui.note}`));
  const pass = legal.find((m) => m.parsed.kind === "pass");
  if (interactive && pass) {
    line.append(h("button", { type: "button", id: "aw-pass", class: "aw-pass", "data-rule": "auweier.own-pass", on: { click: () => send(table, "pass") } }, w.passBtn));
  }
  return line.childNodes.length ? line : null;
}

function matingBox(table, view) {
  const w = words(table);
  const last = view.last;
  if (!last) return null;
  const won = last.awards.map((a) => fill(w.wins, { who: nameOf(table, a.player), female: w.colour[a.female], n: a.eggs }));
  const cleared = last.cleared.map(([f, p]) => `${nameOf(table, p)} ${w.before} ${w.colour[f]}`);
  return h("p", { class: "aw-mating", id: "aw-mating", "data-point": "mating", "data-rule": "auweier.mating" }, h("strong", {}, `${w.lastMating} (${w.opener} ${nameOf(table, last.opener)}): `),
    (won.length ? won.join("; ") : w.noEgg) + (cleared.length ? `; ${w.cleared}: ${cleared.join(", ")}` : "") + ".");
}

function scoreBox(table, view) {
  const w = words(table);
  if (view.stage !== "over") return null;
  const best = Math.max(...view.players.map((player) => player.score));
  const rows = view.players.map((player, p) => {
    const eggs = sum(player.eggs.map((e) => e.eggs));
    const own = player.eggs.filter((e) => e.female === player.colour).length;
    const bonus = player.score - eggs - own;
    // The top score is marked by a golden egg (and said by the scores themselves).
    const mark = player.score === best ? art("0 0 10 13", "aw-gold-egg", use("egg")) : null;
    return h("li", { class: player.score === best ? "aw-best" : null }, mark, colourChip(player.colour), ` ${nameOf(table, p)}: `, h("strong", {}, `${player.score}`), ` (${fill(w.breakdown, { eggs, own, bonus })})`);
  });
  return h("div", { class: "aw-final", id: "aw-final", "data-point": "score", "data-rule": "auweier.scoring" }, h("h3", { class: "aw-h" }, w.over), h("ul", {}, rows));
}

// --- the deck-ordering step -----------------------------------------------------------------------

function draftReset(view) {
  const placed = view.pile_known.length;
  if (ui.draftBase !== placed) {
    // The draft was placed (or the deck changed): keep only what is still to be placed.
    const sent = placed - ui.draftBase;
    ui.draft = ui.draftBase >= 0 && sent > 0 ? ui.draft.slice(sent) : [];
    ui.draftBase = placed;
  }
  // Never more of a kind than are left to place.
  const left = [...(view.hand ?? [])];
  ui.draft = ui.draft.filter((card) => (left[card] -= 1) >= 0);
}

function remaining(view) {
  const left = [...(view.hand ?? [])];
  for (const card of ui.draft) left[card] -= 1;
  return left;
}

function redraw() {
  if (ui.args) draw(ui.args.container, ui.args.table);
}

function orderPanel(table, view, legal) {
  const w = words(table);
  draftReset(view);
  const placed = view.pile_known;
  const left = remaining(view);
  const panel = h("section", { class: "aw-order", id: "aw-order", "aria-label": w.orderTitle, "data-point": "deck", "data-rule": "auweier.deck-order" });
  panel.append(h("h3", { class: "aw-h" }, w.orderTitle), h("p", { class: "aw-help" }, w.orderHelp));

  const list = h("ol", { class: "aw-order-list", id: "aw-order-list", "aria-label": w.order, "data-rule": "auweier.deck-steps" });
  const slot = (card, position, draftIndex) => {
    const zone = position <= 6 ? "aw-zone-hand" : "aw-zone-pile";
    const item = h("li", { class: `aw-slot ${zone}${draftIndex === null ? " aw-locked" : ""}`, "data-position": position });
    if (draftIndex === null) {
      item.append(h("span", { class: "aw-pos" }, String(position)), cardEl(table, card, { label: `${position}: ${w.card[card]} (${w.placed})` }));
    } else {
      const button = cardEl(table, card, { tag: "button", classes: "aw-draft",
        attrs: { draggable: "true", "data-draft": draftIndex, "data-card": CARD_TEXT[card] },
        label: `${fill(w.moveHint, { n: position })}: ${w.card[card]} (${w.remove})` });
      button.addEventListener("click", () => { ui.draft.splice(draftIndex, 1); redraw(); });
      button.addEventListener("keydown", (event) => {
        const step = event.key === "ArrowLeft" || event.key === "ArrowUp" ? -1 : event.key === "ArrowRight" || event.key === "ArrowDown" ? 1 : 0;
        const to = draftIndex + step;
        if (!step || to < 0 || to >= ui.draft.length) return;
        event.preventDefault();
        [ui.draft[draftIndex], ui.draft[to]] = [ui.draft[to], ui.draft[draftIndex]];
        redraw();
        document.querySelector(`#aw-order-list [data-draft="${to}"]`)?.focus();
      });
      button.addEventListener("dragstart", (event) => {
        ui.drag = { from: "draft", index: draftIndex };
        event.dataTransfer?.setData("text/plain", CARD_TEXT[card]);
        if (event.dataTransfer) event.dataTransfer.effectAllowed = "move";
      });
      item.append(h("span", { class: "aw-pos" }, String(position)), button);
      dropTarget(item, draftIndex);
    }
    return item;
  };
  placed.forEach((card, i) => list.append(slot(card, i + 1, null)));
  ui.draft.forEach((card, i) => list.append(slot(card, placed.length + i + 1, i)));
  if (sum(left) > 0) {
    const end = h("li", { class: `aw-slot aw-drop-end ${placed.length + ui.draft.length < 6 ? "aw-zone-hand" : "aw-zone-pile"}`, id: "aw-drop-end" },
      h("span", { class: "aw-pos" }, String(placed.length + ui.draft.length + 1)), h("span", { class: "aw-drop" }, w.dropHere));
    dropTarget(end, ui.draft.length);
    list.append(end);
  }
  const legend = h("p", { class: "aw-legend" }, h("span", { class: "aw-zone-hand aw-key" }, `1–6 ${w.handZone}`), " ", h("span", { class: "aw-zone-pile aw-key" }, `7–22 ${w.pileZone}`));
  const order = [h("h4", { class: "aw-h4" }, `${w.order} (${placed.length + ui.draft.length}/22)`), legend, list];

  const tray = h("div", { class: "aw-tray", id: "aw-tray", role: "group", "aria-label": w.tray, "data-rule": "auweier.deck-order" });
  left.forEach((n, card) => {
    if (n <= 0) return;
    const button = cardEl(table, card, { tag: "button", classes: "aw-tray-card",
      attrs: { draggable: "true", "data-tray": CARD_TEXT[card] }, label: `${CARD_TEXT[card]} ×${n}: ${w.card[card]}, ${n} ${w.left}` });  // the name starts with what it shows
    button.append(h("span", { class: "aw-times", "aria-hidden": "true" }, `×${n}`));
    button.addEventListener("click", () => { ui.draft.push(card); redraw(); });
    button.addEventListener("dragstart", (event) => {
      ui.drag = { from: "tray", card };
      event.dataTransfer?.setData("text/plain", CARD_TEXT[card]);
      if (event.dataTransfer) event.dataTransfer.effectAllowed = "copyMove";
    });
    tray.append(button);
  });
  panel.append(h("h4", { class: "aw-h4" }, `${w.tray} (${sum(left)})`), tray);

  const actions = h("div", { class: "aw-order-actions" });
  if (ui.draft.length) {
    actions.append(h("button", { type: "button", class: "primary", id: "aw-place", on: { click: () => placeDraft(table, null) } }, w.placeBtn(ui.draft.length)));
  }
  if (sum(left) > 0) {
    actions.append(h("button", { type: "button", id: "aw-shuffle", "data-rule": "auweier.deck-shuffle", on: { click: () => placeDraft(table, "deck shuffle") } }, w.shuffleBtn));
    actions.append(h("button", { type: "button", id: "aw-spread", "data-rule": "auweier.spread", on: { click: () => placeDraft(table, "deck spread") } }, w.spreadBtn));
  }
  if (ui.draft.length) actions.append(h("button", { type: "button", id: "aw-clear", on: { click: () => { ui.draft = []; redraw(); } } }, w.clearBtn));
  panel.append(actions);
  const starters = legal.filter((m) => m.parsed.kind === "starter");
  if (starters.length && !ui.draft.length) panel.append(starterPicker(table, starters));
  // The choices first, the order they make below them: as the order grows, the tray and the
  // buttons stay where the finger is.
  panel.append(...order);
  return panel;
}

function dropTarget(node, index) {
  node.addEventListener("dragover", (event) => { event.preventDefault(); node.classList.add("aw-over"); });
  node.addEventListener("dragleave", () => node.classList.remove("aw-over"));
  node.addEventListener("drop", (event) => {
    event.preventDefault();
    const drag = ui.drag;
    ui.drag = null;
    if (!drag) return;
    if (drag.from === "tray") ui.draft.splice(index, 0, drag.card);
    else {
      const [card] = ui.draft.splice(drag.index, 1);
      ui.draft.splice(drag.index < index ? index - 1 : index, 0, card);
    }
    redraw();
  });
}

function placeDraft(table, then) {
  const draft = ui.draft.map((c) => CARD_TEXT[c]);
  ui.queue = then ? [then] : [];
  if (!draft.length) {
    ui.queue = [];
    if (then) send(table, then);
    return;
  }
  // One card is a listed step; several go as one deck line (the notation's typing aid).
  send(table, `deck ${draft.join(" ")}`);
}

function starterPicker(table, starters) {
  const w = words(table);
  const pick = ui.starter ?? (ui.starter = [0, 2, 3]);
  const choices = [[0, 7], [2, 5], [3, 4]];
  const box = h("div", { class: "aw-starter", id: "aw-starter", role: "group", "aria-label": w.starterTitle, "data-rule": "auweier.deck-starter" }, h("span", {}, w.starterTitle, " "));
  choices.forEach((pair, i) => {
    const group = h("span", { class: "aw-pair" });
    for (const card of pair) {
      group.append(cardEl(table, card, { tag: "button", classes: `aw-mini${pick[i] === card ? " aw-selected" : ""}`,
        attrs: { "data-starter": CARD_TEXT[card], "aria-pressed": pick[i] === card ? "true" : "false" } }));
      group.lastChild.addEventListener("click", () => { pick[i] = card; redraw(); });
    }
    box.append(group);
  });
  const text = `deck starter ${pick.map((c) => CARD_TEXT[c]).join(" ")}`;
  box.append(h("button", { type: "button", id: "aw-starter-go", disabled: !starters.some((m) => m.text === text),
    on: { click: () => send(table, text) } }, w.starterBtn));
  return box;
}

function orderWaiting(table, view) {
  const w = words(table);
  const me = view.players[table.seat ?? -1];
  const lines = [];
  if (view.stage === "order" && view.player !== table.seat) lines.push(fill(w.waitDeck, { who: nameOf(table, view.player) }));
  if (me?.ready) lines.push(fill(w.myDeckDone, { known: view.pile_known.length, unknown: sum(view.pile_unknown) }));
  const box = h("section", { class: "aw-order aw-order-wait", id: "aw-order-wait", "data-point": "deck", "data-rule": "auweier.deck-secret" }, lines.map((line) => h("p", {}, line)));
  if (view.pile_known.length) box.append(h("div", { class: "aw-next" }, view.pile_known.map((c, i) => cardEl(table, c, { classes: "aw-mini", label: `${i + 1}: ${w.card[c]}` }))));
  return box;
}

// --- clicks on the table --------------------------------------------------------------------------

function blocked(table) {
  const w = words(table);
  if (table.seat === null || table.seat === undefined) return w.watching;
  if (!(table.legal ?? []).length) return fill(w.notYourTurn, { who: table.toAct === null || table.toAct === undefined ? "…" : nameOf(table, table.toAct) });
  return null;
}

function clickHand(table, view, card) {
  const reason = blocked(table);
  ui.note = reason ?? "";
  if (!reason) ui.selected = ui.selected === card ? null : card;
  redraw();
}

// A click on something the board does not offer: never a move; a word on why, where there is
// one (whose turn it is; the card to choose first; a card that has no use now).
function clickUnoffered(table, interactive, why = null) {
  const note = !interactive ? blocked(table) : ui.selected === null ? why ?? words(table).pickCardFirst : why;
  if (!note || note === ui.note) return;
  ui.note = note;
  redraw();
}

// The clicks on a female, a stack and a card in a stack: each plays the legal move it stands
// for (the board offers them only then), never a text the server would refuse.
function playIfLegal(table, text) {
  if ((table.legal ?? []).some((m) => m.text === text)) send(table, text);
}

function clickFemale(table, view, f) {
  const reason = blocked(table);
  if (reason) { ui.note = reason; return redraw(); }
  const c = ui.selected;
  const w = words(table);
  if (c === null) { ui.note = w.pickCardFirst; return redraw(); }
  if (c === H) return playIfLegal(table, `wedding ${LETTERS[f]}`);
  if (c === K) {
    const crows = legalMoves(table).filter((m) => m.parsed.kind === "crow" && m.parsed.female === f);
    if (crows.length === 1) return send(table, crows[0].text);
    ui.note = w.crowWhich;
    return redraw();
  }
  return playIfLegal(table, `worm ${CARD_TEXT[c]} ${LETTERS[f]}`);
}

function clickLane(table, view, owner, f) {
  const reason = blocked(table);
  if (reason) { ui.note = reason; return redraw(); }
  const c = ui.selected;
  if (c === K) return playIfLegal(table, `crow ${LETTERS[owner]}@${LETTERS[f]}`);
  return clickFemale(table, view, f);
}

function clickStackCard(table, view, owner, f, place, card) {
  const reason = blocked(table);
  if (reason) { ui.note = reason; return redraw(); }
  const c = ui.selected;
  if (owner === table.seat && c !== null && c !== K && c !== H && (c === F || card === F)) {
    return playIfLegal(table, `swap ${LETTERS[f]}#${place} ${CARD_TEXT[c]}`);
  }
  return clickLane(table, view, owner, f);
}

// --- motion: what changed travels (a card from a hand to a female, an egg card to its winner,
// cleared cards to their owner), each under --motion-move, none under reduced motion; the new
// drawing is in place at once, so nothing waits for an animation and every click counts.

function motionMs() {
  if (window.matchMedia?.("(prefers-reduced-motion: reduce)").matches) return 0;
  const said = getComputedStyle(document.documentElement).getPropertyValue("--motion-move").trim();
  const ms = said.endsWith("ms") ? parseFloat(said) : parseFloat(said) * 1000;
  return Number.isFinite(ms) ? Math.min(ms, 380) : 0;
}

const rectOf = (node) => {
  const r = node?.getBoundingClientRect();
  return r && r.width > 0 ? r : null;
};

// Where the old drawing showed what may move, read before it is replaced.
function snapshot(container) {
  const shot = { hand: new Map(), seats: new Map(), eggs: new Map(), cards: new Map(), pile: null };
  if (!container.querySelector(".aw-board")) return shot;
  for (const node of container.querySelectorAll(".aw-hand [data-hand]")) {
    if (!shot.hand.has(node.dataset.hand)) shot.hand.set(node.dataset.hand, rectOf(node));
  }
  for (const node of container.querySelectorAll(".aw-player[data-seat]")) shot.seats.set(node.dataset.seat, rectOf(node));
  for (const node of container.querySelectorAll(".aw-female[data-female] .aw-egg-top")) {
    shot.eggs.set(node.closest(".aw-female").dataset.female, { rect: rectOf(node), node });
  }
  for (const node of container.querySelectorAll(".aw-lane [data-place], .aw-lane .aw-wedding-card")) {
    const lane = node.closest(".aw-lane");
    const key = `${lane.dataset.female}:${lane.dataset.owner}`;
    if (!shot.cards.has(key)) shot.cards.set(key, []);
    shot.cards.get(key).push({ rect: rectOf(node), node });
  }
  shot.pile = rectOf(container.querySelector(".aw-mypile .aw-back-big"));
  return shot;
}

// FLIP: the node, drawn where it now belongs, starts where `from` was and slides home.
function travel(node, from, ms, delay = 0) {
  const to = rectOf(node);
  if (!to || !from || !node.animate) return;
  const dx = from.left + from.width / 2 - (to.left + to.width / 2);
  const dy = from.top + from.height / 2 - (to.top + to.height / 2);
  const scale = from.width > to.width * 2.5 ? 1 : Math.max(0.4, from.width / to.width);  // from a player's place: card-sized
  node.animate([{ transform: `translate(${dx}px, ${dy}px) scale(${scale})`, zIndex: 5 }, { transform: "none", zIndex: 5 }],
    { duration: ms, delay, easing: "cubic-bezier(.2, .7, .2, 1)", fill: "backwards" });
}

// A copy of an old card flies from where it lay to `to` (its owner, a discard) and fades.
function ghost(old, to, ms, delay = 0) {
  if (!old?.rect || !to || !old.node.animate) return;
  const copy = old.node.cloneNode(true);
  copy.removeAttribute("id");
  copy.setAttribute("aria-hidden", "true");
  copy.classList.add("aw-ghost");
  copy.classList.remove("aw-target", "aw-last", "aw-in");
  Object.assign(copy.style, { left: `${old.rect.left}px`, top: `${old.rect.top}px`, width: `${old.rect.width}px`, height: `${old.rect.height}px` });
  document.body.append(copy);
  const dx = to.left + to.width / 2 - (old.rect.left + old.rect.width / 2);
  const dy = to.top + to.height / 2 - (old.rect.top + old.rect.height / 2);
  const flight = copy.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) scale(.5)`, opacity: 0 }],
    { duration: ms, delay, easing: "cubic-bezier(.6, 0, .3, 1)", fill: "both" });
  flight.onfinish = () => copy.remove();
  flight.oncancel = () => copy.remove();
}

// Plays the update's changes on the new drawing (`shot`: the old one's places).
function animate(board, view, previous, table, shot) {
  const ms = motionMs();
  if (!ms || !previous || previous.females?.length !== view.females.length) return;
  const seatRect = (p) => rectOf(board.querySelector(`.aw-player[data-seat="${p}"]`)) ?? shot.seats.get(String(p));
  view.females.forEach((female, f) => {
    female.stacks.forEach((stack, p) => {
      const before = previous.females[f].stacks[p] ?? { cards: [], wedding: false };
      const key = `${LETTERS[f]}:${LETTERS[p]}`;
      const lane = board.querySelector(`.aw-lane[data-owner="${LETTERS[p]}"][data-female="${LETTERS[f]}"]`);
      if (!lane) return;
      const from = (card) => (p === table.seat ? shot.hand.get(CARD_TEXT[card]) : null) ?? seatRect(p);
      const old = shot.cards.get(key) ?? [];
      // A card played or exchanged in: from its player's hand (or their place at the table).
      const at = stack.cards.findIndex((c, i) => c !== before.cards[i]);
      if (at >= 0 && stack.cards.length >= before.cards.length) {
        const node = lane.querySelector(`[data-place="${at + 1}"]`);
        travel(node, from(stack.cards[at]), ms);
        if (stack.cards.length === before.cards.length) ghost(old[at + (before.wedding ? 1 : 0)], from(before.cards[at]), ms);
      }
      if (stack.wedding && !before.wedding) travel(lane.querySelector(".aw-wedding-card"), from(H), ms);
      // Cards gone: eaten by a Crow (it swoops in from its player), or cleared after mating.
      if (stack.cards.length < before.cards.length) {
        const eaten = stack.cards.length === before.cards.length - 1 && before.wedding === stack.wedding;
        if (eaten) {
          const crow = cardEl(table, K, { classes: "aw-in-stack" });
          const laneRect = rectOf(lane);
          const gone = old[old.length - 1];
          const seat = seatRect(previous.player) ?? laneRect;
          if (gone?.rect && seat) {
            const { width, height } = gone.rect;
            const start = { left: seat.left + seat.width / 2 - width / 2, top: seat.top + seat.height / 2 - height / 2, width, height };
            ghost({ rect: start, node: crow }, gone.rect, ms);
            ghost(gone, laneRect && { left: laneRect.right, top: laneRect.top - 40, width: 0, height: 0 }, ms * 0.7, ms * 0.3);
          }
        } else old.forEach((card, i) => ghost(card, seatRect(p), ms * 0.8, Math.min(i * 15, ms * 0.2)));  // all home within --motion-move
      }
    });
  });
  // Egg cards won: from the female's nest to the winner; the next one of hers hatches.
  view.players.forEach((player, p) => {
    const had = previous.players[p]?.eggs?.length ?? 0;
    const won = board.querySelectorAll(`.aw-player[data-seat="${p}"] .aw-won .aw-egg`);
    player.eggs.slice(had).forEach((egg, i) => travel(won[had + i], shot.eggs.get(LETTERS[egg.female])?.rect, ms));
  });
  // Cards drawn: from the draw pile into the hand.
  if (shot.pile) {
    for (const node of board.querySelectorAll(".aw-hand .aw-in")) {
      node.classList.remove("aw-in");
      travel(node, shot.pile, ms);
    }
  }
}

// The last card another player put down (or their Wedding): marked, so the move can be followed.
function markLast(board, view, previous, table) {
  if (!previous || previous.females?.length !== view.females.length) return;
  view.females.forEach((female, f) => female.stacks.forEach((stack, p) => {
    if (p === table.seat) return;
    const before = previous.females[f].stacks[p] ?? { cards: [], wedding: false };
    const lane = board.querySelector(`.aw-lane[data-owner="${LETTERS[p]}"][data-female="${LETTERS[f]}"]`);
    const at = stack.cards.findIndex((c, i) => c !== before.cards[i]);
    if (at >= 0 && stack.cards.length >= before.cards.length) lane?.querySelector(`[data-place="${at + 1}"]`)?.classList.add("aw-last");
    if (stack.wedding && !before.wedding) lane?.querySelector(".aw-wedding-card")?.classList.add("aw-last");
  }));
}

// --- the board ------------------------------------------------------------------------------------

function sendQueued(table, view, legal) {
  if (!ui.queue.length || view.stage !== "order" || view.player !== table.seat) {
    if (view.stage !== "order" || view.player !== table.seat) ui.queue = [];
    return;
  }
  if (ui.draft.length) return; // the draft has not been placed yet
  const text = ui.queue[0];
  if (!legal.some((m) => m.text === text)) return;
  ui.queue = [];
  setTimeout(() => send(table, text), 0);
}

// The keyboard's place on the board, kept across a redraw (a click redraws the board): the
// same card, female or button again; else the one at the same place among its kind (a tray
// card whose kind ran out: the next one), if that can take the focus.
const FOCUS_GROUPS = [
  ["data-tray", "#aw-tray [data-tray]"],
  ["data-draft", "#aw-order-list [data-draft]"],
  ["data-starter", "#aw-starter [data-starter]"],
  ["data-hand", ".aw-hand [data-hand]"],
];

function focusKey(container) {
  const node = document.activeElement;
  if (!(node instanceof HTMLElement) || node === container || !container.contains(node)) return null;
  const group = FOCUS_GROUPS.find(([attr]) => node.hasAttribute(attr));
  if (group) {
    const [attr, all] = group;
    return { selector: `${all}[${attr}="${window.CSS.escape(node.getAttribute(attr))}"]`, group: all, index: [...container.querySelectorAll(all)].indexOf(node) };
  }
  if (node.classList.contains("aw-female-head")) return { selector: `.aw-female-head[data-female="${node.dataset.female}"]` };
  if (node.id) return { selector: `#${window.CSS.escape(node.id)}`, group: node.closest("#aw-order") ? ".aw-order-actions button" : null, index: 0 };
  return null;
}

function restoreFocus(container, key) {
  if (!key || (document.activeElement instanceof HTMLElement && document.activeElement !== document.body && container.contains(document.activeElement))) return;
  const focusable = (node) => node instanceof HTMLElement && !node.matches(":disabled, [tabindex='-1']");
  let target = [...container.querySelectorAll(key.selector)].find(focusable);
  if (!target && key.group) {
    const all = [...container.querySelectorAll(key.group)].filter(focusable);
    target = all[Math.min(key.index, all.length - 1)];
  }
  target?.focus();
}

export function draw(container, table) {
  loadCss();
  loadSprite();
  const view = table.view;
  if (!view || !view.females) {
    container.replaceChildren();
    return;
  }
  ui.args = { container, table };
  const fresh = view !== ui.seen;
  // A new view ends the old one's flights: a copy still in the air belongs to what was shown
  // before (in a replay, maybe another side's view or a later point), never to this view.
  if (fresh) document.querySelectorAll(".aw-ghost").forEach((node) => node.remove());
  const diff = fresh ? changes(view, table.previous) : changes(view, null);
  const legal = legalMoves(table);
  if (fresh) {
    ui.seen = view;
    ui.note = "";
  }
  // A chosen card stays chosen while it can still be played.
  if (ui.selected !== null && !((view.hand?.[ui.selected] ?? 0) > 0 && playableCards(legal).has(ui.selected))) ui.selected = null;
  const interactive = table.seat !== null && table.seat !== undefined && legal.length > 0;
  const ordering = legal.some((m) => ["deck", "shuffle", "starter"].includes(m.parsed.kind));
  const board = h("div", { class: "aw-board", id: "aw-board", "data-stage": view.stage,
    "data-act": interactive ? "me" : "other", lang: table.lang === "de" ? "de" : "en", "data-point": "board", "data-rule": "auweier.goal" });
  const arranging = view.stage === "order" || view.stage === "shuffle" || view.stage === "spread";
  board.append(stageBanner(table, view, diff), playersStrip(table, view, diff, arranging));

  if (arranging) {
    if (ordering) {
      board.append(orderPanel(table, view, legal));
      sendQueued(table, view, legal);
    } else if (table.seat !== null && table.seat !== undefined) {
      board.append(orderWaiting(table, view));
    }
  }
  const play = !(view.stage === "order" && ordering);
  const targets = targetsFor(legal, ui.selected);
  const row = h("div", { class: `aw-females${arranging ? " aw-females-compact" : ""}`, "data-point": "females", "data-rule": "auweier.females" });
  row.style.gridTemplateColumns = `repeat(${view.females.length}, minmax(0, 1fr))`;
  view.females.forEach((female, f) => row.append(femaleColumn(table, view, female, f, targets, diff, interactive && play, arranging)));
  board.append(row);
  const mating = matingBox(table, view);
  if (mating) board.append(mating);
  // At the end the scores come first, under the stage's "Game over".
  const final = scoreBox(table, view);
  if (final) board.querySelector(".aw-stage").after(final);
  if (table.seat !== null && table.seat !== undefined && play && view.stage !== "order") {
    const line = prompt(table, view, legal, interactive);
    if (line) board.append(line);
    board.append(handArea(table, view, legal, diff, interactive));
  }
  markLast(board, view, table.previous, table);
  const focus = focusKey(container);
  const shot = fresh ? snapshot(container) : null;
  container.replaceChildren(board);
  restoreFocus(container, focus);
  if (shot) animate(board, view, table.previous, table, shot);
}
