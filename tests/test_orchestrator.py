"""Orchestrator: batches, the 8-worker pool, locks, the janitor, failures, the agent budget, events."""

from __future__ import annotations

import threading

import pytest
from helpers import FakeClock, wait_for

from anovax.desktop.base import CancelToken
from anovax.desktop.simulated import HANG, STUCK, SimulatedDesktop
from anovax.errors import PermanentToolError, TransientToolError
from anovax.events import EventBus, EventType
from anovax.orchestrator import AgentBudget, Orchestrator, SubtaskRunner, batches
from anovax.outcome import StepStatus
from anovax.plan import Plan, Step
from anovax.safety import Verdict
from anovax.speech import Speaker
from anovax.tools import TOOLS


def plan_of(*steps: tuple[str, dict], final: str = "Done.") -> Plan:
    return Plan(steps=tuple(Step(tool, params) for tool, params in steps), final_response=final)


@pytest.fixture
def bus():
    bus = EventBus()
    yield bus
    bus.close()


def make(bus, desktop=None, **kwargs) -> Orchestrator:
    desktop = desktop or SimulatedDesktop()
    return Orchestrator(desktop, bus, speaker=Speaker(desktop.speech, bus), **kwargs)


def events(bus, type_=None, tool=None):
    return [e for e in bus.recent() if (type_ is None or e.type is type_) and (tool is None or e.tool == tool)]


def test_batches_group_only_consecutive_parallel_safe_steps():
    steps = tuple(Step(t, {}) for t in ["get_time", "get_date", "open_app", "web_search", "screenshot", "wait",
                                         "get_time"])
    assert batches(steps, TOOLS) == [[0, 1], [2], [3, 4], [5], [6]]


