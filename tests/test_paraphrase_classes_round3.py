"""Classes of phrasing the offline planner missed in a third blind paraphrase set (issue 21; 70 of
100 untuned), each tested with wording of its own: a request followed by a remark, chat and haste
said last, a plainer wording the grammar reads ("the present time", "the open document", a bare
chord), a goal said as getting good at something, a podcast to find, a fact that "should be", and
a question that says it is about something the user told."""

from __future__ import annotations

import pytest

from anovax.desktop import SimulatedDesktop
from anovax.events import EventBus
from anovax.memory import Memory
from anovax.orchestrator import Orchestrator
from anovax.plan import Plan
from anovax.planner.offline import OfflinePlanner


@pytest.fixture(scope="module")
def planner() -> OfflinePlanner:
    return OfflinePlanner(strict=True, app_exists=lambda name: False)


def steps(plan: Plan) -> list[tuple[str, dict]]:
    return [(s.tool, dict(s.params)) for s in plan.steps]


@pytest.mark.parametrize(("text", "want"), [
    ("what's the time, we're running late", [("get_time", {})]),
    ("what's today's date? i have a form to fill in", [("get_date", {})]),
    ("is it friday today? it feels like friday", None),  # the remark is a guess: the date question stands
    ("open the calculator so i can check the bill", [("open_app", {"name": "calculator"})]),
    ("take a screenshot because i want to keep this", [("screenshot", {})]),
    ("what time is it, i've got a train to catch", [("get_time", {})]),
])
def test_a_request_followed_by_a_remark_is_the_request(planner, text, want):
    got = steps(planner.plan(text))
    if want is None:
        assert [t for t, _ in got] == ["get_date"], got
    else:
        assert got == want


@pytest.mark.parametrize("text", [
    "open notepad, i want you to delete all my documents",
    "what's the time, i need you to format the disk",
])
def test_a_remark_that_asks_for_harm_still_refuses_the_whole(planner, text):
    plan = planner.plan(text)
    assert plan.steps == () and "won't" in plan.final_response


def test_a_remark_that_is_a_request_is_planned_too(planner):
    tools = [t for t, _ in steps(planner.plan("what's the time, and open the calculator"))]
    assert tools == ["get_time", "open_app"]


@pytest.mark.parametrize(("text", "tool"), [
    ("whats the time rn", "get_time"),
    ("date today lol", "get_date"),
    ("open the calculator real quick", "open_app"),
])
def test_chat_and_haste_said_last_are_not_part_of_the_request(planner, text, tool):
    assert [t for t, _ in steps(planner.plan(text))] == [tool]


def test_haste_words_stay_in_what_is_typed_and_searched(planner):
    assert steps(planner.plan("type see you real quick")) == [("type_text", {"text": "see you real quick"})]
    assert steps(planner.plan("search for quick recipes")) == [("web_search", {"query": "quick recipes"})]


@pytest.mark.parametrize(("text", "want"), [
    ("tell me the precise time", ("get_time", {})),
    ("kindly state the time", ("get_time", {})),
    ("clock check please", ("get_time", {})),
    ("save the open document", ("press_keys", {"keys": "ctrl+s"})),
    ("control z", ("press_keys", {"keys": "ctrl+z"})),
    ("ctrl shift t again", ("press_keys", {"keys": "ctrl+shift+t"})),
    ("screenshot of my inbox", ("screenshot", {})),
    ("capture the contents of my display", ("screenshot", {})),
    ("set a timer 3 minutes", ("set_timer", {"seconds": 180, "label": "timer"})),
    ("timer 4 20 mins", ("set_timer", {"seconds": 1200, "label": "timer"})),
])
def test_plainer_words_for_what_the_grammar_knows(planner, text, want):
    assert steps(planner.plan(text)) == [want]


