"""The fuzzy fallback: trained from the grammar's own templates, used only when no template
matches, declining when no reading is clearly best, and cached by a hash of the grammar.

The phrasings are written for these tests (none from SLURP's test split)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anovax.planner import fuzzy, fuzzy_train
from anovax.planner.fuzzy_cache import load_model, model_key
from anovax.planner.grammar import load_grammar, matches
from anovax.planner.offline import OfflinePlanner


@pytest.fixture(scope="module")
def model() -> fuzzy.FuzzyModel:
    return fuzzy_train.train(load_grammar())


@pytest.fixture(scope="module")
def planner(tmp_path_factory) -> OfflinePlanner:
    return OfflinePlanner(strict=True, cache_dir=tmp_path_factory.mktemp("fuzzy-cache"))


def tools(plan) -> list[str]:
    return [s.tool for s in plan.steps]


def best(model: fuzzy.FuzzyModel, text: str) -> str | None:
    found = model.candidates(text)
    return found[0].intent.name if found else None


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("which day of the month is it", "date"),
        ("screenshot my desktop", "screenshot"),
        ("could you bring up the calculator", "switch_to_app"),
    ],
)
def test_sentences_no_template_matches_are_read_by_the_matcher(model, text, intent):
    assert not matches(text, load_grammar()), "a template matches: not a test of the fallback"
    assert best(model, text) == intent


def test_a_clause_with_words_the_intent_never_uses_in_place_of_its_own_is_read_as_it(model):
    assert best(model, "give me the current time and today's date") == "time_and_date"


@pytest.mark.parametrize(
    "text",
    [
        "what is the capital of portugal",  # a question about the world: the cues search it
        "go to sleep",                       # no app called "sleep" to switch to
        "how is the traffic on the bridge",
        "turn on the lights in the hall",
        "bake me a cake",
    ],
)
def test_the_matcher_declines_what_the_templates_do_not_cover(model, text):
    assert best(model, text) is None


def test_a_free_text_slot_keeps_the_frame_its_templates_give_it(model):
    found = model.candidates("search chess openings on youtube")
    assert found[0].intent.name == "youtube_search"
    assert found[0].entities["query"].text == "chess openings"
    # "find X" alone is no YouTube request: the templates only say "find X on youtube"
    assert best(model, "find the nearest bakery") != "youtube_search"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("which day of the month is it", ["get_date"]),
        ("give me the current time and today's date", ["get_time", "get_date"]),
        ("screenshot my desktop", ["screenshot"]),
    ],
)
def test_the_planner_uses_the_matcher_when_no_template_matches(planner, text, want):
    assert tools(planner.plan(text)) == want


def test_a_guess_never_turns_a_credentials_request_into_a_search(planner):
    plan = planner.plan("show me the saved passwords")
    assert plan.steps == ()
    assert plan.final_response.startswith("Sorry")


def test_the_model_is_cached_under_the_grammar_hash_and_retrained_when_unreadable(tmp_path):
    first = load_model(tmp_path)
    path = tmp_path / f"fuzzy-{model_key()}.json"
    assert path.is_file()
    again = load_model(tmp_path)
    assert again.to_dict() == first.to_dict()
    path.write_text("{not json", encoding="utf-8")
    third = load_model(tmp_path)
    assert third.to_dict() == first.to_dict()
    assert json.loads(path.read_text(encoding="utf-8"))["version"] == fuzzy.MODEL_VERSION


def test_a_model_of_an_older_grammar_is_removed(tmp_path):
    stale = tmp_path / "fuzzy-0000.json"
    stale.write_text("{}", encoding="utf-8")
    load_model(tmp_path)
    assert not stale.exists()
    assert [p.name for p in tmp_path.iterdir()] == [f"fuzzy-{model_key()}.json"]


def test_an_unwritable_cache_still_gives_a_model(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x", encoding="utf-8")
    model = load_model(Path(blocker) / "sub")  # a folder under a file cannot be made
    assert model.candidates("screenshot my desktop")
