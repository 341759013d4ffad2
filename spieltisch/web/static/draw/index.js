// Which board draws which game; a game without one is drawn as a list of its view's fields.
//
// A board module exports `draw(container, table)`, which fills `container` (an element) from
// `table`, and is called after every update (and may export `logLine(text)`, which draws a log
// sentence with its dice or cards as the board draws them, each named for a screen reader):
//   table.view      the viewer's view (JSON), never more
//   table.previous  the viewer's view before the last update (for a short animation), or null
//   table.seat      the viewer's seat, or null for a spectator
//   table.names     the seats' names; table.toAct: whose turn (null: chance or over)
//   table.legal     the viewer's legal moves [{id, text, label}] (empty unless it is their turn)
//   table.events    the log so far [{version, actor, text, sentence, outcome}]
//   table.play(move)   play one of table.legal
//   table.try(text)    send a move by its notation (the server's refusal, in words, is shown)
//   table.t(key), table.lang   the page's texts and language
//   table.aids      the table allows memory aids (running totals, cards played): off by default
// Boards read views and the game's words (labels) only, and give every card and die a text
// label for screen readers. A control that ends the seat's turn at once (stop and score) is
// marked data-ends-turn: a new turn's keyboard focus goes to the board's first other control. Seat colours: table.colours[seat] = {fill, letter}.
export const BOARDS = {
  "auf-die-eier": () => import("./auf_die_eier.js"),
  "auf-die-nuesse": () => import("./auf_die_nuesse.js"),
  "auweier": () => import("./auweier.js"),
  "awimbawe": () => import("./awimbawe.js"),
};

// Colour-blind-safe seat colours (Okabe and Ito), each with a letter as a second cue.
export const SEAT_COLOURS = [
  { fill: "#0072B2", letter: "B", name: "blue" },
  { fill: "#E69F00", letter: "O", name: "orange" },
  { fill: "#009E73", letter: "G", name: "green" },
  { fill: "#CC79A7", letter: "P", name: "pink" },
  { fill: "#56B4E9", letter: "S", name: "sky" },
  { fill: "#D55E00", letter: "V", name: "vermilion" },
];

export async function boardFor(game) {
  const load = BOARDS[game];
  if (!load) return null;
  try {
    return await load();
  } catch (error) {
    console.warn(`no board for ${game}:`, error);
    return null;
  }
}
