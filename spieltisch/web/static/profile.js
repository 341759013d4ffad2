// A player's profile: their ratings (each placed on the bot ladder), their record by game and
// player count, their finished games with replay and analysis; to the player themselves, their
// unfinished tables too, those where it is their turn first.
import { api, decimal, el } from "./common.js";
import { language, setupLanguage, t, tn } from "./i18n.js";

const name = document.body.dataset.player;
let data = null;
let failed = null;

// A moment as a <time> element: the date and hour in the page's language, the exact instant in
// its datetime attribute (for machines, and for the look's tests, which cover what changes).
function when(seconds) {
  const moment = new Date(seconds * 1000);
  const said = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" }).format(moment);
  return el("time", { class: "hint", datetime: moment.toISOString() }, said);
}

// Where a rating stands on the game's bot ladder: between two levels, above the top one, below
// the bottom one.
function between([lowerName, upperName]) {
  const [lower, upper] = [lowerName && t(lowerName), upperName && t(upperName)];
  if (lower && upper) return t("between the bots {lower} and {upper}", { lower, upper });
  if (lower) return t("above the bot {lower}", { lower });
  if (upper) return t("below the bot {upper}", { upper });
  return "–";
}

function players(n) {
  return tn("{n} player", "{n} players", n);
}

function table(id, caption, heads, rows) {
  return el("table", { class: "list", id },
    el("caption", { class: "visually-hidden" }, caption),
    el("thead", {}, el("tr", {}, heads.map((head) => el("th", { scope: "col" }, head)))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((cell) => el("td", {}, cell))))));
}

function section(id, title, ...content) {
  return el("section", { class: "panel", id, "aria-labelledby": `${id}-title` }, el("h2", { id: `${id}-title` }, title), ...content);
}

function ratingsSection() {
  const items = data.ratings.map((r) => el("li", {},
    el("span", {}, el("strong", {}, r.game_name), ` · ${players(r.players)}`),
    el("span", { class: "rating" }, tn("rating {rating} ({n} rated game)", "rating {rating} ({n} rated games)", r.games, { rating: decimal(r.rating) })),
    el("span", {}, between(r.between)),
    el("span", { class: "certainty" }, t(r.certainty)),
    el("a", { href: `/ratings#${r.game}-${r.players}` }, t("Leaderboard"))));
  return section("ratings", t("Ratings"),
    items.length ? el("ul", { class: "games", id: "ratings-list" }, items) : el("p", {}, t("No rated games yet.")),
    el("p", { class: "hint" }, t("A rating is the skill measured, on the same scale as the bot ladder's levels. The leaderboards rank by a cautious figure, the rating less three times its uncertainty, so a few lucky games do not put anyone on top.")));
}

function recordSection() {
  const rows = data.record.map((r) => [r.game_name, String(r.players), String(r.played), String(r.won)]);
  return section("record", t("Games played"),
    rows.length ? table("record-table", t("Games played"), [t("Game"), t("Players"), t("Played"), t("Won")], rows)
      : el("p", {}, t("No finished games yet.")));
}

function unfinishedSection() {
  const tables = [...data.unfinished].sort((a, b) => Number(b.your_turn) - Number(a.your_turn));
  return section("unfinished", t("Your unfinished tables"),
    tables.length ? el("ul", { class: "games", id: "unfinished-list" }, tables.map((row) => el("li", { class: row.your_turn ? "to-act" : "" },
      el("span", {}, `${row.game_name} · ${players(row.players)}`),
      row.your_turn ? el("strong", { class: "turn" }, t("your turn")) : el("span", {}, t("waiting for the others")),
      el("a", { href: row.link }, t("Open the table")))))
      : el("p", {}, t("No unfinished tables.")));
}

function finishedSection() {
  const games = data.finished;
  return section("finished", t("Finished games"),
    games.length ? el("ul", { class: "games", id: "finished-list" }, games.map((row) => el("li", {},
      el("span", {}, el("strong", {}, row.game_name), ` · ${players(row.players)}`,
        row.opponents.length ? ` · ${t("against {names}", { names: row.opponents.join(", ") })}` : ""),
      el("span", { class: row.won ? "ok" : "" }, row.won ? t("Won") : t("Not won"), row.rated ? ` · ${t("rated")}` : ""),
      row.finished_at ? when(row.finished_at) : null,
      el("span", { class: "links" },
        el("a", { href: row.replay, class: "replay" }, t("Replay")), " ",
        el("a", { href: `${row.replay}#analysis`, class: "analysis" }, t("Analysis"))))))
      : el("p", {}, t("No finished games yet.")));
}

function draw() {
  const node = document.getElementById("profile");
  document.title = `${name} · spieltisch`;
  if (failed !== null) {
    node.replaceChildren(el("p", { class: "error", id: "profile-error" }, failed));
    return;
  }
  if (!data) return;
  const own = data.self ? el("p", { class: "hint", id: "own" },
    data.listed ? t("Others see this page too (the unfinished tables only you).") : t("Only you see this page: others see it once you choose to show it."),
    " ", el("a", { href: "/account" }, t("Your account"))) : null;
  node.replaceChildren(...[own, ratingsSection(), recordSection(), data.self ? unfinishedSection() : null, finishedSection()].filter(Boolean));
  node.dataset.ready = "yes";
}

async function load() {
  try {
    data = await api(`/api/players/${encodeURIComponent(name)}`);
    failed = null;
  } catch (error) {
    failed = error.message;
  }
}

async function main() {
  setupLanguage(async () => {
    if (failed !== null) await load();  // the refusal again, in the new language
    draw();
  });
  await load();
  draw();
}

main();
