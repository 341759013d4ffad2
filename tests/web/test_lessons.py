"""Lessons over the API: every shipped lesson walks to its end in English and German through
the routes the lesson page uses; other moves are refused or explained and change nothing; the
finale replays the same game from its seed and moves; requests out of bounds are refused; the
rules at hand answer every rule of every page; the lobby and the rules pages lead to the
lessons."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import spieltisch
from spieltisch.core.codec import to_jsonable
from spieltisch.locale import LANGUAGES, translation
from spieltisch.session.lesson import LessonRun, StepKind, load_lesson
from spieltisch.session.rule_ids import rule_ids
from spieltisch.web.common.settings import Settings
from spieltisch.web.routes.app import create_app
from spieltisch.web.tables import lesson_work
from spieltisch.web.tables.lesson_work import StepJob, TryJob, lesson_games, lesson_step, lesson_try

pytestmark = pytest.mark.timeout(300)
GAMES = [found["id"] for found in lesson_games()]


def lesson_client(folder: Path, **limits: Any) -> TestClient:
    """A server for the lessons (an allowance as fast as a test walks, unless ``limits``)."""
    fast: dict[str, Any] = {"lesson_per_second": 1000.0, "lesson_burst": 1000, **limits}
    database = f"sqlite:///{folder / 'db.sqlite'}"
    return TestClient(create_app(Settings(database=database, bot_workers=1, bot_pause=0, **fast)))


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    with lesson_client(tmp_path_factory.mktemp("lessons")) as test_client:
        yield test_client


def step_at(client: TestClient, game: str, at: int, lang: str = "en") -> dict[str, Any]:
    answer = client.get(f"/api/lessons/{game}", params={"at": at, "lang": lang})
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def try_move(client: TestClient, game: str, at: int, move: str, lang: str = "en") -> Any:
    answer = client.post(f"/api/lessons/{game}/try", json={"at": at, "move": move, "lang": lang})
    assert answer.status_code == 200, answer.text
    return answer.json()


@pytest.mark.parametrize("game", GAMES)
def test_every_lesson_walks_to_its_end_in_both_languages(client: TestClient, game: str) -> None:
    lesson = load_lesson(game)
    run = LessonRun(lesson)  # the engine's own walk, to hold the answers against
    at = 0
    while at < len(lesson.steps):
        step = lesson.steps[at]
        english, german = step_at(client, game, at), step_at(client, game, at, "de")
        shown = english["step"]
        assert (shown["number"], shown["point"], shown["kind"]) == (
            step.number,
            step.point,
            step.kind.value,
        )
        assert shown["point"] in english["points"]
        assert german["step"]["say"] != shown["say"], f"step {step.number} is not in German"
        assert english["view"] == german["view"] == to_jsonable(run.table.view(lesson.learner))
        if step.kind is StepKind.MOVE:
            texts = {item["text"] for item in english["legal"]}
            assert str(run.table.state.parse(step.expect or "")) in texts
            answer = try_move(client, game, at, step.expect or "", "de")
            assert answer["accepted"] and answer["at"] == at + 1
            run.try_move(step.expect or "")
        else:
            assert english["legal"] == []
            run.advance()
        at += 1
    done = step_at(client, game, at, "de")
    assert done["step"] is None and done["finale"]["say"]
    assert done["finale"]["say"] != step_at(client, game, at)["finale"]["say"]


def test_other_moves_are_refused_or_explained_in_the_pages_language(client: TestClient) -> None:
    lesson = load_lesson("auf-die-eier")
    at = next(s.number - 1 for s in lesson.steps if s.expect == "reroll H")
    before = step_at(client, "auf-die-eier", at)
    refused = try_move(client, "auf-die-eier", at, "reroll R", "de")
    assert refused["verdict"] == "refused" and not refused["accepted"]
    assert "erlauben die Regeln hier nicht" in refused["message"] and refused["at"] == at
    assert "Dieser Schritt will einen anderen Zug: H neu werfen" in refused["message"]
    other = try_move(client, "auf-die-eier", at, "stop")
    assert other["verdict"] == "other" and "two chickens" in other["message"]
    german = try_move(client, "auf-die-eier", at, "stop", "de")
    assert "Hühner" in german["message"]
    rated = try_move(client, "auf-die-eier", at, "reroll FH")  # no words of its own: the bot's
    assert rated["verdict"] == "other" and "strongest bot expects" in rated["message"]
    assert step_at(client, "auf-die-eier", at) == before  # nothing changed
    unreadable = try_move(client, "auf-die-eier", at, "fly away")
    assert unreadable["verdict"] == "refused"


def test_a_move_step_says_its_move_in_words_and_a_wrong_click_is_answered_so(
    client: TestClient,
) -> None:
    """Seen by a German group: the lesson told them to type `place 3` where the board takes
    a click, and a click on the wrong space answered "Zug 'place 2' nicht erlaubt". A step
    that asks for a move names it in the page's words (the page shows it as what to do on
    the board) beside its notation as the board sends it; a wrong click is answered with
    what the step asks for, in the page's language."""
    lesson = load_lesson("auf-die-nuesse")
    at = next(s.number - 1 for s in lesson.steps if s.expect == "place 3")
    german, english = (
        step_at(client, "auf-die-nuesse", at, "de"),
        step_at(client, "auf-die-nuesse", at),
    )
    assert german["step"]["expect_label"] == "auf Feld 3 setzen (grün 2 + weiß 1)"
    assert english["step"]["expect_label"] == "place on 3 (green 2 + white 1)"
    assert german["step"]["expect_move"] == "place 3" == german["step"]["expect"]
    assert "Tippe" not in german["step"]["say"] and "`place 3`" in german["step"]["say"]
    assert step_at(client, "auf-die-nuesse", 0)["step"]["expect_label"] is None  # words only
    wrong = try_move(client, "auf-die-nuesse", at, "place 2", "de")
    assert wrong["verdict"] == "refused" and wrong["at"] == at
    assert not wrong["message"].startswith("Zug 'place 2' nicht erlaubt")
    assert "Dieser Schritt will einen anderen Zug: auf Feld 3 setzen" in wrong["message"]
    eier = load_lesson("auf-die-eier")
    keep = next(s.number - 1 for s in eier.steps if s.expect == "keep CPFFH")
    typed = step_at(client, "auf-die-eier", keep, "de")["step"]  # a typing aid's move
    assert (typed["expect"], typed["expect_move"]) == ("keep CPFFH", "reroll PPF")
    assert typed["expect_label"] == "PPF neu werfen"