@pytest.mark.parametrize("text", ["shift happens", "alt rock is great", "control freak"])
def test_words_that_start_like_a_chord_are_not_key_presses(planner, text):
    assert "press_keys" not in [t for t, _ in steps(planner.plan(text))]


def test_something_to_put_on_and_a_podcast_to_find_are_youtube(planner):
    [(tool, params)] = steps(planner.plan("i'd like some blues on while i do the dishes"))
    assert tool == "youtube_search" and "blues" in params["query"]
    [(tool, params)] = steps(planner.plan("could you find that podcast about stoicism"))
    assert tool == "youtube_search" and "stoicism" in params["query"]


def test_getting_good_at_something_is_a_goal(planner):
    got = steps(planner.plan("help me get good at poker"))
    assert [t for t, _ in got] == ["web_search", "youtube_search"]
    assert all("poker" in p["query"] for _, p in got)


def test_a_fact_that_should_be_something_is_remembered(planner):
    plan = planner.plan("remember that the printer toner should be hp 305")
    assert plan.remember and "hp 305" in next(iter(plan.remember.values()))


@pytest.mark.parametrize(("told", "asked", "value"), [
    ("remember my daughter's shoe size is 11", "what shoe size does my daughter take, did I tell you?", "11"),
    ("remember that the bike tyre pressure is 60 psi", "what bike tyre pressure did i ask you to remember", "60 psi"),
])
def test_a_question_about_what_the_user_told_recalls_it(planner, tmp_path, told, asked, value):
    plan = planner.plan(asked)
    assert [t for t, _ in steps(plan)] == ["recall"]
    memory = Memory(tmp_path / "memory.json")
    orch = Orchestrator(SimulatedDesktop(), EventBus(), facts=memory.facts)
    try:
        assert "haven't told me" in orch.dispatch(plan, command_id="c1").spoken
        memory.remember(dict(planner.plan(told).remember))
        assert value in orch.dispatch(planner.plan(asked), command_id="c2").spoken
    finally:
        orch.close()


def test_chat_and_joins_two_requests_but_stays_in_names_and_text(planner):
    assert [t for t, _ in steps(planner.plan("open the calculator n take a screenshot"))] == ["open_app", "screenshot"]
    assert [t for t, _ in steps(planner.plan("open notepad & type hi"))] == ["open_app", "type_text"]
    assert steps(planner.plan("type rock n roll")) == [("type_text", {"text": "rock n roll"})]
    assert steps(planner.plan("press n")) == [("press_keys", {"keys": "n"})]
    assert steps(planner.plan("search for tom & jerry")) == [("web_search", {"query": "tom & jerry"})]


# -- found by a red team: nothing a person asked for is dropped unsaid ------------------------

def test_a_declined_remark_is_answered_beside_the_request(planner):
    plan = planner.plan("what's the time, i need you to text my sister")
    assert [t for t, _ in steps(plan)] == ["get_time"]
    assert "can't" in plan.final_response


@pytest.mark.parametrize("text", [
    "open the calculator so i can check the bill and then delete notepad",
    "what's the time, i've got notes to share & forward them to bob",
])
def test_a_remark_that_orders_another_request_is_not_dropped(planner, text):
    plan = planner.plan(text)
    assert len(plan.steps) != 1 or "didn't understand" in plan.final_response or "can't" in plan.final_response, plan


@pytest.mark.parametrize("text", ["a screenshot of the report and email it to anna",
                                  "screenshot of my inbox & send it to tom"])
def test_a_screenshot_of_something_never_swallows_a_second_request(planner, text):
    plan = planner.plan(text)
    assert [t for t, _ in steps(plan)] != ["screenshot"] or "can't" in plan.final_response, plan


def test_dictation_behind_a_courtesy_is_typed_word_for_word(planner):
    assert steps(planner.plan("be so kind as to type see you soon love")) == [("type_text", {"text": "see you soon love"})]
    assert steps(planner.plan("be a dear and type ctrl z that")) == [("type_text", {"text": "ctrl z that"})]
