// The ratings: choose a game and a player count; its leaderboard (players who show their
// profile, with enough rated games) and, beside it, the bot ladder the ratings are measured by.
// The choice is kept in the address's fragment (#game-players), so a profile can link to it.
import { api, decimal, el, profileLink } from "./common.js";
import { setupLanguage, t, tn } from "./i18n.js";

let choices = [];  // [{game, game_name, players: [n, ...]}]
let chosen = null;  // {game, players}
let board = null;
let failed = null;

function fromFragment() {
  const match = /^#(.+)-(\d+)$/.exec(decodeURIComponent(location.hash));
  const found = match && choices.find((c) => c.game === match[1] && c.players.includes(Number(match[2])));
  if (found) return { game: found.game, players: Number(match[2]) };
  return choices.length ? { game: choices[0].game, players: choices[0].players[0] } : null;
}

function drawChoice() {
  const form = document.getElementById("choose");
  if (!chosen) return form.replaceChildren(el("p", {}, t("No game has a bot ladder yet.")));
  const game = choices.find((c) => c.game === chosen.game);
  const pick = async () => {
    const next = form.querySelector("#rating-game").value;
    const counts = choices.find((c) => c.game === next).players;
    const players = Number(form.querySelector("#rating-players").value);
    chosen = { game: next, players: counts.includes(players) ? players : counts[0] };
    history.replaceState(null, "", `#${chosen.game}-${chosen.players}`);
    drawChoice();
    await load();
  };
  form.replaceChildren(
    el("label", { for: "rating-game" }, t("Game")),
    el("select", { id: "rating-game", on: { change: pick } },
      choices.map((c) => el("option", { value: c.game, selected: c.game === chosen.game }, c.game_name))),
    el("label", { for: "rating-players" }, t("Players")),
    el("select", { id: "rating-players", on: { change: pick } },
      game.players.map((n) => el("option", { value: n, selected: n === chosen.players }, String(n)))));
}

function table(id, caption, heads, rows) {
  return el("table", { class: "list", id },
    el("caption", { class: "visually-hidden" }, caption),
    el("thead", {}, el("tr", {}, heads.map((head) => el("th", { scope: "col" }, head)))),
    el("tbody", {}, rows.map((cells) => el("tr", {}, cells.map((cell) => el("td", {}, cell))))));
}

function leaderboard() {
  const rows = board.leaderboard.map((row, i) => [String(i + 1),
    el("a", { href: profileLink(row.name) }, row.name), el("strong", {}, decimal(row.rating)), String(row.games)]);
  return el("section", { class: "panel", id: "leaderboard", "aria-labelledby": "leaderboard-title" },
    el("h3", { id: "leaderboard-title" }, t("Leaderboard")),
    rows.length ? table("leaderboard-table", t("Leaderboard"), [t("Place"), t("Name"), t("Rating"), t("Rated games")], rows)
      : el("p", { id: "leaderboard-empty" }, t("Nobody is on this leaderboard yet."), " ",
        tn("To get on it: show your profile (on your account page) and play {n} rated game.",
          "To get on it: show your profile (on your account page) and play {n} rated games.", board.min_games)),
    el("p", { class: "hint" }, tn("Players who show their profile, with at least {n} rated game.",
      "Players who show their profile, with at least {n} rated games.", board.min_games)));
}

function ladder() {
  const rows = [...board.ladder].sort((a, b) => b.mu - a.mu).map((rung) => [
    el("span", {}, t(rung.name), " ", el("code", { class: "level-code" }, rung.level)), el("strong", {}, decimal(rung.mu)),
    `${decimal(rung.low)}\u00a0– ${decimal(rung.high)}`, String(rung.games)]);
  return el("section", { class: "panel", id: "ladder", "aria-labelledby": "ladder-title" },
    el("h3", { id: "ladder-title" }, t("Bot ladder")),
    rows.length ? table("ladder-table", t("Bot ladder"), [t("Bot level"), t("Rating"), t("Interval"), t("Games measured")], rows)
      : el("p", {}, t("No bot ladder for this player count.")),
    el("p", { class: "hint" }, t("Each bot level's fixed rating, measured in games between the bots; a rated game against bots moves only the person's rating.")));
}

function drawBoards() {
  const node = document.getElementById("boards");
  if (failed !== null) return node.replaceChildren(el("p", { class: "error" }, failed));
  if (!board) return node.replaceChildren(chosen ? el("p", {}, t("Loading…")) : "");
  const title = el("h2", { class: "boards-title", id: "boards-title" },
    `${board.game_name} · ${tn("{n} player", "{n} players", board.players)}`);
  node.replaceChildren(title, el("div", { class: "boards-pair" }, leaderboard(), ladder()));
  node.dataset.ready = `${board.game}-${board.players}`;
}

async function load() {
  if (!chosen) return drawBoards();
  try {
    board = await api(`/api/ratings/${encodeURIComponent(chosen.game)}/${chosen.players}`);
    failed = null;
  } catch (error) {
    failed = error.message;
  }
  drawBoards();
}

function draw() {
  document.title = `${t("Ratings")} · spieltisch`;
  drawChoice();
  drawBoards();
}

async function main() {
  setupLanguage(draw);
  try {
    choices = (await api("/api/ratings")).games ?? [];
  } catch (error) {
    failed = error.message;
  }
  chosen = fromFragment();
  draw();
  await load();
  window.addEventListener("hashchange", () => { chosen = fromFragment(); drawChoice(); load(); });
}

main();
