"""The rule at hand stands on its own: a rule that is a row of a table comes with the table's
header, rendered as a table, never as a line of pipes torn out of it.

Seen on a German page: Auweier's "Falscher Wurm F | 1 | ..." in the panel beside the board.
"""

from __future__ import annotations

import re

import pytest

import spieltisch
from spieltisch.games import REGISTRY
from spieltisch.locale import LANGUAGES
from spieltisch.session.rule_ids import rule_blocks, rule_ids
from spieltisch.web.routes.rules_at_hand import rules_of

TAG = re.compile(r"<[^>]+>")
CODE = re.compile(r"<code>.*?</code>", re.DOTALL)
LEADING = re.compile(r"^[*_]+")
"""Notation may hold a pipe (Awimbawé's deal: ``D / U / H | D / U / H``)."""


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_every_rule_at_hand_reads_whole(game_id: str, language: str) -> None:
    rules = rules_of(game_id, language)
    assert rules, "the page names its rules"
    rows = 0
    for rule, html in rules.items():
        text = TAG.sub("", CODE.sub("", html))
        assert " | " not in text, (rule, text[:120])  # no table row torn out of its table
        if "<td>" in html:
            rows += 1
            assert "<th>" in html and html.count("<tr>") == 2, rule  # its header, and itself
    if game_id in ("auweier", "auf-die-eier"):
        assert rows, "these pages name rules by their tables' rows"


def test_a_table_rows_block_carries_its_header_and_nothing_else() -> None:
    page = "\n".join([
        "| card | count | what it does |",
        "|---|---|---|",
        "| worm | 11 | counts its value {#g.worm} |",
        "| crow | 3 | eats a worm {#g.crow} |",
        "",
        "A paragraph. {#g.para}",
    ])  # fmt: skip
    blocks = rule_blocks(page)
    assert blocks["g.crow"] == "\n".join([
        "| card | count | what it does |", "|---|---|---|", "| crow | 3 | eats a worm |",
    ])  # fmt: skip
    assert blocks["g.para"] == rule_ids(page)["g.para"] == "A paragraph."


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game_id", REGISTRY.implemented())
def test_no_rule_at_hand_is_a_sentence_torn_in_half(game_id: str, language: str) -> None:
    """Seen: Awimbawé's "sonst mit einem Adler, ..." alone in the panel. A list item that goes
    on a sentence begun before its list comes with the sentence's start and the whole list."""
    for rule, block in rule_blocks(spieltisch.rules_page(game_id, language)).items():
        opening = LEADING.sub("", block)
        assert not opening[:1].islower(), (rule, block[:80])


def test_a_torn_sentence_comes_with_its_start_and_its_whole_list() -> None:
    page = "\n".join([
        "1. The leader plays any card. {#g.lead}",
        "2. The other player answers: {#g.answer}",
        "   - with a card of the led land; {#g.follow}",
        "   - otherwise with any card. {#g.discard}",
    ])  # fmt: skip
    block = rule_blocks(page)["g.discard"]
    assert block == "\n".join([
        "The other player answers:", "", "- with a card of the led land;",
        "- otherwise with any card.",
    ])  # fmt: skip
    assert rule_blocks(page)["g.lead"] == "The leader plays any card."
