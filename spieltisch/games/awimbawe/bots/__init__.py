"""Awimbawé's agents and what it tells a search about itself.

``AGENTS`` has the heuristic (``heuristic``: rules of thumb, views only); ``SEARCH`` gives a
search the book of set moves (``book``) and the playout cut-off between rounds
(``evaluate``). Pure: no I/O.
"""

from spieltisch.core.kit import AgentFactory, SearchHints
from spieltisch.games.awimbawe.bots.book import book
from spieltisch.games.awimbawe.bots.evaluate import BETWEEN_ROUNDS, evaluate, match_odds
from spieltisch.games.awimbawe.bots.heuristic import HeuristicAgent, Reading, answer_beats, read

AGENTS: dict[str, AgentFactory] = {"heuristic": HeuristicAgent}
SEARCH = SearchHints(book=book, evaluate=evaluate)

__all__ = [
    "AGENTS",
    "BETWEEN_ROUNDS",
    "SEARCH",
    "HeuristicAgent",
    "Reading",
    "answer_beats",
    "book",
    "evaluate",
    "match_odds",
    "read",
]
