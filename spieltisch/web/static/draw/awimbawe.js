// Awimbawé drawn as two people see it across a table: each side's four piles (face-up tops,
// face-down backs), the hand, the scoring pile with its crowns and face-up hyenas, the heir
// card, the trick in the middle with the last trick beside it, the round and match score.
// Moves are clicks on the card or pile they act on; the eagle's flee/fight, the rhinoceros,
// the snake and the cheetah (or a round loser's) choice get a small prompt in the middle.
// Reads the viewer's view and legal moves only (see ./index.js for the interface).
import { N_, t, translated } from "../i18n.js";

const STYLESHEET = "/static/draw/awimbawe.css";
const LANDS = { grassland: "G", desert: "D", mountain: "M", plain: "P", sky: "S" };
const ANIMALS = [null, "mouse", "rhinoceros", "cheetah", "hyena", "snake", "elephant"];
const CROWNS = [0, 3, 2, 2, 3, 1, 1, 0, 0, -1, -2];
// Each part's rule on the rules page (data-rule: a click shows it, see rules_at_hand.js), and
// each card's by its value: the animal's power, or the card's own rule for an animal without one.
const CARD_RULES = [null, "awimbawe.mouse", "awimbawe.power-rhinoceros", "awimbawe.power-cheetah", "awimbawe.hyena",
  "awimbawe.power-snake", "awimbawe.elephant", "awimbawe.fight-or-flee", "awimbawe.fight-or-flee", "awimbawe.fight-or-flee", "awimbawe.fight-or-flee"];
const PROMPT_RULES = { rhinoceros: "awimbawe.power-rhinoceros", snake: "awimbawe.power-snake", cheetah: "awimbawe.power-cheetah",
  "choose-leader": "awimbawe.loser-chooses", play: "awimbawe.fight-or-flee" };

// The board's words: English msgids of the catalogs (spieltisch/locale), in the page's
// language through translated().
const TEXTS = {
  grassland: N_("grassland"),
  desert: N_("desert"),
  mountain: N_("mountain"),
  plain: N_("plain"),
  sky: N_("sky"),
  mouse: N_("mouse"),
  rhinoceros: N_("rhinoceros"),
  cheetah: N_("cheetah"),
  hyena: N_("hyena"),
  snake: N_("snake"),
  elephant: N_("elephant"),
  eagle: N_("eagle"),
  crown: N_("crown"),
  crowns: N_("crowns"),
  facedown: N_("face-down card"),
  blocked: N_("blocked"),
  hand: N_("hand"),
  handOf: N_("hand of"),
  cards: N_("cards"),
  pile: N_("pile"),
  score: N_("scoring pile"),
  hyenas: N_("hyenas"),
  heir: N_("heir card"),
  silver: N_("silver"),
  gold: N_("gold"),
  wins: N_("rounds won"),
  round: N_("Round"),
  match: N_("Match"),
  trick: N_("Trick"),
  last: N_("Last trick"),
  you: N_("you"),
  leads: N_("leads"),
  played: N_("Played this round"),
  none: N_("none"),
  fight: N_("Fight"),
  flee: N_("Flee"),
  fightWhy: N_("you take the trick"),
  fleeWhy: N_("the leader takes the trick, the eagle goes to your pile"),
  cancel: N_("Cancel"),
  decline: N_("Decline"),
  leadMe: N_("I lead"),
  leadThem: N_("leads"),
  eagleAsk: N_("How is your eagle played?"),
  rhinoAsk: N_("Rhinoceros: click a top card of your opponent's piles to move it, or decline."),
  rhinoDest: N_("Now click the pile it goes under."),
  snakeAsk: N_("Snake: click a face-up top card of your opponent's piles, or their hand (a card picked blind), or decline."),
  blindHand: N_("Block a hand card (blind)"),
  cheetahAsk: N_("Cheetah: who leads the next trick?"),
  chooseAsk: N_("You lost the round: who leads the first trick of round"),
  waitPower: N_("is using the power of the"),
  waitLeader: N_("names who leads next"),
  faceDownRule: N_("A face-down card is not available: it turns face up at the end of the trick that uncovers it."),
  ownRule: N_("The rhinoceros and the snake act on your opponent's cards, not on your own."),
  fought: N_("fought"),
  fled: N_("fled"),
  won: N_("won"),
  fourth: N_("took the fourth hyena"),
  everyHyena: N_("took every hyena"),
  nextLead: N_("leads the next trick"),
  known: N_("known"),
  noLand: N_("no"),
  inHand: N_("in hand"),
  shown: N_("shown"),
  champion: N_("wins the match: long live the king!"),
  otherHand: N_("Only your own hand and your own face-up pile tops can be played."),
};

// What the viewer has started but not finished (an eagle waiting for flee/fight, a rhinoceros
// source pile), kept between redraws of the same decision and dropped when it changes.
const ui = { key: "", eagle: null, source: null, note: "" };
let last = null;
let drawnView = null;

