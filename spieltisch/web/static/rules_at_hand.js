// Rules at hand: a click on a die, card, space or panel of a board that names its rule
// (data-rule, the rules page's ids) shows that rule in a panel beside the board, in the page's
// language, with a link to the whole rules page. The click does what it did before too (a die
// is still picked up): the rule only joins it.
import { el } from "./common.js";
import { language, t } from "./i18n.js";

const cache = new Map();
let shown = null;  // the rule on show: {panel, game, id}, drawn again in a new language

// Every rule of the game's rules page by id, as HTML (the server renders the page's Markdown,
// raw HTML escaped), in the page's language; asked for once per language (again after a
// failure).
export function ruleTexts(game) {
  const key = `${game}:${language()}`;
  if (!cache.has(key)) {
    const asked = fetch(`/api/rules/${encodeURIComponent(game)}?lang=${language()}`)
      .then((response) => {
        if (!response.ok) throw new Error(String(response.status));
        return response.json();
      })
      .then((data) => data.rules ?? {})
      .catch(() => {
        cache.delete(key);
        return {};
      });
    cache.set(key, asked);
  }
  return cache.get(key);
}

// One rule as an element: its text from the rules page (HTML the server made from Markdown).
export function ruleElement(id, html) {
  const body = el("div", { class: "rule-text", "data-rule-shown": id });
  body.innerHTML = html;
  return body;
}

async function showRule(panel, game, id) {
  const rules = await ruleTexts(game);
  if (!rules[id]) return;
  shown = { panel, game, id };
  const close = el("button", { type: "button", class: "link", id: "rule-close",
    on: { click: () => { panel.hidden = true; shown = null; } } }, t("Close"));
  panel.replaceChildren(el("h2", { id: "rule-title" }, t("Rule at hand")), ruleElement(id, rules[id]),
    el("p", { class: "seat-row" }, el("a", { href: `/rules/${game}`, target: "_blank", rel: "noopener" }, t("The whole rules page")), close));
  panel.setAttribute("aria-labelledby", "rule-title");
  panel.hidden = false;
}

// The rule on show, again in the page's language now (after a language switch).
export function refreshRuleAtHand() {
  if (shown && !shown.panel.hidden) showRule(shown.panel, shown.game, shown.id);
}

// Show the rule governing whatever is clicked in `board` in `panel`, for `game()` (the game
// may be known only once the page has loaded).
export function ruleAtHand(board, panel, game) {
  if (!board || !panel || board.dataset.rulesAtHand) return;
  board.dataset.rulesAtHand = "on";
  board.addEventListener("click", (event) => {
    const holder = event.target instanceof Element ? event.target.closest("[data-rule]") : null;
    const id = holder && board.contains(holder) ? holder.dataset.rule : null;
    if (id && game()) showRule(panel, game(), id);
  });
}
