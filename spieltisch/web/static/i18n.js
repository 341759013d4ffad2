// English and German texts of the client; the game names stay German.
const TEXTS = {
  en: {
    "seats.title": "At the table", "seats.here": "here", "seats.away": "away for {t}", "seats.never": "not here yet",
    "seats.standin": "a bot plays for them until they return", "seats.conceded": "conceded", "seats.you": "you",
    "seats.timeleft": "time left", "seats.bot": "bot", "seats.open": "free seat",
    "own.leave": "Leave the table", "own.leave.sure": "Leave for good? A bot takes your seat (before the start, the seat is free again).",
    "own.concede": "Concede", "own.concede.two": "Concede the game? The other player wins.",
    "own.concede.more": "Concede? You leave the game and a bot plays your seat on.",
    "vote.away": "{name} has been away on their turn too long.", "vote.time": "{name}'s time is up.",
    "vote.start": "Hand {name}'s seat to a bot", "vote.yes": "Yes, a bot plays for them", "vote.no": "No, let us wait",
    "vote.tally": "{yes} of {voters} said yes so far.", "vote.voted": "You voted.",
    "notice.standin.time": "{name}'s time ran out: a bot plays for them until they return.",
    "notice.standin.away": "{name} was away too long: a bot plays for them until they return.",
    "notice.standin.vote": "The table voted: a bot plays for {name} until they return.",
    "notice.back": "{name} is back.", "notice.left": "{name} left the table.", "notice.conceded": "{name} conceded.",
    "notice.tobot": "The host handed {name}'s seat to a bot.",
    "notice.vote.started": "{by} asks to hand {name}'s seat to a bot.", "notice.vote.failed": "The table chose to wait for {name}.",
    "notice.rematch": "{by} asks for a rematch.", "notice.rematch.host": "The host asks for a rematch.",
    "rematch.ready": "A rematch is ready.", "rematch.join": "Join the rematch", "rematch.watch": "Watch the rematch",
    "rematch.no": "Not this time", "rematch.at": "The rematch:", "rematch.ask": "Rematch",
    "host.links": "Join links", "host.copy": "Copy", "host.copied": "Copied", "host.qr": "QR code", "host.noqr": "Hide the QR code",
    "host.nolink": "(made before links could be shown again)",
    "host.waiting.one": "Waiting for seat {list} to join.", "host.waiting.other": "Waiting for seats {list} to join.",
    "host.yours": "Your own seat ({n}) is one of them: open its link to sit down.", "host.ready": "Everyone is here: start when you like.",
    "stale.was": "This link held {name}'s seat (seat {n}).", "stale.bot": "The host handed that seat to a bot.",
    "stale.person": "The host gave that seat to someone else.", "stale.left": "{name} left the table.",
    "stale.conceded": "{name} conceded, so the seat is a bot's now.", "stale.never": "This link holds no seat at this table.",
    "stale.watch": "Watch instead", "stale.since": "since {when}",
    "chat.title": "Table talk", "chat.say": "Say something", "chat.send": "Send", "chat.players": "Only the players read this chat.",
    "chat.everyone": "Players and spectators read this chat.",
    "notify.sound": "Sound on my turn", "notify.browser": "Notify me on my turn", "notify.denied": "This browser blocks notifications.",
    "notify.turn": "Your turn", "notify.body": "It is your turn at {game}.",
    "lobby.free.one": "{n} free seat", "lobby.free.other": "{n} free seats",
    "create.clock": "Clock", "create.clock.none": "none (friends together)", "create.clock.relaxed": "relaxed (a day for each move)",
    "create.clock.live": "live (a time bank and an increment)", "create.bank": "Time bank, minutes",
    "create.increment": "Increment per move, seconds", "create.takeover": "When someone runs out of time or stays away",
    "create.takeover.bot": "a bot plays for them until they return", "create.takeover.vote": "the others vote on handing the seat to a bot",
    "create.chat": "Chat", "create.chat.players": "for the players", "create.chat.everyone": "for players and spectators",
    "create.chat.off": "off", "create.level": "Bot level",
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
    "seats.title": "Am Tisch", "seats.here": "da", "seats.away": "weg seit {t}", "seats.never": "noch nicht da",
    "seats.standin": "ein Bot spielt für sie, bis sie zurückkommen", "seats.conceded": "hat aufgegeben", "seats.you": "du",
    "seats.timeleft": "Restzeit", "seats.bot": "Bot", "seats.open": "freier Platz",
    "own.leave": "Tisch verlassen", "own.leave.sure": "Endgültig gehen? Ein Bot übernimmt deinen Platz (vor dem Start wird er wieder frei).",
    "own.concede": "Aufgeben", "own.concede.two": "Das Spiel aufgeben? Dann gewinnt der andere Spieler.",
    "own.concede.more": "Aufgeben? Du verlässt das Spiel, und ein Bot spielt deinen Platz weiter.",
    "vote.away": "{name} ist zu lange weg, obwohl er oder sie dran ist.", "vote.time": "Die Zeit von {name} ist abgelaufen.",
    "vote.start": "Den Platz von {name} einem Bot geben", "vote.yes": "Ja, ein Bot spielt für sie", "vote.no": "Nein, wir warten",
    "vote.tally": "{yes} von {voters} haben bisher ja gesagt.", "vote.voted": "Du hast abgestimmt.",
    "notice.standin.time": "Die Zeit von {name} ist abgelaufen: Ein Bot spielt für sie, bis sie zurückkommen.",
    "notice.standin.away": "{name} war zu lange weg: Ein Bot spielt für sie, bis sie zurückkommen.",
    "notice.standin.vote": "Der Tisch hat abgestimmt: Ein Bot spielt für {name}, bis sie zurückkommen.",
    "notice.back": "{name} ist zurück.", "notice.left": "{name} hat den Tisch verlassen.", "notice.conceded": "{name} hat aufgegeben.",
    "notice.tobot": "Der Gastgeber hat den Platz von {name} einem Bot gegeben.",
    "notice.vote.started": "{by} möchte den Platz von {name} einem Bot geben.", "notice.vote.failed": "Der Tisch wartet auf {name}.",
    "notice.rematch": "{by} möchte eine Revanche.", "notice.rematch.host": "Der Gastgeber möchte eine Revanche.",
    "rematch.ready": "Eine Revanche steht bereit.", "rematch.join": "Zur Revanche", "rematch.watch": "Der Revanche zuschauen",
    "rematch.no": "Diesmal nicht", "rematch.at": "Die Revanche:", "rematch.ask": "Revanche",
    "host.links": "Einladungslinks", "host.copy": "Kopieren", "host.copied": "Kopiert", "host.qr": "QR-Code", "host.noqr": "QR-Code ausblenden",
    "host.nolink": "(angelegt, bevor Links wieder gezeigt werden konnten)",
    "host.waiting.one": "Warte darauf, dass Platz {list} beitritt.", "host.waiting.other": "Warte darauf, dass die Plätze {list} beitreten.",
    "host.yours": "Dein eigener Platz ({n}) ist darunter: Öffne seinen Link, um dich zu setzen.", "host.ready": "Alle sind da: Starte, wann du willst.",
    "stale.was": "Dieser Link gehörte zum Platz von {name} (Platz {n}).", "stale.bot": "Der Gastgeber hat diesen Platz einem Bot gegeben.",
    "stale.person": "Der Gastgeber hat diesen Platz jemand anderem gegeben.", "stale.left": "{name} hat den Tisch verlassen.",
    "stale.conceded": "{name} hat aufgegeben, der Platz gehört jetzt einem Bot.", "stale.never": "Dieser Link gehört zu keinem Platz an diesem Tisch.",
    "stale.watch": "Stattdessen zuschauen", "stale.since": "seit {when}",
    "chat.title": "Tischgespräch", "chat.say": "Sag etwas", "chat.send": "Senden", "chat.players": "Nur die Spieler lesen diesen Chat.",
    "chat.everyone": "Spieler und Zuschauer lesen diesen Chat.",
    "notify.sound": "Ton, wenn ich dran bin", "notify.browser": "Benachrichtigen, wenn ich dran bin", "notify.denied": "Dieser Browser blockiert Benachrichtigungen.",
    "notify.turn": "Du bist dran", "notify.body": "Du bist dran bei {game}.",
    "lobby.free.one": "{n} freier Platz", "lobby.free.other": "{n} freie Plätze",
    "create.clock": "Uhr", "create.clock.none": "keine (Freunde beisammen)", "create.clock.relaxed": "gemächlich (ein Tag je Zug)",
    "create.clock.live": "live (Zeitkonto und Zuschlag)", "create.bank": "Zeitkonto, Minuten",
    "create.increment": "Zuschlag je Zug, Sekunden", "create.takeover": "Wenn jemandes Zeit abläuft oder jemand wegbleibt",
    "create.takeover.bot": "ein Bot spielt für sie, bis sie zurückkommen", "create.takeover.vote": "die anderen stimmen ab, ob ein Bot den Platz bekommt",
    "create.chat": "Chat", "create.chat.players": "für die Spieler", "create.chat.everyone": "für Spieler und Zuschauer",
    "create.chat.off": "aus", "create.level": "Bot-Stärke",
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

export function t(key, args = {}) {
  const text = TEXTS[language()][key] ?? TEXTS.en[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in args ? String(args[name]) : whole));
}

// A text that depends on a count: the key's ".one" or ".other" form, as the language has it.
export function tn(key, n, args = {}) {
  const form = new Intl.PluralRules(language()).select(n) === "one" ? "one" : "other";
  return t(`${key}.${form}`, { n, ...args });
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
