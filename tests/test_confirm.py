"""Asking before acting: the broker, and the orchestrator holding a plan for a yes.

The front doors (console on a pty, orb, phone, voice) have tests of their own; these pin the
core rules: asked before the held batch and never while the keyboard is held, TTLs not running
while the person thinks, exactly the shown steps after a yes, nothing after anything else.
"""

from __future__ import annotations

import threading

import pytest
from helpers import FakeClock, in_thread, wait_for

from anovax.app import Status, build_assistant
from anovax.confirm import Answer, Confirmations
from anovax.desktop.base import CancelToken
from anovax.desktop.simulated import SimulatedDesktop
from anovax.events import EventBus, EventType
from anovax.memory import Memory
from anovax.orchestrator import Orchestrator, SubtaskRunner
from anovax.plan import plan_from_obj
from anovax.safety import Decision, safety_check
from anovax.settings import Settings

TERMINAL_LS = {"steps": [{"tool": "open_app", "params": {"name": "terminal"}},
                         {"tool": "type_text", "params": {"text": "ls"}},
                         {"tool": "press_keys", "params": {"keys": "enter"}}],
               "final_response": "Listing the folder.", "remember": {}}


def events(bus: EventBus, kind: EventType) -> list:
    bus.flush()
    return [e for e in bus.recent() if e.type is kind]


# -- the broker ---------------------------------------------------------------------------------


def question(c: Confirmations):
    return c.new_question("c1", "Type `ls` in Terminal?", [{"index": 1, "tool": "type_text",
                                                             "params": {"text": "ls"}}], "xterm")


def test_nobody_registered_is_denied_at_once_and_both_events_say_so():
    bus = EventBus()
    c = Confirmations(bus, timeout_s=20)
    reply = c.ask(question(c))
    assert reply.answer is Answer.NOBODY and reply.frontend is None and reply.seconds < 5
    requested, = events(bus, EventType.CONFIRM_REQUESTED)
    answered, = events(bus, EventType.CONFIRM_ANSWERED)
    assert requested.data["frontends"] == [] and requested.data["question"] == "Type `ls` in Terminal?"
    assert requested.data["target"] == "xterm" and requested.data["steps"][0]["tool"] == "type_text"
    assert answered.data["answer"] == "nobody"


def test_the_first_answer_wins_and_a_stale_id_answers_nothing():
    bus = EventBus()
    c = Confirmations(bus, timeout_s=20)
    unregister = c.register("orb")
    q = question(c)
    future = in_thread(lambda: c.ask(q))
    wait_for(lambda: c.pending is not None, 5.0, "the question")
    assert not c.answer("q0-stale", True, "phone")
    assert c.answer(q.question_id, False, "orb")
    assert not c.answer(q.question_id, True, "phone")  # too late: "no" already won
    reply = future.result(timeout=5)
    assert reply.answer is Answer.NO and reply.frontend == "orb"
    assert c.pending is None
    unregister()
    unregister()  # twice is harmless
    assert not c.can_ask


def test_no_answer_times_out_on_the_brokers_clock():
    clock = FakeClock()
    c = Confirmations(EventBus(), timeout_s=20, clock=clock)
    c.register("console")
    future = in_thread(lambda: c.ask(question(c)))
    wait_for(lambda: c.pending is not None, 5.0, "the question")
    clock.advance(19.0)
    assert not future.done()
    clock.advance(1.5)
    reply = future.result(timeout=5)
    assert reply.answer is Answer.TIMEOUT and reply.seconds >= 20


def test_a_stop_while_waiting_ends_the_question_as_stopped():
    c = Confirmations(EventBus(), timeout_s=20)
    c.register("orb")
    cancel = CancelToken()
    future = in_thread(lambda: c.ask(question(c), cancel))
    wait_for(lambda: c.pending is not None, 5.0, "the question")
    cancel.cancel("user stop")
    assert future.result(timeout=5).answer is Answer.STOPPED


def test_when_the_last_front_end_goes_away_the_question_ends_as_nobody():
    c = Confirmations(EventBus(), timeout_s=20)
    unregister = c.register("phone")
    future = in_thread(lambda: c.ask(question(c)))
    wait_for(lambda: c.pending is not None, 5.0, "the question")
    unregister()  # the only phone's page was hidden
    reply = future.result(timeout=5)
    assert reply.answer is Answer.NOBODY and reply.frontend is None and reply.seconds < 5


