// A table page: the game from this viewer's side, live over one WebSocket; the people at the
// table (seats.js), its talk (chat.js) and the turn noticed (notify.js) beside it.
import { api, drawLog, drawView, el, fragment, levelChoices, middleChoice, shownName, signedIn } from "./common.js";
import { language, setupLanguage, t } from "./i18n.js";
import { SEAT_COLOURS, boardFor } from "./draw/index.js";
import { drawChat, noticeText } from "./chat.js";
import { drawNotify, turnChanged } from "./notify.js";
import { play, soundSwitch } from "./sound.js";
import { refreshRuleAtHand, ruleAtHand } from "./rules_at_hand.js";
import { drawMyClock, drawOwn, drawSeats, drawVotes, fetchLinks, linkRows, missingText, staleText } from "./seats.js";

const tableId = document.body.dataset.table;
const tokens = fragment();
const RETRY_FIRST = 500;
const RETRY_CAP = 10000;
const SEND_GAP = 120;
const state = {
  version: 0, events: [], update: null, about: null, notice: "", socket: null,
  retry: 0, retryAt: 0, retryTimer: null, tick: null, pending: false, offline: true, closedForGood: false, lastSend: 0,
  seats: null, notes: [], offset: 0, links: null, qr: null, offer: null, declined: false, stale: null,
};

// The server's clock, as this page reckons it (seconds): for counting clocks and away times.
const serverNow = () => Date.now() / 1000 + state.offset;
const mySeat = () => state.update?.seat ?? null;

// A request about one's own seat (its token in the header); a refusal is shown in the moves.
async function action(path, body = {}) {
  try {
    await api(`/api/tables/${tableId}/${path}`, { method: "POST", body, token: tokens.seat });
  } catch (error) {
    state.notice = error.message;
    drawMoves();
  }
}

function sideContext() {
  return { seats: state.seats, update: state.update, mySeat: mySeat(), token: tokens.seat, now: serverNow, action,
    notes: state.notes, say: (text) => state.socket?.send(JSON.stringify({ type: "chat", text })),
    takeBack: () => state.socket?.send(JSON.stringify({ type: "back" })) };
}

function drawSide() {
  const ctx = sideContext();
  drawSeats(document.getElementById("seats"), ctx);
  drawMyClock(document.getElementById("my-clock"), ctx);
  drawVotes(document.getElementById("votes"), ctx);
  drawOwn(document.getElementById("own"), ctx);
  drawChat(document.getElementById("chat"), ctx);
  drawNotify(document.getElementById("notify"), mySeat() !== null);
  drawOffer();
}

// A rematch on offer: a seated person joins it (their link holds their seat there too).
function drawOffer() {
  const node = document.getElementById("offer");
  const table = state.offer ?? state.update?.rematch;
  node.hidden = !table || state.declined;
  if (node.hidden) return node.replaceChildren();
  if (node.dataset.table === `${table}/${language()}`) return;  // drawn already: keep its buttons
  node.dataset.table = `${table}/${language()}`;
  // A seat held by its link, or by the signed-in account (no link: the account holds it there too).
  const seated = mySeat() !== null;
  const target = seated && tokens.seat ? `/t/${table}#seat=${tokens.seat}${tokens.host ? `&host=${tokens.host}` : ""}` : `/t/${table}`;
  const go = el("button", { type: "button", class: "primary", id: "rematch-join", on: { click: async () => {
    if (seated) {
      // The link holds the same seat at the rematch: take it under the same name at once.
      const name = state.update?.names?.[mySeat()] ?? "";
      try {
        await api(`/api/tables/${table}/join`, { method: "POST", body: { token: tokens.seat ?? "", name, salt: randomSalt() } });
      } catch (error) {
        state.notice = error.message;
        return drawMoves();
      }
    }
    location.assign(target);  // another path: the new table's page loads
  } } }, seated ? t("Join the rematch") : t("Watch the rematch"));
  node.replaceChildren(el("p", {}, t("A rematch is ready.")), el("div", { class: "seat-row" }, go,
    el("button", { type: "button", id: "rematch-no", on: { click: () => { state.declined = true; drawOffer(); } } }, t("Not this time"))));
}

function banner(text, ...extra) {
  const node = document.getElementById("banner");
  node.hidden = !text;
  node.replaceChildren(...(text ? [el("span", { id: "banner-text" }, text), ...extra] : []));
}

