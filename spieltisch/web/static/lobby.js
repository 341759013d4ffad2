// The lobby, a place to choose a game: the first choices (play against bots, a table for
// friends, learn, continue), a tile for each game that chooses it in the new-table form, the
// form itself, and the lists of tables, kept current by the server's feed.
import { api, currentAccount, el, levelChoices, middleChoice, shownName, signedIn } from "./common.js";
import { N_, language, setupLanguage, t, tn } from "./i18n.js";

const KINDS = {
  open: N_("Open tables"),
  playing: N_("Being played"),
  abandoned: N_("Walked away from (nobody has played for a long while)"),
  finished: N_("Finished"),
};

let games = [];
let lists = { open: [], playing: [], abandoned: [], finished: [] };

const EMPTY = {
  open: N_("No table is waiting for players right now. Make one below and send its links to your friends."),
  playing: N_("Nobody is playing right now. Start a game against bots, it takes a moment."),
  abandoned: N_("No table has been left alone."),
  finished: N_("No game has finished yet. The first one will be here, with its replay."),
};

// A game's small picture: its tile's drawing, from its art file (colours from lobby.css).
const SVG = "http://www.w3.org/2000/svg";
function art(game, cls) {
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("class", `art ${cls}`);
  svg.setAttribute("viewBox", "0 0 160 100");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG, "use");
  use.setAttribute("href", `/static/art/tile-${game}.svg#art`);
  svg.append(use);
  return svg;
}

function stateBadge(kind, row) {
  const going = mine.get(row.id);
  if (!going) return null;  // every open table waits for players: said of one's own only
  if (going.your_turn) return el("span", { class: "badge turn" }, t("Your turn"));
  if (kind === "open") return el("span", { class: "badge waiting" }, t("Waiting for players"));
  return el("span", { class: "badge" }, t("You play here"));
}

function tableList(kind, rows) {
  const title = `list-${kind}`;
  const section = el("section", { "aria-labelledby": title, class: `table-list list-${kind}` },
    el("h2", { id: title }, t(KINDS[kind]), rows.length ? el("span", { class: "count" }, ` ${rows.length}`) : null));
  if (!rows.length) return section.appendChild(el("p", { class: "empty" }, t(EMPTY[kind]))) && section;
  const head = el("thead", {}, el("tr", {},
    el("th", { scope: "col" }, t("Game")), el("th", { scope: "col" }, t("Players")),
    el("th", { scope: "col" }, t("At the table")),
    el("th", { scope: "col" }, kind === "open" ? t("Free seats") : el("span", { class: "visually-hidden" }, t("Seats"))),
    el("th", { scope: "col" }, el("span", { class: "visually-hidden" }, t("Open")))));
  const body = el("tbody");
  for (const row of expanded.has(kind) ? rows : rows.slice(0, SHOWN)) {
    const link = kind === "finished" ? `/replay/${row.id}` : mine.get(row.id)?.link ?? `/t/${row.id}`;
    const label = kind === "finished" ? t("replay") : mine.has(row.id) ? t("continue") : kind === "open" ? t("join") : t("watch");
    const badge = stateBadge(kind, row);
    body.append(el("tr", { class: mine.get(row.id)?.your_turn ? "your-turn" : null },
      el("td", {}, el("div", { class: "game-cell" }, row.game ? art(row.game, "list-art") : null, el("span", {}, row.name), badge ? [" ", badge] : null)),
      el("td", {}, `${row.players}`),
      el("td", {}, row.names.map(shownName).join(", ")),
      el("td", { class: "seats-free" }, kind === "open" ? tn("{n} free seat", "{n} free seats", row.seats_free) : ""),
      el("td", {}, el("a", { href: link, class: "row-action" }, label))));
  }
  section.append(el("div", { class: "scroll" }, el("table", { class: "list" }, head, body)));
  if (rows.length > SHOWN) section.append(moreOrFewer(kind, rows.length));
  return section;
}

// A long list shows its newest tables; the rest a click away.
const SHOWN = 8;
const expanded = new Set();
function moreOrFewer(kind, count) {
  const open = expanded.has(kind);
  return el("button", { type: "button", class: "link more", "aria-expanded": open ? "true" : "false",
    on: { click: () => {
      if (open) expanded.delete(kind); else expanded.add(kind);
      drawLists();
      document.querySelector(`#lists .list-${kind} button.more`)?.focus();  // where it was
    } } },
  open ? t("Show fewer") : t("Show all {n}", { n: count }));
}