def finale(client: TestClient, game: str, **body: Any) -> Any:
    return client.post(f"/api/lessons/{game}/finale", json={"lang": "en", **body})


@pytest.mark.parametrize("game", GAMES)
def test_the_finale_replays_its_game_from_seed_and_moves(client: TestClient, game: str) -> None:
    first = finale(client, game, seed=11, hint=True).json()
    assert first["moves"] == [] and first["legal"] and first["result"] is None
    assert first["hint"], "the closing game gives a hint before the learner's move"
    move = first["legal"][0]["text"]
    after = finale(client, game, seed=11, moves=[], move=move).json()
    assert after["moves"] == [move] and after["rejected"] is None
    again = finale(client, game, seed=11, moves=[move]).json()
    assert again["view"] == after["view"] and again["events"] == after["events"]
    refused = finale(client, game, seed=11, moves=[move], move="no such move").json()
    assert refused["rejected"] and refused["moves"] == [move] and refused["view"] == after["view"]


def test_a_finale_played_to_its_end_has_a_result(client: TestClient) -> None:
    moves: list[str] = []
    data = finale(client, "auf-die-eier", seed=5).json()
    while data["result"] is None:
        assert len(moves) < 200, "the closing game does not end"
        move = data["legal"][0]["text"]  # the first move offered: `stop` where it is offered
        data = finale(client, "auf-die-eier", seed=5, moves=moves, move=move).json()
        moves = data["moves"]
    assert data["result"]["why"] and data["legal"] == []
    late = finale(client, "auf-die-eier", seed=5, moves=moves, move="stop").json()
    assert late["rejected"] and late["moves"] == moves


def test_requests_out_of_bounds_are_refused(client: TestClient) -> None:
    steps = len(load_lesson("auf-die-eier").steps)
    assert client.get("/api/lessons/auf-die-eier", params={"at": steps + 1}).status_code == 404
    assert client.get("/api/lessons/auf-die-eier", params={"at": -1}).status_code == 404
    assert client.get("/api/lessons/auf-die-eier", params={"lang": "xx"}).status_code == 422
    assert client.get("/api/lessons/no-such-game").status_code == 404
    assert client.get("/learn/no-such-game").status_code == 404
    long = {"at": 0, "move": "x" * 401}
    assert client.post("/api/lessons/auf-die-eier/try", json=long).status_code == 422
    done = {"at": steps, "move": "stop"}
    assert client.post("/api/lessons/auf-die-eier/try", json=done).status_code == 404
    many = finale(client, "auf-die-eier", seed=1, moves=["stop"] * 601)
    assert many.status_code == 422
    wrong = finale(client, "auf-die-eier", seed=1, moves=["reroll R"])
    assert wrong.status_code == 409 and "not a game of this finale" in wrong.json()["detail"]
    assert finale(client, "auf-die-eier", seed=-1).status_code == 422


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_at_hand_answer_every_rule_in_both_languages(
    client: TestClient, game: str
) -> None:
    ids = list(rule_ids(spieltisch.rules_page(game)))
    for language in LANGUAGES:
        answer = client.get(f"/api/rules/{game}", params={"lang": language})
        assert answer.status_code == 200
        rules = answer.json()["rules"]
        assert list(rules) == ids and all(html.strip() for html in rules.values())
        assert "{#" not in "".join(rules.values())
    assert client.get("/api/rules/no-such-game").status_code == 404