class GatedDesktop(SimulatedDesktop):
    """Clock reads wait at a gate until the test opens it; ``inside`` counts the reads waiting.

    Concurrency shown by state, not by wall-clock stamps: agents that ran one after another
    could never be inside together, however fast or slow the machine is."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.gate = threading.Event()
        self.inside = 0
        self.most_inside = 0
        self._count = threading.Lock()

    def now(self):
        with self._count:
            self.inside += 1
            self.most_inside = max(self.most_inside, self.inside)
        try:
            assert self.gate.wait(30), "the test never opened the gate"
            return super().now()
        finally:
            with self._count:
                self.inside -= 1


def test_read_only_batch_runs_concurrently_and_collects_the_answers_unsaid(bus):
    desktop = GatedDesktop()
    orch = make(bus, desktop, clock=FakeClock())  # no TTL runs out while the agents wait at the gate
    try:
        thread, box = run_in_thread(orch.dispatch, plan_of(("get_time", {}), ("get_date", {}), final="Here."),
                                    command_id="c1")
        wait_for(lambda: desktop.inside == 2, 10.0, "both agents of the batch to be running at once (a second "
                 "agent queued behind the first: did DaemonPool.submit start too few workers?)")
    finally:
        desktop.gate.set()
    thread.join(10)
    outcome = box["value"]
    assert outcome.ok and outcome.done == (0, 1)
    assert outcome.spoken.startswith("Here. It's ") and "Today is " in outcome.spoken
    # the reply is the assistant's to say (anovax.speech.reply_to_say), never the orchestrator's
    assert "speak" not in desktop.kinds() and not events(bus, EventType.SPEAK_START)


def test_pool_never_runs_more_than_eight_agents(bus):
    desktop = GatedDesktop()
    orch = make(bus, desktop, clock=FakeClock())
    plan = plan_of(*[("get_time", {})] * 12)  # the orchestrator, not the plan, caps concurrency
    try:
        thread, box = run_in_thread(orch.dispatch, plan, command_id="c1", budget=AgentBudget(limit=50))
        wait_for(lambda: desktop.inside == 8 and len(events(bus, EventType.AGENT_SPAWNED)) == 12, 10.0,
                 "twelve agents spawned and eight of them running at once (fewer: did DaemonPool.submit start "
                 "too few workers?)")
        assert len(events(bus, EventType.AGENT_STARTED)) == 8  # the other four wait for a worker
    finally:
        desktop.gate.set()
    thread.join(10)
    outcome = box["value"]
    assert outcome.ok and len(outcome.done) == 12
    assert desktop.most_inside == 8  # a worker takes the next agent only when its last one returned


def test_open_app_finishes_before_typing_starts(bus):
    desktop = SimulatedDesktop(delays={"launch": 0.1})
    outcome = make(bus, desktop).dispatch(plan_of(("open_app", {"name": "notepad"}),
                                                  ("type_text", {"text": "hello world"})), command_id="c1")
    assert outcome.ok
    assert events(bus, EventType.AGENT_DONE, "open_app")[0].seq < events(bus, EventType.AGENT_STARTED, "type_text")[0].seq
    assert desktop.typed_text == "hello world"


def test_kb_mouse_is_exclusive_across_concurrent_commands(bus):
    desktop = SimulatedDesktop(delays={"type": 0.005})
    orch = make(bus, desktop)
    texts = {"a": "A" * 80, "b": "B" * 80}
    threads = [threading.Thread(target=orch.dispatch, args=(plan_of(("type_text", {"text": t})),),
                                kwargs={"command_id": k}) for k, t in texts.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)
    typed = desktop.typed_text
    assert sorted([typed[:80], typed[80:]]) == ["A" * 80, "B" * 80]  # one whole run after the other


def test_optional_failure_is_recorded_and_the_plan_goes_on(bus):
    desktop = SimulatedDesktop(failures={"screenshot": PermanentToolError("No screen to capture.")})
    outcome = make(bus, desktop).dispatch(
        plan_of(("screenshot", {}), ("open_app", {"name": "notepad"})), command_id="c1")
    assert outcome.ok and outcome.failed is None
    assert outcome.steps[0].status is StepStatus.FAILED and outcome.steps[0].error == "No screen to capture."
    assert outcome.steps[1].ok


def test_core_failure_stops_with_remaining_set(bus):
    desktop = SimulatedDesktop(failures={"launch": PermanentToolError("I couldn't find an app called zork.")})
    plan = plan_of(("open_app", {"name": "zork"}), ("type_text", {"text": "hi"}), ("press_keys", {"keys": "enter"}))
    outcome = make(bus, desktop).dispatch(plan, command_id="c1")
    assert outcome.failed == 0 and not outcome.ok
    assert outcome.remaining == plan.steps[1:]
    assert [r.status for r in outcome.steps] == [StepStatus.FAILED, StepStatus.NOT_RUN, StepStatus.NOT_RUN]
    assert desktop.typed_text == "" and "speak" not in desktop.kinds()
    assert outcome.error_summary() == "I couldn't find an app called zork."


def test_transient_failures_are_retried_within_the_budget(bus):
    desktop = SimulatedDesktop(failures={"launch": [TransientToolError("window not up yet"), None]})
    outcome = make(bus, desktop).dispatch(plan_of(("open_app", {"name": "notepad"})), command_id="c1")
    assert outcome.ok and outcome.steps[0].attempts == 2
    assert len(events(bus, EventType.AGENT_RETRY)) == 1


def test_permanent_failures_and_non_retryable_tools_are_not_retried(bus):
    desktop = SimulatedDesktop(failures={"type": [TransientToolError("busy"), None]})
    outcome = make(bus, desktop).dispatch(plan_of(("type_text", {"text": "x"})), command_id="c1")
    assert not outcome.ok and outcome.steps[0].attempts == 1  # typing is never retried
    assert events(bus, EventType.AGENT_RETRY) == []


def run_in_thread(fn, *args, **kwargs):
    box = {}
    thread = threading.Thread(target=lambda: box.setdefault("value", fn(*args, **kwargs)), daemon=True)
    thread.start()
    return thread, box


def test_hung_agent_expires_the_command_completes_and_its_lock_frees_when_it_returns(bus):
    clock = FakeClock()
    desktop = SimulatedDesktop(delays={"type": STUCK})  # ignores its cancel token, like a stuck C call
    orch = make(bus, desktop, clock=clock, janitor_interval_s=None, lock_grace_s=1e9)
    thread, box = run_in_thread(orch.dispatch, plan_of(("type_text", {"text": "hello"})), command_id="c1")
    wait_for(lambda: desktop.active == 1, what="the typing agent to be inside the stuck call")
    clock.advance(TOOLS["type_text"].ttl_s + 0.01)
    orch.janitor_tick()
    thread.join(5)
    assert not thread.is_alive(), "dispatch kept waiting for an expired agent"
    outcome = box["value"]
    assert outcome.steps[0].status is StepStatus.EXPIRED and outcome.failed == 0
    assert len(events(bus, EventType.AGENT_EXPIRED)) == 1
    assert orch.locks.holder("kb_mouse") is not None  # the thread has not returned yet
    desktop.unstick.set()
    wait_for(lambda: orch.locks.holder("kb_mouse") is None, what="the lock to be released")
    assert events(bus, EventType.AGENT_DONE) == [] and events(bus, EventType.AGENT_FAILED) == []


def test_stuck_agent_loses_its_lock_after_the_grace_period(bus):
    clock = FakeClock()
    desktop = SimulatedDesktop(delays={"keys": STUCK})
    orch = make(bus, desktop, clock=clock, janitor_interval_s=None, lock_grace_s=5.0)
    thread, _ = run_in_thread(orch.dispatch, plan_of(("press_keys", {"keys": "enter"})), command_id="c1")
    wait_for(lambda: desktop.active == 1, what="the agent to be inside the stuck call")
    clock.advance(TOOLS["press_keys"].ttl_s + 0.01)
    orch.janitor_tick()
    thread.join(5)
    assert orch.locks.holder("kb_mouse") is not None
    clock.advance(5.0)
    orch.janitor_tick()
    assert orch.locks.holder("kb_mouse") is None  # never held forever
    desktop.unstick.set()


def test_expired_typing_agent_stops_within_one_chunk(bus):
    clock = FakeClock()
    desktop = SimulatedDesktop(delays={"type": 0.01})
    orch = make(bus, desktop, clock=clock, janitor_interval_s=None)
    thread, box = run_in_thread(orch.dispatch, plan_of(("type_text", {"text": "x" * 1500})), command_id="c1")
    wait_for(lambda: len(desktop.typed_text) >= 16, what="some typing")
    clock.advance(TOOLS["type_text"].ttl_s + 1)
    orch.janitor_tick()
    at_expiry = len(desktop.typed_text)
    thread.join(5)
    wait_for(lambda: orch.locks.holder("kb_mouse") is None, what="the typing thread to return")
    assert len(desktop.typed_text) <= at_expiry + 8  # at most the chunk in flight
    assert box["value"].steps[0].status is StepStatus.EXPIRED


def test_waiting_agent_expires_while_blocked_on_a_lock(bus):
    clock = FakeClock()
    orch = make(bus, SimulatedDesktop(delays={"type": HANG}), clock=clock, janitor_interval_s=None)
    orch.locks.acquire(("kb_mouse",), "someone-else", CancelToken())
    thread, box = run_in_thread(orch.dispatch, plan_of(("press_keys", {"keys": "enter"})), command_id="c1")
    wait_for(lambda: events(bus, EventType.AGENT_SPAWNED), what="spawn")
    clock.advance(60)
    orch.janitor_tick()
    thread.join(5)
    assert box["value"].steps[0].status is StepStatus.EXPIRED
    assert orch.locks.holder("kb_mouse") == "someone-else"
    assert events(bus, EventType.AGENT_STARTED) == []


class ScriptedSubPlanner:
    def __init__(self, plan: Plan) -> None:
        self.plan_for = plan
        self.goals = []

    def __call__(self, goal: str, cancel=None) -> Plan:
        self.goals.append(goal)
        return self.plan_for


def test_agent_budget_holds_across_nested_subtasks(bus):
    sub = ScriptedSubPlanner(plan_of(*[("get_time", {})] * 8))
    orch = make(bus, subtasks=SubtaskRunner(plan=sub, check=lambda *a, **k: Verdict.allow()))
    plan = plan_of(*[("plan_subtask", {"goal": f"part {i}"}) for i in range(3)])
    budget = AgentBudget()
    outcome = orch.dispatch(plan, command_id="c1", budget=budget)
    assert budget.used == 20
    assert len(events(bus, EventType.AGENT_SPAWNED)) == 20
    assert outcome.failed == 2 and "did not finish" in outcome.steps[2].error


def test_subtask_is_checked_by_safety_at_the_next_depth(bus):
    calls = []

    def check(plan, text, **context):
        calls.append(context)
        return Verdict.refuse("shell_typing")

    sub = ScriptedSubPlanner(plan_of(("get_time", {})))
    orch = make(bus, subtasks=SubtaskRunner(plan=sub, check=check))
    outcome = orch.dispatch(plan_of(("plan_subtask", {"goal": "tidy up"})), command_id="c1", depth=1)
    # the focus the parent's steps left is part of the check (none opened here, so None)
    assert calls == [{"depth": 2, "agents_spawned": 1, "focused_app": None}]
    assert not outcome.ok and outcome.steps[0].error == "I won't type commands into a terminal."
    assert len(events(bus, EventType.SAFETY_REFUSED)) == 1


def test_a_subtask_is_checked_with_the_app_its_parent_left_in_front(bus):
    calls = []

    def check(plan, text, **context):
        calls.append(context.get("focused_app"))
        return Verdict.allow()

    sub = ScriptedSubPlanner(plan_of(("get_time", {})))
    orch = Orchestrator(SimulatedDesktop(), bus, janitor_interval_s=None,
                        subtasks=SubtaskRunner(plan=sub, check=check), current_app=lambda: "terminal")
    try:
        orch.dispatch(plan_of(("plan_subtask", {"goal": "type ls"})), command_id="c1")
    finally:
        orch.close()
    assert calls == ["terminal"]


def test_a_raising_or_stuck_subscriber_changes_nothing(bus):
    seen = []
    gate = threading.Event()
    bus.subscribe("raises", lambda e: 1 / 0)
    bus.subscribe("stuck", lambda e: gate.wait(), maxsize=2)
    bus.subscribe("records", seen.append)
    desktop = SimulatedDesktop()
    outcome = make(bus, desktop).dispatch(plan_of(("open_app", {"name": "notepad"}),
                                                  ("type_text", {"text": "hi"})), command_id="c1")
    assert outcome.ok and desktop.typed_text == "hi"
    wait_for(lambda: sum(e.type is EventType.AGENT_DONE for e in seen) == 2, what="events to reach the recorder")
    wait_for(lambda: bus.stats()["raises"]["errors"] >= 1, what="the raising subscriber to have run")
    assert bus.stats()["stuck"]["dropped"] >= 1
    gate.set()


def test_speak_step_holds_tts_and_still_speaks(bus):
    desktop = SimulatedDesktop()
    outcome = make(bus, desktop).dispatch(plan_of(("speak", {"text": "One moment."}), final="Done."),
                                          command_id="c1")
    # the speak step talks through the speaker; the final response is left for the reply
    assert outcome.ok and [a.arg for a in desktop.actions if a.kind == "speak"] == ["One moment."]
    assert outcome.spoken == "Done." and [e.data["text"] for e in events(bus, EventType.SPEAK_START)] == ["One moment."]


def test_expired_subtask_stops_its_sub_plan(bus):
    clock = FakeClock()
    desktop = SimulatedDesktop(delays={"type": HANG})
    sub = ScriptedSubPlanner(plan_of(("type_text", {"text": "EARLY"}), ("type_text", {"text": "LATE"})))
    orch = make(bus, desktop, clock=clock, janitor_interval_s=None,
                subtasks=SubtaskRunner(plan=sub, check=lambda *a, **k: Verdict.allow()))
    thread, box = run_in_thread(orch.dispatch, plan_of(("plan_subtask", {"goal": "write"})), command_id="c1")
    wait_for(lambda: desktop.active == 1, what="the sub-plan's first typing step")
    clock.advance(TOOLS["plan_subtask"].ttl_s + 1)  # the MetaAgent expires; its child is not yet due
    orch.janitor_tick()
    thread.join(5)
    assert box["value"].steps[0].status is StepStatus.EXPIRED
    wait_for(lambda: orch.locks.holder("kb_mouse") is None, what="the child to stop")
    assert desktop.typed_text == ""
    assert not [e for e in events(bus, EventType.AGENT_SPAWNED) if e.params == {"text": "LATE"}]


def test_budget_refused_steps_count_as_remaining(bus):
    plan = plan_of(("get_time", {}), ("get_date", {}), ("open_app", {"name": "notepad"}))
    outcome = make(bus).dispatch(plan, command_id="c1", budget=AgentBudget(limit=1))
    assert outcome.failed == 1
    assert outcome.remaining == plan.steps[1:]


def test_a_worker_taking_a_job_is_not_counted_as_free():
    """The window between a worker's get() and its bookkeeping, held open on purpose: a job
    submitted then must get a thread of its own, not wait behind the job being taken. (Counted
    wrong, the pool ran two agents of a parallel batch one after the other now and then.)"""
    import queue as queue_mod
    import threading

    from anovax.orchestrator import DaemonPool

    took = threading.Event()
    hold = threading.Event()

    class PausingQueue(queue_mod.SimpleQueue):
        def get(self, *args, **kwargs):
            job = super().get(*args, **kwargs)
            if job is not None and not hold.is_set():
                took.set()
                hold.wait(10)  # descheduled right after get(), before the worker's bookkeeping
            return job

    pool = DaemonPool(8, "window")
    pool._jobs = PausingQueue()
    try:
        warm = threading.Event()
        hold.set()
        pool.submit(warm.set)  # one worker, now idle in get()
        assert warm.wait(10)
        hold.clear()
        barrier = threading.Barrier(2, timeout=10.0)
        met: list[bool] = []

        def job() -> None:
            try:
                barrier.wait()
                met.append(True)
            except threading.BrokenBarrierError:
                met.append(False)

        pool.submit(job)
        assert took.wait(10)  # the idle worker holds the first job, not yet counted busy
        pool.submit(job)
        hold.set()
        wait_for(lambda: len(met) == 2, 30.0, "both jobs to end")
        assert met == [True, True]  # they met: the second had a thread of its own
    finally:
        hold.set()
        pool.shutdown()


# -- issue 16: keys go to the window the plan was checked against; held sub-plans are asked ------

class AimingDesktop(SimulatedDesktop):
    """Records every aim (and can refuse one, as a closed window would)."""

    def __init__(self, refuse: str = "", **kwargs) -> None:
        super().__init__(**kwargs)
        self.aimed: list[str] = []
        self._refuse = refuse

    def aim(self, target, cancel) -> None:
        self.aimed.append(target.title)
        if self._refuse:
            raise PermanentToolError(self._refuse)


def _window(title="notes.txt - Mousepad"):
    from anovax.target import TargetClass, WindowIdentity
    return WindowIdentity(window=0x42, title=title, app="Mousepad", klass=TargetClass.TEXT)


def test_keys_are_aimed_at_the_checked_window_before_the_first_key(bus):
    desktop = AimingDesktop()
    outcome = make(bus, desktop).dispatch(plan_of(("get_time", {}), ("type_text", {"text": "hi"}),
                                                  ("press_keys", {"keys": "enter"})),
                                          command_id="c1", aim_at=_window())
    assert outcome.ok and desktop.aimed == ["notes.txt - Mousepad"]  # once, before the typing
    assert desktop.typed_text == "hi"


def test_a_plan_that_opens_its_own_app_is_not_aimed_elsewhere(bus):
    desktop = AimingDesktop()
    outcome = make(bus, desktop).dispatch(plan_of(("open_app", {"name": "notepad"}), ("type_text", {"text": "hi"})),
                                          command_id="c1", aim_at=_window())
    assert outcome.ok and desktop.aimed == []


def test_a_window_that_cannot_be_aimed_at_gets_no_keys(bus):
    desktop = AimingDesktop(refuse="The window I was going to type into is gone.")
    outcome = make(bus, desktop).dispatch(plan_of(("type_text", {"text": "hi"}), ("press_keys", {"keys": "enter"})),
                                          command_id="c1", aim_at=_window())
    assert not outcome.ok and desktop.typed_text == "" and "keys" not in desktop.kinds()
    assert outcome.steps[0].error == "The window I was going to type into is gone."
    assert [r.status for r in outcome.steps] == [StepStatus.NOT_RUN, StepStatus.NOT_RUN]


def test_a_held_sub_plan_is_asked_and_denied_when_nobody_can_answer(bus):
    """A sub-task's plan held for a yes is not refused outright any more: it is asked like any
    plan; with nobody to ask it is denied, and the command ends denied (not failed)."""
    from anovax.safety import Rule
    held = Verdict.confirm(Rule.SHELL_TYPING, "Type `whoami` and press Enter in xterm?", step=0, target="xterm",
                           action="type into")
    sub = ScriptedSubPlanner(plan_of(("type_text", {"text": "whoami"}), ("press_keys", {"keys": "enter"})))
    desktop = SimulatedDesktop()
    orch = make(bus, desktop, subtasks=SubtaskRunner(plan=sub, check=lambda *a, **k: held))
    outcome = orch.dispatch(plan_of(("open_app", {"name": "terminal"}), ("plan_subtask", {"goal": "who am i"})),
                            command_id="c1")
    assert outcome.denied and outcome.failed is None, outcome
    assert desktop.typed_text == "" and "keys" not in desktop.kinds()
    assert len(events(bus, EventType.CONFIRM_REQUESTED)) == 1


def test_a_held_sub_plan_runs_after_a_yes(bus):
    from anovax.confirm import Confirmations
    from anovax.safety import Rule
    held = Verdict.confirm(Rule.SHELL_TYPING, "Type `whoami` and press Enter in xterm?", step=0, target="xterm",
                           action="type into")
    sub = ScriptedSubPlanner(plan_of(("type_text", {"text": "whoami"}), ("press_keys", {"keys": "enter"})))
    confirmations = Confirmations(bus, timeout_s=20)
    confirmations.register("test")
    bus.subscribe("says-yes", lambda e: e.type is EventType.CONFIRM_REQUESTED
                  and confirmations.answer(e.data["question_id"], True, "test"))
    desktop = SimulatedDesktop()
    orch = make(bus, desktop, subtasks=SubtaskRunner(plan=sub, check=lambda *a, **k: held),
                confirmations=confirmations)
    outcome = orch.dispatch(plan_of(("open_app", {"name": "terminal"}), ("plan_subtask", {"goal": "who am i"})),
                            command_id="c1")
    assert outcome.ok, outcome
    assert desktop.typed_text == "whoami"


def test_the_question_names_the_window_the_plan_was_checked_against_not_the_last_one_typed_into(bus):
    """Found by a first-time user: after typing into the calculator they went to a terminal, and the
    question for "type pwd and press enter" said "in: galculator"."""
    from anovax.desktop.base import KeyTarget
    from anovax.safety import Rule
    from anovax.target import TargetClass, WindowIdentity

    class Stale(AimingDesktop):
        def keyboard_target(self):
            return KeyTarget(0x99, "galculator")

    uxterm = WindowIdentity(window=0x77, title="user@host: ~", app="UXTerm", klass=TargetClass.SHELL)
    held = Verdict.confirm(Rule.SHELL_TYPING, "Type `pwd` and press Enter in UXTerm?", step=0, target="UXTerm",
                           action="type into")
    outcome = make(bus, Stale()).dispatch(plan_of(("type_text", {"text": "pwd"}), ("press_keys", {"keys": "enter"})),
                                          command_id="c1", verdict=held, aim_at=uxterm)
    asked = events(bus, EventType.CONFIRM_REQUESTED)
    assert outcome.denied and len(asked) == 1
    assert asked[0].data["target"] == "UXTerm", asked[0].data