function drawLists() {
  const node = document.getElementById("lists");
  node.replaceChildren(tableList("open", lists.open), tableList("playing", lists.playing),
                       ...(lists.abandoned?.length ? [tableList("abandoned", lists.abandoned)] : []),
                       tableList("finished", lists.finished));
}

// --- the games this browser or account plays -------------------------------------------------

// Tables made in this browser (their sit links, with the host's rights): kept here, since a
// seat's link is the only key to it for someone not signed in.
const MADE = "spieltisch.made";
let mine = new Map();  // table id -> {table, game, game_name, link, your_turn, status}
let accountTables = [];  // the signed-in account's unfinished tables (its profile says)

function madeHere() {
  try {
    const kept = JSON.parse(localStorage.getItem(MADE) ?? "[]");
    return Array.isArray(kept) ? kept : [];
  } catch {
    return [];
  }
}

function keepMade(entry) {
  const kept = [entry, ...madeHere().filter((m) => m.table !== entry.table)].slice(0, 20);
  try { localStorage.setItem(MADE, JSON.stringify(kept)); } catch { /* a private window: not kept */ }
}

// The account's tables first (it knows whose turn it is), then this browser's, still running.
function gatherMine() {
  const running = new Map([...lists.open, ...lists.playing].map((row) => [row.id, row]));
  mine = new Map();
  for (const row of accountTables) mine.set(row.table, row);
  for (const made of madeHere()) {
    const row = running.get(made.table);
    if (!row || mine.has(made.table)) continue;
    mine.set(made.table, { ...made, game_name: row.name, status: row.status, your_turn: false });
  }
}

// Asked again as the lists change, at most once in a few seconds (whose turn it is moves on).
let accountAsked = 0;
let askLater = null;
async function askAccount() {
  const who = currentAccount();
  if (!who) return;
  const wait = accountAsked + 3000 - Date.now();
  if (wait > 0) {
    askLater ??= setTimeout(() => { askLater = null; askAccount(); }, wait);
    return;
  }
  accountAsked = Date.now();
  const profile = await api(`/api/players/${encodeURIComponent(who.name)}`).catch(() => null);
  accountTables = profile?.unfinished ?? accountTables;
  drawMine();
  drawLists();
}

function continueCard(row) {
  const badge = row.your_turn ? el("span", { class: "badge turn" }, t("Your turn"))
    : row.status === "open" ? el("span", { class: "badge waiting" }, t("Waiting for players"))
    : el("span", { class: "badge" }, t("Being played"));
  return el("li", {}, el("a", { class: `going${row.your_turn ? " your-turn" : ""}`, href: row.link },
    art(row.game, "going-art"), el("span", { class: "going-text" }, el("span", { class: "going-name" }, row.game_name), badge),
    el("span", { class: "going-go" }, t("continue"))));
}

function drawMine() {
  gatherMine();
  const rows = [...mine.values()].sort((a, b) => Number(b.your_turn) - Number(a.your_turn));
  const section = document.getElementById("continue");
  const choice = document.getElementById("choice-continue");
  section.hidden = choice.hidden = !rows.length;
  const turns = rows.filter((r) => r.your_turn).length;
  const line = choice.querySelector(".choice-line");
  line.removeAttribute("data-t");  // a count, written here in the page's language
  line.textContent = turns
    ? tn("It is your turn at {n} table", "It is your turn at {n} tables", turns)
    : tn("{n} table still running", "{n} tables still running", rows.length);
  document.getElementById("continue-list").replaceChildren(el("ul", { class: "going-list" }, rows.map(continueCard)));
}

// --- a tile for each game ---------------------------------------------------------------------

// How long a game takes at a table of people, in minutes (from the rules: a race to 100 points
// at Auf die Eier, the stores filled at Auf die Nüsse!, Auweier's weddings until the eggs are
// won, Awimbawé's two rounds of tricks); more players, the longer end.
const LENGTH = { "auf-die-eier": [15, 30], "auf-die-nuesse": [30, 45], "auweier": [30, 45], "awimbawe": [15, 25] };
let lessons = [];

function playerCount(game) {
  return game.min_players === game.max_players ? t("{n} players", { n: game.min_players })
    : t("{min}–{max} players", { min: game.min_players, max: game.max_players });
}