function loadStyles() {
  if (document.querySelector(`link[href="${STYLESHEET}"]`)) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = STYLESHEET;
  document.head.append(link);
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "on") for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    else if (key === "class") node.className = value;
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// --- the drawings: one hidden sprite of <symbol>s, every card reuses them through <use> --------
// Art (60x40): a land's ground, then its animal. Glyphs (12x12): a land's sign, a power's sign.
// All original, drawn for spieltisch; colours come from the --aw-* palette of awimbawe.css.
// Each path's data has a space after its first command (d="M 4 5"): written "M4" it would read
// as a card's code, and a page must never seem to name a card of the other hand.
const SPRITE = `<defs>
<symbol id="aw-g-grassland" viewBox="0 0 60 40"><rect class="aw-air" width="60" height="40"/><circle class="aw-sun" cx="49" cy="8" r="4"/><path class="aw-g2" d="M 0 29q15-6 30-1t30-2V40H0z"/><path class="aw-g1" d="M 0 33q20-4 40 1t20-1V40H0z"/><path class="aw-blade" d="M 5 36l1-5 1 5M9 37l1-4 1 4M52 35l1-5 1 5M47 38l1-4 1 4M24 38l1-3 1 3"/></symbol>
<symbol id="aw-g-desert" viewBox="0 0 60 40"><rect class="aw-air" width="60" height="40"/><circle class="aw-sun" cx="50" cy="9" r="6"/><path class="aw-g2" d="M 0 31q14-9 28-1t32-3V40H0z"/><path class="aw-g1" d="M 0 36q18-7 36-1t24-2V40H0z"/><path class="aw-blade" d="M 8 34q6-3 12 0M40 37q5-2 10 0"/></symbol>
<symbol id="aw-g-mountain" viewBox="0 0 60 40"><rect class="aw-air" width="60" height="40"/><path class="aw-g2" d="M 0 30L11 11l7 9 9-15 12 17 5-6 16 14V40H0z"/><path class="aw-snow" d="M 27 5l-4 7 3-1 2 2 2-2 2 1zM11 11l-3 5 3-1 2 1z"/><path class="aw-g1" d="M 0 34l14-3 16 2 18-3 12 3V40H0z"/></symbol>
<symbol id="aw-g-plain" viewBox="0 0 60 40"><rect class="aw-air" width="60" height="40"/><circle class="aw-sun" cx="50" cy="8" r="4"/><path class="aw-g2" d="M 6 30v-9M1 21h10l-2-3H3zM55 30v-5M51 25h8l-1-2h-6z"/><path class="aw-g1" d="M 0 30h60V40H0z"/><path class="aw-furrow" d="M 3 34h6M16 36h8M33 34h7M47 37h9M26 38.5h5"/></symbol>
<symbol id="aw-g-sky" viewBox="0 0 60 40"><rect class="aw-air" width="60" height="40"/><path class="aw-cloud" d="M 3 37a4 4 0 0 1 5-5 6 6 0 0 1 11 0 4 4 0 0 1 2 7H5a3 3 0 0 1-2-2zM40 12a4 4 0 0 1 5-4 5 5 0 0 1 10 1 3 3 0 0 1 1 6H42a3 3 0 0 1-2-3zM44 38a3 3 0 0 1 4-4 5 5 0 0 1 9 1 3 3 0 0 1 0 5H46z"/></symbol>
<symbol id="aw-a-mouse" viewBox="0 0 60 40"><path class="aw-line" d="M 20 32q-8 1-10-5t-6-4"/><path class="aw-ink" d="M 19 33q0-10 12-10 6 0 10 5l7 2q2 1 0 3z"/><circle class="aw-ink" cx="38" cy="23" r="4.5"/><circle class="aw-eye" cx="38" cy="23" r="2"/><circle class="aw-eye" cx="44" cy="28.5" r="1"/></symbol>
<symbol id="aw-a-rhinoceros" viewBox="0 0 60 40"><path class="aw-ink" d="M 9 27q0-11 17-11 9 0 14 4l5-1 4-7 1 8 3-4v5l3 2q2 3-1 6h-8l-3-1-1 3v6h-4l-1-6H20l-1 6h-4l-1-6q-5-1-5-4z"/><path class="aw-ink" d="M 39 17l2-4 2 5z"/><circle class="aw-eye" cx="45" cy="23" r="1"/><path class="aw-line2" d="M 13 24q12 3 24 0"/></symbol>
<symbol id="aw-a-cheetah" viewBox="0 0 60 40"><path class="aw-line" d="M 13 21q-6 0-8 5t-3 6"/><path class="aw-ink" d="M 12 21q6-4 24-3l6-3q5-2 8 1l2 3-4 1-2 1q-2 3-5 3l6 8-3 1-7-7q-6 1-12 0l-8 6-2-2 6-6q-5-1-9-3z"/><circle class="aw-eye" cx="47" cy="17" r="1"/><g class="aw-eye"><circle cx="18" cy="21" r="1"/><circle cx="23" cy="20" r="1"/><circle cx="28" cy="21" r="1"/><circle cx="33" cy="20" r="1"/><circle cx="21" cy="23.5" r="1"/><circle cx="26" cy="23.5" r="1"/><circle cx="31" cy="23" r="1"/></g><path class="aw-line2" d="M 47 18l2 3"/></symbol>
<symbol id="aw-a-hyena" viewBox="0 0 60 40"><path class="aw-line" d="M 13 26l-4 5"/><path class="aw-ink" d="M 13 25q2-6 12-8 10-4 17-3l4-1 2-4 2 4q3 1 5 5l3 2-2 2h-5l-3 2-1 2v10h-3l-2-8q-7 2-14 0l-2 8h-3l-1-8q-4 0-5-3z"/><path class="aw-line2" d="M 26 17l2 3M30 16l2 3M34 15l2 3M38 14l2 3"/><circle class="aw-eye" cx="50" cy="16" r="1"/><g class="aw-eye"><circle cx="20" cy="25" r="1"/><circle cx="26" cy="24" r="1"/><circle cx="32" cy="25" r="1"/></g></symbol>
<symbol id="aw-a-snake" viewBox="0 0 60 40"><path class="aw-body" d="M 6 34q8 2 14-4t14 0 12-6 4-8"/><ellipse class="aw-ink" cx="50" cy="14" rx="5" ry="3.5" transform="rotate(-30 50 14)"/><circle class="aw-eye" cx="51" cy="12.5" r="1"/><path class="aw-tongue" d="M 54.5 11.5l3-2m-1 1l2 1"/><path class="aw-stripe" d="M 12 35l2-3M22 29l2-3M31 28l1 3M40 28l1-3"/></symbol>
<symbol id="aw-a-elephant" viewBox="0 0 60 40"><path class="aw-ink" d="M 8 24q0-13 18-13 8 0 13 3 8-3 12 2 3 5 1 10l0 5q-1 5 3 5v2q-6 1-7-5v-4l-2 1v10h-4l-1-7H22l-1 7h-4l-1-7q-8-2-8-9z"/><path class="aw-ear" d="M 41 14q-6 1-6 8t8 5z"/><path class="aw-tusk" d="M 49 26q2 3 6 2"/><circle class="aw-eye" cx="47" cy="19" r="1"/><path class="aw-line" d="M 9 22q-3 2-3 6"/></symbol>
<symbol id="aw-a-eagle" viewBox="0 0 60 40"><path class="aw-ink" d="M 30 12q-4 0-4 4l-7-3-13-6 4 5-3 1 5 3-2 2 8 2 9 3v8l-4 5h14l-4-5v-8l9-3 8-2-2-2 5-3-3-1 4-5-13 6-7 3q0-4-4-4z"/><circle class="aw-eye" cx="30" cy="15.5" r="3.2"/><path class="aw-beak" d="M 29 17h2l-1 3z"/></symbol>
<symbol id="aw-l-grassland" viewBox="0 0 12 12"><path d="M 2 11q0-5 2-8M6 11V2M10 11q0-5-2-8"/></symbol>
<symbol id="aw-l-desert" viewBox="0 0 12 12"><circle cx="6" cy="4" r="1.6"/><path d="M 6 .6v.6M2.6 4h.6M8.8 4h.6M3.6 1.6l.4.4M8.4 1.6 8 2M1 10q2.5-2.4 5 0t5 0"/></symbol>
<symbol id="aw-l-mountain" viewBox="0 0 12 12"><path d="M 1 10.5L5 3l2.5 4L9 5l2 5.5z"/></symbol>
<symbol id="aw-l-plain" viewBox="0 0 12 12"><path d="M 1 7h10M2 10h8M4.5 7a1.5 1.5 0 0 1 3 0"/></symbol>
<symbol id="aw-l-sky" viewBox="0 0 12 12"><path d="M 3 9.5a2 2 0 0 1 .5-4 3 3 0 0 1 5.5 1 1.5 1.5 0 0 1 0 3z"/></symbol>
<symbol id="aw-p-1" viewBox="0 0 12 12"><path d="M 1.2 4 3.8 6 1.2 8"/><text class="aw-glyph-text" x="8" y="8.8" text-anchor="middle">6</text></symbol>
<symbol id="aw-p-2" viewBox="0 0 12 12"><path d="M 2 2.5h6a2.5 2.5 0 0 1 0 5H3M5 5L2.5 7.5 5 10"/></symbol>
<symbol id="aw-p-3" viewBox="0 0 12 12"><path d="M 3 11V1.5M3 2h7L8 4.5 10 7H3"/></symbol>
<symbol id="aw-p-4" viewBox="0 0 12 12"><path d="M 6 1.5l5 9H1zM6 5v2.5M6 9v.2"/></symbol>
<symbol id="aw-p-5" viewBox="0 0 12 12"><rect x="2.5" y="5.5" width="7" height="5" rx="1"/><path d="M 4 5.5V4a2 2 0 0 1 4 0v1.5"/></symbol>
<symbol id="aw-p-7" viewBox="0 0 12 12"><path class="aw-solid" d="M 7 1L3 7h3l-1 4 4-6H6z"/></symbol>
<symbol id="aw-crown" viewBox="0 0 12 10"><path class="aw-crown-shape" d="M 1 8.5V3l2.6 2.4L6 1l2.4 4.4L11 3v5.5z"/></symbol>
<symbol id="aw-crown-x" viewBox="0 0 12 10"><path class="aw-crown-off" d="M 1 8.5V3l2.6 2.4L6 1l2.4 4.4L11 3v5.5z"/><path class="aw-cross" d="M 1 1l10 8.5"/></symbol>
<symbol id="aw-back-art" viewBox="0 0 60 84"><rect class="aw-back-rim" x="4" y="4" width="52" height="76" rx="5"/><circle class="aw-back-sun" cx="30" cy="36" r="14"/><path class="aw-back-tree" d="M 29 62V46M18 46h24l-4-5H22zM12 62h36"/><path class="aw-back-rim" d="M 30 8l3 5h-6zM30 76l3-5h-6z"/></symbol>
<symbol id="aw-medal" viewBox="0 0 24 28"><path class="aw-ribbon" d="M 6 0h5l2 11-5 2zM18 0h-5l-2 11 5 2z"/><circle class="aw-metal" cx="12" cy="18" r="9"/><circle class="aw-metal-rim" cx="12" cy="18" r="6.8"/><path class="aw-metal-cat" d="M 8 15l1.3 1.6h5.4L16 15l.3 4q0 3.5-4.3 3.5T7.7 19z"/></symbol>
</defs>`;

