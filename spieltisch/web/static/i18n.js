// English and German texts of the client; the game names stay German.
const TEXTS = {
  en: {
    "create.hints": "Allow hints (the strongest bot's advice, on request)", "table.hint": "Hint",
    "replay.drop": "Drop a record file here to replay it, or choose one:", "replay.file": "record file",
    "replay.position": "move", "analysis.title": "Analysis", "analysis.of": "Analyse",
    "analysis.running": "Analysing decisions:", "analysis.done": "Analysis done", "analysis.flagged": "costly decisions",
    "analysis.move": "Move", "analysis.made": "Played", "analysis.preferred": "Preferred", "analysis.loss": "Lost",
    "analysis.samples": "Games simulated", "analysis.exact": "exact", "analysis.costly": "costly",
    "fair.title": "Dice anyone can verify", "fair.commitment": "Commitment shown before the first move",
    "fair.later": "The secret behind the dice is revealed when the game is over.",
    "fair.secret": "Revealed secret", "fair.seed": "Seed", "fair.verify": "Verify the dice",
    "fair.ok": "every roll, shuffle and deal is the one the committed seed draws",
    "lobby.title": "Tables", "lobby.new": "New table", "lobby.open": "Open tables",
    "lobby.playing": "Being played", "lobby.finished": "Finished", "lobby.none": "none",
    "lobby.watch": "watch", "lobby.replay": "replay", "lobby.free": "free seats",
    "create.game": "Game", "create.players": "Players", "create.seat": "Seat",
    "create.person": "a person", "create.bot": "a bot", "create.go": "Create the table",
    "create.host": "Your host link (keep it; it starts the game and manages seats):",
    "create.seatlink": "Join link for seat", "create.rules": "rules",
    "table.join": "Your name at this table", "table.take": "Take the seat",
    "table.turn": "To move", "table.you": "your turn", "table.waiting": "waiting for",
    "table.chance": "chance", "table.moves": "Your moves", "table.notation": "Move in notation",
    "table.play": "Play", "table.log": "What happened", "table.over": "The game is over",
    "table.winners": "Winners", "table.scores": "Scores", "table.replay": "Watch the replay",
    "table.record": "Download the record", "table.rematch": "Rematch", "table.rules": "Rules",
    "table.spectator": "You are watching.", "table.seatof": "You play seat",
    "table.reconnect": "Connection lost.", "table.retryin": "Reconnecting in",
    "table.attempt": "attempt", "table.retrynow": "Try now", "table.connecting": "Connecting…",
    "table.nosuch": "This link opens no table here.", "table.version": "move",
    "table.bot": "bot", "table.person": "person", "table.free": "free", "table.hosting": "You host this table",
    "create.sit": "Sit at seat {n} yourself (with the host's rights):", "table.open": "Waiting for players to join.",
    "table.start": "Start the game", "table.tobot": "Hand to a bot", "table.toperson": "Give back to a person",
    "table.rejected": "Refused", "table.expired": "This table expired before it started.",
    "table.yourturn": "Your turn", "replay.first": "Start", "replay.back": "Back",
    "replay.next": "Next", "replay.last": "End", "replay.side": "Seen from", "replay.spectator": "spectator",
  },
  de: {
    "create.hints": "Tipps erlauben (der Rat des stärksten Bots, auf Wunsch)", "table.hint": "Tipp",
    "replay.drop": "Ein Spielprotokoll hierher ziehen, um es abzuspielen, oder eines wählen:", "replay.file": "Spielprotokoll",
    "replay.position": "Zug", "analysis.title": "Analyse", "analysis.of": "Analysiere",
    "analysis.running": "Entscheidungen werden analysiert:", "analysis.done": "Analyse fertig", "analysis.flagged": "teure Entscheidungen",
    "analysis.move": "Zug", "analysis.made": "Gespielt", "analysis.preferred": "Besser", "analysis.loss": "Verloren",
    "analysis.samples": "Simulierte Spiele", "analysis.exact": "genau", "analysis.costly": "teuer",
    "fair.title": "Würfel, die jeder prüfen kann", "fair.commitment": "Vor dem ersten Zug gezeigte Festlegung",
    "fair.later": "Das Geheimnis hinter den Würfeln wird am Ende des Spiels aufgedeckt.",
    "fair.secret": "Aufgedecktes Geheimnis", "fair.seed": "Startwert", "fair.verify": "Würfel prüfen",
    "fair.ok": "jeder Wurf, jedes Mischen und jedes Geben ist das, was der festgelegte Startwert ergibt",
    "lobby.title": "Tische", "lobby.new": "Neuer Tisch", "lobby.open": "Offene Tische",
    "lobby.playing": "Wird gespielt", "lobby.finished": "Beendet", "lobby.none": "keine",
    "lobby.watch": "zuschauen", "lobby.replay": "Wiederholung", "lobby.free": "freie Plätze",
    "create.game": "Spiel", "create.players": "Spieler", "create.seat": "Platz",
    "create.person": "ein Mensch", "create.bot": "ein Bot", "create.go": "Tisch anlegen",
    "create.host": "Dein Gastgeber-Link (aufheben: er startet das Spiel und verwaltet die Plätze):",
    "create.seatlink": "Einladungslink für Platz", "create.rules": "Regeln",
    "table.join": "Dein Name an diesem Tisch", "table.take": "Platz nehmen",
    "table.turn": "Am Zug", "table.you": "du bist dran", "table.waiting": "wartet auf",
    "table.chance": "Zufall", "table.moves": "Deine Züge", "table.notation": "Zug in Notation",
    "table.play": "Spielen", "table.log": "Was geschah", "table.over": "Das Spiel ist aus",
    "table.winners": "Gewinner", "table.scores": "Punkte", "table.replay": "Wiederholung ansehen",
    "table.record": "Spielprotokoll laden", "table.rematch": "Revanche", "table.rules": "Regeln",
    "table.spectator": "Du schaust zu.", "table.seatof": "Du spielst Platz",
    "table.reconnect": "Verbindung verloren.", "table.retryin": "Neuer Versuch in",
    "table.attempt": "Versuch", "table.retrynow": "Jetzt versuchen", "table.connecting": "Verbinde…",
    "table.nosuch": "Dieser Link öffnet hier keinen Tisch.", "table.version": "Zug",
    "table.bot": "Bot", "table.person": "Mensch", "table.free": "frei", "table.hosting": "Du bist Gastgeber dieses Tisches",
    "create.sit": "Selbst an Platz {n} sitzen (mit den Rechten des Gastgebers):", "table.open": "Warte auf die Mitspieler.",
    "table.start": "Spiel starten", "table.tobot": "An einen Bot geben", "table.toperson": "An einen Menschen zurückgeben",
    "table.rejected": "Abgelehnt", "table.expired": "Dieser Tisch ist verfallen, bevor er begann.",
    "table.yourturn": "Du bist dran", "replay.first": "Anfang", "replay.back": "Zurück",
    "replay.next": "Weiter", "replay.last": "Ende", "replay.side": "Gesehen von", "replay.spectator": "Zuschauer",
  },
};

export function language() {
  return localStorage.getItem("spieltisch.lang") === "de" ? "de" : "en";
}

export function t(key) {
  return TEXTS[language()][key] ?? TEXTS.en[key] ?? key;
}

export function translatePage() {
  document.documentElement.lang = language();
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = t(node.dataset.t);
  const button = document.getElementById("language");
  if (button) button.textContent = language() === "de" ? "English" : "Deutsch";
}

export function setupLanguage(redraw) {
  const button = document.getElementById("language");
  translatePage();
  button?.addEventListener("click", () => {
    localStorage.setItem("spieltisch.lang", language() === "de" ? "en" : "de");
    translatePage();
    redraw();
  });
}
