// A table's notes: chat lines (always shown as text, never as HTML) and notices about its
// seats, said in the page's language from their keys.
import { el } from "./common.js";
import { t } from "./i18n.js";

// A notice in words: its key and the names it carries.
export function noticeText(notice) {
  if (notice.key === "rematch" && !notice.by) return t("notice.rematch.host");
  return t(`notice.${notice.key}`, notice);
}

export function drawChat(node, ctx) {
  const mode = ctx.seats?.rules?.chat ?? "players";
  const canWrite = mode !== "off" && ctx.mySeat !== null && ctx.mySeat !== undefined;
  const lines = ctx.notes.filter((n) => n.kind === "chat");
  if (mode === "off" || (!canWrite && !lines.length)) return node.replaceChildren();
  const list = el("ol", { class: "chat", id: "chat-lines", "aria-live": "polite", tabindex: "0", "aria-label": t("chat.title") },
    lines.map((n) => el("li", { "data-idx": n.idx }, el("strong", {}, `${n.name}: `), n.text)));
  const typed = document.getElementById("chat-text")?.value ?? "";
  const hadFocus = document.activeElement?.id === "chat-text";
  const input = el("input", { type: "text", id: "chat-text", maxlength: "300", autocomplete: "off",
    "aria-label": t("chat.say"), placeholder: t("chat.say") });
  input.value = typed;
  const form = canWrite ? el("form", { class: "seat-row", id: "chat-form", on: { submit: (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = "";
    ctx.say(text);
  } } }, input, el("button", { type: "submit" }, t("chat.send"))) : null;
  node.replaceChildren(el("h2", {}, t("chat.title")), list, form,
    el("p", { class: "hint" }, t(mode === "everyone" ? "chat.everyone" : "chat.players")));
  list.scrollTop = list.scrollHeight;
  if (hadFocus) input.focus();
}