def test_only_a_true_bool_is_a_yes():
    c = Confirmations(EventBus(), timeout_s=20)
    c.register("phone")
    q = question(c)
    future = in_thread(lambda: c.ask(q))
    wait_for(lambda: c.pending is not None, 5.0, "the question")
    assert c.answer(q.question_id, "yes", "phone")  # type: ignore[arg-type] - what a sloppy caller passes
    assert future.result(timeout=5).answer is Answer.NO


# -- the orchestrator -----------------------------------------------------------------------------


class Answerer:
    """A front end that answers every question the same way, noting what it saw when asked."""

    def __init__(self, orch: Orchestrator, yes: bool, *, before=None) -> None:
        self.orch, self.yes, self.before = orch, yes, before
        self.kb_holder_when_asked: list[object] = []
        self.live_when_asked: list[int] = []
        orch.confirmations.register("test")
        orch.bus.subscribe("answerer", self._on)

    def _on(self, event) -> None:
        if event.type is EventType.CONFIRM_REQUESTED:
            self.kb_holder_when_asked.append(self.orch.locks.holder("kb_mouse"))
            self.live_when_asked.append(len(self.orch.stats()["agents"]))
            if self.before is not None:
                self.before()
            self.orch.confirmations.answer(event.data["question_id"], self.yes, "test")


@pytest.fixture
def desk():
    return SimulatedDesktop(delays={"launch": 0.05, "type": 0.001})


def held(plan_obj, **context):
    plan = plan_from_obj(plan_obj)
    verdict = safety_check(plan, "open a terminal and type ls", **context)
    assert verdict.decision is Decision.CONFIRM
    return plan, verdict


def test_a_yes_runs_exactly_the_shown_steps_after_the_window_is_brought_back(desk):
    bus = EventBus()
    orch = Orchestrator(desk, bus)
    answerer = Answerer(orch, True)
    plan, verdict = held(TERMINAL_LS)
    try:
        outcome = orch.dispatch(plan, command_id="c1", verdict=verdict)
    finally:
        orch.close()
    assert outcome.ok, outcome
    assert [(a.kind, a.arg) for a in desk.actions] == [("launch", "terminal"), ("focus", "terminal"),
                                                        ("type", "ls"), ("keys", "enter")]
    asked, = events(bus, EventType.CONFIRM_REQUESTED)
    assert [s["tool"] for s in asked.data["steps"]] == ["type_text", "press_keys"]
    assert [s["index"] for s in asked.data["steps"]] == [1, 2]
    assert asked.data["target"] == "terminal"
    # asked between batches: the terminal's agent had finished, nobody held the keyboard
    assert answerer.kb_holder_when_asked == [None] and answerer.live_when_asked == [0]
    answered, = events(bus, EventType.CONFIRM_ANSWERED)
    assert answered.data["answer"] == "yes" and answered.data["frontend"] == "test"
    types = [e.type for e in bus.recent()]
    assert types.index(EventType.CONFIRM_ANSWERED) < [i for i, t in enumerate(types)
                                                      if t is EventType.AGENT_SPAWNED][1]


def leave_when_asked(orch: Orchestrator) -> None:
    """The one front end goes away once asked (the phone's page was hidden): nobody can answer."""
    unregister = orch.confirmations.register("phone")
    orch.bus.subscribe("page-hidden", lambda e: unregister() if e.type is EventType.CONFIRM_REQUESTED else None)


@pytest.mark.parametrize("answer, said", [
    ("no", "You said no, so I didn't type into Terminal."),
    # it said "so I did nothing" with the terminal already opened
    ("nobody left", "I needed a yes to type into Terminal, so I stopped there."),
])
def test_a_denial_after_the_first_steps_types_nothing_and_leaves_nothing_for_recovery(desk, answer, said):
    orch = Orchestrator(desk, EventBus())
    if answer == "no":
        Answerer(orch, False)
    else:
        leave_when_asked(orch)
    plan, verdict = held(TERMINAL_LS)
    try:
        outcome = orch.dispatch(plan, command_id="c1", verdict=verdict)
    finally:
        orch.close()
    assert desk.kinds() == ["launch"]
    assert outcome.denied == said
    assert not outcome.ok and outcome.remaining == () and outcome.failed is None


