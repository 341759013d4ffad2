// The replay of a finished game: step through it from any seat's side or a spectator's.
import { api, drawLog, drawView, el } from "./common.js";
import { setupLanguage, t } from "./i18n.js";

const tableId = document.body.dataset.table;
const state = { at: 0, seat: -1, data: null };

async function load() {
  state.data = await api(`/api/tables/${tableId}/replay?at=${state.at}&seat=${state.seat}`);
  draw();
}

function go(at) {
  state.at = Math.max(0, Math.min(state.data?.last ?? 0, at));
  load();
}

function draw() {
  const data = state.data;
  if (!data) return;
  const side = el("select", { id: "side", "aria-label": t("replay.side"), on: { change: (e) => { state.seat = Number(e.target.value); load(); } } },
    el("option", { value: -1, selected: state.seat === -1 }, t("replay.spectator")),
    data.names.map((name, seat) => el("option", { value: seat, selected: state.seat === seat }, name)));
  const slider = el("input", { type: "range", min: 0, max: data.last, value: data.version, id: "at",
    "aria-label": "move", on: { change: (e) => go(Number(e.target.value)) } });
  document.getElementById("controls").replaceChildren(el("div", { class: "seat-row" },
    el("button", { type: "button", id: "first", on: { click: () => go(0) } }, t("replay.first")),
    el("button", { type: "button", id: "back", on: { click: () => go(state.at - 1) } }, t("replay.back")),
    el("button", { type: "button", id: "next", on: { click: () => go(state.at + 1) } }, t("replay.next")),
    el("button", { type: "button", id: "last", on: { click: () => go(data.last) } }, t("replay.last")),
    slider, el("span", { id: "position" }, `${data.version} / ${data.last}`),
    el("label", { for: "side" }, t("replay.side")), side));
  document.getElementById("board").replaceChildren(drawView(data.view));
  document.getElementById("log").replaceChildren(drawLog(data.events));
}

setupLanguage(draw);
load();
