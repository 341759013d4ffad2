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
import { N_, Nn_, tn, translated } from "../i18n.js";

const CSS = "/static/draw/auweier.css";
const CARD_TEXT = ["1", "2", "2*", "3", "4", "5*", "6", "7", "F", "K", "H"];
const WORM_VALUE = [1, 2, 2, 3, 4, 5, 6, 7, 0, 0, 0];
const F = 8;
const K = 9;
const H = 10;
const LETTERS = "RBGY";
const COLOURS = [
  { fill: "#D55E00", ink: "#000000", letter: "R" },  // inks read at 4.5:1 or better
  { fill: "#0072B2", ink: "#ffffff", letter: "B" },
  { fill: "#009E73", ink: "#000000", letter: "G" },
  { fill: "#F0E442", ink: "#1b1b1b", letter: "Y" },
];
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

function icon(card) {
  if (card === K) {
    return s("svg", { viewBox: "0 0 24 16", class: "aw-icon", "aria-hidden": "true" },
      s("path", { d: "M2 10 L9 6 L12 1 L14 6 L22 8 L15 10 L12 15 L10 10 Z", fill: "#222" }));
  }
  if (card === H) {
    return s("svg", { viewBox: "0 0 24 16", class: "aw-icon", "aria-hidden": "true" },
      s("circle", { cx: 9, cy: 9, r: 5, fill: "none", stroke: "#b8860b", "stroke-width": 2 }),
      s("circle", { cx: 15, cy: 9, r: 5, fill: "none", stroke: "#b8860b", "stroke-width": 2 }));
  }
  const dashed = card === F ? { "stroke-dasharray": "2 2" } : {};
  return s("svg", { viewBox: "0 0 24 16", class: "aw-icon", "aria-hidden": "true" },
    s("path", { d: "M2 9 Q6 3 10 9 T18 9 T22 7", fill: "none", stroke: card === F ? "#888" : "#c0587e",
      "stroke-width": 3, "stroke-linecap": "round", ...dashed }));
}

function cardFace(card) {
  const text = CARD_TEXT[card];
  const big = card === F ? "F" : card === K ? "K" : card === H ? "H" : text.replace("*", "");
  return [h("span", { class: "aw-value" }, big, text.endsWith("*") ? h("span", { class: "aw-star" }, "★") : null), icon(card)];
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
  const c = COLOURS[colour];
  const chip = h("span", { class: `aw-chip ${extra}`, "aria-hidden": "true" }, c.letter);
  chip.style.background = c.fill;
  chip.style.color = c.ink;
  return chip;
}

function bird(colour, neutral) {
  const c = COLOURS[colour];
  return s("svg", { viewBox: "0 0 64 48", class: "aw-bird", "aria-hidden": "true" },
    s("ellipse", { cx: 30, cy: 30, rx: 20, ry: 13, fill: c.fill, stroke: "#333", "stroke-width": 1.5 }),
    s("path", { d: "M12 28 L2 20 L6 32 Z", fill: c.fill, stroke: "#333", "stroke-width": 1.2 }),
    s("circle", { cx: 47, cy: 17, r: 9, fill: c.fill, stroke: "#333", "stroke-width": 1.5 }),
    s("circle", { cx: 50, cy: 15, r: 2, fill: "#111" }),
    s("path", { d: "M55 17 L63 20 L55 22 Z", fill: "#f4a300", stroke: "#333", "stroke-width": 1 }),
    s("path", { d: "M22 30 Q30 22 38 30", fill: "none", stroke: "#333", "stroke-width": 1.5 }),
    s("text", { x: 30, y: 35, "text-anchor": "middle", "font-size": 13, "font-weight": 700, fill: c.ink }, c.letter + (neutral ? "·" : "")));
}

