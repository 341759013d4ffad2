"""What the new-table form calls each value of a game's options with choices.

A game declares its choices as codes (``tie_break=chance``, ``blocked_duties=bound``): the
codes are what a record keeps, the terminal's ``--option name=value`` takes and the rules
pages document. A person choosing in the form reads words instead, in the page's language:
each value's label here is an English msgid of the catalogs (the page translates it with
``t``), so no code reaches a German page. Every choice of every game has a label (a test
holds each game's declared choices to this table), so a new choice is named here as it is
made.
"""

from __future__ import annotations

from collections.abc import Mapping

from spieltisch.core.game import OptionSpec
from spieltisch.core.words import N_

__all__ = ["OPTION_LABELS", "labels_of"]

OPTION_LABELS: Mapping[str, Mapping[str, Mapping[str, str]]] = {
    "auf-die-nuesse": {
        "collect_order": {
            "active_first": N_("the player whose turn it is first"),
            "next_first": N_("the next player first"),
        },
        "store_table": {
            "standard": N_("standard: the 5-nut store worth 20"),
            "five_25": N_("the 5-nut store worth 25"),
        },
        "empty_supply": {
            "stops": N_("the turn ends, as on stopping"),
            "fails": N_("as a failed roll"),
        },
    },
    "auweier": {
        "stuck_player": {
            "ends_game": N_("the game ends"),
            "passes": N_("they are passed over"),
        },
        "exchange_cost": {
            "turn": N_("the whole turn, no card drawn"),
            "draws": N_("the whole turn, then a card drawn"),
        },
        "wedding_order": {
            "opener": N_("the opener"),
            "onward": N_("the next one after the last to pass"),
        },
        "lucky_crows": {
            "worm_stage": N_("in the worm stage"),
            "both_stages": N_("in both stages"),
        },
        "false_worm_limit": {
            "wedding_phase": N_("within one wedding phase"),
            "always": N_("always, in normal play too"),
        },
    },
    "awimbawe": {
        "tie_break": {
            "chance": N_("by chance"),
            # TRANSLATORS: the youngest player leads; pages count the seats from 1
            "seat0": N_("the youngest, in seat 1"),
            # TRANSLATORS: the youngest player leads; pages count the seats from 1
            "seat1": N_("the youngest, in seat 2"),
        },
        "blocked_duties": {
            "excused": N_("the block excuses the duty"),
            "bound": N_("the duty holds"),
        },
    },
}
"""Each game's options with choices (by game id, then option name): each value's label, an
English msgid."""


def labels_of(game_id: str, spec: OptionSpec) -> dict[str, str]:
    """The label (an English msgid) of each choice of ``game_id``'s option ``spec``, by the
    choice as the page sends it back (text); a choice without one keeps its code."""
    named = OPTION_LABELS.get(game_id, {}).get(spec.name, {})
    return {str(choice): named.get(str(choice), str(choice)) for choice in spec.choices}
