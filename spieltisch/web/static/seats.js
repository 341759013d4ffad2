// The people at a table: who sits where, who is here or away and for how long, whose time
// runs, the votes on an absent seat, one's own seat (leave, concede), the host's seat links
// (copy, QR code), and the page a link shows once its seat changed hands.
import { api, ask, el, shownName } from "./common.js";
import { N_, t, tn } from "./i18n.js";
import { qrcode } from "./vendor/qrcode.js";

// "3:07", "1 h 05 min", "2 d 4 h": a duration as a person reads it.
export function duration(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  if (s < 3600) return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
  return `${Math.floor(s / 86400)} d ${Math.floor((s % 86400) / 3600)} h`;
}

// Seconds left for a seat now: counted down from the start of the running turn.
function timeLeft(seats, seat, now) {
  if (seat.time_left === null || seat.time_left === undefined) return null;
  if (seats.clock_running !== seat.seat || seats.turn_since === null || seat.stand_in) return seat.time_left;
  return Math.max(0, seat.time_left - (now - seats.turn_since));
}

// A seat's name as the page shows it: a free seat's placeholder ("Seat 2") in the page's
// language, anyone else's name as they chose it.
export function seatName(seat) {
  return seat.kind === "person" && !seat.joined ? shownName(seat.name, seat.seat) : seat.name;
}

function seatLine(seats, seat, mine, now) {
  const parts = [el("strong", {}, seatName(seat)), mine ? ` (${t("you")})` : ""];
  const notes = [];
  // A bot by what it plays like (the ladder's name for its level); its code stays in the title.
  const level = seat.level_name ? el("span", { class: "level", title: seat.level ?? "" }, t(seat.level_name)) : null;
  if (seat.kind === "bot") notes.push(seat.conceded ? t("conceded") : t("bot"));
  else if (!seat.joined) notes.push(t("free seat"));
  else if (seat.connected) notes.push(t("here"));
  else if (seat.away_since) notes.push(t("away for {t}", { t: duration(now - seat.away_since) }));
  else notes.push(t("not here yet"));
  if (seat.stand_in) notes.push(t("a bot plays for them until they return"));
  const left = timeLeft(seats, seat, now);
  const clock = left === null ? null : el("span", { class: `clock${seats.clock_running === seat.seat ? " running" : ""}`,
    "aria-label": `${t("time left")} ${duration(left)}` }, duration(left));
  const dot = el("span", { class: `presence ${seat.kind === "bot" ? "bot" : seat.connected ? "here" : "away"}`, "aria-hidden": "true" });
  return el("li", { "data-seat": seat.seat, class: seats.clock_running === seat.seat ? "to-act" : "" },
    dot, ...parts, " · ", notes.join(" · "), level && !seat.conceded ? " · " : null, seat.conceded ? null : level,
    clock ? " · " : null, clock);
}

// One's own time, on top of the board (on a phone the seat list is far below it).
export function drawMyClock(node, ctx) {
  const seats = ctx.seats;
  const seat = seats?.seats?.[ctx.mySeat];
  const left = seat ? timeLeft(seats, seat, ctx.now()) : null;
  node.hidden = left === null || left === undefined || ctx.update?.status !== "playing";
  if (node.hidden) return node.replaceChildren();
  node.classList.toggle("running", seats.clock_running === seat.seat && !seat.stand_in);
  node.replaceChildren(t("Your time: {time}", { time: duration(left) }));
}

export function drawSeats(node, ctx) {
  const seats = ctx.seats;
  if (!seats) return node.replaceChildren();
  const now = ctx.now();
  node.replaceChildren(el("h2", {}, t("At the table")),
    el("ul", { class: "people", id: "people" }, seats.seats.map((seat) => seatLine(seats, seat, seat.seat === ctx.mySeat, now))));
}

