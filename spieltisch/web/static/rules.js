import { language, setupLanguage } from "./i18n.js";

// The page holds the rules once in each language, one <article lang> each (pages.rules): the
// article of the page's language is shown, every other one hidden (English if the page's
// language has none).
function showLanguage() {
  const articles = [...document.querySelectorAll("article.rules")];
  const wanted = articles.some((article) => article.lang === language()) ? language() : "en";
  for (const article of articles) article.hidden = article.lang !== wanted;
}

setupLanguage(showLanguage);
showLanguage();