function ensureSprite() {
  if (document.getElementById("aw-sprite")) return;
  const sprite = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  sprite.id = "aw-sprite";
  sprite.setAttribute("aria-hidden", "true");
  sprite.setAttribute("focusable", "false");
  sprite.setAttribute("class", "aw-sprite");
  sprite.innerHTML = SPRITE;
  document.body.append(sprite);
}

// A drawing that reuses the sprite's symbols: decorative, its words are on the element around it.
function art(cls, viewBox, ...ids) {
  const node = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  node.setAttribute("class", cls);
  node.setAttribute("viewBox", viewBox);
  node.setAttribute("aria-hidden", "true");
  node.setAttribute("focusable", "false");
  node.setAttribute("preserveAspectRatio", "xMidYMid slice");
  node.innerHTML = ids.map((id) => `<use href="#${id}"/>`).join("");
  return node;
}

function crownMarks(n) {
  const marks = Array.from({ length: Math.abs(n) }, () => art("aw-crown", "0 0 12 10", n > 0 ? "aw-crown" : "aw-crown-x"));
  return h("span", { class: "aw-crowns", "aria-hidden": "true" }, marks);
}

const code = (card) => `${LANDS[card.land]}${card.value}`;
const same = (a, b) => a && b && a.land === b.land && a.value === b.value;
const has = (cards, card) => (cards ?? []).some((c) => same(c, card));
const crownsOf = (card) => CROWNS[card.value];

function say(table) {
  const texts = translated(TEXTS);
  const w = (key) => texts[key] ?? key;
  return w;
}

