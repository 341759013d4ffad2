// Small helpers shared by the pages: building elements, the API, drawing a view generically.
import { language, switchLanguage, t } from "./i18n.js";

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "on") for (const [event, handler] of Object.entries(value)) node.addEventListener(event, handler);
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// The signed-in account (null when nobody is) and its session's CSRF token, asked for once as
// the page opens; the header's link names the account, or offers to sign in.
let session = { account: null, csrf: null };
export const signedIn = fetch("/api/account", { headers: { "Accept": "application/json" } })
  .then((response) => (response.ok ? response.json() : null))
  .catch(() => null)
  .then((data) => { setSession(data); return session.account; });

export function setSession(data) {
  session = { account: data?.account ?? null, csrf: data?.csrf ?? null };
  drawAccountLink();
  // Signed in: the account's language is the page's (a sign-in on a new device brings it).
  const chosen = session.account?.language;
  if (chosen && chosen !== language()) switchLanguage(chosen, { tell: false });
}

// A switch of language made while signed in is the account's choice from now on.
document.addEventListener("spieltisch:language", async (event) => {
  await signedIn;
  if (!session.account) return;
  try {
    const answer = await api("/api/account/settings", { method: "POST", body: { language: event.detail } });
    session.account = answer.account ?? session.account;
  } catch {
    // kept in this browser's cookie all the same
  }
});

export function currentAccount() {
  return session.account;
}

export function profileLink(name) {
  return `/players/${encodeURIComponent(name)}`;
}

export function drawAccountLink() {
  const link = document.getElementById("account-link");
  if (!link) return;
  if (session.account) {
    link.removeAttribute("data-t");  // a name, not a word to translate
    link.href = profileLink(session.account.name);
    link.textContent = session.account.name;
  } else {
    link.dataset.t = "Sign in";
    link.href = "/account";
    link.textContent = t("Sign in");
  }
}

// A call to the server's API; its refusals come back in the page's language. A call that
// changes something carries the session's CSRF token (when someone is signed in).
export async function api(path, { method = "GET", body, token } = {}) {
  const headers = { "Accept": "application/json", "Accept-Language": language() };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers["Authorization"] = `Bearer ${token}`;
  if (method !== "GET") {
    await signedIn;
    if (session.csrf) headers["X-CSRF-Token"] = session.csrf;
  }
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const data = response.headers.get("content-type")?.includes("json") ? await response.json() : await response.text();
  const detail = typeof data === "object" ? data?.detail : null;
  if (!response.ok) throw new Error(typeof detail === "string" ? detail : detail ? JSON.stringify(detail) : String(data));
  return data;
}

// Ask before something that cannot be undone, in the page's own modal dialog (never the
// browser's grey confirm()): the question, the action's own word, and "Cancel" (focused first,
// the safe answer; Escape answers it too). Resolves true for the action. Focus goes back to
// what opened it.
export function ask(question, action) {
  return new Promise((resolve) => {
    const opener = document.activeElement;
    const yes = el("button", { type: "button", class: "primary", id: "ask-yes" }, action);
    const no = el("button", { type: "button", id: "ask-no" }, t("Cancel"));
    const dialog = el("dialog", { class: "ask", "aria-labelledby": "ask-question" },
      el("p", { id: "ask-question" }, question), el("div", { class: "actions" }, yes, no));
    const answer = (value) => {
      dialog.close();
      dialog.remove();
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
      resolve(value);
    };
    yes.addEventListener("click", () => answer(true));
    no.addEventListener("click", () => answer(false));
    dialog.addEventListener("cancel", (event) => { event.preventDefault(); answer(false); });
    document.body.append(dialog);
    dialog.showModal();
    no.focus();
  });
}

// A seat's name as a page shows it: a free seat's placeholder ("Seat 2", as the server keeps
// it) in the page's language, anyone else's name as they chose it.
export function shownName(name, seat) {
  return name === `Seat ${seat + 1}` ? t("Seat {n}", { n: seat + 1 }) : name;
}

// A rating (or any figure to one decimal) as the page's language writes it.
export function decimal(value) {
  return new Intl.NumberFormat(language(), { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(value);
}

// The bot levels a host may pick for a table of ``players`` of ``game`` (an entry of
// /api/games): the ladder's by their names, weakest first, with their ratings, then every other
// level that table offers (a trained policy only at the player count it learned at) by its
// code, for experts. The heaviest (``game.heavy``) are for signed-in hosts: shown to
// others, but not to pick. Each choice is { value, label, disabled }.
export function levelChoices(game, players) {
  const named = game.ladder?.[String(players)] ?? [];
  const heavy = new Set(game.heavy ?? []);
  const choice = (value, label) => {
    const locked = heavy.has(value) && !session.account;
    return { value, label: locked ? `${label} · ${t("sign in for this level")}` : label, disabled: locked };
  };
  const levels = game.levels_at?.[String(players)] ?? game.levels;
  const codes = levels.flatMap((name) => [name, ...(game.strengths[name] ?? []).map((s) => `${name}:${s}`)]);
  return {
    named: named.map((n) => choice(n.level, `${t(n.name)} · ${decimal(n.rating)}`)),
    others: codes.filter((code) => !named.some((n) => n.level === code)).map((code) => choice(code, code)),
  };
}

// The choice a picker starts on: the middle one of ``choices``, or the nearest open one below it.
export function middleChoice(choices) {
  const open = choices.slice(0, Math.floor((choices.length - 1) / 2) + 1).filter((c) => !c.disabled);
  return (open.at(-1) ?? choices.find((c) => !c.disabled))?.value;
}

export function fragment() {
  const params = new URLSearchParams(location.hash.slice(1));
  return { seat: params.get("seat"), host: params.get("host") };
}

function show(value) {
  if (value === null || value === undefined) return "–";
  if (typeof value === "object") return JSON.stringify(value);
  return String(value);
}

// A view drawn as a list of its fields: every game is playable before it has a board.
export function drawView(view) {
  const list = el("dl", { class: "view" });
  for (const [key, value] of Object.entries(view ?? {})) {
    list.append(el("dt", {}, key.replaceAll("_", " ")), el("dd", {}, show(value)));
  }
  return list;
}

// The log: the game's events, and the table's notices after the move they followed.
// The log: each event's sentence (drawn by `line`, a board's own way of drawing its dice and
// cards in a sentence, where it has one) and what it brought about.
export function drawLog(events, notices = [], line = (text) => text) {
  const list = el("ol", { class: "log", start: events.length ? events[0].version : 1 });
  const waiting = [...notices];
  const flush = (upTo) => {
    while (waiting.length && waiting[0].version <= upTo) {
      const notice = waiting.shift();
      list.append(el("li", { class: "notice" }, notice.sentence));
    }
  };
  for (const event of events) {
    flush(event.version - 1);
    if (!event.sentence && !event.outcome) continue;  // a secret step said as one event elsewhere
    list.append(el("li", { value: event.version }, line(event.sentence), event.outcome ? el("div", { class: "ok" }, line(event.outcome)) : null));
  }
  flush(Infinity);
  return list;
}
