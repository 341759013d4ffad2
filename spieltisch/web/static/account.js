// The account page. Signed out: sign in or sign up, with a password or a passkey. Signed in:
// whether others see the profile, the password (changed with the current one), the passkeys
// (added, listed, removed while another way in is left), signing out (here or everywhere),
// the export of the account's games, and deleting the account. Where passkeys cannot work
// (a page opened by an IP address, not a secure one, a browser without WebAuthn) their
// buttons are left out and a sentence says why.
import { api, ask, currentAccount, el, profileLink, setSession, signedIn } from "./common.js";
import { N_, language, setupLanguage, t, tn } from "./i18n.js";

const MIN_PASSWORD = 10;
let note = null;  // the last thing done or refused: [msgid or text, translate it?, is it a refusal?]
let keys = null;  // the signed-in account's passkeys ({id, created_at}), once asked for
let keysFor = null;  // whose they are (the account's id)
let keysAsked = false;  // they are being asked for

// --- WebAuthn: the server's options arrive as JSON (binary fields in base64url) ---------------

function fromBase64url(text) {
  const base64 = text.replaceAll("-", "+").replaceAll("_", "/") + "===".slice((text.length + 3) % 4);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
}

function toBase64url(buffer) {
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

// The options object the server sent, and the challenge it is kept under (if it says one).
function unwrap(data) {
  const { challenge_id: challengeId, options, ...rest } = data;
  return { challengeId, options: options ?? rest };
}

function creationOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    user: { ...json.user, id: fromBase64url(json.user.id) },
    excludeCredentials: (json.excludeCredentials ?? []).map((c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

function requestOptions(json) {
  return {
    ...json,
    challenge: fromBase64url(json.challenge),
    allowCredentials: (json.allowCredentials ?? []).map((c) => ({ ...c, id: fromBase64url(c.id) })),
  };
}

// A PublicKeyCredential as the JSON the server reads (binary fields in base64url).
function credentialJSON(credential) {
  const answer = credential.response;
  const response = { clientDataJSON: toBase64url(answer.clientDataJSON) };
  if (answer.attestationObject) {
    response.attestationObject = toBase64url(answer.attestationObject);
    response.transports = answer.getTransports?.() ?? [];
  } else {
    response.authenticatorData = toBase64url(answer.authenticatorData);
    response.signature = toBase64url(answer.signature);
    if (answer.userHandle) response.userHandle = toBase64url(answer.userHandle);
  }
  return {
    id: credential.id, rawId: toBase64url(credential.rawId), type: credential.type, response,
    clientExtensionResults: credential.getClientExtensionResults?.() ?? {},
    authenticatorAttachment: credential.authenticatorAttachment ?? undefined,
  };
}

// A host written as an IP address (IPv4, or IPv6 in brackets): never a WebAuthn relying party.
function isAddress(host) {
  return /^\d{1,3}(\.\d{1,3}){3}$/.test(host) || host.includes(":") || host.startsWith("[");
}

// Why passkeys cannot work on this page, or null where they can: the msgid that says so, and
// for a page opened by the loopback address, the same page by the name "localhost".
function passkeyObstacle() {
  const host = location.hostname;
  if (isAddress(host)) {
    const loopback = host.startsWith("127.") || host === "[::1]" || host === "::1";
    const port = location.port ? `:${location.port}` : "";
    const there = loopback ? `${location.protocol}//localhost${port}${location.pathname}` : null;
    return { why: N_("Passkeys need the server's name in the address, not its number: they cannot work here. A password works."), there };
  }
  if (!window.isSecureContext) return { why: N_("Passkeys need a secure page (https); a password works."), there: null };
  if (typeof window.PublicKeyCredential !== "function") return { why: N_("This browser cannot use passkeys; a password works."), there: null };
  return null;
}

const passkeysHere = () => passkeyObstacle() === null;

// The sentence that says why there are no passkey buttons (null where there are).
function passkeyNote() {
  const obstacle = passkeyObstacle();
  if (!obstacle) return null;
  return el("p", { class: "hint", id: "passkeys-unavailable" }, t(obstacle.why),
    obstacle.there ? [" ", t("Open the page by the server's name:"), " ", el("a", { href: obstacle.there }, el("code", {}, obstacle.there))] : null);
}

// A passkey made (purpose "register": for the signed-in account; "signup": a new account).
async function makePasskey(optionsPath, donePath, body = {}) {
  const { challengeId, options } = unwrap(await api(optionsPath, { method: "POST", body }));
  const credential = await navigator.credentials.create({ publicKey: creationOptions(options) });
  const answer = { credential: credentialJSON(credential) };
  if (challengeId !== undefined) answer.challenge_id = challengeId;
  return api(donePath, { method: "POST", body: answer });
}

async function usePasskey(name) {
  const body = name ? { name } : {};
  const { challengeId, options } = unwrap(await api("/api/account/passkeys/signin/options", { method: "POST", body }));
  const credential = await navigator.credentials.get({ publicKey: requestOptions(options) });
  return api("/api/account/passkeys/signin", { method: "POST",
    body: { challenge_id: challengeId, credential: credentialJSON(credential) } });
}

// What a browser's refusal to use a passkey means, in words.
function passkeyError(error) {
  if (error?.name === "NotAllowedError") return [N_("The passkey was not used (cancelled, or it took too long)."), true];
  if (error?.name === "InvalidStateError") return [N_("This device holds a passkey for this account already."), true];
  return [error.message, false];
}

// --- the page ---------------------------------------------------------------------------------

function say(text, translate = true, refusal = false) {
  note = [text, translate, refusal];
  drawNote();
}

function drawNote() {
  const node = document.getElementById("account-note");
  node.className = note?.[2] ? "error" : "";
  node.textContent = note ? (note[1] ? t(note[0]) : note[0]) : "";
}

// Runs an action of the page; a refusal is shown in the note.
async function act(action, done = null) {
  try {
    await action();
    note = done ? [done, true, false] : null;
    draw();
  } catch (error) {
    const [text, translate] = error instanceof DOMException ? passkeyError(error) : [error.message, false];
    say(text, translate, true);  // the forms stay as they were filled
  }
}

function field(id, label, attrs) {
  return el("div", { class: "field" }, el("label", { for: id }, t(label)), el("input", { id, name: id, ...attrs }));
}

function signInBox() {
  const form = el("form", { id: "signin-form", on: { submit: (event) => {
    event.preventDefault();
    act(async () => setSession(await api("/api/account/signin", { method: "POST",
      body: { name: form["signin-name"].value, password: form["signin-password"].value } })));
  } } },
  field("signin-name", N_("Name"), { required: true, maxlength: "64", autocomplete: "username webauthn" }),
  field("signin-password", N_("Password"), { type: "password", required: true, autocomplete: "current-password" }),
  el("div", { class: "actions" },
    el("button", { type: "submit", class: "primary", id: "signin" }, t("Sign in")),
    passkeysHere() ? el("button", { type: "button", id: "signin-passkey", on: { click: () =>
      act(async () => setSession(await usePasskey(form["signin-name"].value.trim()))) } }, t("Sign in with a passkey")) : null));
  return el("section", { class: "panel", "aria-labelledby": "signin-title" },
    el("h2", { id: "signin-title" }, t("Sign in")), form);
}

function signUpBox() {
  const form = el("form", { id: "signup-form", on: { submit: (event) => {
    event.preventDefault();
    act(async () => setSession(await api("/api/account/signup", { method: "POST",
      body: { name: form["signup-name"].value, password: form["signup-password"].value, listed: form["signup-listed"].checked } })));
  } } },
  field("signup-name", N_("Name"), { required: true, maxlength: "40", autocomplete: "username" }),
  field("signup-password", N_("Password"), { type: "password", required: true, minlength: String(MIN_PASSWORD),
    autocomplete: "new-password", "aria-describedby": "signup-password-hint" }),
  el("p", { class: "hint", id: "signup-password-hint" }, tn("At least {n} character.", "At least {n} characters.", MIN_PASSWORD)),
  el("div", { class: "seat-row" }, el("input", { type: "checkbox", id: "signup-listed", name: "signup-listed" }),
    el("label", { for: "signup-listed" }, t("Show my profile, and put me on the leaderboards once I have played enough rated games"))),
  el("div", { class: "actions" },
    el("button", { type: "submit", class: "primary", id: "signup" }, t("Create the account")),
    passkeysHere() ? el("button", { type: "button", id: "signup-passkey", on: { click: () => {
      if (!form["signup-name"].reportValidity()) return;
      act(async () => setSession(await makePasskey("/api/account/passkeys/signup/options", "/api/account/passkeys/signup",
        { name: form["signup-name"].value })));
    } } }, t("Create it with a passkey instead")) : null));
  return el("section", { class: "panel", "aria-labelledby": "signup-title" },
    el("h2", { id: "signup-title" }, t("New account")),
    el("p", { class: "hint" }, t("No e-mail needed. Tables by link stay open to everyone, with an account or without.")),
    form);
}

function signedOut() {
  return el("div", { class: "account-grid" }, signInBox(), signUpBox(), passkeyNote(),
    el("p", {}, el("a", { href: "/ratings" }, t("Ratings and the bot ladder"))));
}

function whoBox(account) {
  const listed = el("input", { type: "checkbox", class: "toggle", id: "listed", checked: account.listed, "aria-describedby": "listed-hint",
    on: { change: (event) => act(async () => setSession(await api("/api/account/settings", { method: "POST",
      body: { listed: event.target.checked } })), event.target.checked ? N_("Others see your profile and ratings now.") : N_("Only you see your profile and ratings now.")) } });
  return el("section", { class: "panel", "aria-labelledby": "who-title" },
    el("h2", { id: "who-title" }, t("Signed in")),
    el("p", {}, t("Signed in as"), " ", el("a", { href: profileLink(account.name), id: "profile-link" }, account.name)),
    el("div", { class: "seat-row" }, listed, el("label", { for: "listed" }, t("Show my profile and ratings to others"))),
    el("p", { class: "hint", id: "listed-hint" }, t("Shown: your profile, your finished games and your place on the leaderboards. Your unfinished tables are only ever shown to you.")));
}

function passwordBox(account) {
  const title = el("h2", { id: "password-title" }, t("Password"));
  if (!account.password) {
    return el("section", { class: "panel", "aria-labelledby": "password-title" }, title,
      el("p", { class: "hint", id: "no-password" }, t("This account has no password: it signs in with passkeys.")));
  }
  const form = el("form", { id: "password-form", on: { submit: (event) => {
    event.preventDefault();
    act(async () => {
      setSession(await api("/api/account/password", { method: "POST",
        body: { current: form["password-current"].value, new: form["password-new"].value } }));
      form["password-current"].value = "";  // the redraw keeps what was typed: nothing now
      form["password-new"].value = "";
    }, N_("Your password is changed. Your other devices are signed out."));
  } } },
  field("password-current", N_("Current password"), { type: "password", required: true, autocomplete: "current-password" }),
  field("password-new", N_("New password"), { type: "password", required: true, minlength: String(MIN_PASSWORD),
    autocomplete: "new-password", "aria-describedby": "password-new-hint" }),
  el("p", { class: "hint", id: "password-new-hint" }, tn("At least {n} character.", "At least {n} characters.", MIN_PASSWORD),
    " ", t("Your other devices are signed out when it changes.")),
  el("button", { type: "submit", id: "change-password" }, t("Change the password")));
  return el("section", { class: "panel", "aria-labelledby": "password-title" }, title, form);
}

// The account's passkeys, asked for once it is signed in (and again after each change).
async function loadKeys() {
  keysAsked = true;
  try {
    keys = (await api("/api/account/passkeys")).passkeys;
  } catch (error) {
    keys = [];
    note = [error.message, false, true];
  } finally {
    keysAsked = false;
  }
  draw();
}

function added(key) {
  return new Date(key.created_at * 1000).toLocaleDateString(language(), { dateStyle: "medium" });
}

async function removeKey(key) {
  const date = added(key);
  if (!await ask(t("Remove the passkey added on {date}? The device that holds it can no longer sign you in.", { date }), t("Remove"))) return;
  await act(async () => {
    setSession(await api("/api/account/passkeys/remove", { method: "POST", body: { id: key.id } }));
    keys = null;
  }, N_("Passkey removed."));
}

function keyList(account) {
  if (!keys) return null;
  const removable = account.password || keys.length > 1;  // never the last way to sign in
  return [
    el("ul", { id: "passkey-list", class: "passkey-list" }, ...keys.map((key) => {
      const date = added(key);
      return el("li", {}, t("Added on {date}", { date }), " ",
        removable ? el("button", { type: "button", class: "remove", "aria-label": t("Remove the passkey added on {date}", { date }),
          on: { click: () => removeKey(key) } }, t("Remove")) : null);
    })),
    removable || !keys.length ? null
      : el("p", { class: "hint", id: "passkey-kept" }, t("This passkey is your only way to sign in, so it stays: add another one to remove it.")),
  ];
}

function passkeyBox(account) {
  const count = account.passkeys ?? 0;
  return el("section", { class: "panel", "aria-labelledby": "passkeys-title" },
    el("h2", { id: "passkeys-title" }, t("Passkeys")),
    el("p", { id: "passkey-count" }, count ? tn("You have {n} passkey.", "You have {n} passkeys.", count) : t("You have no passkey yet.")),
    keyList(account),
    passkeysHere()
      ? el("button", { type: "button", id: "add-passkey", on: { click: () => act(async () => {
        setSession(await makePasskey("/api/account/passkeys/register/options", "/api/account/passkeys/register"));
        keys = null;
      }, N_("Passkey added.")) } }, t("Add a passkey"))
      : passkeyNote());
}

function signOutBox() {
  const out = (path, done) => act(async () => {
    await api(path, { method: "POST" });
    setSession(null);
  }, done);
  return el("section", { class: "panel", "aria-labelledby": "signout-title" },
    el("h2", { id: "signout-title" }, t("Sign out")),
    el("div", { class: "actions" },
      el("button", { type: "button", id: "signout", on: { click: () => out("/api/account/signout", N_("You are signed out.")) } }, t("Sign out")),
      el("button", { type: "button", id: "signout-everywhere", on: { click: () => out("/api/account/signout-everywhere", N_("You are signed out on every device.")) } },
        t("Sign out everywhere"))));
}

function exportBox() {
  return el("section", { class: "panel", "aria-labelledby": "export-title" },
    el("h2", { id: "export-title" }, t("Your games")),
    el("p", {}, t("Every game you played at a table, as its record (JSON): replay them anywhere, check their dice.")),
    el("a", { href: "/api/account/export", download: "spieltisch-games.json", id: "export" }, t("Export my games")));
}

function deleteBox() {
  const form = el("form", { id: "delete-form", on: { submit: (event) => {
    event.preventDefault();
    act(async () => {
      await api("/api/account/delete", { method: "POST", body: { confirm: form["delete-confirm"].value } });
      setSession(null);
    }, N_("Your account is deleted. Your games stay, under the name \"former player\"."));
  } } },
  el("p", { id: "delete-what" }, t("Deletes your account, its passkeys, sessions and ratings. Your games stay, under the name \"former player\". This cannot be undone.")),
  field("delete-confirm", N_("Type your name to confirm"), { required: true, autocomplete: "off", "aria-describedby": "delete-what" }),
  el("button", { type: "submit", class: "danger", id: "delete" }, t("Delete the account")));
  return el("section", { class: "panel", "aria-labelledby": "delete-title" },
    el("h2", { id: "delete-title" }, t("Delete the account")), form);
}

function signedInView(account) {
  return el("div", { class: "account-grid" }, whoBox(account), passwordBox(account), passkeyBox(account), signOutBox(),
    exportBox(), deleteBox());
}

function draw() {
  const account = currentAccount();
  if (keysFor !== (account?.id ?? null)) [keys, keysFor] = [null, account?.id ?? null];  // another account, or none
  if (account && keys === null && !keysAsked) loadKeys();  // draws again once they are here
  document.title = `${t(account ? "Your account" : "Sign in")} · spieltisch`;
  const node = document.getElementById("account");
  const focused = document.activeElement?.id;
  const typed = [...node.querySelectorAll("input:not([type=checkbox])")].map((input) => [input.id, input.value]);
  node.replaceChildren(account ? signedInView(account) : signedOut());
  for (const [id, value] of typed) {  // a redraw in the other language keeps what was typed
    const input = document.getElementById(id);
    if (input) input.value = value;
  }
  node.dataset.state = account ? "in" : "out";
  // Focus stays where it was; where that is gone (signed in or out), it goes to the heading.
  const title = document.getElementById("page-title");
  title.tabIndex = -1;
  if (focused && focused !== "page-title") (document.getElementById(focused) ?? title).focus();
  drawNote();
}

async function main() {
  setupLanguage(draw);
  await signedIn;
  draw();
}

main();
