"""Assistant.on_speech: the single entry point never dies of bad input and reports every outcome."""

import threading

import pytest

from anovax.app import MAX_COMMAND_CHARS, Status, build_assistant
from anovax.errors import PlanError
from anovax.memory import Memory
from anovax.plan import Plan, Step
from anovax.settings import Settings


class ScriptedPlanner:
    """A planner that answers from a script and fails the test if the script is not used up."""

    name = "scripted"

    def __init__(self, *answers):
        self.answers = list(answers)
        self.calls = []

    def plan(self, text, context="", *, current_app=None, cancel=None):
        return self.plan_with_refusal(text, context, current_app=current_app)[0]

    def plan_with_refusal(self, text, context="", *, current_app=None, cancel=None):
        self.calls.append((text, current_app))
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer if isinstance(answer, tuple) else (answer, None)


@pytest.fixture
def settings(tmp_path):
    return Settings(planner="offline", memory_path=tmp_path / "memory.json")


def make(settings, planner, desktop=None, **ports):
    return build_assistant(settings, planner=planner, memory=Memory(settings.memory_path), desktop=desktop, **ports)


@pytest.mark.parametrize("junk", [None, b"open notepad", 42, "", "   \n\t "])
def test_junk_input_gets_a_clear_reply_and_nothing_is_done(settings, junk):
    result = make(settings, ScriptedPlanner()).on_speech(junk)
    assert result.status is Status.NOT_DONE and result.message == "I didn't catch that."


def test_overlong_command_is_refused_before_planning(settings):
    planner = ScriptedPlanner()
    result = make(settings, planner).on_speech("a" * (MAX_COMMAND_CHARS + 1))
    assert result.status is Status.REFUSED and result.verdict.rule == "too_long"
    assert planner.calls == []


def test_planner_errors_do_not_kill_the_assistant(settings):
    good = Plan(steps=(Step("get_time", {}),), final_response="Here's the time.")
    assistant = make(settings, ScriptedPlanner(PlanError("The plan is not valid JSON."), RuntimeError("boom"), good))
    first = assistant.on_speech("one")
    assert first.status is Status.FAILED and first.message == "The plan is not valid JSON."
    second = assistant.on_speech("two")
    assert second.status is Status.FAILED and "RuntimeError" in second.message
    third = assistant.on_speech("what time is it")
    assert third.status is Status.PLANNED and third.exit_code == 0


def test_unsafe_plan_is_refused_with_the_verdict(settings):
    bad = Plan(steps=(Step("open_app", {"name": "terminal"}), Step("type_text", {"text": "rm -rf ~"}),
                      Step("press_keys", {"keys": "enter"})))
    result = make(settings, ScriptedPlanner(bad)).on_speech("clean up")
    assert result.status is Status.REFUSED and result.exit_code == 3
    assert not result.verdict.ok and result.message == result.verdict.reason


def test_planner_decline_is_a_refusal(settings):
    declined = (Plan(steps=(), final_response="Sorry, I won't delete files."), "Sorry, I won't delete files.")
    result = make(settings, ScriptedPlanner(declined)).on_speech("delete my files")
    assert result.status is Status.REFUSED and result.verdict.rule == "planner_declined"
    assert result.message == "Sorry, I won't delete files."


def test_session_app_reaches_the_planner_and_history_is_kept(settings):
    planner = ScriptedPlanner(Plan(steps=(), final_response="Hi."))
    assistant = make(settings, planner)
    assistant.memory.session.set_app("notepad")
    assistant.on_speech("type hello in it")
    assert planner.calls == [("type hello in it", "notepad")]
    assert assistant.memory.history[-1].response == "Hi."


