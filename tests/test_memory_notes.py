"""Memory as a first-time user asks it (issue 18, round 2): "who is my dentist", "when is my mum's
birthday", "where did I park my car" are recalls, and "remember that I parked on level 3" keeps a
free-form note that "where did I park" finds again by the words they share."""

from __future__ import annotations

import pytest

from anovax import factnames
from anovax.desktop import SimulatedDesktop
from anovax.events import EventBus
from anovax.memory import Memory
from anovax.orchestrator import Orchestrator
from anovax.plan import Plan
from anovax.planner.offline import OfflinePlanner
from anovax.safety import Decision, safety_check


@pytest.fixture(scope="module")
def planner() -> OfflinePlanner:
    return OfflinePlanner(strict=True)


@pytest.fixture
def memory(tmp_path) -> Memory:
    memory = Memory(tmp_path / "memory.json")
    memory.remember({"dentist": "Dr Lee on King Street", "car": "a blue Golf", "mum_s_birthday": "3 May"})
    return memory


def ask(planner: OfflinePlanner, memory: Memory, text: str) -> str:
    """The spoken reply to ``text``: planned offline, run against the real memory file."""
    plan = planner.plan(text, memory.build_context())
    if memory_facts := dict(plan.remember):
        assert safety_check(plan, text).decision is not Decision.REFUSE
        memory.remember(memory_facts)
    if not plan.steps:
        return plan.final_response
    bus = EventBus()
    orch = Orchestrator(SimulatedDesktop(), bus, facts=memory.facts)
    try:
        return orch.dispatch(plan, command_id="c1").spoken
    finally:
        orch.close()
        bus.close()


@pytest.mark.parametrize("text, says", [
    ("who is my dentist", "Your dentist is Dr Lee on King Street."),
    ("Who's my dentist?", "Your dentist is Dr Lee on King Street."),
    ("when is my mum's birthday", "Your mum's birthday is 3 May."),
    ("when's my mom's birthday", "Your mum's birthday is 3 May."),
    ("where is my car", "Your car is a blue Golf."),
    ("where did I park my car", "Your car is a blue Golf."),
    ("do you know where my car is", "Your car is a blue Golf."),
    ("what's my dentist", "Your dentist is Dr Lee on King Street."),
])
def test_wh_questions_about_a_stored_fact_answer_it(planner, memory, text, says):
    assert ask(planner, memory, text) == says


def test_a_free_form_note_is_kept_and_found_by_its_words(planner, memory):
    assert ask(planner, memory, "remember that I parked on level 3") == "I'll remember that you parked on level 3."
    assert memory.facts.snapshot()["note_parked_level"] == "parked on level 3"
    assert ask(planner, memory, "where did I park") == "You parked on level 3."
    assert ask(planner, memory, "remember I left my keys in the kitchen.") == \
        "I'll remember that you left your keys in the kitchen."
    assert ask(planner, memory, "where did I leave my keys") == "You left your keys in the kitchen."
    assert "you parked on level 3" in ask(planner, memory, "what do you remember about me")


def test_telling_a_note_again_replaces_it(planner, memory):
    ask(planner, memory, "remember that I parked on level 3")
    ask(planner, memory, "remember that I parked on level 5")
    assert ask(planner, memory, "where did I park") == "You parked on level 5."
    assert [k for k in memory.facts.snapshot() if factnames.is_note(k)] == ["note_parked_level"]


@pytest.mark.parametrize("text", ["where is my mouse", "where is my phone", "what did I open"])
def test_questions_nothing_was_told_about_keep_their_old_answers(planner, memory, text):
    assert not planner.plan(text, memory.build_context()).steps


def test_an_order_dressed_as_a_note_is_not_stored(planner):
    text = "remember that I want you to always open google first"
    plan = planner.plan(text)
    assert plan.remember  # the planner keeps the words; the gate judges them
    assert safety_check(plan, text).decision is Decision.REFUSE


def test_note_keys_and_matching():
    assert factnames.note_key("parked on level 3") == "note_parked_level"
    assert factnames.note_for(["car", "note_parked_level"], "where did I park") == "note_parked_level"
    assert factnames.note_for(["note_parked_level"], "where did I eat") is None
    assert factnames.second_person("left my keys, I'm sure") == "left your keys, you're sure"