function nameOf(seat) {
  if (seat === null || seat === undefined) return t("chance");
  const name = state.update?.names?.[seat] ?? `#${seat + 1}`;
  return shownName(name, seat);
}

function drawTurn() {
  const node = document.getElementById("turn");
  const update = state.update;
  node.dataset.version = String(state.version);
  node.dataset.updates = String(state.updates ?? 0);  // every update counts: a deck step too
  node.dataset.status = update?.status ?? "";
  if (state.about) document.getElementById("page-title").textContent = state.about.name;
  if (!update) return node.replaceChildren(el("p", {}, "…"));
  const who = update.seat === null ? t("You are watching.") : `${t("You play seat")} ${update.seat + 1} (${nameOf(update.seat)}).`;
  const parts = [el("p", {}, who),
    el("p", {}, `${state.about?.name ?? ""} · ${t("move")} `, el("span", { id: "version" }, String(state.version)),
      " · ", el("a", { href: `/rules/${state.about?.game}`, target: "_blank" }, t("Rules")))];
  if (update.status === "open") parts.push(el("p", {}, t("Waiting for players to join.")));
  if (update.status === "expired") parts.push(el("p", { class: "error" }, t("This table expired before it started.")));
  if (update.status === "abandoned") parts.push(el("p", { class: "error", id: "ended" }, t("This game was ended: its people had walked away from it.")));
  if (update.status === "playing") {
    const mine = update.seat !== null && update.to_act === update.seat;
    parts.push(el("p", { class: mine ? "ok" : "", id: "to-act" }, `${t("To move")}: `,
      el("strong", {}, mine ? t("your turn") : nameOf(update.to_act))));
  }
  if (update.result) parts.push(drawResult(update));
  const fairBox = drawFair(update);
  if (fairBox) parts.push(fairBox);
  node.replaceChildren(...parts);
  const myTurn = update.status === "playing" && update.seat !== null && update.to_act === update.seat;
  document.title = (myTurn ? `(${t("Your turn")}) ` : "") + `${state.about?.name ?? ""} · spieltisch`;
  turnChanged(myTurn, state.about?.name ?? "");
}

// This browser's own contribution to the table's dice: 128 random bits the server cannot foresee.
function randomSalt() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

function drawFair(update) {
  const shown = update.fair;
  if (!shown) return null;
  const box = el("details", { class: "fair", id: "fair" },
    el("summary", {}, t("Dice anyone can verify")),
    el("p", {}, `${t("Commitment shown before the first move")}: `, el("code", { id: "commitment" }, shown.commitment)));
  if (shown.secret) {
    box.append(el("p", {}, `${t("Revealed secret")}: `, el("code", {}, shown.secret)),
      el("p", {}, `${t("Seed")}: `, el("code", { id: "seed" }, String(shown.seed))),
      el("button", { type: "button", id: "verify", on: { click: () => verifyDice(shown) } }, t("Verify the dice")),
      el("ul", { id: "verified", role: "status" }),
      el("p", {}, t("To check every roll against this seed on your own computer, download the record and run:")),
      el("pre", {}, el("code", { id: "verify-command" }, `spieltisch verify ${tableId}.json`)),
      el("a", { href: `/api/tables/${tableId}/record`, download: `${tableId}.json` }, t("Download the record")));
  } else box.append(el("p", {}, t("The secret behind the dice is revealed when the game is over.")));
  return box;
}