function gameTile(game, chosen) {
  const length = LENGTH[game.id];
  const lesson = lessons.find((l) => l.id === game.id);
  const title = `tile-${game.id}-name`;
  return el("article", { class: `game-tile${chosen ? " chosen" : ""}`, "data-game": game.id, "aria-labelledby": title },
    el("div", { class: "tile-art" }, art(game.id, "tile-picture")),
    el("div", { class: "tile-body" },
      el("h3", { id: title }, game.name),
      el("p", { class: "tile-facts" },
        el("span", { class: "fact players" }, playerCount(game)),
        length ? el("span", { class: "fact length" }, t("{from}–{to} min", { from: length[0], to: length[1] })) : null),
      el("p", { class: "tile-summary" }, t(game.summary)),
      el("div", { class: "tile-actions" },
        el("button", { type: "button", class: chosen ? "primary" : "", "aria-pressed": chosen ? "true" : "false",
          "aria-describedby": title, on: { click: () => chooseGame(game.id) } }, t("Play")),
        el("a", { href: `/rules/${game.id}`, "aria-describedby": title }, t("Rules")),
        lesson ? el("a", { href: `/learn/${lesson.id}`, id: `learn-${lesson.id}`, "aria-describedby": title }, t("Learn")) : null)));
}

function drawTiles() {
  const chosen = document.querySelector("#create [name=game]")?.value ?? games[0]?.id;
  document.getElementById("games").replaceChildren(...games.map((g) => gameTile(g, g.id === chosen)));
}

function reveal(node) {
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  node.scrollIntoView({ behavior: still ? "auto" : "smooth", block: "start" });
}

// A tile's Play: the game chosen in the new-table form, which comes into view.
function chooseGame(id) {
  const select = document.getElementById("game");
  if (!select) return;
  select.value = id;
  drawForm();
  drawTiles();
  reveal(document.getElementById("new-table"));
  document.getElementById("game").focus({ preventScroll: true });
}

// The first choices: bots in every other seat, or people; then the form's button is next.
function seatEveryone(kind) {
  const form = document.getElementById("create");
  drawForm();
  for (const select of form.querySelectorAll("select[name^=seat-]")) {
    const seat = Number(select.name.split("-")[1]);
    select.value = seat === 0 || kind === "person" ? "person" : "bot";
    form.querySelector(`[name=level-${seat}]`).hidden = select.value !== "bot";
  }
  reveal(document.getElementById("new-table"));
  form.querySelector("button[type=submit]").focus({ preventScroll: true });
}

function setupChoices() {
  for (const [id, kind] of [["choice-bots", "bot"], ["choice-friends", "person"]]) {
    document.getElementById(id).addEventListener("click", (event) => {
      event.preventDefault();
      seatEveryone(kind);
    });
  }
}

function optionInput(option) {
  const id = `option-${option.name}`;
  let input;
  if (option.type === "bool") input = el("input", { type: "checkbox", id, name: option.name, checked: option.default });
  else if (option.choices.length) {
    // Each value in words (its label, a msgid); its code, as records and the rules page write
    // it, in the title.
    input = el("select", { id, name: option.name },
      option.choices.map((c) => el("option", { value: c, selected: c === option.default, title: String(c) },
        t(option.labels?.[String(c)] ?? String(c)))));
  } else if (option.type === "int") {
    // A rule parameter carries its bounds: the browser keeps the number within them.
    input = el("input", { type: "number", id, name: option.name, value: option.default, step: 1,
      ...(option.min !== undefined ? { min: option.min, max: option.max } : {}) });
  } else input = el("input", { type: "text", id, name: option.name, value: option.default });
  // Its meaning in words, then its control; the option's code name is the rules page's business.
  return el("div", { class: "seat-row" }, el("label", { for: id, title: option.name }, t(option.help)), input);
}

// Rule parameters (the game's numbers: a goal, a hand size) fold away under their own
// heading: most tables play the rulebook's numbers.
function parameterBox(game) {
  const parameters = game.options.filter((o) => o.min !== undefined);
  if (!parameters.length) return [];
  return [el("details", { class: "rules-box", id: "parameters" },
    el("summary", {}, t("Rule parameters")), ...parameters.map(optionInput))];
}