function animalOf(card, w) {
  return card.land === "sky" ? `${w("eagle")} ${card.value}` : w(ANIMALS[card.value]);
}

function cardName(card, w) {
  if (card.land === "sky") return `${w("eagle")} ${card.value}`;
  return t("{land} {animal}", { land: w(card.land), animal: w(ANIMALS[card.value]) });
}

// A card's name starts with what it shows (its code and animal), then its land and crowns.
function cardLabel(card, w, blocked) {
  const n = crownsOf(card);
  const crowns = `${n} ${Math.abs(n) === 1 ? w("crown") : w("crowns")}`;
  return `${code(card)} ${animalOf(card, w)}, ${cardName(card, w)}, ${crowns}${blocked ? `, ${w("blocked")}` : ""}`;
}

// One card face, drawn: its code and the land's sign in the corner, the animal on its land's
// ground, the power's sign, the crowns. Land colour is never the only cue (letter, sign, ground).
function face(card, w, { blocked = false, extra = "", onClick = null, focus = false } = {}) {
  const animal = card.land === "sky" ? "eagle" : ANIMALS[card.value];
  const power = card.land === "sky" ? "aw-p-7" : card.value <= 5 ? `aw-p-${card.value}` : null;
  return h("button", {
    type: "button", class: `aw-card aw-face aw-${card.land}${blocked ? " aw-blocked" : ""}${focus ? " aw-playable" : ""} ${extra}`,
    "data-card": code(card), "data-rule": blocked ? "awimbawe.power-snake" : CARD_RULES[card.value], "aria-label": cardLabel(card, w, blocked), title: cardLabel(card, w, blocked),
    tabindex: focus ? null : "-1", on: onClick ? { click: onClick } : {},
  },
  art("aw-art", "0 0 60 40", `aw-g-${card.land}`, `aw-a-${animal}`),
  h("span", { class: "aw-code", "aria-hidden": "true" }, code(card)), " ",  // words apart, as read
  art("aw-land", "0 0 12 12", `aw-l-${card.land}`),
  power ? art("aw-power", "0 0 12 12", power) : null,
  h("span", { class: "aw-animal", "aria-hidden": "true" }, animalOf(card, w)),
  crownMarks(crownsOf(card)));
}

function back(w, { blocked = false, extra = "", onClick = null, focus = false, rule = "awimbawe.turn-up" } = {}) {
  const label = `${w("facedown")}${blocked ? `, ${w("blocked")}` : ""}`;
  return h("button", {
    type: "button", class: `aw-card aw-back${blocked ? " aw-blocked" : ""} ${extra}`, "data-rule": blocked ? "awimbawe.blind-pick" : rule, "aria-label": label,
    title: label, tabindex: focus ? null : "-1", on: onClick ? { click: onClick } : {},
  }, art("aw-back-art", "0 0 60 84", "aw-back-art"));
}

function badge(table, seat) {
  const colour = table.colours[seat] ?? { fill: "#555", letter: String(seat + 1) };
  const node = h("span", { class: "aw-badge", "aria-hidden": "true" }, colour.letter);
  node.style.backgroundColor = colour.fill;
  return node;
}

function nameOf(table, seat, w) {
  const name = table.names?.[seat] ?? `#${seat + 1}`;
  return seat === table.seat ? `${name} (${w("you")})` : name;
}

// The decision the board is drawn for: a redraw of the same one keeps a half-made choice.
function decisionKey(view, table) {
  return [view.round, view.stage, view.to_act, view.trick.length, (table.legal ?? []).map((m) => m.text).join(",")].join("|");
}

function act(table, text) {
  const move = (table.legal ?? []).find((m) => m.text === text);
  ui.eagle = null;
  ui.source = null;
  ui.note = "";
  if (move) table.play(move);
  else table.try(text);
}

function redraw() {
  if (last) draw(last.container, last.table);
}

function note(text) {
  ui.note = text;
  redraw();
}

export function draw(container, table) {
  loadStyles();
  last = { container, table };
  const view = table.view;
  const w = say(table);
  if (!view || !view.sides) {
    container.replaceChildren(h("p", {}, "…"));
    return;
  }
  const key = decisionKey(view, table);
  if (key !== ui.key) Object.assign(ui, { key, eagle: null, source: null, note: "" });
  const me = table.seat === 1 ? 1 : 0; // a spectator (or a replay's neutral side) sits at seat 0's side
  const them = 1 - me;
  const mine = table.seat !== null && table.seat !== undefined && view.to_act === table.seat && (table.legal ?? []).length > 0;
  const changed = view !== drawnView;  // a redraw of the same view (a half-made choice) moves nothing
  drawnView = view;
  // A new view ends the old one's flights: a copy still in the air belongs to what was shown before
  // (in a replay, maybe another side's view or a later point), never to this view.
  if (changed) document.querySelectorAll(".aw-ghost").forEach((node) => node.remove());
  const ctx = { view, table, w, me, them, mine, prev: changed && table.previous?.sides ? table.previous : null };
  const board = h("div", { class: `aw-board aw-stage-${view.stage}`, "data-stage": view.stage, "data-round": view.round, "data-point": "board" },
    drawSide(ctx, them, "them"),
    drawMiddle(ctx),
    drawSide(ctx, me, "me"));
  ensureSprite();
  const before = changed && ctx.prev ? where(container) : null;
  container.replaceChildren(board);
  if (before) move(ctx, board, before);
}

// --- a side of the table ----------------------------------------------------------------------

// Lands in play (the ``lands`` parameter; four by the rulebook): one pile a side and one hyena each.
function lands(view) {
  return view.config?.lands ?? 4;
}

