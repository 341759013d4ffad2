"""The HTML shells of the pages; the client scripts fill them from the API and the socket.

Nothing here reads a table: a page carries its table's id (public) and loads its script, which
reads any secret token from the link's fragment. The rules page is the game's rules page,
rendered from its Markdown.
"""

from __future__ import annotations

import re
from html import escape, unescape

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

import spieltisch
from spieltisch.games import REGISTRY
from spieltisch.locale import LANGUAGES, N_, SOURCE, translation
from spieltisch.session.lesson import has_lesson
from spieltisch.session.rule_ids import split_marker


def _rule_marks(state: StateCore) -> None:
    """Take each rule's ``{#id}`` marker off the rules page's text and put the id on the
    element that holds the rule (``data-rule``: the same id in the English and the German
    article, which share the page)."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type != "inline" or not token.children:
            continue
        _, rule = split_marker(token.content)
        if rule is None:
            continue
        last = token.children[-1]
        last.content = split_marker(last.content)[0]
        holder = next(
            (t for t in reversed(tokens[:index]) if t.nesting == 1 and not t.hidden), None
        )
        if holder is not None:
            holder.attrSet("data-rule", rule)


_MARKDOWN = MarkdownIt("commonmark", {"html": False}).enable("table")
_MARKDOWN.core.ruler.push("rule_marks", _rule_marks)


def markdown_html(text: str) -> str:
    """``text`` (Markdown, as on the rules pages) as HTML; raw HTML in it is escaped."""
    html: str = _MARKDOWN.render(text)
    return html


_MARKED = re.compile(r"(<[a-z][a-z0-9]*\b[^<>]*?\sdata-t)(?=[\s>])([^<>]*)>([^<>]+)<")
"""An element whose text is a msgid of the catalogs (``data-t``; no markup inside)."""


def _spoken(html: str, language: str) -> str:
    """``html`` with every ``data-t`` element's text in ``language``; the English msgid
    stays in the attribute, so the page can switch language without a request."""
    if language == SOURCE:
        return html
    speech = translation(language)

    def one(found: re.Match[str]) -> str:
        start, rest, text = found.groups()
        said = escape(speech.gettext(unescape(text.strip())))
        return f'{start}="{escape(unescape(text.strip()))}"{rest}>{said}<'

    return _MARKED.sub(one, html)


LOGO = (
    '<svg class="mark" viewBox="0 0 32 32" aria-hidden="true" focusable="false">'
    '<rect class="mark-card" x="3.5" y="4" width="16" height="23" rx="3"'
    ' transform="rotate(-14 11.5 15.5)"/>'
    '<path class="mark-egg" d="M19.5 6.5c5 0 8.5 8 8.5 13.3 0 5.2-3.8 8.7-8.5 8.7'
    'S11 25 11 19.8C11 14.5 14.5 6.5 19.5 6.5z"/>'
    '<circle class="mark-pip" cx="16" cy="23.6" r="1.7"/>'
    '<circle class="mark-pip" cx="19.5" cy="19.2" r="1.7"/>'
    '<circle class="mark-pip" cx="23" cy="14.8" r="1.7"/></svg>'
)
"""The brand's mark: a card behind an egg that shows a die's three (drawn for spieltisch; its
colours are the header's tokens, set in base.css)."""
_HOME, _RATINGS_LINK, _ACCOUNT_LINK, _RULES_NOTE = (
    N_("Tables"),
    N_("Ratings"),
    N_("Your account"),
    N_("Game nights at one table, in the browser."),
)


def _shell(title: str, script: str, body: str, data: str = "", language: str = SOURCE) -> str:
    other = "en" if language == "de" else "de"
    switch = "English" if language == "de" else "Deutsch"  # named in its own language
    titled = escape(translation(language).gettext(title))
    home, ratings, account, note = _HOME, _RATINGS_LINK, _ACCOUNT_LINK, _RULES_NOTE
    head = f"""<!doctype html>
<html lang="{language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">
<title>{titled} · spieltisch</title>
<meta name="theme-color" content="#2c2118" media="(prefers-color-scheme: light)">
<meta name="theme-color" content="#0e0b08" media="(prefers-color-scheme: dark)">
<link rel="icon" href="/static/art/icon.svg" type="image/svg+xml">
<link rel="apple-touch-icon" href="/static/art/apple-touch-icon.png">
<link rel="manifest" href="/manifest.webmanifest">
<link rel="stylesheet" href="/static/style.css">
<script type="module" src="/static/{script}"></script>
</head>
<body{data}>
<header class="bar">
  <a href="/" class="brand">{LOGO}<span>spieltisch</span></a>
  <span class="spacer"></span>
  <div class="bar-tools">
    <a href="/account" id="account-link" class="chip" data-t>Sign in</a>
    <button type="button" id="language" class="chip" lang="{other}"
      title="Sprache / language">{switch}</button>
  </div>
</header>
<main id="main">
{body}
</main>
<footer class="about">
  <span class="footer-brand">{LOGO}</span>
  <p class="footer-note" data-t>{note}</p>
  <ul class="footer-links">
    <li><a href="/" data-t>{home}</a></li>
    <li><a href="/ratings" data-t>{ratings}</a></li>
    <li><a href="/account" data-t>{account}</a></li>
    <li><a href="/api/about" id="about">spieltisch</a></li>
  </ul>
</footer>
</body>
</html>
"""
    return _spoken(head, language)


def shell(title: str, script: str, body: str, data: str = "", language: str = SOURCE) -> str:
    """A page around ``body`` in ``language`` (its ``data-t`` texts already in it, so the
    first paint is): the header (home, the account, the language), ``script`` loaded as its
    module, the footer; ``data``: the body's attributes, escaped already."""
    return _shell(title, script, body, data, language)


_LEARN = N_("Learn to play")


_CHOICE_ICONS = {
    "bots": '<rect x="5" y="8" width="22" height="17" rx="5"/><path d="M16 8V4"/>'
    '<circle cx="16" cy="3" r="1.6"/><circle cx="11.5" cy="15.5" r="2"/>'
    '<circle cx="20.5" cy="15.5" r="2"/><path d="M12 21h8M2 15v4M30 15v4"/>',
    "friends": '<circle cx="11" cy="10" r="4.5"/><circle cx="22" cy="11" r="3.5"/>'
    '<path d="M2 27c0-6 4-10 9-10s9 4 9 10M19 18c5-1 10 2 11 9"/>',
    "learn": '<path d="M4 7c5-2 9-1 12 2 3-3 7-4 12-2v19c-5-2-9-1-12 2-3-3-7-4-12-2z"/>'
    '<path d="M16 9v19"/>',
    "continue": '<circle cx="16" cy="16" r="13"/><path d="M13 10l9 6-9 6z"/>',
}
"""The first choices' pictures: line drawings in the text's colour (decorative)."""
_CHOICE_IDS = {"learn": "learn"}
"""A choice's id where it is not ``choice-<key>``: the way to the lessons is ``#learn``."""


def _choice(key: str, href: str, title: str, line: str, hidden: bool = False) -> str:
    """One of the lobby's first choices: a big card that is a link (the script adds what it
    does beyond following ``href``)."""
    icon = (
        '<svg class="choice-icon" viewBox="0 0 32 32" aria-hidden="true" focusable="false">'
        f"{_CHOICE_ICONS[key]}</svg>"
    )
    return (
        f'<a class="choice choice-{key}" id="{_CHOICE_IDS.get(key, f"choice-{key}")}" href="{href}"'
        f"{' hidden' if hidden else ''}>{icon}"
        f'<span class="choice-title" data-t>{title}</span>'
        f'<span class="choice-line" data-t>{line}</span></a>'
    )


def lobby(language: str = SOURCE) -> str:
    """The lobby, a place to choose a game: the first choices (play against bots, a table for
    friends, learn, continue), a tile for each game, a new table, and the lists of tables."""
    heading = N_("Tables")
    lead = N_("Pick a game, pull up a chair: against bots right now, or with friends by a link.")
    bots = N_("Play now against bots"), N_("A table with bots, ready in a moment")
    friends = N_("Make a table for friends"), N_("Send each friend a link to their seat")
    learn = _LEARN, N_("A guided first game, step by step")
    going = N_("Continue your games"), N_("Your tables still running")
    choices = "\n  ".join(
        (
            _choice("bots", "#new-table", *bots),
            _choice("friends", "#new-table", *friends),
            _choice("learn", "#games", *learn),
            _choice("continue", "#continue", *going, hidden=True),
        )
    )
    games, mine, new = N_("Choose a game"), going[0], N_("New table")
    # A new table comes before the lists, so that on a phone it is not under every list.
    body = f"""<div class="lobby-hero">
<h1 data-t>{heading}</h1>
<p class="lobby-lead" data-t>{lead}</p>
<div class="choices">
  {choices}
</div>
</div>
<section id="continue" aria-labelledby="continue-title" hidden>
  <h2 id="continue-title" data-t>{mine}</h2>
  <div id="continue-list"></div>
</section>
<section aria-labelledby="games-title">
  <h2 id="games-title" data-t>{games}</h2>
  <div id="games" class="game-tiles"></div>
</section>
<div class="lobby-columns">
<section id="new-table" aria-labelledby="new-table-title">
  <h2 id="new-table-title" data-t>{new}</h2>
  <form id="create" class="panel"></form>
  <div id="created" aria-live="polite"></div>
</section>
<section class="lobby-lists">
  <div id="lists" aria-live="polite"></div>
</section>
</div>"""
    return _shell("Tables", "lobby.js", body, language=language)


_TABLE = N_("Table")
"""A table page's title (its script names the game once it knows it)."""
BOARD = N_("The board")
"""The board's heading (hidden but for screen readers) on every page that draws one."""


_AT_TABLE, _TALK, _HAPPENED, _NOTICED = (
    N_("At the table"),
    N_("Table talk"),
    N_("What happened"),
    N_("Notifications"),
)
"""The folds' names on a phone (on a desktop every panel shows, each under its own heading)."""


def _fold(name: str, label: str, section: str, phone: str = "closed") -> str:
    """A side panel a phone may fold away (a ``<details>``, ``phone``: how a phone first shows
    it, ``open`` or ``closed``; table.js opens every fold on a wide screen, where its summary
    is not shown)."""
    return (
        f'<details class="fold" id="fold-{name}" data-phone="{phone}" open>'
        f"<summary><span data-t>{label}</span>"
        '<span class="count"></span></summary>\n'
        f"      {section}</details>"
    )


def table(table_id: str, language: str = SOURCE) -> str:
    """A table: the game from this viewer's side, the moves, the log. On a phone the board
    comes first, the turn and the moves under it, the other panels folded."""
    board = BOARD
    seats = _fold("seats", _AT_TABLE, '<section id="seats" class="panel"></section>', "open")
    chat = _fold("chat", _TALK, '<section id="chat" class="panel"></section>')
    log = _fold(
        "log", _HAPPENED, '<section id="log" class="panel" aria-labelledby="log-title"></section>'
    )
    notify = _fold("notify", _NOTICED, '<section id="notify" class="panel"></section>')
    body = f"""<h1 id="page-title" class="visually-hidden">spieltisch</h1>
<div id="banner" class="banner" role="status" aria-live="polite" hidden></div>
<section id="stale" class="panel" role="alert" hidden></section>
<section id="offer" class="panel" role="status" hidden></section>
<section id="join" hidden></section>
<section id="host" hidden></section>
<div class="table-layout">
  <p id="my-clock" class="my-clock" hidden></p>
  <h2 id="board-title" class="visually-hidden" data-t>{board}</h2>
  <section id="board" class="panel" aria-labelledby="board-title"></section>
  <aside class="side">
    <section id="turn" class="panel" aria-live="polite"></section>
    <section id="rule-at-hand" class="panel" aria-live="polite" hidden></section>
    <section id="votes" class="panel" aria-live="polite"></section>
    <section id="moves" class="panel"></section>
    {seats}
    <section id="own" class="panel"></section>
    {chat}
    {log}
    {notify}
  </aside>
</div>"""
    return _shell(_TABLE, "table.js", body, f' data-table="{escape(table_id)}"', language)


def replay(table_id: str, language: str = SOURCE) -> str:
    """A finished game, move by move, from any seat's side or a spectator's."""
    heading, board = N_("Replay"), BOARD  # marked outside the f-string: Babel reads
    body = f"""<h1 data-t id="page-title">{heading}</h1>
<section class="panel" id="controls"></section>
<div class="table-layout">
  <h2 id="board-title" class="visually-hidden" data-t>{board}</h2>
  <section id="board" class="panel" aria-labelledby="board-title"></section>
  <aside class="side">
    <section id="rule-at-hand" class="panel" aria-live="polite" hidden></section>
    <section id="log" class="panel" aria-labelledby="log-title"></section>
  </aside>
</div>"""
    return _shell("Replay", "replay.js", body, f' data-table="{escape(table_id)}"', language)


_NO_RULES = N_("No rules page found.")


def rules(game_id: str, page_language: str = SOURCE) -> str:
    """The game's rules page: one article for each language spieltisch speaks, the one of
    ``page_language`` shown; rules.js shows the other on a switch (without a request)."""
    info = REGISTRY.game_class(game_id).info
    learn = _LEARN
    articles = (
        [f'<p class="learn-link"><a href="/learn/{escape(game_id)}" data-t>{learn}</a></p>']
        if has_lesson(game_id)
        else []
    )
    for language in LANGUAGES:
        text = spieltisch.rules_page(game_id, language)
        if not text:
            text = f"# {info.name}\n\n{translation(language).gettext(_NO_RULES)}"
        hidden = "" if language == page_language else " hidden"
        articles.append(
            f'<article class="rules" lang="{language}"{hidden}>\n{_MARKDOWN.render(text)}</article>'
        )
    return _shell(info.name, "rules.js", "\n".join(articles), language=page_language)
