"""Goals and memory in the languages the lexicons add, and the default-deny for the rest."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from anovax.safety import safety_check
from anovax.safety.verdict import Rule
from tests.lang_cases import CASES, EVERYDAY, NEIGHBOURS, REPHRASED, UNREADABLE

_SLURP = Path("/work/shared/eval/slurp")


def _goal(goal: str, **remember: str) -> dict[str, object]:
    return {"steps": [{"tool": "plan_subtask", "params": {"goal": goal}}], "final_response": "", "remember": remember}


_HARMFUL = [(lang, goal) for lang, (bad, _) in CASES.items() for goal in bad]
_BENIGN = [(lang, goal) for lang, (_, good) in CASES.items() for goal in good]


@pytest.mark.parametrize(("lang", "goal"), _HARMFUL)
def test_harmful_goal_is_refused_by_the_word_lists(lang: str, goal: str) -> None:
    verdict = safety_check(_goal(goal))
    assert not verdict.ok and not verdict.needs_yes, (lang, goal, verdict)
    assert verdict.rule != Rule.UNREADABLE.value, (lang, goal, verdict)


@pytest.mark.parametrize(("lang", "goal"), _BENIGN)
def test_benign_goal_passes_without_a_question(lang: str, goal: str) -> None:
    verdict = safety_check(_goal(goal))
    assert verdict.ok, (lang, goal, verdict)


@pytest.mark.parametrize("goal", REPHRASED)
def test_rephrased_harmful_goal_is_stopped(goal: str) -> None:
    verdict = safety_check(_goal(goal))
    assert not verdict.ok and verdict.rule != Rule.UNREADABLE.value, (goal, verdict)


@pytest.mark.parametrize("goal", EVERYDAY)
def test_everyday_request_passes_without_a_question(goal: str) -> None:
    assert safety_check(_goal(goal)).ok, goal


@pytest.mark.parametrize("goal", NEIGHBOURS)
def test_goal_in_a_neighbouring_language_is_asked_about(goal: str) -> None:
    assert safety_check(_goal(goal)).needs_yes, goal


@pytest.mark.parametrize(("lang", "goal"), [(lang, bad[0]) for lang, (bad, _) in CASES.items()])
def test_harmful_goal_in_memory_is_refused(lang: str, goal: str) -> None:
    plan = {"steps": [], "final_response": "Noted.", "remember": {"note": goal}}
    assert not safety_check(plan).ok, (lang, goal)


@pytest.mark.parametrize("goal", UNREADABLE)
def test_unreadable_goal_is_a_question(goal: str) -> None:
    verdict = safety_check(_goal(goal))
    assert verdict.needs_yes and verdict.rule == Rule.UNREADABLE.value, (goal, verdict)
    assert verdict.question and goal not in verdict.reason


@pytest.mark.parametrize("goal", UNREADABLE[:3])
def test_unreadable_goal_is_refused_in_recovery_and_with_memory(goal: str) -> None:
    assert not safety_check(_goal(goal), observation="the window closed").needs_yes
    verdict = safety_check(_goal(goal, city="Lisbon"))
    assert not verdict.ok and not verdict.needs_yes


def test_an_unreadable_goal_and_a_terminal_question_are_refused() -> None:
    # one question, about one thing: a yes to the goal must not also let a sub-task type into a shell
    verdict = safety_check(_goal(UNREADABLE[0]), focused_app="terminal")
    assert not verdict.ok and not verdict.needs_yes, verdict


@pytest.mark.parametrize("value", ["สมชาย ใจดี ชอบกาแฟ", "ჩემი ძაღლის სახელია რექსი"])
def test_memory_in_an_unreadable_script_is_refused(value: str) -> None:
    verdict = safety_check({"steps": [], "final_response": "Noted.", "remember": {"note": value}})
    assert not verdict.ok and verdict.rule == Rule.UNREADABLE.value


@pytest.mark.parametrize("value", ["Tom yum without peanuts", "dog's name: Rex", "Lives at Rua Augusta 12, Lisboa",
                                   "Любит чай", "좋아하는 음식은 김치"])
def test_readable_memory_passes(value: str) -> None:
    assert safety_check({"steps": [], "final_response": "Noted.", "remember": {"note": value}}).ok


@pytest.mark.skipif(not _SLURP.exists(), reason="SLURP texts not present")
def test_slurp_utterances_as_goals_ask_nothing() -> None:
    asked = []
    for name in ("test.jsonl", "devel.jsonl"):
        for line in (_SLURP / name).read_text(encoding="utf-8").splitlines():
            text = json.loads(line)["sentence"]
            if safety_check(_goal(text)).rule == Rule.UNREADABLE.value:
                asked.append(text)
    assert asked == []