function eggCard(table, female, eggs, classes = "", rule = "auweier.egg-cards") {
  const w = words(table);
  const c = COLOURS[female];
  const label = `${w.colour[female]}: ${tn("{n} egg", "{n} eggs", eggs)}`;
  const svg = s("svg", { viewBox: "0 0 36 24", class: "aw-eggsvg", "aria-hidden": "true" });
  for (let i = 0; i < eggs; i += 1) {
    svg.append(s("ellipse", { cx: 18 + (i - (eggs - 1) / 2) * 10, cy: 13, rx: 4.5, ry: 6, fill: "#fffdf2", stroke: "#555", "stroke-width": 1 }));
  }
  const node = h("span", { class: `aw-egg ${classes}`, role: "img", "aria-label": label, title: label, "data-rule": rule }, svg,
    h("span", { class: "aw-egg-letter" }, `${c.letter}${eggs}`));
  node.style.background = c.fill;
  node.style.color = c.ink;
  return node;
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
    const box = h("div", { class: `aw-player${acting ? " aw-acting" : ""}${p === table.seat ? " aw-me" : ""}`,
      "data-seat": p, "aria-label": `${nameOf(table, p)}, ${w.colour[player.colour]}`, "data-rule": "auweier.colours" });
    box.style.borderColor = COLOURS[player.colour].fill;
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
  const col = h("section", { class: `aw-female${female.closed ? " aw-closed" : ""}${offered ? " aw-target" : ""}`,
    "data-female": LETTERS[f], "aria-label": `${w.colour[female.colour]} ${w.female}`,
    "data-rule": female.neutral ? "auweier.two-players" : "auweier.females" });
  col.style.borderTopColor = COLOURS[female.colour].fill;
  const eggs = h("div", { class: "aw-eggstack", role: "img",
    "aria-label": female.eggs_left.length ? `${w.eggsLeft}: ${female.eggs_left.join(", ")}` : w.noEggs,
    "data-point": "eggs", "data-rule": female.eggs_left.length ? "auweier.mating" : "auweier.empty-nests" });
  if (!female.eggs_left.length) eggs.append(h("span", { class: "aw-dim" }, w.noEggs));
  female.eggs_left.forEach((n, i) => {
    if (i === 0) eggs.append(eggCard(table, female.colour, n, `aw-egg-top${diff.eggs.has(f) ? " aw-in" : ""}`, "auweier.mating"));
    else eggs.append(h("span", { class: "aw-egg-under", "aria-hidden": "true", "data-rule": "auweier.females" }, `${COLOURS[female.colour].letter}${n}`));
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
  const row = h("div", { class: `aw-lane${crowHere ? " aw-target" : ""}${mine ? " aw-mine" : ""}${change?.eaten ? " aw-hit" : ""}`,
    "data-owner": LETTERS[p], "data-female": LETTERS[f], role: "group", "aria-label": label,
    "data-point": "stacks", "data-rule": "auweier.play-worm",
    on: { click: (event) => { if (crowHere && !event.defaultPrevented) clickLane(table, view, p, f); } } });
  row.style.borderLeftColor = COLOURS[view.players[p].colour].fill;
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
    h("span", { class: "aw-back aw-back-big", "aria-hidden": "true" }, String(pile)),
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
  const rows = view.players.map((player, p) => {
    const eggs = sum(player.eggs.map((e) => e.eggs));
    const own = player.eggs.filter((e) => e.female === player.colour).length;
    const bonus = player.score - eggs - own;
    return h("li", {}, colourChip(player.colour), ` ${nameOf(table, p)}: `, h("strong", {}, `${player.score}`), ` (${fill(w.breakdown, { eggs, own, bonus })})`);
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
  const view = table.view;
  if (!view || !view.females) {
    container.replaceChildren();
    return;
  }
  ui.args = { container, table };
  const fresh = view !== ui.seen;
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
  const final = scoreBox(table, view);
  if (final) board.append(final);
  if (table.seat !== null && table.seat !== undefined && play && view.stage !== "order") {
    const line = prompt(table, view, legal, interactive);
    if (line) board.append(line);
    board.append(handArea(table, view, legal, diff, interactive));
  }
  const focus = focusKey(container);
  container.replaceChildren(board);
  restoreFocus(container, focus);
}