// A rating as the page's language writes numbers (25,8 in German).
// The level picker's options: the ladder's names (the one in the middle chosen), then the codes.
function levelOptions(game, players) {
  const { named, others } = levelChoices(game, players);
  const option = (c, selected) => el("option", { value: c.value, selected, disabled: c.disabled, title: c.value }, c.label);
  if (!named.length) {
    const first = others.find((c) => !c.disabled)?.value;
    return others.map((c) => option(c, c.value === first));
  }
  const middle = middleChoice(named);
  return [...named.map((c) => option(c, c.value === middle)),
    el("optgroup", { label: t("More levels, by their code") }, others.map((c) => option(c, false)))];
}

function seatRows(game, players) {
  const rows = [];
  for (let seat = 0; seat < players; seat++) {
    const level = el("select", { name: `level-${seat}`, "aria-label": `${t("Bot level")} ${seat + 1}`, hidden: seat === 0 },
      levelOptions(game, players));
    // A level belongs to a bot seat only: it is hidden beside a person's seat.
    const kind = el("select", { name: `seat-${seat}`, "aria-label": `${t("Seat")} ${seat + 1}`,
      on: { change: (event) => { level.hidden = event.target.value !== "bot"; } } },
    el("option", { value: "person", selected: seat === 0 }, t("a person")),
    el("option", { value: "bot", selected: seat !== 0 }, t("a bot")));
    rows.push(el("div", { class: "seat-row" }, el("span", {}, `${t("Seat")} ${seat + 1}`), kind, level));
  }
  return rows;
}

// values: each value and the msgid that names it.
function choice(name, label, values, chosen) {
  const id = `rules-${name}`;
  return el("div", { class: "seat-row" }, el("label", { for: id }, t(label)),
    el("select", { id, name: `rules-${name}` },
      Object.entries(values).map(([value, text]) => el("option", { value, selected: value === chosen }, t(text)))));
}

function number(name, label, value, min, max, attrs = {}) {
  const id = `rules-${name}`;
  return el("div", { class: "seat-row", ...attrs }, el("label", { for: id }, t(label)),
    el("input", { type: "number", id, name: `rules-${name}`, value, min, max, step: "1" }));
}

// The house rules: the clock, what happens to an absent seat, and who reads the chat. A live
// clock's bank and increment show only when the clock is live.
function houseRules() {
  const clock = choice("clock", N_("Clock"), { none: N_("none (friends together)"), relaxed: N_("relaxed (a day for each move)"), live: N_("live (a time bank and an increment)") }, "none");
  const live = [number("bank", N_("Time bank, minutes"), 5, 1, 10080, { class: "seat-row live-clock", hidden: true }),
    number("increment", N_("Increment per move, seconds"), 10, 0, 3600, { class: "seat-row live-clock", hidden: true })];
  clock.querySelector("select").addEventListener("change", (event) => {
    for (const row of live) row.hidden = event.target.value !== "live";
  });
  return el("fieldset", { class: "rules-box" }, el("legend", {}, t("Clock")), clock, ...live,
    choice("takeover", N_("When someone runs out of time or stays away"), { bot: N_("a bot plays for them until they return"), vote: N_("the others vote on handing the seat to a bot") }, "bot"),
    el("div", { class: "seat-row" }, el("input", { type: "checkbox", id: "rules-give-way", name: "rules-give-way", checked: true }),
      el("label", { for: "rules-give-way" }, t("A bot standing in gives the seat back at its person's next turn, if they are at the table"))),
    choice("chat", N_("Chat"), { players: N_("for the players"), everyone: N_("for players and spectators"), off: N_("off") }, "players"));
}

function readRules(form) {
  const rules = {
    clock: form["rules-clock"].value, takeover: form["rules-takeover"].value, chat: form["rules-chat"].value,
    bank: Math.max(30, Number(form["rules-bank"].value) * 60), increment: Number(form["rules-increment"].value),
    memory_aids: form["memory-aids"].checked, give_way: form["rules-give-way"].checked,
  };
  if (form.rated?.checked) rules.rated = true;
  return rules;
}

// A rated table (offered to a signed-in host): every person seat must be signed in.
function ratedBox() {
  if (!currentAccount()) return [];
  return [el("div", { class: "seat-row" }, el("input", { type: "checkbox", id: "rated", name: "rated", "aria-describedby": "rated-hint" }),
    el("label", { for: "rated" }, t("Rated")),
    el("span", { class: "hint", id: "rated-hint" }, t("(every person at the table signs in; bots must be levels of the bot ladder)")))];
}

// --- a rated game against the bot of the signed-in player's level -----------------------------

let ladders = [];  // [{game, game_name, players: [n, ...]}]: what has a bot ladder