def test_commands_from_many_threads_are_serialised(settings):
    from anovax.app import QUEUE_SIZE

    assistant = build_assistant(settings, memory=Memory(settings.memory_path))
    results = []

    def speak(i):
        results.append(assistant.on_speech("what's the time and the date").status)

    # as many senders as the queue holds: none can be turned away
    threads = [threading.Thread(target=speak, args=(i,)) for i in range(QUEUE_SIZE)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == [Status.PLANNED] * QUEUE_SIZE
    assert len(assistant.memory.history) == QUEUE_SIZE


def test_allowed_plan_runs_on_the_desktop_and_is_spoken(settings):
    from anovax.desktop import SimulatedDesktop

    desktop = SimulatedDesktop()
    plan = Plan(steps=(Step("open_app", {"name": "notepad"}), Step("type_text", {"text": "café"})),
                final_response="Typing.", remember={"editor": "notepad"})
    assistant = make(settings, ScriptedPlanner(plan), desktop)
    result = assistant.on_speech("open notepad and type café")
    assert result.status is Status.DONE and result.exit_code == 0
    assert desktop.typed_text == "café" and desktop.actions[-1].kind == "speak"
    assert assistant.memory.session.current_app == "notepad"
    assert assistant.memory.facts.snapshot() == {"editor": "notepad"}
    assistant.close()


def test_core_failure_is_reported_spoken_and_handed_to_recovery(settings):
    from anovax.desktop import SimulatedDesktop
    from anovax.errors import PermanentToolError

    desktop = SimulatedDesktop(failures={"launch": PermanentToolError("I couldn't find an app called zork.")})
    # an app the desktop vouches for (keys into an unknown one would be asked about first)
    plan = Plan(steps=(Step("open_app", {"name": "notepad"}), Step("type_text", {"text": "hi"})))
    seen = []
    assistant = make(settings, ScriptedPlanner(plan), desktop,
                     recover=lambda text, outcome, command_id, budget, cancel: seen.append((text, outcome.failed))
                     or outcome)
    result = assistant.on_speech("open zork and type hi")
    assert result.status is Status.FAILED and result.exit_code == 4
    # the typing never ran, and the reply says so (a first-time user's "open spotify and notepad"
    # said nothing of Notepad)
    assert result.message == ("I couldn't finish that: I couldn't find an app called zork. "
                              "I stopped there: the next step didn't run.")
    assert seen == [("open zork and type hi", 0)]
    assert desktop.actions[-1].kind == "speak" and "zork" in desktop.actions[-1].arg
    assert desktop.typed_text == ""
    assistant.close()


def test_full_queue_is_refused_never_dropped(settings):
    from anovax.app import QUEUE_SIZE
    from anovax.events import EventType

    gate = threading.Event()

    class SlowPlanner(ScriptedPlanner):
        def plan_with_refusal(self, text, context="", *, current_app=None, cancel=None):
            gate.wait(10)
            return Plan(steps=(), final_response="ok"), None

    assistant = make(settings, SlowPlanner())
    futures = [assistant.submit(f"command {i}") for i in range(QUEUE_SIZE + 3)]
    rejected = [f.result(1) for f in futures if f.done() and f.result().status is Status.REFUSED]
    assert 1 <= len(rejected) <= 2 + 1
    assert all("busy" in r.message for r in rejected)
    gate.set()
    results = [f.result(10) for f in futures]
    assert sum(r.status is Status.PLANNED for r in results) + len(rejected) == QUEUE_SIZE + 3
    assistant.bus.flush()
    assert len([e for e in assistant.bus.recent() if e.type is EventType.COMMAND_REJECTED]) == len(rejected)
    assistant.close()


def test_stop_ends_the_running_command_without_recovery(tmp_path):
    from anovax.app import Status, build_assistant
    from anovax.desktop.simulated import HANG, SimulatedDesktop
    from anovax.memory import Memory
    from anovax.settings import Settings
    from helpers import wait_for

    desk = SimulatedDesktop(delays={"type": HANG})  # typing that only a cancel ends
    app = build_assistant(Settings(planner="offline", log_path=None), memory=Memory(tmp_path / "m.json"), desktop=desk)
    try:
        assert app.stop().running is None  # nothing runs yet
        future = app.submit("type hello world")
        wait_for(lambda: app.busy, 5.0, "the command to start")
        assert app.stop().running == future.command_id
        result = future.result(timeout=30)  # a generous deadline: only the cancel can end it
        assert result.status is Status.STOPPED and result.message == "Stopped."
        assert result.exit_code == 130
    finally:
        app.close()


class RecordingSpeech:
    """A speech-out port that keeps every sentence."""

    unavailable = None

    def __init__(self):
        self.said = []

    def say(self, text, cancel):
        self.said.append(text)

    def close(self):
        pass


def test_every_ending_is_said_through_the_speech_port_not_the_desktop(settings):
    from anovax.desktop import SimulatedDesktop
    from anovax.errors import PermanentToolError

    speech = RecordingSpeech()
    desktop = SimulatedDesktop(failures={"launch": PermanentToolError("No such app.")})
    plans = [Plan(steps=(Step("get_time", {}),), final_response="Here's the time."),
             (Plan(steps=()), "I won't run commands."),
             Plan(steps=(Step("open_app", {"name": "zork"}),))]
    assistant = make(settings, ScriptedPlanner(*plans), desktop, speech=speech, recover=None)
    try:
        done = assistant.on_speech("what time is it")
        refused = assistant.on_speech("run rm -rf")
        failed = assistant.on_speech("open zork")
    finally:
        assistant.close()
    assert [r.status for r in (done, refused, failed)] == [Status.DONE, Status.REFUSED, Status.FAILED]
    assert speech.said == [done.message, "I won't run commands.", "I couldn't finish that: No such app."]
    assert done.message.startswith("Here's the time. It's ")
    assert "speak" not in desktop.kinds() and not hasattr(desktop, "speak")
    assert not hasattr(assistant, "recover")  # no slot to overwrite: recovery comes through the builder
