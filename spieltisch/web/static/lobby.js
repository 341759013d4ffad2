// The lobby: lists of tables, kept current by the server's feed, and a form to make a new one.
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

function tableList(kind, rows) {
  const section = el("section", { "aria-label": t(KINDS[kind]) }, el("h2", {}, t(KINDS[kind])));
  if (!rows.length) return section.appendChild(el("p", {}, t("none"))) && section;
  const head = el("thead", {}, el("tr", {},
    el("th", { scope: "col" }, t("Game")), el("th", { scope: "col" }, t("Players")),
    el("th", { scope: "col" }, t("At the table")),
    el("th", { scope: "col" }, kind === "open" ? t("Free seats") : el("span", { class: "visually-hidden" }, t("Seats"))),
    el("th", { scope: "col" }, el("span", { class: "visually-hidden" }, t("Open")))));
  const body = el("tbody");
  for (const row of rows) {
    const link = kind === "finished" ? `/replay/${row.id}` : `/t/${row.id}`;
    const label = kind === "finished" ? t("replay") : t("watch");
    body.append(el("tr", {},
      el("td", {}, row.name), el("td", {}, `${row.players}`),
      el("td", {}, row.names.map(shownName).join(", ")),
      el("td", {}, kind === "open" ? tn("{n} free seat", "{n} free seats", row.seats_free) : ""),
      el("td", {}, el("a", { href: link }, label))));
  }
  section.append(el("div", { class: "scroll" }, el("table", { class: "list" }, head, body)));
  return section;
}

function drawLists() {
  const node = document.getElementById("lists");
  node.replaceChildren(tableList("open", lists.open), tableList("playing", lists.playing),
                       ...(lists.abandoned?.length ? [tableList("abandoned", lists.abandoned)] : []),
                       tableList("finished", lists.finished));
}

function optionInput(option) {
  const id = `option-${option.name}`;
  let input;
  if (option.type === "bool") input = el("input", { type: "checkbox", id, name: option.name, checked: option.default });
  else if (option.choices.length) {
    input = el("select", { id, name: option.name },
      option.choices.map((c) => el("option", { value: c, selected: c === option.default }, String(c))));
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
  const gameSelect = el("select", { name: "game", id: "game", on: { change: drawForm } },
    games.map((g) => el("option", { value: g.id, selected: g.id === game.id }, g.name)));
  const playerSelect = el("select", { name: "players", id: "players", on: { change: drawForm } },
    Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => game.min_players + i)
      .map((n) => el("option", { value: n, selected: n === count }, String(n))));
  form.replaceChildren(
    el("div", { class: "seat-row" }, el("label", { for: "game" }, t("Game")), gameSelect,
       el("a", { href: `/rules/${game.id}`, target: "_blank" }, t("rules"))),
    el("p", {}, t(game.summary)),
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
}

async function create(event) {
  event.preventDefault();
  const form = event.target;
  const game = games.find((g) => g.id === form.game.value);
  const players = Number(form.players.value);
  const options = {};
  for (const option of game.options) {
    const input = form.querySelector(`[name="${option.name}"]`);
    options[option.name] = option.type === "bool" ? input.checked : option.type === "int" ? Number(input.value) : input.value;
  }
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
    drawLists();
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

// The lessons: one link per game that has one (a game's name is the same in every language).
async function drawLessons() {
  const lessons = await api("/api/lessons").catch(() => []);
  document.getElementById("learn").replaceChildren(el("ul", { class: "learn-list" },
    lessons.map((lesson) => el("li", {}, el("a", { href: `/learn/${lesson.id}`, id: `learn-${lesson.id}` }, lesson.name),
      " ", el("span", { class: "muted" }, tn("{n} step", "{n} steps", lesson.steps))))));
}

async function main() {
  setupLanguage(() => { drawLists(); drawForm(); drawAbout(); drawRatedBot(); drawLessons(); });
  document.getElementById("create").addEventListener("submit", create);
  [games, lists] = await Promise.all([api("/api/games"), api("/api/tables")]);
  drawLists();
  drawForm();
  drawLessons();
  follow();
  signedIn.then(async (account) => {
    if (!account) return;
    drawForm();  // with the box that makes the table rated
    ladders = (await api("/api/ratings").catch(() => ({}))).games ?? [];
    drawRatedBot();
  });
  about = await api("/api/about");
  drawAbout();
}

main();