function drawRatedBot() {
  const account = currentAccount();
  let node = document.getElementById("rated-bot");
  if (!account || !ladders.length) return node?.remove();
  if (!node) {
    node = el("section", { id: "rated-bot", "aria-labelledby": "rated-bot-title" });
    document.getElementById("create").closest("section").before(node);
  }
  const chosen = node.querySelector("#rated-game")?.value ?? ladders[0].game;
  const game = ladders.find((g) => g.game === chosen) ?? ladders[0];
  const players = Number(node.querySelector("#rated-players")?.value ?? game.players[0]);
  const note = node.querySelector("#rated-bot-note")?.textContent ?? "";
  const form = el("form", { class: "panel", id: "rated-bot-form", on: { submit: playRated } },
    el("p", { class: "hint" }, t("Against bots of your level on the bot ladder; only your rating moves.")),
    el("div", { class: "seat-row" },
      el("label", { for: "rated-game" }, t("Game")),
      el("select", { id: "rated-game", name: "rated-game", on: { change: drawRatedBot } },
        ladders.map((g) => el("option", { value: g.game, selected: g.game === game.game }, g.game_name))),
      el("label", { for: "rated-players" }, t("Players")),
      el("select", { id: "rated-players", name: "rated-players" },
        game.players.map((n) => el("option", { value: n, selected: n === players }, String(n)))),
      el("button", { type: "submit", class: "primary", id: "rated-bot-play" }, t("Play a rated game"))),
    el("p", { id: "rated-bot-note", class: "error", role: "alert" }, note),
    el("p", {}, el("a", { href: "/ratings", id: "ratings-link" }, t("Ratings and the bot ladder"))));
  node.replaceChildren(el("h2", { id: "rated-bot-title" }, t("Rated game against the bot of my level")), form);
}

async function playRated(event) {
  event.preventDefault();
  const form = event.target;
  const button = form.querySelector("#rated-bot-play");
  button.disabled = true;
  try {
    const made = await api("/api/rated-bot", { method: "POST",
      body: { game: form["rated-game"].value, players: Number(form["rated-players"].value) } });
    // The server seats the account and starts the table; the table's page finds the seat by the
    // account (no seat link needed).
    location.href = made.link;
  } catch (error) {
    form.querySelector("#rated-bot-note").textContent = error.message;
    button.disabled = false;
  }
}

function drawForm() {
  const form = document.getElementById("create");
  const chosen = form.querySelector("[name=game]")?.value ?? games[0]?.id;
  const game = games.find((g) => g.id === chosen) ?? games[0];
  if (!game) return;
  const players = Number(form.querySelector("[name=players]")?.value ?? game.default_players);
  const count = Math.min(game.max_players, Math.max(game.min_players, players || game.default_players));
  const gameSelect = el("select", { name: "game", id: "game", on: { change: () => { drawForm(); drawTiles(); } } },
    games.map((g) => el("option", { value: g.id, selected: g.id === game.id }, g.name)));
  const playerSelect = el("select", { name: "players", id: "players", on: { change: drawForm } },
    Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => game.min_players + i)
      .map((n) => el("option", { value: n, selected: n === count }, String(n))));
  form.replaceChildren(
    el("div", { class: "seat-row" }, el("label", { for: "game" }, t("Game")), gameSelect,
       el("a", { href: `/rules/${game.id}`, target: "_blank" }, t("rules"))),
    el("p", { class: "hint" }, t(game.summary)),
    el("div", { class: "seat-row" }, el("label", { for: "players" }, t("Players")), playerSelect),
    ...game.options.filter((o) => o.min === undefined).map(optionInput),
    ...parameterBox(game),
    ...seatRows(game, count),
    houseRules(),
    ...ratedBox(),
    el("div", { class: "seat-row" }, el("input", { type: "checkbox", id: "hints", name: "hints" }),
      el("label", { for: "hints" }, t("Allow hints (the strongest bot's advice, on request)"))),
    el("div", { class: "seat-row" }, el("input", { type: "checkbox", id: "memory-aids", name: "memory-aids" }),
      el("label", { for: "memory-aids" }, t("Memory aids (the board counts what players would have to remember)"))),
    el("button", { type: "submit", class: "primary" }, t("Create the table")));
  for (const option of game.options) {
    form.querySelector(`[name="${option.name}"]`)?.addEventListener("change", () => followOptions(form, game, count));
  }
}

