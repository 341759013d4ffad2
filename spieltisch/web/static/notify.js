// Your turn, noticed: the tab's title (table.js), a badge on the tab's icon, and on request a
// sound and a browser notification. The browser is asked for permission only when the person
// clicks for notifications, never on load.
import { el } from "./common.js";
import { t } from "./i18n.js";

const SOUND = "spieltisch.sound";
const NOTIFY = "spieltisch.notify";
let audio = null;
let lastTurn = false;

function icon(badge) {
  const canvas = document.createElement("canvas");
  canvas.width = canvas.height = 32;
  const pen = canvas.getContext("2d");
  pen.fillStyle = "#2f6b3a";
  pen.beginPath();
  pen.arc(16, 16, 13, 0, 2 * Math.PI);
  pen.fill();
  if (badge) {
    pen.fillStyle = "#d62828";
    pen.beginPath();
    pen.arc(25, 7, 7, 0, 2 * Math.PI);
    pen.fill();
  }
  return canvas.toDataURL("image/png");
}

function setIcon(badge) {
  let link = document.querySelector("link[rel=icon]");
  if (!link) {
    link = el("link", { rel: "icon" });
    document.head.append(link);
  }
  link.href = icon(badge);
  link.dataset.badge = badge ? "yes" : "no";
}

function beep() {
  if (localStorage.getItem(SOUND) !== "on") return;
  try {
    audio = audio ?? new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.4);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.4);
  } catch {
    // no sound here: the title and the badge still say it
  }
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
    beep();
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

export function drawNotify(node, seated) {
  if (!seated) return node.replaceChildren();
  const sound = el("input", { type: "checkbox", id: "notify-sound", checked: localStorage.getItem(SOUND) === "on",
    on: { change: (event) => {
      localStorage.setItem(SOUND, event.target.checked ? "on" : "off");
      if (event.target.checked) audio = audio ?? new AudioContext();
    } } });
  const status = el("span", { id: "notify-status", role: "status" });
  const browser = el("input", { type: "checkbox", id: "notify-browser", checked: localStorage.getItem(NOTIFY) === "on"
    && "Notification" in window && Notification.permission === "granted",
  on: { change: (event) => toggleNotify(event.target, status) } });
  node.replaceChildren(
    el("div", { class: "seat-row" }, sound, el("label", { for: "notify-sound" }, t("Sound on my turn"))),
    el("div", { class: "seat-row" }, browser, el("label", { for: "notify-browser" }, t("Notify me on my turn")), status));
}