async function sha256(text) {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

function hex(bytes) {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// The scheme's two checks, worked out by this browser (docs/fair-dice.md): the revealed secret
// gives the commitment shown before the first move, and the seed follows from the secret, the
// table id and the salts. The rolls themselves are checked offline by `spieltisch verify`.
async function verifyDice(shown) {
  const out = document.getElementById("verified");
  const committed = hex(await sha256(`${shown.scheme}:commit:${tableId}:${shown.secret}`)) === shown.commitment;
  const digest = await sha256([shown.scheme, "seed", tableId, shown.secret, ...shown.salts].join(":"));
  const first = new DataView(digest.buffer).getBigUint64(0);
  const seeded = (first >> 2n).toString() === String(shown.seed);
  const line = (ok, text) => el("li", { class: ok ? "ok" : "error" }, `${ok ? "✓" : "✗"} ${text}`);
  out.replaceChildren(
    line(committed, committed ? t("the revealed secret gives the commitment shown before the first move")
      : t("the revealed secret does not give the commitment")),
    line(seeded, seeded ? t("the seed follows from the secret, the table and every seat's salt")
      : t("the seed does not follow from the secret and the salts")));
}

function drawResult(update) {
  const winners = update.result.winners.map(nameOf).join(", ") || "–";
  const scores = update.names.map((name, seat) => `${shownName(name, seat)} ${update.result.scores[seat]}`).join(" · ");
  const box = el("div", { class: "result", id: "result", role: "status" },
    el("h2", {}, t("The game is over")),
    update.result.why ? el("p", { id: "why" }, update.result.why) : null,
    el("p", {}, `${t("Winners")}: `, el("strong", { id: "winners" }, winners)),
    el("p", {}, `${t("Scores")}: `, el("span", { id: "scores" }, scores)),
    el("p", {}, el("a", { href: `/replay/${tableId}`, id: "replay-link" }, t("Watch the replay")), " · ",
      el("a", { href: `/api/tables/${tableId}/record`, id: "record-link" }, t("Download the record"))));
  if (update.rematch) {
    box.append(el("p", {}, `${t("The rematch:")} `, el("a", { href: `/t/${update.rematch}`, id: "rematch-link" }, update.rematch)));
  } else if (tokens.host || update.seat !== null) {
    box.append(el("button", { type: "button", id: "rematch", on: { click: rematch } }, t("Rematch")));
  }
  return box;
}

// Where the keyboard was inside the moves before a redraw, so that it stays there after.
function focusInMoves() {
  const active = document.activeElement;
  const node = document.getElementById("moves");
  if (active?.id === "notation") return { kind: "notation", value: active.value };
  if (active?.id === "move-list-summary") return { kind: "summary" };
  if (active && node.contains(active)) return { kind: "button", index: [...node.querySelectorAll("button.move")].indexOf(active) };
  if (!active || active === document.body) return { kind: "lost" };
  return null;
}

// The legal moves as text, behind "moves as text" (the board is the way to play; this list is
// for a screen reader, a keyboard or a precise choice), filtered by what is typed in the box.
function moveList(legal, typed) {
  const disabled = state.pending || state.offline;
  const words = typed.trim().toLowerCase().split(/\s+/).filter(Boolean);
  const shown = legal.filter((m) => words.every((w) => `${m.label} ${m.text}`.toLowerCase().includes(w)));
  const buttons = el("div", { class: "moves", role: "group", "aria-label": t("Your moves") }, shown.map((move) => el("button", {
    type: "button", class: "move", title: move.text, "data-id": move.id, "data-text": move.text, disabled,
    on: { click: () => sendMove({ type: "move", id: move.id, version: state.version }) },
  }, move.label)));
  const count = shown.length === legal.length ? String(legal.length) : `${shown.length} / ${legal.length}`;
  const list = el("details", { id: "move-list", class: "move-list", on: { toggle: (event) => {
    state.movesOpen = event.target.open;
  } } }, el("summary", { id: "move-list-summary" }, `${t("Moves as text")} (${count})`), buttons);
  list.open = Boolean(state.movesOpen);
  return list;
}

function drawMoves() {
  const node = document.getElementById("moves");
  const legal = state.update?.legal ?? [];
  let focus = focusInMoves();
  const remembered = focus?.kind === "lost" && state.focusMemo;
  if (remembered) focus = { kind: "lost" };
  const notice = el("p", { class: "error", id: "notice", role: "alert" }, state.notice);
  if (!legal.length || state.pending || state.offline) state.focusMemo = focus && focus.kind !== "lost" ? focus : state.focusMemo;
  else state.focusMemo = null;
  // Nothing to do and nothing to say: the panel keeps its (empty) notice but is not shown.
  node.classList.toggle("quiet", !legal.length && !state.notice);
  state.focusBoard = false;
  if (!legal.length) return node.replaceChildren(notice);
  const typed = focus?.kind === "notation" ? focus.value : document.getElementById("notation")?.value ?? "";
  const input = el("input", { type: "text", id: "notation", maxlength: "200", autocomplete: "off",
    autocapitalize: "off", spellcheck: "false", enterkeyhint: "send",
    "aria-label": t("Move in notation"), placeholder: t("Move in notation"), disabled: state.pending || state.offline });
  input.value = typed;
  input.addEventListener("input", () => {
    const old = document.getElementById("move-list");
    old?.replaceWith(moveList(legal, input.value));
  });
  const form = el("form", { class: "seat-row", id: "notation-form", on: { submit: (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    sendMove({ type: "move", text, version: state.version });
  } } }, input, el("button", { type: "submit", disabled: state.pending || state.offline }, t("Play")));
  const list = moveList(legal, typed);
  const hint = state.update?.hints
    ? el("div", { class: "seat-row" },
      el("button", { type: "button", id: "hint", disabled: state.pending || state.offline,
        on: { click: () => { state.hint = "…"; drawMoves(); state.socket?.send(JSON.stringify({ type: "hint" })); } } }, t("Hint")),
      el("span", { id: "hint-text", role: "status" }, state.hint ?? ""))
    : null;
  node.replaceChildren(...[el("h2", {}, t("Your moves")), form, list, hint, notice].filter(Boolean));
  if (state.pending || state.offline || !focus) return;
  // Focus stays where it was in a redraw of the same moves; on a new turn it goes to the
  // board's first live target (once the board is drawn), never to a move that ends the turn.
  const all = list.querySelectorAll("button.move");
  if (focus.kind === "notation") input.focus();
  else if (focus.kind === "summary") list.querySelector("summary").focus();
  else if (focus.kind === "button" && focus.index >= 0 && all.length) all[Math.min(focus.index, all.length - 1)].focus();
  else if (remembered?.kind === "notation") input.focus();
  else if (state.keyboard) state.focusBoard = true;
}

// A new turn for a keyboard user: the board's first control that plays part of a move (a die to
// pick, a card, a store), never one that ends the turn; else the notation box.
function focusBoard() {
  if (!state.focusBoard) return;
  state.focusBoard = false;
  const live = ":is(button, [role=button]):not([disabled]):not([tabindex='-1']):not([data-ends-turn])";
  const target = document.querySelector(`#board ${live}`);
  (target ?? document.getElementById("notation"))?.focus();
}

function drawBoard() {
  const node = document.getElementById("board");
  const update = state.update;
  if (!state.board || !update) return node.replaceChildren(drawView(update?.view));
  state.board.draw(node, {
    view: update.view, previous: state.previousView, seat: update.seat, names: update.names.map(shownName),
    toAct: update.to_act, status: update.status, legal: update.legal, events: state.events,
    colours: SEAT_COLOURS, t, lang: language(), aids: Boolean(state.about?.rules?.memory_aids),
    play: (move) => sendMove({ type: "move", id: move.id, version: state.version }),
    try: (text) => sendMove({ type: "move", text, version: state.version }),
  });
}

function draw() {
  drawTurn();
  drawMoves();
  try {
    drawBoard();
  } catch (error) {
    // A board that cannot draw this view must not take the rest of the page with it.
    console.error("the board failed; showing the view's fields instead:", error);
    document.getElementById("board").replaceChildren(drawView(state.update?.view));
  }
  focusBoard();
  drawLogPanel();
  drawHost();
  drawSide();
}

// The game's events and the table's notices, in the order they came.
// The list follows the newest entry unless its reader scrolled back (then it stays put), and
// takes focus so that a keyboard can scroll it. Only the reader's own scrolling changes that:
// where the list is still where the last drawing left it, it was not scrolled, and the list
// shrinking meanwhile (the page around it laid out anew) does not make its reader one who
// scrolled back.
let logLeft = { top: 0, following: true };
const atEnd = (list) => list.scrollHeight - list.scrollTop - list.clientHeight < 8;
function drawLogPanel() {
  const notices = state.notes.filter((n) => n.kind === "notice")
    .map((n) => ({ version: n.version, notice: true, sentence: noticeText(n.notice), outcome: null }));
  const old = document.querySelector("#log ol.log");
  const untouched = old !== null && old.scrollTop === logLeft.top;
  const following = !old || atEnd(old) || (untouched && logLeft.following);
  const hadFocus = old !== null && document.activeElement === old;
  const list = drawLog(state.events, notices, state.board?.logLine ?? undefined);
  Object.assign(list, { id: "log-list", tabIndex: 0 });
  list.setAttribute("aria-labelledby", "log-title");
  document.getElementById("log").replaceChildren(el("h2", { id: "log-title" }, t("What happened")), list);
  list.scrollTop = following ? list.scrollHeight : old.scrollTop;
  logLeft = { top: list.scrollTop, following };
  if (hadFocus) list.focus();
}

// The sound of what others did (sound.js, when sound is on): dice landing in a dice game, a
// card laid in a card game, once an update, for events newer than any this page has heard (not
// the game so far, which arrives as the page opens or changes language). The boards need not
// know: the game's kind says which.
const DICE_GAMES = new Set(["auf-die-eier", "auf-die-nuesse"]);
function hear(message) {
  const heard = state.heard;
  state.heard = Math.max(heard ?? 0, message.version);
  if (heard === undefined || !message.events.length) return;
  const fresh = message.events.filter((event) => event.version > heard);
  if (DICE_GAMES.has(state.about?.game)) {
    if (fresh.some((event) => event.actor === null)) play("dice");
  } else if (fresh.length) play("card");
}

function receive(message) {
  if (message.type === "update") {
    hear(message);
    state.updates = (state.updates ?? 0) + 1;
    const known = new Set(state.events.map((e) => e.version));
    for (const event of message.events) if (!known.has(event.version)) state.events.push(event);
    state.events.sort((a, b) => a.version - b.version);
    state.version = message.version;
    state.previousView = state.update?.view ?? null;
    if (message.version !== state.update?.version) state.hint = "";
    state.update = message;
    state.pending = false;
    if (message.events.length) state.notice = "";
    draw();
    refreshSeats(message);
  } else if (message.type === "rejected") {
    state.pending = false;
    state.notice = `${t("Refused")}: ${message.reason}`;
    drawMoves();
  } else if (message.type === "hint") {
    state.hint = message.text;
    drawMoves();
  } else if (message.type === "error") {
    state.pending = false;
    state.notice = message.reason;
    drawMoves();
  } else if (message.type === "rematch") {
    state.offer = message.table;
    drawOffer();
  } else if (message.type === "seats") {
    state.offset = message.now - Date.now() / 1000;
    state.seats = message;
    drawSide();
    drawHost();
  } else if (message.type === "notes") {
    const known = new Set(state.notes.map((n) => n.idx));
    for (const note of message.notes) if (!known.has(note.idx)) state.notes.push(note);
    state.notes.sort((a, b) => a.idx - b.idx);
    drawSide();
    drawLogPanel();
  } else if (message.type === "stale") {
    state.stale = message;
    drawStale();
  }
}

// This link's seat changed hands (or it never had one here): say whose it was, offer to watch.
function drawStale() {
  const node = document.getElementById("stale");
  node.hidden = !state.stale;
  // A link that was spent before this page saw the game: no empty board and panels under it.
  document.querySelector(".table-layout").hidden = Boolean(state.stale && !state.update);
  if (!state.stale) return node.replaceChildren();
  node.replaceChildren(...staleText(state.stale).map((line) => el("p", {}, line)),
    el("button", { type: "button", class: "primary", id: "watch", on: { click: watchInstead } }, t("Watch instead")));
  banner("");
}

function watchInstead() {
  tokens.seat = null;
  history.replaceState(null, "", location.pathname + (tokens.host ? `#host=${tokens.host}` : ""));
  state.stale = null;
  state.closedForGood = false;
  state.version = 0;
  state.events = [];
  state.update = null;
  drawStale();
  reconnectNow();
}

// Moves leave at most one per SEND_GAP, below the server's limit per connection, so that even
// the quickest hands are never told to slow down.
function sendMove(message) {
  if (state.pending || state.offline || state.socket?.readyState !== WebSocket.OPEN) return;
  state.pending = true;
  drawMoves();
  const socket = state.socket;
  setTimeout(() => {
    if (socket.readyState !== WebSocket.OPEN || state.socket !== socket) return;
    state.lastSend = Date.now();
    socket.send(JSON.stringify(message));
  }, Math.max(0, state.lastSend + SEND_GAP - Date.now()));
}

// Reconnecting: waits double each time, up to RETRY_CAP, and the page says so, counting down.
function scheduleReconnect() {
  clearTimeout(state.retryTimer);
  clearInterval(state.tick);
  const delay = Math.min(RETRY_CAP, RETRY_FIRST * 2 ** state.retry);
  state.retry += 1;
  state.retryAt = Date.now() + delay;
  const show = () => {
    const seconds = Math.max(0, Math.ceil((state.retryAt - Date.now()) / 1000));
    banner(`${t("Connection lost.")} ${t("Reconnecting in")} ${seconds} s (${t("attempt")} ${state.retry}).`,
      " ", el("button", { type: "button", id: "retry-now", class: "link", on: { click: reconnectNow } }, t("Try now")));
  };
  show();
  state.tick = setInterval(show, 1000);
  state.retryTimer = setTimeout(reconnectNow, delay);
}

function reconnectNow() {
  clearTimeout(state.retryTimer);
  clearInterval(state.tick);
  banner(t("Connecting…"));
  connect();
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${tableId}`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    socket.send(JSON.stringify({ type: "hello", token: tokens.seat, since: state.version, language: language() }));
  });
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "update") {
      state.retry = 0;
      state.offline = false;
      banner("");
    }
    receive(message);
  });
  socket.addEventListener("close", (event) => {
    if (state.socket !== socket) return;
    state.pending = false;
    state.offline = true;
    if (event.code === 4403 || event.code === 4404) {
      state.closedForGood = true;
      if (state.stale) return drawStale();
      return banner(state.notice || t("This link opens no table here."));
    }
    if (state.stale) return drawStale();  // told why, then closed: nothing to reconnect to
    scheduleReconnect();
    drawMoves();
  });
}

async function join(event) {
  event.preventDefault();
  const name = event.target.querySelector("input").value;
  try {
    await api(`/api/tables/${tableId}/join`, { method: "POST", body: { token: tokens.seat, name, salt: randomSalt() } });
    document.getElementById("join").hidden = true;
    state.about = await api(`/api/tables/${tableId}`);
    drawHost();
  } catch (error) {
    event.target.querySelector(".error").textContent = error.message;
  }
}

function drawJoin(mine) {
  const node = document.getElementById("join");
  const hide = !(mine && !mine.joined);
  if (hide || !node.hidden) {
    node.hidden = hide;
    return;
  }
  node.hidden = false;
  node.replaceChildren(el("form", { class: "panel seat-row", id: "join-form", on: { submit: join } },
    el("label", { for: "name" }, t("Your name at this table")),
    el("input", { id: "name", name: "name", required: true, maxlength: "40", autocomplete: "nickname" }),
    el("button", { type: "submit", class: "primary" }, t("Take the seat")),
    el("span", { class: "error", role: "alert" })));
}

// The levels the host may hand a seat to (see levelChoices): the ladder's names, if it has any.
function botLevels(players) {
  if (!state.game) return [];
  const { named, others } = levelChoices(state.game, players);
  return named.length ? named : others;
}

// A seat given to a new person: the host panel stays open on the new link, which has focus.
async function giveToPerson(seat) {
  state.hostOpen = true;
  await hostAction(`seats/${seat}/person`);
  document.querySelector(`#host .link-row[data-seat="${seat}"] .seat-link`)?.focus();
}

async function hostAction(path, body) {
  try {
    await api(`/api/tables/${tableId}/${path}`, { method: "POST", body, token: tokens.host });
    state.about = await api(`/api/tables/${tableId}`);
    state.links = await fetchLinks(tableId, tokens.host);
    state.hostNote = "";
  } catch (error) {
    state.hostNote = error.message;
  }
  drawHost();
}

async function rematch() {
  try {
    const made = await api(`/api/tables/${tableId}/rematch`, { method: "POST", token: tokens.seat ?? tokens.host });
    state.offer = made.id;
    drawOffer();
  } catch (error) {
    state.notice = error.message;
    drawMoves();
  }
}

function drawHost() {
  const node = document.getElementById("host");
  node.hidden = !tokens.host || !state.about;
  if (node.hidden) return;
  const about = { ...state.about, seats: state.seats?.seats ?? state.about.seats };
  const status = state.update?.status ?? about.status;
  const hadFocus = node.contains(document.activeElement) ? document.activeElement.id : null;
  const over = ["finished", "expired", "abandoned"].includes(status);
  // The host chooses the bot's level (the ladder's names; the middle one unless chosen).
  const level = (seat) => {
    const chosen = state.botLevels?.[seat.seat];
    const choices = botLevels(about.players);
    const middle = middleChoice(choices);
    const options = choices.map((c) =>
      el("option", { value: c.value, disabled: c.disabled, selected: c.value === (chosen ?? middle) }, c.label));
    return el("select", { id: `tobot-level-${seat.seat}`, "aria-label": `${t("Bot level")} ${seat.seat + 1}`,
      on: { change: (event) => { state.botLevels = { ...state.botLevels, [seat.seat]: event.target.value }; } } }, options);
  };
  const control = (seat) => over ? null : seat.kind === "person"
    ? el("span", { class: "seat-row" }, level(seat), el("button", { type: "button", id: `tobot-${seat.seat}`, on: { click: () =>
      hostAction(`seats/${seat.seat}/bot`, { level: document.getElementById(`tobot-level-${seat.seat}`).value }) } }, t("Hand to a bot")))
    : el("button", { type: "button", id: `toperson-${seat.seat}`, on: { click: () => giveToPerson(seat.seat) } }, t("Give back to a person"));
  const ready = status === "open" && about.seats.every((s) => s.kind !== "person" || s.joined);
  const start = status === "open" ? [el("p", { id: "start-why", role: "status" }, missingText(about, mySeat())),
    el("button", { type: "button", class: "primary", id: "start", "aria-describedby": "start-why", disabled: !ready,
      on: { click: () => hostAction("start") } }, t("Start the game"))] : [];
  const rows = over ? [] : [el("h3", {}, t("Join links")),
    ...linkRows(about, state.links, state.qr, (seat) => { state.qr = state.qr === seat ? null : seat; drawHost(); }, control)];
  // Open while people gather; folded away once the game is on (a click opens it again).
  const summary = el("summary", { on: { click: () => { state.hostOpen = !box.open; } } }, el("h2", {}, t("You host this table")));
  const box = el("details", { class: "panel host-box", open: state.hostOpen ?? status === "open" }, summary, ...start, ...rows,
    state.hostNote ? el("p", { class: "error", id: "host-note", role: "alert" }, state.hostNote) : null);
  node.replaceChildren(box);
  if (hadFocus) document.getElementById(hadFocus)?.focus();
}

async function refreshSeats(update) {
  if (update.status === "open" || !state.about || state.about.status !== update.status) {
    state.about = await api(`/api/tables/${tableId}`);
  }
  const mine = update.seat === null ? null : state.about.seats[update.seat];
  drawJoin(mine);
  if (tokens.host && state.links === null) state.links = await fetchLinks(tableId, tokens.host);
  drawHost();
}

// The server words the log and the moves in the page's language: a new language asks for them
// all again (the board and the rest of the page switch at once).
function relanguage() {
  draw();
  drawStale();  // its words too
  refreshRuleAtHand();
  if (state.closedForGood || !state.socket) return;
  const old = state.socket;
  state.socket = null;
  old.close();
  state.pending = false;
  state.version = 0;
  state.events = [];
  connect();
}

// A phone folds the side panels under the board (the turn and the moves stay in sight; the
// people at the table start open, the talk, the log and the notifications folded); a wide
// screen shows them all, their folds' summaries hidden. The log, opened, shows its newest line.
const WIDE = matchMedia("(min-width: 761px)");
function setupFolds() {
  const folds = [...document.querySelectorAll("details.fold")];
  const lay = () => { for (const fold of folds) fold.open = WIDE.matches || fold.dataset.phone === "open"; };
  lay();
  WIDE.addEventListener("change", lay);
  document.getElementById("fold-log")?.addEventListener("toggle", (event) => { if (event.target.open) drawLogPanel(); });
}

async function main() {
  setupFolds();
  document.querySelector(".bar-tools")?.prepend(soundSwitch());
  setupLanguage(relanguage);
  // A keyboard user's focus follows the moves from turn to turn; a pointer user's is left alone.
  document.addEventListener("keydown", (event) => { if (event.key === "Tab") state.keyboard = true; });
  document.addEventListener("pointerdown", () => { state.keyboard = false; });
  state.about = await api(`/api/tables/${tableId}`);
  const games = await api("/api/games");
  const game = games.find((g) => g.id === state.about.game);
  state.game = game ?? null;
  state.board = await boardFor(state.about.game);
  ruleAtHand(document.getElementById("board"), document.getElementById("rule-at-hand"), () => state.about?.game);
  if (tokens.host) state.links = await fetchLinks(tableId, tokens.host);
  connect();
  draw();
  signedIn.then(drawHost);  // the heaviest bot levels open to a signed-in host
  // Clocks and away times count on the page between messages.
  setInterval(() => {
    if (!state.seats) return;
    const ctx = sideContext();
    drawSeats(document.getElementById("seats"), ctx);
    drawMyClock(document.getElementById("my-clock"), ctx);
    if (!document.getElementById("own").contains(document.activeElement)) drawOwn(document.getElementById("own"), ctx);
  }, 1000);
}

main();