function drawSide(ctx, seat, where) {
  const { view, table, w } = ctx;
  const side = view.sides[seat];
  const before = ctx.prev?.sides?.[seat];
  const plate = h("div", { class: "aw-plate" }, badge(table, seat),
    h("strong", {}, nameOf(table, seat, w)),
    // who leads is known once the cards are dealt and the leader named, not before
    view.leader === seat && !["over", "deal", "tie-break", "choose-leader"].includes(view.stage)
      ? h("span", { class: "aw-lead", "data-rule": "awimbawe.next-lead" }, art("aw-lead-flag", "0 0 12 12", "aw-p-3"), w("leads")) : null,
    heirCard(side, w, before, where),
    h("span", { class: "aw-wins", "data-rule": "awimbawe.round-end", "aria-label": `${w("wins")}: ${side.wins}` }, "★".repeat(side.wins) || "☆"));
  const piles = h("div", { class: "aw-piles", "data-point": where === "me" ? "piles" : "opponent-piles", "data-rule": "awimbawe.deal" },
    side.piles.slice(0, lands(view)).map((pile, index) => drawPile(ctx, seat, where, pile, index, before)));
  const hand = drawHand(ctx, seat, where, side, before);
  const score = drawScore(ctx, side, before, where);
  const known = knownText(side, w);
  const rows = where === "me"
    ? [h("div", { class: "aw-row" }, piles, score), h("div", { class: "aw-row" }, hand), plate]
    : [plate, h("div", { class: "aw-row" }, hand, piles, score)];
  if (known) rows.push(h("p", { class: "aw-known", "data-rule": "awimbawe.memory" }, known));
  return h("section", { class: `aw-side aw-${where}`, "data-seat": seat, "aria-label": nameOf(table, seat, w) }, rows);
}

function heirCard(side, w, before, where) {
  const turned = before && before.heir !== side.heir;
  return h("span", {
    class: `aw-heir aw-heir-${side.heir}${turned ? " aw-flip" : ""}`, role: "img", "data-rule": "awimbawe.round-end",
    "data-point": where === "me" ? "heir" : null,
    "aria-label": `${w("heir")}: ${w(side.heir)}`, title: `${w("heir")}: ${w(side.heir)}`,
  }, art("aw-medal", "0 0 24 28", "aw-medal"), h("span", { class: "aw-heir-word" }, w(side.heir)));
}

function drawPile(ctx, seat, where, pile, index, before) {
  const { view, w, mine, table } = ctx;
  const side = view.sides[seat];
  const oldPile = before?.piles?.[index] ?? null;
  const power = mine && (view.stage === "rhinoceros" || view.stage === "snake") && where === "them";
  const target = power && (view.stage === "snake"
    ? (table.legal ?? []).some((m) => m.text === `block ${index + 1}`)
    : ui.source === null
      ? (table.legal ?? []).some((m) => m.text.startsWith(`move ${index + 1} under`))
      : (table.legal ?? []).some((m) => m.text === `move ${ui.source + 1} under ${index + 1}`));
  const cards = pile.map((card, depth) => {
    const top = depth === pile.length - 1;
    const blocked = top && card && has(side.blocked, card);
    const wasTop = oldPile && oldPile.length ? oldPile[oldPile.length - 1] : undefined;
    const fresh = top && oldPile !== null && !(card === null ? wasTop === null : same(card, wasTop));
    const wasBlocked = before && card && has(before.blocked, card);
    const extra = `${fresh ? (card ? "aw-flip" : "aw-fade") : ""}${blocked && !wasBlocked ? " aw-turn" : ""}`;
    const click = (event) => {
      event.stopPropagation();
      if (power) return clickPile(ctx, index);
      if (card === null) return note(w("faceDownRule"));
      clickCard(ctx, card, where);
    };
    const focus = top && !power && card !== null && where === "me" && mine && playable(ctx, card);
    const node = card === null ? back(w, { blocked, extra, onClick: click, focus: false }) : face(card, w, { blocked, extra, onClick: click, focus });
    node.style.setProperty("--depth", String(depth));
    return node;
  });
  const selected = power && ui.source === index;
  const attrs = {
    class: `aw-pile${target ? " aw-target" : ""}${selected ? " aw-selected" : ""}`, "data-pile": index + 1, "data-rule": "awimbawe.deal",
    "aria-label": `${w("pile")} ${index + 1}`, role: "group",
  };
  if (power) Object.assign(attrs, { role: "button", tabindex: target || selected ? "0" : "-1", on: {
    click: () => clickPile(ctx, index),
    keydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); clickPile(ctx, index); } },
  } });
  const node = h("div", attrs, cards.length ? cards : h("span", { class: "aw-empty", "aria-hidden": "true" }, index + 1));
  node.style.setProperty("--cards", String(Math.max(1, pile.length)));
  return node;
}

function drawHand(ctx, seat, where, side, before) {
  const { view, w, mine, table } = ctx;
  let cards;
  if (side.hand) {
    const oldHand = before?.hand ?? null;
    cards = side.hand.map((card) => {
      const blocked = has(side.blocked, card);
      const extra = `${oldHand && !has(oldHand, card) ? "aw-fade" : ""}${blocked && !has(before?.blocked, card) ? " aw-turn" : ""}`;
      return face(card, w, {
        blocked, extra, focus: where === "me" && mine && playable(ctx, card),
        onClick: (event) => { event.stopPropagation(); clickCard(ctx, card, where); },
      });
    });
  } else {
    const shown = side.shown ?? [];
    const hidden = Math.max(0, side.hand_size - shown.length);
    const unseen = side.blocked_unseen ?? 0;
    const oldUnseen = before?.blocked_unseen ?? 0;
    cards = [
      ...shown.map((card) => face(card, w, { blocked: has(side.blocked, card), onClick: (event) => {
        event.stopPropagation();
        clickHand(ctx, where, card);
      } })),
      ...Array.from({ length: hidden }, (_, i) => back(w, {
        blocked: i < unseen, extra: i < unseen && i >= oldUnseen ? "aw-turn" : "", rule: "awimbawe.what-you-see", onClick: (event) => {
          event.stopPropagation();
          clickHand(ctx, where, null);
        },
      })),
    ];
  }
  const blind = mine && view.stage === "snake" && where === "them" && (table.legal ?? []).some((m) => m.text === "block hand");
  const label = `${w("handOf")} ${nameOf(table, view.sides.indexOf(side), w)}: ${side.hand_size} ${w("cards")}`;
  const attrs = { class: `aw-hand${blind ? " aw-target" : ""}`, "aria-label": label, "data-size": side.hand_size,
    "data-point": where === "me" ? "hand" : "opponent-hand", "data-rule": where === "me" ? "awimbawe.deal" : "awimbawe.what-you-see" };
  if (blind) Object.assign(attrs, { role: "button", tabindex: "0", on: {
    click: () => act(table, "block hand"),
    keydown: (event) => { if (event.key === "Enter" || event.key === " ") { event.preventDefault(); act(table, "block hand"); } },
  } });
  const count = side.hand ? null : h("span", { class: "aw-count", "aria-hidden": "true" }, String(side.hand_size));
  return h("div", attrs, cards.length ? cards : h("span", { class: "aw-empty" }, "–"), count);
}

