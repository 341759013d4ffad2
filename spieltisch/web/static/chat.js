// A table's notes: chat lines (always shown as text, never as HTML) and notices about its
// seats, said in the page's language from their keys (msgids of the catalog).
import { el } from "./common.js";
import { N_, t } from "./i18n.js";

const NOTICES = {
  "standin.time": N_("{name}'s time ran out: a bot plays for them until they return."),
  "standin.away": N_("{name} was away too long: a bot plays for them until they return."),
  "standin.vote": N_("The table voted: a bot plays for {name} until they return."),
  "back": N_("{name} is back."),
  "left": N_("{name} left the table."),
  "conceded": N_("{name} conceded."),
  "tobot": N_("The host handed {name}'s seat to a bot."),
  "ended": N_("{name} ended the game: nobody had played for a long while."),
  "vote.started": N_("{by} asks to hand {name}'s seat to a bot."),
  "vote.failed": N_("The table chose to wait for {name}."),
  "rematch": N_("{by} asks for a rematch."),
};

// A notice in words: its key and the names it carries.
export function noticeText(notice) {
  if (notice.key === "rematch" && !notice.by) return t("The host asks for a rematch.");
  return NOTICES[notice.key] ? t(NOTICES[notice.key], notice) : "";
}

export function drawChat(node, ctx) {
  const mode = ctx.seats?.rules?.chat ?? "players";
  const canWrite = mode !== "off" && ctx.mySeat !== null && ctx.mySeat !== undefined;
  const lines = ctx.notes.filter((n) => n.kind === "chat");
  if (mode === "off" || (!canWrite && !lines.length)) return node.replaceChildren();
  const list = el("ol", { class: "chat", id: "chat-lines", "aria-live": "polite", tabindex: "0", "aria-label": t("Table talk") },
    lines.map((n) => el("li", { "data-idx": n.idx }, el("strong", {}, `${n.name}: `), n.text)));
  const typed = document.getElementById("chat-text")?.value ?? "";
  const hadFocus = document.activeElement?.id === "chat-text";
  const input = el("input", { type: "text", id: "chat-text", maxlength: "300", autocomplete: "off",
    "aria-label": t("Say something"), placeholder: t("Say something") });
  input.value = typed;
  const form = canWrite ? el("form", { class: "seat-row", id: "chat-form", on: { submit: (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    ctx.say(text);
  } } }, input, el("button", { type: "submit" }, t("Send"))) : null;
  node.replaceChildren(el("h2", {}, t("Table talk")), list, form,
    el("p", { class: "hint" }, mode === "everyone" ? t("Players and spectators read this chat.") : t("Only the players read this chat.")));
  list.scrollTop = list.scrollHeight;
  if (hadFocus) input.focus();
  // Folded on a phone, the talk's bar counts its lines, so that a new one is seen.
  const count = document.querySelector("#fold-chat .count");
  if (count) count.textContent = lines.length ? String(lines.length) : "";
}
