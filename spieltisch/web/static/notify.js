// Your turn, noticed: the tab's title (table.js), a marker on the tab's icon, the turn's chime
// (sound.js, when sound is on) and on request a browser notification. The browser is asked for
// permission only when the person clicks for notifications, never on load.
import { el } from "./common.js";
import { t } from "./i18n.js";
import { play } from "./sound.js";

const NOTIFY = "spieltisch.notify";
const ICONS = { yes: "/static/art/icon-turn.svg", no: "/static/art/icon.svg" };
let lastTurn = false;

// The tab's icon: the mark, with a marker while it is this viewer's turn.
function setIcon(badge) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = el("link", { rel: "icon", type: "image/svg+xml" });
    document.head.append(link);
  }
  const state = badge ? "yes" : "no";
  if (link.dataset.badge === state) return;
  link.href = ICONS[state];
  link.dataset.badge = state;
}

function notify(game) {
  if (localStorage.getItem(NOTIFY) !== "on" || !("Notification" in window)) return;
  if (Notification.permission !== "granted" || !document.hidden) return;
  const note = new Notification(t("Your turn"), { body: t("It is your turn at {game}.", { game }), tag: "spieltisch-turn" });
  note.addEventListener("click", () => { window.focus(); note.close(); });
}

// Called on every update: says it once when the turn comes.
export function turnChanged(myTurn, game) {
  setIcon(myTurn);
  if (myTurn && !lastTurn) {
    play("turn");
    notify(game);
  }
  lastTurn = myTurn;
}

async function toggleNotify(box, status) {
  if (!box.checked) {
    localStorage.setItem(NOTIFY, "off");
    return;
  }
  if (!("Notification" in window)) {
    box.checked = false;
    status.textContent = t("This browser blocks notifications.");
    return;
  }
  const answer = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  const granted = answer === "granted";
  box.checked = granted;
  localStorage.setItem(NOTIFY, granted ? "on" : "off");
  status.textContent = granted ? "" : t("This browser blocks notifications.");
}

// The panel: browser notifications on one's turn (the sound's switch is in the header).
export function drawNotify(node, seated) {
  if (!seated) return node.replaceChildren();
  const status = el("span", { id: "notify-status", role: "status" });
  const browser = el("input", { type: "checkbox", class: "toggle", id: "notify-browser", checked: localStorage.getItem(NOTIFY) === "on"
    && "Notification" in window && Notification.permission === "granted",
  on: { change: (event) => toggleNotify(event.target, status) } });
  node.replaceChildren(
    el("div", { class: "seat-row" }, browser, el("label", { for: "notify-browser" }, t("Notify me on my turn")), status));
}