// The scoring pile lies face down: its crowns are counted for the page only where the table's
// house rules allow memory aids (the rulebook lets a player look at the last trick alone).
function drawScore(ctx, side, before, where) {
  const { w } = ctx;
  const aids = Boolean(ctx.table.aids);
  const grew = before && before.scoring_pile !== side.scoring_pile;
  const hyenas = Array.from({ length: side.hyenas }, (_, i) => h("span", {
    class: `aw-mini aw-hyena${before && i >= before.hyenas ? " aw-flip" : ""}`, role: "img", "data-rule": "awimbawe.hyena",
    "aria-label": w("hyena"), title: w("hyena"),
  }, art("aw-mini-art", "0 0 60 40", "aw-a-hyena")));
  const crowns = aids ? `, ${side.crowns} ${w("crowns")}` : "";
  return h("div", { class: "aw-score", role: "group", "data-point": where === "me" ? "scoring-pile" : null, "data-rule": "awimbawe.scoring-pile", "aria-label": `${w("score")}: ${side.scoring_pile} ${w("cards")}${crowns}, ${side.hyenas} ${w("hyenas")}` },
    h("span", { class: `aw-card aw-back aw-small${grew ? " aw-pulse" : ""}${side.scoring_pile ? "" : " aw-nothing"}`, "aria-hidden": "true" },
      art("aw-back-art", "0 0 60 84", "aw-back-art"), h("span", { class: "aw-code" }, String(side.scoring_pile))),
    h("span", { class: "aw-tally" }, aids ? h("span", { class: "aw-crown-count" }, art("aw-crown", "0 0 12 10", "aw-crown"), ` ${side.crowns}`) : null,
      h("span", { class: "aw-none" }, `${w("hyenas")}: ${side.hyenas}`),
      h("span", { class: "aw-hyenas" }, hyenas)));
}

function knownText(side, w) {
  const parts = [];
  if (side.void?.length) parts.push(`${w("noLand")} ${side.void.map((land) => w(land)).join(" / ")} ${w("inHand")}`);
  for (const record of side.blind_voids ?? []) parts.push(`${w("noLand")} ${record.lands.map((land) => w(land)).join(" / ")} (${record.picks} ${w("blocked")})`);
  if (side.shown?.length) parts.push(`${w("shown")}: ${side.shown.map(code).join(" ")}`);
  return parts.length ? `${w("known")}: ${parts.join("; ")}` : "";
}

// --- the middle: the trick, the last trick, the score, the prompts ------------------------------

function drawMiddle(ctx) {
  const { view, table, w, me } = ctx;
  const prevTrick = ctx.prev?.trick ?? [];
  const follower = 1 - view.leader;
  const slots = [view.leader, follower].map((seat, i) => {
    const card = view.trick[i];
    const fromMe = seat === me;
    const fresh = card && !same(prevTrick[i], card);
    return h("div", { class: "aw-slot", "data-seat": seat }, badge(table, seat),
      card ? face(card, w, { extra: fresh ? (fromMe ? "aw-fresh aw-from-me" : "aw-fresh aw-from-them") : "" }) : h("span", { class: "aw-card aw-place", "aria-hidden": "true" }));
  });
  const trick = h("div", { class: "aw-trick", role: "group", "aria-label": w("trick"), "data-point": "trick", "data-rule": "awimbawe.trick-winner" }, slots);
  const info = h("div", { class: "aw-info" },
    h("p", { class: "aw-round", "data-rule": "awimbawe.round-end" }, `${w("round")} ${view.round} · ${w("match")} `,
      h("strong", {}, `${view.sides[0].wins} : ${view.sides[1].wins}`)),
    view.stage === "over" && view.winner !== null && view.winner !== undefined
      ? h("p", { class: "aw-over", "data-rule": "awimbawe.round-end" }, art("aw-crown aw-big-crown", "0 0 12 10", "aw-crown"), badge(table, view.winner), ` ${nameOf(table, view.winner, w)} ${w("champion")}`) : null,
    view.next_leader !== null && view.next_leader !== undefined
      ? h("p", { "data-rule": "awimbawe.power-cheetah" }, badge(table, view.next_leader), ` ${nameOf(table, view.next_leader, w)} ${w("nextLead")}`) : null,
    drawLast(ctx), drawResults(ctx), drawPlayed(ctx));
  const prompt = drawPrompt(ctx);
  return h("section", { class: "aw-middle" }, h("div", { class: "aw-centre" }, trick, info),
    prompt, h("p", { class: "aw-note", role: "alert" }, ui.note));
}

function drawLast(ctx) {
  const { view, table, w } = ctx;
  const lastTrick = view.last_trick;
  if (!lastTrick) return null;
  const changed = JSON.stringify(ctx.prev?.last_trick ?? null) !== JSON.stringify(lastTrick);
  const how = lastTrick.stance ? ` (${w(lastTrick.stance === "flee" ? "fled" : "fought")})` : "";
  return h("div", { class: `aw-last${changed ? " aw-fade" : ""}`, "aria-label": w("last"), "data-point": "last-trick", "data-rule": "awimbawe.scoring-pile" },
    h("span", { class: "aw-caption" }, `${w("last")}:`),
    lastTrick.cards.map((card) => face(card, w, { extra: "aw-small" })),
    h("span", {}, badge(table, lastTrick.winner), ` ${w("won")}${how}`));
}