// The options as the form holds them, by name.
function readOptions(form, game) {
  const options = {};
  for (const option of game.options) {
    const input = form.querySelector(`[name="${option.name}"]`);
    options[option.name] = option.type === "bool" ? input.checked : option.type === "int" ? Number(input.value) : input.value;
  }
  return options;
}

// The level pickers follow the options: the server says which levels a table of these
// settings offers (a trained policy plays only the table it learned at). A choice still
// offered stays chosen.
async function followOptions(form, game, players) {
  let levels;
  try {
    ({ levels } = await api("/api/levels", { method: "POST",
      body: { game: game.id, players, options: readOptions(form, game) } }));
  } catch {
    return; // a value the server refuses: creating the table says why
  }
  if (form.querySelector("[name=game]")?.value !== game.id) return; // the form moved on
  const shaped = { ...game, levels_at: { ...game.levels_at, [String(players)]: levels } };
  for (let seat = 0; seat < players; seat++) {
    const select = form.querySelector(`[name=level-${seat}]`);
    if (!select) continue;
    const kept = select.value;
    select.replaceChildren(...levelOptions(shaped, players));
    if ([...select.options].some((o) => o.value === kept && !o.disabled)) select.value = kept;
  }
}

async function create(event) {
  event.preventDefault();
  const form = event.target;
  const game = games.find((g) => g.id === form.game.value);
  const players = Number(form.players.value);
  const options = readOptions(form, game);
  const seats = [];
  for (let seat = 0; seat < players; seat++) {
    const kind = form.querySelector(`[name=seat-${seat}]`).value;
    seats.push(kind === "bot" ? { kind, level: form.querySelector(`[name=level-${seat}]`).value } : { kind });
  }
  const out = document.getElementById("created");
  try {
    const made = await api("/api/tables", { method: "POST",
      body: { game: game.id, players, options, seats, hints: form.hints.checked, rules: readRules(form) } });
    const base = location.origin;
    const host = new URLSearchParams(made.host_link.split("#")[1] ?? "").get("host");
    const [first, firstLink] = Object.entries(made.seat_links)[0] ?? [];
    if (firstLink !== undefined) keepMade({ table: made.id, game: game.id, link: `${firstLink}&host=${host}` });
    const sit = firstLink === undefined ? null : el("p", {}, t("Sit at seat {n} yourself (with the host's rights):").replace("{n}", String(Number(first) + 1)), " ",
      el("a", { class: "link-box", href: `${firstLink}&host=${host}`, id: "sit-link" }, `${base}${firstLink}&host=${host}`));
    out.replaceChildren(el("div", { class: "panel" },
      el("p", {}, t("Your host link (keep it; it starts the game and manages seats):")), el("p", {}, el("a", { class: "link-box", href: made.host_link, id: "host-link" }, base + made.host_link)),
      sit,
      ...Object.entries(made.seat_links).map(([seat, link]) => el("p", {},
        `${t("Join link for seat")} ${Number(seat) + 1}: `, el("a", { class: "link-box seat-link", href: link }, base + link)))));
  } catch (error) {
    out.replaceChildren(el("p", { class: "error" }, error.message));
  }
}

// The server pushes the lists whenever a table is made, filled, started or finished.
function follow() {
  const feed = new EventSource("/api/lobby");
  feed.addEventListener("tables", (event) => {
    lists = JSON.parse(event.data);
    drawMine();
    drawLists();
    askAccount();
    document.getElementById("lists").dataset.live = "yes";
  });
}

// The footer: this installation's version and build, in the page's language.
let about = null;
function drawAbout() {
  if (!about) return;
  const build = about.native ? t("native core (Rust)") : t("pure Python");
  document.getElementById("about").textContent = `spieltisch ${about.version} · ${build}`;
}

async function main() {
  setupLanguage(() => { drawMine(); drawLists(); drawForm(); drawTiles(); drawAbout(); drawRatedBot(); });
  document.getElementById("create").addEventListener("submit", create);
  setupChoices();
  [games, lists, lessons] = await Promise.all([api("/api/games"), api("/api/tables"), api("/api/lessons").catch(() => [])]);
  drawMine();
  drawLists();
  drawForm();
  drawTiles();
  follow();
  signedIn.then(async (account) => {
    if (!account) return;
    askAccount();
    drawForm();  // with the box that makes the table rated
    ladders = (await api("/api/ratings").catch(() => ({}))).games ?? [];
    drawRatedBot();
  });
  about = await api("/api/about");
  drawAbout();
}

main();