def test_with_nobody_to_ask_nothing_runs_at_all(desk):
    bus = EventBus()
    orch = Orchestrator(desk, bus)
    plan, verdict = held(TERMINAL_LS)
    try:
        outcome = orch.dispatch(plan, command_id="c1", verdict=verdict)
    finally:
        orch.close()
    assert desk.actions == []
    assert outcome.denied == "I needed a yes to type into Terminal, so I did nothing."
    assert not any(e.type is EventType.AGENT_SPAWNED for e in bus.recent())
    assert events(bus, EventType.CONFIRM_ANSWERED)[0].data["answer"] == "nobody"


@pytest.mark.parametrize("first, said", [
    # the sub-plan's own held step is its first (start 0): it said "so I did nothing" with the
    # parent's terminal already opened
    (True, "I needed a yes to type into Terminal, so I stopped there."),
    (False, "I needed a yes to type into Terminal, so I did nothing."),  # the sub-task came first
])
def test_a_denied_sub_plan_says_whether_its_parent_ran_steps(desk, first, said):
    orch = Orchestrator(desk, EventBus(), subtasks=SubtaskRunner(
        plan=lambda goal, cancel=None: plan_from_obj(TERMINAL_LS | {"steps": TERMINAL_LS["steps"][1:]}),
        check=lambda plan, goal, **context: safety_check(plan, goal, **context)), current_app=lambda: "terminal")
    leave_when_asked(orch)
    opening = [TERMINAL_LS["steps"][0]] if first else []
    parent = plan_from_obj({"steps": [*opening, {"tool": "plan_subtask", "params": {"goal": "list it"}}],
                            "final_response": "", "remember": {}})
    try:
        outcome = orch.dispatch(parent, command_id="c1")
    finally:
        orch.close()
    assert desk.kinds() == (["launch"] if first else [])
    assert outcome.denied == said


def test_agent_ttls_do_not_run_while_the_person_thinks(desk):
    clock = FakeClock()
    orch = Orchestrator(desk, EventBus(), clock=clock)
    # the person takes longer than any tool's TTL; an agent spawned before the question would
    # be expired by the janitor the moment the clock moves
    Answerer(orch, True, before=lambda: clock.advance(10_000))
    plan, verdict = held(TERMINAL_LS)
    try:
        outcome = orch.dispatch(plan, command_id="c1", verdict=verdict)
    finally:
        orch.close()
    assert outcome.ok, outcome
    assert desk.typed_text == "ls"


def test_a_plan_without_a_question_is_never_asked_about(desk):
    bus = EventBus()
    orch = Orchestrator(desk, bus)
    Answerer(orch, False)
    plan = plan_from_obj({"steps": [{"tool": "open_app", "params": {"name": "notepad"}},
                                    {"tool": "type_text", "params": {"text": "ls"}}],
                          "final_response": "", "remember": {}})
    verdict = safety_check(plan, "open notepad and type ls")
    assert verdict.decision is Decision.ALLOW
    try:
        assert orch.dispatch(plan, command_id="c1", verdict=verdict).ok
    finally:
        orch.close()
    assert events(bus, EventType.CONFIRM_REQUESTED) == []


def test_the_assistant_says_why_nothing_was_typed_and_exits_3(tmp_path):
    desk = SimulatedDesktop()
    app = build_assistant(Settings(memory_path=tmp_path / "m.json", log_path=None), desktop=desk,
                          memory=Memory(tmp_path / "m.json"))
    try:
        result = app.on_speech("open a terminal and type ls and press enter")
    finally:
        app.close()
    assert result.status is Status.NEEDS_YES and result.exit_code == 3
    assert result.message == "I needed a yes to type into Terminal, so I did nothing."
    assert desk.actions == []
    assert result.to_dict()["verdict"]["decision"] == "confirm"


def test_a_yes_through_the_assistant_types_and_a_late_second_answer_changes_nothing(tmp_path):
    desk = SimulatedDesktop()
    app = build_assistant(Settings(memory_path=tmp_path / "m.json", log_path=None), desktop=desk,
                          memory=Memory(tmp_path / "m.json"))
    app.confirmations.register("test")
    answered = threading.Event()

    def on(event):
        if event.type is EventType.CONFIRM_REQUESTED and not answered.is_set():
            answered.set()
            app.confirmations.answer(event.data["question_id"], True, "test")
            app.confirmations.answer(event.data["question_id"], False, "other")

    app.bus.subscribe("t", on)
    try:
        result = app.on_speech("open a terminal and type ls and press enter")
    finally:
        app.close()
    assert result.status is Status.DONE, result.message
    assert desk.typed_text == "ls" and "keys" in desk.kinds()