function drawResults(ctx) {
  const { view, table, w } = ctx;
  if (!view.results?.length) return null;
  return h("ol", { class: "aw-results", "data-rule": "awimbawe.round-end" }, view.results.map((r) => h("li", {},
    `${w("round")} ${r.number}: `, badge(table, r.winner), ` ${nameOf(table, r.winner, w)} ${w("won")} `,
    r.fourth_hyena ? `(${nameOf(table, 1 - r.winner, w)} ${w(lands(view) === 4 ? "fourth" : "everyHyena")})` : ["(", art("aw-crown", "0 0 12 10", "aw-crown"), ` ${r.crowns[0]} : ${r.crowns[1]})`])));
}

// A log sentence with its cards drawn as the board's chips: a code ("M5") in its land's colour.
const SAID_CARD = /\b([GDMPS])(10|[1-9])\b/g;
const LAND_OF = Object.fromEntries(Object.entries(LANDS).map(([land, letter]) => [letter, land]));
export function logLine(text) {
  if (!text || text.search(SAID_CARD) < 0) return text;
  const out = document.createElement("span");
  let at = 0;
  for (const found of text.matchAll(SAID_CARD)) {
    out.append(text.slice(at, found.index), h("span", { class: `aw-chip aw-${LAND_OF[found[1]]}` }, found[0]));
    at = found.index + found[0].length;
  }
  out.append(text.slice(at));
  return out;
}

function drawPlayed(ctx) {
  const { view, w } = ctx;
  if (!view.played?.length || !ctx.table.aids) return null;  // a memory aid: the house decides
  return h("details", { class: "aw-played", "data-rule": "awimbawe.memory-aids" }, h("summary", {}, `${w("played")} (${view.played.length})`),
    h("p", {}, view.played.map((card) => h("span", { class: `aw-chip aw-${card.land}`, title: cardName(card, w) }, code(card)))));
}

function drawPrompt(ctx) {
  const { view, table, w, mine, them } = ctx;
  const legal = table.legal ?? [];
  const button = (text, label, extra = {}) => h("button", { type: "button", class: "aw-choice", "data-move": text, ...extra,
    on: { click: () => act(table, text) } }, label);
  const box = (...children) => h("div", { class: "aw-prompt", role: "group", "aria-live": "polite", "data-point": "choices",
    "data-rule": PROMPT_RULES[view.stage] ?? null }, children);
  if (!mine) {
    if (view.to_act === null || view.to_act === undefined || view.stage === "over") return null;
    if (view.stage === "rhinoceros" || view.stage === "snake") {
      return box(h("p", {}, badge(table, view.to_act), ` ${nameOf(table, view.to_act, w)} ${w("waitPower")} ${w(view.stage)}…`));
    }
    if (view.stage === "cheetah" || view.stage === "choose-leader") {
      return box(h("p", {}, badge(table, view.to_act), ` ${nameOf(table, view.to_act, w)} ${w("waitLeader")}…`));
    }
    return null;
  }
  if (view.stage === "play" && ui.eagle) {
    const c = ui.eagle;
    return box(h("p", {}, `${w("eagleAsk")} (${cardName(c, w)})`),
      h("div", { class: "aw-choices" },
        button(`play ${code(c)} fight`, `${w("fight")}: ${w("fightWhy")}`, { "data-stance": "fight" }),
        button(`play ${code(c)} flee`, `${w("flee")}: ${w("fleeWhy")}`, { "data-stance": "flee" }),
        h("button", { type: "button", class: "aw-choice aw-cancel", on: { click: () => { ui.eagle = null; redraw(); } } }, w("cancel"))));
  }
  const declineButton = legal.some((m) => m.text === "decline") ? button("decline", w("decline")) : null;
  if (view.stage === "rhinoceros") {
    const cancel = ui.source !== null
      ? h("button", { type: "button", class: "aw-choice aw-cancel", on: { click: () => { ui.source = null; redraw(); } } }, w("cancel")) : null;
    return box(h("p", {}, ui.source === null ? w("rhinoAsk") : `${w("pile")} ${ui.source + 1} → ${w("rhinoDest")}`),
      h("div", { class: "aw-choices" }, cancel, declineButton));
  }
  if (view.stage === "snake") {
    const blind = legal.some((m) => m.text === "block hand") ? button("block hand", w("blindHand")) : null;
    return box(h("p", {}, w("snakeAsk")), h("div", { class: "aw-choices" }, blind, declineButton));
  }
  if (view.stage === "cheetah" || view.stage === "choose-leader") {
    const ask = view.stage === "cheetah" ? w("cheetahAsk") : `${w("chooseAsk")} ${view.round}?`;
    return box(h("p", {}, ask), h("div", { class: "aw-choices" },
      button("lead me", h("span", {}, badge(table, ctx.me), ` ${w("leadMe")}`)),
      button("lead opponent", h("span", {}, badge(table, them), ` ${nameOf(table, them, w)} ${w("leadThem")}`))));
  }
  return null;
}

// --- clicks -----------------------------------------------------------------------------------

function playable(ctx, card) {
  return (ctx.table.legal ?? []).some((m) => m.text === `play ${code(card)}` || m.text.startsWith(`play ${code(card)} `));
}

function clickCard(ctx, card, where) {
  const { view, table, w, mine } = ctx;
  if (mine && (view.stage === "rhinoceros" || view.stage === "snake") && where === "me") return note(w("ownRule"));
  const text = `play ${code(card)}`;
  const stances = (table.legal ?? []).filter((m) => m.text.startsWith(`${text} `));
  if (mine && view.stage === "play" && stances.length) {
    ui.eagle = card;
    ui.note = "";
    return redraw();
  }
  act(table, text);
}