// The votes on seats out of time or away too long: start one, say yes or no.
export function drawVotes(node, ctx) {
  const votes = ctx.seats?.votes ?? [];
  if (ctx.mySeat === null || ctx.mySeat === undefined || !votes.length) return node.replaceChildren();
  const rows = votes.filter((vote) => vote.voters.includes(ctx.mySeat)).map((vote) => {
    const name = ctx.seats.seats[vote.seat].name;
    const said = vote.yes.includes(ctx.mySeat) || vote.no.includes(ctx.mySeat);
    const cast = (yes) => ctx.action(`votes/${vote.seat}`, { yes });
    const running = vote.yes.length > 0;
    return el("div", { class: "vote", "data-seat": vote.seat },
      el("p", {}, vote.why === "time" ? t("{name}'s time is up.", { name }) : t("{name} has been away on their turn too long.", { name })),
      running ? el("p", {}, t("{yes} of {voters} said yes so far.", { yes: vote.yes.length, voters: vote.voters.length })) : null,
      said ? el("p", {}, t("You voted."))
        : running ? el("div", { class: "seat-row" },
          el("button", { type: "button", class: "vote-yes", on: { click: () => cast(true) } }, t("Yes, a bot plays for them")),
          el("button", { type: "button", class: "vote-no", on: { click: () => cast(false) } }, t("No, let us wait")))
        : el("button", { type: "button", class: "vote-start", on: { click: () => cast(true) } }, t("Hand {name}'s seat to a bot", { name })));
  });
  node.replaceChildren(...rows);
}

// One's own seat: leave the table, or concede the game (each asks first).
export function drawOwn(node, ctx) {
  const status = ctx.update?.status;
  // The seat is the page's by its link or by the signed-in account (the server said which seat).
  if (ctx.mySeat === null || ctx.mySeat === undefined || !["open", "playing"].includes(status)) {
    return node.replaceChildren();
  }
  const leave = el("button", { type: "button", id: "leave", on: { click: async () => {
    if (await ask(t("Leave for good? A bot takes your seat (before the start, the seat is free again)."), t("Leave the table"))) ctx.action("leave");
  } } }, t("Leave the table"));
  // A bot stands in for this page's person (their time ran out, or they were away): they
  // take the seat back with one click, the moment they are here.
  const standIn = (ctx.seats?.seats ?? [])[ctx.mySeat]?.stand_in && status === "playing";
  const back = standIn ? el("div", { class: "take-back", role: "alert" },
    el("p", {}, t("A bot is playing for you.")),
    el("button", { type: "button", class: "primary", id: "take-back", on: { click: () => ctx.takeBack() } }, t("Take my seat back"))) : null;
  const two = (ctx.seats?.seats ?? []).length === 2;
  const concede = status === "playing" ? el("button", { type: "button", id: "concede", on: { click: async () => {
    if (await ask(two ? t("Concede the game? The other player wins.") : t("Concede? You leave the game and a bot plays your seat on."), t("Concede"))) ctx.action("concede");
  } } }, t("Concede")) : null;
  // A game without a clock that nobody moved at for a long while, nobody else here: end it.
  const seats = ctx.seats;
  const idle = status === "playing" && seats?.rules?.clock === "none" && !seats.rules.rated
    && seats.clock_running !== ctx.mySeat && ctx.update?.to_act !== ctx.mySeat && seats.turn_since !== null
    && ctx.now() - seats.turn_since >= seats.walked_away_after
    && !seats.seats.some((s) => s.seat !== ctx.mySeat && s.kind === "person" && s.connected);
  const end = idle ? el("div", { class: "take-back", id: "walked-away" },
    el("p", {}, t("Nobody has played here for a long while.")),
    el("button", { type: "button", id: "end-game", on: { click: async () => {
      if (await ask(t("End this game for everyone? It is kept without a result."), t("End the game"))) ctx.action("end");
    } } }, t("End the game"))) : null;
  node.replaceChildren(...(back ? [back] : []), ...(end ? [end] : []), el("div", { class: "seat-row" }, concede, leave));
}

