import { setupLanguage } from "./i18n.js";
setupLanguage(() => {});
