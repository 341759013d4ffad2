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

const code = (card) => `${LANDS[card.land]}${card.value}`;
const same = (a, b) => a && b && a.land === b.land && a.value === b.value;
const has = (cards, card) => (cards ?? []).some((c) => same(c, card));
const crownsOf = (card) => CROWNS[card.value];
const marks = (n) => (n > 0 ? "♛".repeat(n) : n < 0 ? "✗".repeat(-n) : "·");

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

// One card face: its code, the animal, its crowns; land colour plus the letter as the cue.
function face(card, w, { blocked = false, extra = "", onClick = null, focus = false } = {}) {
  return h("button", {
    type: "button", class: `aw-card aw-${card.land}${blocked ? " aw-blocked" : ""}${focus ? " aw-playable" : ""} ${extra}`,
    "data-card": code(card), "data-rule": blocked ? "awimbawe.power-snake" : CARD_RULES[card.value], "aria-label": cardLabel(card, w, blocked), title: cardLabel(card, w, blocked),
    tabindex: focus ? null : "-1", on: onClick ? { click: onClick } : {},
  },
  h("span", { class: "aw-code", "aria-hidden": "true" }, code(card)), " ",  // words apart, as read
  h("span", { class: "aw-animal", "aria-hidden": "true" }, animalOf(card, w)),
  // the crown marks are drawn by the style sheet: a picture, not words of the card's name
  h("span", { class: "aw-crowns", "aria-hidden": "true", "data-marks": marks(crownsOf(card)) }));
}

function back(w, { blocked = false, extra = "", onClick = null, focus = false, rule = "awimbawe.turn-up" } = {}) {
  const label = `${w("facedown")}${blocked ? `, ${w("blocked")}` : ""}`;
  return h("button", {
    type: "button", class: `aw-card aw-back${blocked ? " aw-blocked" : ""} ${extra}`, "data-rule": blocked ? "awimbawe.blind-pick" : rule, "aria-label": label,
    title: label, tabindex: focus ? null : "-1", on: onClick ? { click: onClick } : {},
  }, h("span", { class: "aw-code", "aria-hidden": "true" }, "✦"));
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
  const ctx = { view, table, w, me, them, mine, prev: table.previous?.sides ? table.previous : null };
  const board = h("div", { class: `aw-board aw-stage-${view.stage}`, "data-stage": view.stage, "data-round": view.round, "data-point": "board" },
    drawSide(ctx, them, "them"),
    drawMiddle(ctx),
    drawSide(ctx, me, "me"));
  container.replaceChildren(board);
}

// --- a side of the table ----------------------------------------------------------------------

function drawSide(ctx, seat, where) {
  const { view, table, w } = ctx;
  const side = view.sides[seat];
  const before = ctx.prev?.sides?.[seat];
  const plate = h("div", { class: "aw-plate" }, badge(table, seat),
    h("strong", {}, nameOf(table, seat, w)),
    // who leads is known once the cards are dealt and the leader named, not before
    view.leader === seat && !["over", "deal", "tie-break", "choose-leader"].includes(view.stage)
      ? h("span", { class: "aw-lead", "data-rule": "awimbawe.next-lead" }, `· ${w("leads")}`) : null,
    heirCard(side, w, before, where),
    h("span", { class: "aw-wins", "data-rule": "awimbawe.round-end", "aria-label": `${w("wins")}: ${side.wins}` }, "★".repeat(side.wins) || "☆"));
  const piles = h("div", { class: "aw-piles", "data-point": where === "me" ? "piles" : "opponent-piles", "data-rule": "awimbawe.deal" },
    side.piles.map((pile, index) => drawPile(ctx, seat, where, pile, index, before)));
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
  }, w(side.heir));
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
  }, "4"));
  const crowns = aids ? `, ${side.crowns} ${w("crowns")}` : "";
  return h("div", { class: "aw-score", role: "group", "data-point": where === "me" ? "scoring-pile" : null, "data-rule": "awimbawe.scoring-pile", "aria-label": `${w("score")}: ${side.scoring_pile} ${w("cards")}${crowns}, ${side.hyenas} ${w("hyenas")}` },
    h("span", { class: `aw-card aw-back aw-small${grew ? " aw-pulse" : ""}`, "aria-hidden": "true" },
      h("span", { class: "aw-code" }, String(side.scoring_pile))),
    h("span", { class: "aw-tally" }, aids ? h("span", { class: "aw-crown-count" }, `♛ ${side.crowns}`) : null,
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
      card ? face(card, w, { extra: fresh ? (fromMe ? "aw-from-me" : "aw-from-them") : "" }) : h("span", { class: "aw-card aw-place", "aria-hidden": "true" }));
  });
  const trick = h("div", { class: "aw-trick", role: "group", "aria-label": w("trick"), "data-point": "trick", "data-rule": "awimbawe.trick-winner" }, slots);
  const info = h("div", { class: "aw-info" },
    h("p", { class: "aw-round", "data-rule": "awimbawe.round-end" }, `${w("round")} ${view.round} · ${w("match")} `,
      h("strong", {}, `${view.sides[0].wins} : ${view.sides[1].wins}`)),
    view.stage === "over" && view.winner !== null && view.winner !== undefined
      ? h("p", { class: "aw-over", "data-rule": "awimbawe.round-end" }, badge(table, view.winner), ` ${nameOf(table, view.winner, w)} ${w("champion")}`) : null,
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
    r.fourth_hyena ? `(${nameOf(table, 1 - r.winner, w)} ${w("fourth")})` : `(♛ ${r.crowns[0]} : ${r.crowns[1]})`)));
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