// What keeps an open table from starting, in words.
export function missingText(about, mySeat) {
  const free = about.seats.filter((s) => s.kind === "person" && !s.joined).map((s) => s.seat + 1);
  if (!free.length) return t("Everyone is here: start when you like.");
  const list = free.join(", ");
  const lines = [tn("Waiting for seat {list} to join.", "Waiting for seats {list} to join.", free.length, { list })];
  if (mySeat !== null && mySeat !== undefined && free.includes(mySeat + 1)) lines.push(t("Your own seat ({n}) is one of them: open its link to sit down.", { n: mySeat + 1 }));
  return lines.join(" ");
}

// A QR code of ``text`` drawn as SVG squares (no network, no script in the SVG).
export function qrSvg(text) {
  const code = qrcode(0, "M");
  code.addData(text);
  code.make();
  const count = code.getModuleCount();
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", `-2 -2 ${count + 4} ${count + 4}`);
  svg.setAttribute("class", "qr");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", t("QR code"));
  let path = "";
  for (let row = 0; row < count; row++) {
    for (let col = 0; col < count; col++) if (code.isDark(row, col)) path += `M${col} ${row}h1v1h-1z`;
  }
  const back = document.createElementNS(ns, "rect");
  for (const [k, v] of Object.entries({ x: -2, y: -2, width: count + 4, height: count + 4, fill: "#fff" })) back.setAttribute(k, v);
  const dark = document.createElementNS(ns, "path");
  dark.setAttribute("d", path);
  dark.setAttribute("fill", "#000");
  svg.append(back, dark);
  return svg;
}

async function copyText(text, button) {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    const field = el("textarea", { class: "offscreen" }, text);
    document.body.append(field);
    field.select();
    document.execCommand("copy");
    field.remove();
  }
  button.textContent = t("Copied");
  setTimeout(() => { button.textContent = t("Copy"); }, 2000);
}

// Each seat's row for the host: a person's join link with a copy button and a QR code on
// request, and the control that hands the seat on (``control(seat)``).
export function linkRows(about, links, shownQr, toggleQr, control) {
  return about.seats.map((seat) => {
    const link = seat.kind === "person" ? links?.[String(seat.seat)] : null;
    const url = link ? `${location.origin}${link}` : null;
    const copy = url ? el("button", { type: "button", class: "copy", "data-seat": seat.seat,
      on: { click: (event) => copyText(url, event.currentTarget) } }, t("Copy")) : null;
    const qr = url ? el("button", { type: "button", class: "qr-toggle", "aria-expanded": String(shownQr === seat.seat),
      on: { click: () => toggleQr(seat.seat) } }, shownQr === seat.seat ? t("Hide the QR code") : t("QR code")) : null;
    const state = seat.kind === "bot" ? ` (${t("bot")})` : seat.joined ? "" : ` (${t("free seat")})`;
    const field = url ? el("input", { type: "text", readonly: true, class: "link-box seat-link", value: url,
      "aria-label": `${t("Join link for seat")} ${seat.seat + 1}` })
      : seat.kind === "person" ? el("span", {}, t("(made before links could be shown again)")) : null;
    return el("div", { class: "link-row", "data-seat": seat.seat },
      el("span", {}, `${seat.seat + 1}. ${seatName(seat)}${state}`), field, copy, qr, control(seat),
      shownQr === seat.seat && url ? qrSvg(url) : null);
  });
}

// The page a link shows when its seat changed hands (or it never held one here).
export function staleText(message) {
  if (message.seat === null || message.seat === undefined) return [t("This link holds no seat at this table.")];
  const name = message.name;
  const lines = [t("This link held {name}'s seat (seat {n}).", { name, n: message.seat + 1 })];
  const why = { bot: N_("The host handed that seat to a bot."), person: N_("The host gave that seat to someone else."), left: N_("{name} left the table."), conceded: N_("{name} conceded, so the seat is a bot's now.") }[message.reason];
  if (why) lines.push(t(why, { name }));
  if (message.at) lines.push(t("since {when}", { when: new Date(message.at * 1000).toLocaleString() }));
  return lines;
}

export async function fetchLinks(tableId, hostToken) {
  try {
    return (await api(`/api/tables/${tableId}/links`, { token: hostToken })).seat_links;
  } catch {
    return null;
  }
}