def test_the_lobby_and_each_rules_page_lead_to_the_lessons(client: TestClient) -> None:
    listed = client.get("/api/lessons").json()
    assert [found["id"] for found in listed] == GAMES and "auf-die-eier" in GAMES
    assert all(found["steps"] == len(load_lesson(found["id"]).steps) for found in listed)
    assert 'id="learn"' in client.get("/").text
    for game in GAMES:
        assert f'href="/learn/{game}"' in client.get(f"/rules/{game}").text
        page = client.get(f"/learn/{game}")
        assert page.status_code == 200 and f'data-game="{game}"' in page.text


def test_every_lesson_says_every_text_in_german() -> None:
    german = translation("de")
    for game in GAMES:
        lesson = load_lesson(game)
        texts = [lesson.finale.say]
        for step in lesson.steps:
            texts += [step.say, *(why for _, why in step.why_not)]
        missing = [text for text in texts if german.gettext(text) == text]
        assert not missing, f"{game}: not in German: {missing[:3]}"


def test_a_lesson_says_the_same_of_positions_the_learner_cannot_tell_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Awimbawé's deal with the opponent's face-down cards 2 and 3 swapped (nobody sees them
    before they turn up): every step up to then, and the answers to moves there, are the same
    in every language, though the true states differ."""
    lesson = load_lesson("awimbawe")
    deal = next(step for step in lesson.steps if step.dictate and step.dictate.startswith("deal"))
    assert deal.dictate is not None and "| P1 G2 D4 M3 /" in deal.dictate
    swapped = dataclasses.replace(deal, dictate=deal.dictate.replace("P1 G2 D4 M3", "P1 D4 G2 M3"))
    other = dataclasses.replace(
        lesson, steps=tuple(swapped if step is deal else step for step in lesson.steps)
    )
    first = next(i for i, step in enumerate(lesson.steps) if step.kind is StepKind.MOVE)
    steps = [StepJob("awimbawe", at, lang) for at in range(first + 2) for lang in LANGUAGES]
    tries = [TryJob("awimbawe", first, move, "de") for move in ("play D5", "play G4", "play G1")]

    def answers() -> list[dict[str, Any]]:
        return [*map(lesson_step, steps), *map(lesson_try, tries)]

    seen = answers()
    monkeypatch.setattr(lesson_work, "lesson_in", lambda game: other)
    assert answers() == seen
    ours, theirs = LessonRun(lesson), LessonRun(other)
    ours.follow(first + 1)
    theirs.follow(first + 1)
    assert ours.table.state != theirs.table.state  # the true states do differ


def test_an_address_that_asks_too_fast_is_told_to_slow_down(tmp_path: Path) -> None:
    with lesson_client(tmp_path, lesson_per_second=0.01, lesson_burst=3) as slow:
        asked = [slow.get("/api/lessons/auf-die-eier").status_code for _ in range(3)]
        assert asked == [200, 200, 200]
        refused = slow.post("/api/lessons/auf-die-eier/try", json={"at": 0, "move": "stop"})
        assert refused.status_code == 429 and "lesson steps" in refused.text
        assert slow.get("/api/lessons").status_code == 200  # the list draws on nothing


def test_the_closing_games_dice_are_the_servers_not_the_pages(tmp_path: Path) -> None:
    """The page names its game by a seed, but what it deals comes from the server's secret as
    well: servers on two databases deal differently for the same seed, and the seed says
    nothing more; a server on the same database (another worker, or after a restart) deals
    the same, so a closing game goes on whichever process answers."""
    views = []
    for name in ("one", "two", "one"):
        (tmp_path / name).mkdir(exist_ok=True)
        with lesson_client(tmp_path / name) as server:
            dealt = [finale(server, "auf-die-eier", seed=seed).json() for seed in (1, 2, 3)]
            assert [answer["seed"] for answer in dealt] == [1, 2, 3]
            views.append([answer["view"] for answer in dealt])
    assert views[0] != views[1]
    assert views[0] == views[2]


@pytest.mark.parametrize("game", GAMES)
def test_the_finales_bot_is_named_as_people_choose_bots(client: TestClient, game: str) -> None:
    """Seen: "against the gentlest bot (random)". The finale names its bot by the ladder's
    name for it (the code stays beside it, for experts)."""
    first = finale(client, game, seed=11).json()
    assert first["bot"] == "random" and first["bot_name"] == "Beginner"