function clickHand(ctx, where, card) {
  const { view, table, mine } = ctx;
  if (mine && view.stage === "snake" && where === "them") return act(table, "block hand");
  if (card) return act(table, `play ${code(card)}`);
  return note(ctx.w("otherHand"));
}

function clickPile(ctx, index) {
  const { view, table } = ctx;
  if (view.stage === "snake") return act(table, `block ${index + 1}`);
  if (ui.source === null) {
    ui.source = index;
    ui.note = "";
    return redraw();
  }
  if (ui.source === index) {
    ui.source = null;
    return redraw();
  }
  act(table, `move ${ui.source + 1} under ${index + 1}`);
}

// --- motion: a played card travels from where it was to the trick, a won trick to its pile ------
// Only what changed since the last view moves (table.previous); nothing moves under reduced
// motion; every moving copy ignores the pointer, so a click is never held up.
const LONGEST_WAIT = 400;  // ms: no motion waits longer to begin
const reduced = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
const TRAVEL = 280;  // ms, under the design's 400
const HOLD = 240;    // ms a finished trick stays in view before it is carried off (no wait over 400)

// Where the old board showed each card (the last trick and the log's chips aside).
function where(container) {
  const cards = new Map();
  const within = new Map();  // where a side's card lay on its side of the table
  for (const node of container.querySelectorAll(".aw-side [data-card], .aw-trick [data-card]")) {
    const rect = node.getBoundingClientRect();
    cards.set(node.dataset.card, rect);
    const side = node.closest(".aw-side")?.getBoundingClientRect();
    if (side) within.set(node.dataset.card, { x: rect.left - side.left, y: rect.top - side.top });
  }
  return { cards, within };
}

const centre = (rect) => rect && { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };

function sideRect(board, seat, part) {
  return board.querySelector(`.aw-side[data-seat="${seat}"] ${part}`)?.getBoundingClientRect() ?? null;
}

// Whence a card came: its old place on the board, or (a card from a hand nobody saw) that hand.
function source(board, before, card, seat) {
  return centre(before.cards.get(code(card)) ?? sideRect(board, seat, ".aw-hand"));
}

function slide(node, from, to, delay = 0, tilt = 6) {
  if (!from || !to) return null;
  const dx = from.x - to.x;
  const dy = from.y - to.y;
  if (Math.abs(dx) + Math.abs(dy) < 2) return null;
  return node.animate([{ transform: `translate(${dx}px, ${dy}px) rotate(${dx > 0 ? tilt : -tilt}deg)` }, { transform: "none" }],
    { duration: TRAVEL, delay, easing: "cubic-bezier(.2, .7, .2, 1)", fill: "backwards" });
}

// A copy of a card, fixed over the page, for a trick that is no longer on the board.
function ghost(card, rect, w) {
  const node = face(card, w);
  node.removeAttribute("data-card");
  node.removeAttribute("aria-label");
  node.removeAttribute("title");
  node.setAttribute("aria-hidden", "true");
  node.inert = true;
  node.classList.add("aw-ghost");
  Object.assign(node.style, { left: `${rect.left}px`, top: `${rect.top}px` });
  node.style.setProperty("--cw", `${rect.width}px`);
  node.style.setProperty("--ch", `${rect.height}px`);
  document.body.append(node);
  return node;
}

function move(ctx, board, before) {
  if (reduced() || !board.isConnected) return;
  const { view, prev } = ctx;
  const done = view.last_trick;
  const ended = done && JSON.stringify(prev.last_trick ?? null) !== JSON.stringify(done);
  let wait = 0;
  if (ended) {
    document.querySelectorAll(".aw-ghost").forEach((node) => node.remove());  // an older trick's
    // The trick just taken: each card shown in its slot (the opponent's arriving from their
    // side if it was never seen there), held a moment, then carried to the pile it goes to.
    const slots = [...board.querySelectorAll(".aw-trick .aw-slot")];
    const seats = [done.leader, 1 - done.leader];
    done.cards.forEach((card, i) => {
      const slot = slots.find((node) => Number(node.dataset.seat) === seats[i]);
      const place = slot?.querySelector(".aw-card")?.getBoundingClientRect();
      if (!place) return;
      const taker = done.stance === "flee" && i === 1 ? seats[1] : done.winner;
      const pile = centre(sideRect(board, taker, ".aw-score .aw-card"));
      const node = ghost(card, place, ctx.w);
      const seen = same(prev.trick?.[i], card);
      const arrival = seen ? null : slide(node, source(board, before, card, seats[i]), centre(place));
      const to = pile && { x: pile.x - centre(place).x, y: pile.y - centre(place).y };
      const away = () => node.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${to?.x ?? 0}px, ${to?.y ?? 0}px) scale(.6)`, opacity: .4 }],
        { duration: TRAVEL, delay: HOLD, easing: "cubic-bezier(.6, 0, .3, 1)", fill: "forwards" })
        .finished.finally(() => node.remove());
      // a card that had to arrive first leaves once it has arrived and been seen
      if (arrival) arrival.finished.then(away, () => node.remove());
      else away();
      wait = LONGEST_WAIT;
    });
  }
  // Cards now in the trick that were not there: each travels from where it was.
  board.querySelectorAll(".aw-trick .aw-fresh").forEach((node) => {
    const seat = Number(node.closest(".aw-slot")?.dataset.seat);
    const card = view.trick.find((c) => code(c) === node.dataset.card);
    if (card) slide(node, source(board, before, card, seat), centre(node.getBoundingClientRect()), wait);
  });
  // A card that changed its place on its side (a rhinoceros's move, a hand closing up) slides there.
  board.querySelectorAll(".aw-side [data-card]:not(.aw-blocked)").forEach((node) => {
    const old = before.within.get(node.dataset.card);
    const side = node.closest(".aw-side").getBoundingClientRect();
    const rect = node.getBoundingClientRect();
    if (!old || Math.hypot(rect.left - side.left - old.x, rect.top - side.top - old.y) < 12) return;
    slide(node, centre(before.cards.get(node.dataset.card)), centre(rect), 0, 0);
  });
}
