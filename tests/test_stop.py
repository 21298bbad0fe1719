"""Stop at every stage: planning (a model call in flight), sub-plans, dispatch and recovery, from
every front door. The model is the real google-genai client against the loopback fake server.

Waits have generous deadlines ("ended within 2 s of the stop" where the model would take 8 s);
nothing here asserts a measured duration (the stop latencies are in ``make bench``)."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from fakes.fake_gemini import delay_reply, plan_reply, text_reply
from helpers import wait_for
from pty_kit import Pty, cli_environment

from anovax.app import Status, build_assistant
from anovax.cancel import is_stop_utterance
from anovax.console import console
from anovax.desktop.simulated import SimulatedDesktop
from anovax.events import EventType
from anovax.memory import Memory
from anovax.settings import Settings

REPO = Path(__file__).resolve().parents[1]
#: the model call a stop must not wait for
SLOW_S = 8.0
#: a stop must end the command well inside the slow call; generous for a loaded machine
STOP_DEADLINE_S = 3.0


def step(tool, **params):
    return {"tool": tool, "params": params}


def plan(*steps, final="Okay."):
    return plan_reply({"steps": list(steps), "final_response": final, "remember": {}})


def test_only_cancel_and_never_mind_undo_what_just_ended():
    from anovax.cancel import undoes_last

    for text in ("cancel that", "No, cancel that.", "anova cancel it", "never mind", "forget it", "cancel"):
        assert undoes_last(text), text
    # "stop" is "be quiet" or "stop what you are doing"; "cancel everything" stops everything
    for text in ("stop", "no stop", "stop it", "cancel everything", "stop, cancel that", "abort",
                 "cancel the timer", "", None, "cancel " * 20):
        assert not undoes_last(text), text


@pytest.mark.parametrize("text", ["stop", "Stop!", "STOP.", "cancel", "cancel that", "stop that", "never mind",
                                  "Nevermind", "anova, stop", "hey anova stop please", "stop\u200b",
                                  "\uff53\uff54\uff4f\uff50", "  never   mind  ", "'stop'", "Stop, cancel that",
                                  "stop everything", "nvm", "please just stop now", "\u0455top", "st\u043ep",
                                  # a first-time user: these said "I can't change the volume or mute myself"
                                  "shut up", "be quiet", "stop talking", "anova, be quiet please", "that's enough"])
def test_whole_stop_utterances_are_control_messages(text):
    assert is_stop_utterance(text)


@pytest.mark.parametrize("text", ["cancel the timer", "stop the music", "don't stop", "stopwatch",
                                  "open notepad and type stop", "stop and open notepad", "", "never", "stop typing",
                                  "please", "anova", "no", "quiet music", "be quiet in the library", "enough milk",
                                  # said by anyone in the room, a single word stops nothing (a reviewer)
                                  "quiet", "enough", "silence",
                                  "cancel my subscription", "stop " * 30, None, 42])
def test_commands_that_mention_stop_are_not_control_messages(text):
    assert not is_stop_utterance(text)


@pytest.fixture
def gemini_app(tmp_path, fake_gemini):
    settings = Settings(planner="gemini", gemini_api_key="test", gemini_base_url=fake_gemini.base_url,
                        planner_timeout_s=30.0, log_path=None, memory_path=tmp_path / "m.json")
    app = build_assistant(settings, memory=Memory(tmp_path / "m.json"), desktop=SimulatedDesktop.plausible())
    yield app
    app.close()


def events_of(app, command_id, type_=None):
    return [e for e in app.bus.recent() if e.command_id == command_id and (type_ is None or e.type is type_)]


def test_stop_while_the_model_is_planning_ends_the_command_without_a_fallback(gemini_app, fake_gemini):
    fake_gemini.script(delay_reply(SLOW_S, then=plan(step("web_search", query="x"))))
    future = gemini_app.submit("search the web for x", source="console")
    wait_for(lambda: fake_gemini.requests, 10.0, "the model call to start")
    stop = gemini_app.submit("stop", source="console").result(timeout=1.0)
    assert stop.status is Status.DONE and stop.message == "Stopping."
    result = future.result(timeout=STOP_DEADLINE_S)
    assert result.status is Status.STOPPED and result.exit_code == 130 and result.message == "Stopped."
    kinds = [e.type for e in events_of(gemini_app, result.command_id)]
    # no plan, no offline fallback, no agent after the stop
    assert EventType.PLAN_READY not in kinds and EventType.PLANNER_FAULT not in kinds
    assert EventType.AGENT_SPAWNED not in kinds
    assert kinds[-1] is EventType.COMMAND_DONE
    # the assistant takes the next command at once (the abandoned call is not waited for)
    fake_gemini.script(plan(step("get_time")))
    assert gemini_app.submit("what time is it").result(timeout=10.0).status is Status.DONE


def test_stop_jumps_the_queue_and_drops_that_front_ends_waiting_commands(gemini_app, fake_gemini):
    fake_gemini.script(delay_reply(SLOW_S, then=plan(step("get_time"))), plan(step("get_date")))
    running = gemini_app.submit("what time is it", source="orb")
    wait_for(lambda: fake_gemini.requests, 10.0, "the model call to start")
    queued = [gemini_app.submit(f"search for thing {i}", source="orb") for i in range(2)]
    other = gemini_app.submit("what's the date", source="phone")
    stop = gemini_app.submit("never mind", source="orb").result(timeout=1.0)
    assert stop.message == "Stopping. I also dropped 2 waiting commands."
    for future in queued:  # answered at once, not after the running command
        assert future.result(timeout=1.0).status is Status.STOPPED
    assert running.result(timeout=STOP_DEADLINE_S).status is Status.STOPPED
    # another front end's command was not the orb's to drop
    assert other.result(timeout=10.0).status is Status.DONE
    stopped = [e for e in gemini_app.bus.recent() if e.type is EventType.COMMAND_STOPPED]
    assert stopped[0].data["dropped"] == 2 and stopped[0].data["source"] == "orb"


def test_stop_with_nothing_running_says_so(tmp_path):
    app = build_assistant(Settings(planner="offline", log_path=None), memory=Memory(tmp_path / "m.json"),
                    desktop=SimulatedDesktop())
    try:
        result = app.on_speech("stop")
        assert result.status is Status.DONE and result.message == "Nothing to stop."
        # "cancel the timer" is a request for the planner, not a stop
        assert app.on_speech("cancel the timer").message != "Nothing to stop."
    finally:
        app.close()


def test_stop_during_a_sub_plan_reaches_its_planning(gemini_app, fake_gemini):
    fake_gemini.script(plan(step("plan_subtask", goal="find a cake recipe")),
                       delay_reply(SLOW_S, then=plan(step("web_search", query="cake recipe"))))
    future = gemini_app.submit("help me bake a cake")
    wait_for(lambda: len(fake_gemini.requests) == 2, 10.0, "the sub-plan's model call")
    gemini_app.stop("text")
    result = future.result(timeout=STOP_DEADLINE_S)
    assert result.status is Status.STOPPED
    assert not events_of(gemini_app, result.command_id, EventType.AGENT_DONE)


def test_stop_during_a_recovery_turn(gemini_app, fake_gemini):
    fake_gemini.script(
        plan(step("open_app", name="zork")),  # not on the simulated desktop: the core step fails
        delay_reply(SLOW_S, then=text_reply(json.dumps(
            {"thought": "t", "actions": [step("web_search", query="zork")], "done": True, "summary": "Searched."}))))
    future = gemini_app.submit("open zork")
    wait_for(lambda: events_of(gemini_app, future.command_id, EventType.RECOVERY_STARTED)
             and len(fake_gemini.requests) == 2, 10.0, "the recovery turn's model call")
    gemini_app.stop("text")
    result = future.result(timeout=STOP_DEADLINE_S)
    assert result.status is Status.STOPPED and result.message == "Stopped."
    done = events_of(gemini_app, result.command_id, EventType.RECOVERY_DONE)
    assert done and done[0].data.get("stopped") is True


def test_recovery_actions_with_done_true_finish_the_command(gemini_app, fake_gemini):
    fake_gemini.script(
        plan(step("open_app", name="zork")),
        text_reply(json.dumps({"thought": "not installed", "actions": [step("web_search", query="zork online")],
                               "done": True, "summary": "Zork isn't installed, so I searched the web for it."})))
    result = gemini_app.on_speech("open zork")
    assert result.status is Status.DONE, result.message
    assert result.message == "Zork isn't installed, so I searched the web for it."
    actions = gemini_app.desktop.take_actions()
    assert [a.arg for a in actions if a.kind == "url"] == ["https://www.google.com/search?q=zork+online"]
    assert len(fake_gemini.requests) == 2  # the plan and one recovery turn: no round trip to hear "done"


def test_stopped_agents_are_marked_stopped_not_failed(tmp_path):
    app = build_assistant(Settings(planner="offline", log_path=None), memory=Memory(tmp_path / "m.json"),
                    desktop=SimulatedDesktop(delays={"type": 5.0}))
    try:
        future = app.submit("type hello world", source="orb")
        wait_for(lambda: events_of(app, future.command_id, EventType.AGENT_STARTED), 5.0, "typing to start")
        app.stop("orb")
        result = future.result(timeout=STOP_DEADLINE_S)
        assert result.status is Status.STOPPED
        failed = events_of(app, result.command_id, EventType.AGENT_FAILED)
        assert failed and failed[0].data["code"] == "stopped"
    finally:
        app.close()


def offline_app(tmp_path, desktop):
    return build_assistant(Settings(planner="offline", log_path=None), memory=Memory(tmp_path / "m.json"), desktop=desktop)


def stop_when(app, future, tool):
    """Say stop once ``future``'s agent for ``tool`` has started; the command's result."""
    wait_for(lambda: [e for e in events_of(app, future.command_id, EventType.AGENT_STARTED) if e.tool == tool],
             10.0, f"the {tool} agent to start")
    app.stop("console")
    return future.result(timeout=STOP_DEADLINE_S)


def spoken_after_the_stop(app, command_id):
    stopped = [e.seq for e in app.bus.recent() if e.type is EventType.COMMAND_STOPPED]
    return [e for e in events_of(app, command_id, EventType.SPEAK_START) if e.seq > stopped[0]]


def test_a_stop_during_an_optional_last_step_stops_the_command(tmp_path):
    # "wait" is optional: its failure alone would let the plan finish "done" and say so
    app = offline_app(tmp_path, SimulatedDesktop())
    try:
        result = stop_when(app, app.submit("wait 5 seconds"), "wait")
        assert result.status is Status.STOPPED and result.exit_code == 130
        assert not spoken_after_the_stop(app, result.command_id)
    finally:
        app.close()


def test_a_step_that_finishes_after_the_stop_does_not_turn_it_into_done(tmp_path):
    # reading the clock cannot be interrupted; it ends after the stop, and the reply is not said
    app = offline_app(tmp_path, SimulatedDesktop(delays={"clock": 1.0}))
    try:
        result = stop_when(app, app.submit("what time is it"), "get_time")
        assert result.status is Status.STOPPED and result.message == "Stopped."
        assert not spoken_after_the_stop(app, result.command_id)
    finally:
        app.close()


def test_an_agent_hears_the_stop_at_once_through_its_commands_token(tmp_path):
    from anovax.desktop.base import CancelToken as Token

    parent = Token()
    child = Token(parent)
    grandchild = Token(child)
    assert not grandchild.cancelled
    parent.cancel("stopped by the user")
    assert grandchild.cancelled and grandchild.reason == "stopped by the user"
    assert Token(Token()).wait(0.01) is False  # an uncancelled chain sleeps its time out


def test_a_launch_cut_short_by_a_stop_is_reported_as_stopped(tmp_path):
    from anovax.errors import TransientToolError

    class SlowLaunch(SimulatedDesktop):
        def launch_app(self, name, cancel):  # like a real launch: stops waiting, says "no window"
            cancel.wait(30)
            raise TransientToolError(f"{name} did not open a window in time.", code="no_window")

    app = offline_app(tmp_path, SlowLaunch())
    try:
        result = stop_when(app, app.submit("open notepad"), "open_app")
        assert result.status is Status.STOPPED
        failed = events_of(app, result.command_id, EventType.AGENT_FAILED)
        assert [e.data["code"] for e in failed] == ["stopped"]
        assert not events_of(app, result.command_id, EventType.AGENT_RETRY)
    finally:
        app.close()


def test_a_second_stop_and_a_stop_of_queued_commands_say_what_they_did(tmp_path):
    app = offline_app(tmp_path, SimulatedDesktop())
    try:
        future = app.submit("wait 5 seconds", source="phone")
        wait_for(lambda: app.busy, 5.0, "the command to start")
        assert app.stop("phone").message == "Stopping."
        assert app.stop("phone").message == "Still stopping."
        assert future.result(timeout=STOP_DEADLINE_S).status is Status.STOPPED
        # the console's own typed-ahead lines are counted and logged with the stop
        report = app.stop("console", waiting=["what time is it", "open notepad"])
        assert report.message == "Dropped 2 waiting commands."
        dropped = [e for e in app.bus.recent() if e.type is EventType.COMMAND_DONE
                   and e.data["message"] == "Dropped: you said stop before it ran."]
        assert [e.data["text"] for e in dropped] == ["what time is it", "open notepad"]
    finally:
        app.close()


# -- the console and --text, as a person uses them ----------------------------------------------


@pytest.fixture
def cli_env(tmp_path, fake_gemini):
    return cli_environment(tmp_path, fake_gemini.base_url)


def test_stop_typed_in_the_console_ends_a_slow_plan(cli_env, fake_gemini):
    fake_gemini.script(delay_reply(SLOW_S, then=plan(step("get_time"))), plan(step("get_date"), final="Today."))
    term = Pty(cli_env)
    try:
        term.read_until(b"you> ", 30)
        term.type("what time is it\n")
        wait_for(lambda: fake_gemini.requests, 10.0, "the model call")
        term.type("stop\n")
        term.read_until(b"AnovaX: Stopped.", STOP_DEADLINE_S)
        term.read_until(b"you> ", 5)
        # the console still works
        term.type("what's the date\n")
        term.read_until(b"Today.", 15)
        term.type("quit\n")
    finally:
        code = term.close()
    assert code == 0
    assert b"Traceback" not in term.seen
    log = [json.loads(line) for line in Path(cli_env["ANOVAX_LOG"]).read_text().splitlines()]
    done = [e for e in log if e["type"] == "COMMAND_DONE"]
    assert [d["data"]["status"] for d in done] == ["stopped", "done"]


def test_ctrl_c_cancels_the_running_command_and_a_second_at_the_prompt_exits(cli_env, fake_gemini):
    fake_gemini.script(delay_reply(SLOW_S, then=plan(step("get_time"))))
    term = Pty(cli_env)
    try:
        term.read_until(b"you> ", 30)
        term.type("what time is it\n")
        wait_for(lambda: fake_gemini.requests, 10.0, "the model call")
        term.interrupt()
        term.read_until(b"AnovaX: Stopped.", STOP_DEADLINE_S)
        term.read_until(b"you> ", 15)  # the prompt after the stopped command, not the first one
        term.interrupt()
    finally:
        code = term.close()
    assert code == 0
    assert b"Traceback" not in term.seen and b"KeyboardInterrupt" not in term.seen


def test_ctrl_c_on_a_text_command_exits_130_without_a_traceback(cli_env, fake_gemini):
    fake_gemini.script(delay_reply(SLOW_S, then=plan(step("get_time"))))
    proc = subprocess.Popen([sys.executable, "-m", "anovax", "--simulate", "--text", "what time is it"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli_env, cwd=REPO)
    try:
        wait_for(lambda: fake_gemini.requests, 30.0, "the model call")
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=STOP_DEADLINE_S + 5)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, err
    assert b"AnovaX: Stopped." in out
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err


def test_lines_typed_ahead_in_the_console_are_dropped_counted_and_logged(cli_env):
    env = {**cli_env, "ANOVAX_PLANNER": "offline"}
    lines = "wait 4 seconds\nwhat time is it\nwhat's the date\nstop\n"
    proc = subprocess.run([sys.executable, "-m", "anovax", "--simulate"], input=lines, capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    log = [json.loads(line) for line in Path(env["ANOVAX_LOG"]).read_text().splitlines()]
    stopped = [e for e in log if e["type"] == "COMMAND_STOPPED"]
    # the stop is read with the rest of the pipe: it finds the first command running ("Stopping.
    # I also dropped 2 …") or still queued ("Dropped 3 …"); either way what it says is what it did
    assert len(stopped) == 1 and stopped[0]["data"]["message"] in proc.stdout
    assert stopped[0]["data"]["message"] in ("Stopping. I also dropped 2 waiting commands.",
                                             "Dropped 3 waiting commands.")
    done = [e["data"] for e in log if e["type"] == "COMMAND_DONE"]
    assert stopped[0]["data"]["dropped"] == sum(d["message"].startswith("Dropped") for d in done)
    assert sorted((d["text"], d["status"]) for d in done) == [
        ("wait 4 seconds", "stopped"), ("what time is it", "stopped"), ("what's the date", "stopped")]


def ctrl_c_while_importing(env, **popen) -> tuple[int, bytes, bytes]:
    """Run ``anovax --simulate --text "what time is it"`` and send SIGINT while its modules still
    load (-X importtime reports each import on stderr); (exit code, stdout, stderr)."""
    proc = subprocess.Popen([sys.executable, "-X", "importtime", "-m", "anovax", "--simulate", "--text",
                             "what time is it"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
                            cwd=REPO, **popen)
    try:
        # (before that, Python itself is still starting: runpy looking for anovax/__main__.py)
        line = b""
        while b" anovax." not in line:  # a module of the package has loaded: the CLI's imports run
            line = proc.stderr.readline()
            assert line, "the program ended before importing anovax"
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc.returncode, out, err


def test_ctrl_c_while_the_program_is_still_importing_exits_130_quietly(cli_env):
    code, _out, err = ctrl_c_while_importing(cli_env)
    assert code == 130, err[-2000:]
    assert b"Traceback" not in err and b"KeyboardInterrupt" not in err


def test_a_program_started_with_ctrl_c_ignored_keeps_ignoring_it(cli_env, fake_gemini):
    fake_gemini.script(plan(step("get_time")))
    # a shell starts background jobs (`anovax --text ... &`) with SIGINT ignored: a Ctrl-C meant
    # for the foreground job must not end this one, not even while it is still importing
    code, out, err = ctrl_c_while_importing(
        cli_env, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    assert code == 0, err[-2000:]
    assert b"It's " in out


# A Ctrl-C that escapes code run from a string (dataclasses build __init__ that way while a
# module imports) leaves CPython's "unhandled KeyboardInterrupt" flag set even when caught, and
# the interpreter then kills itself with SIGINT at exit. This is what failed the import test
# above once in CI (exit -2); reproduced here on purpose, so the fix is tested every run.
_INTERRUPT_IN_EXEC = """
import os, signal, sys
from anovax.interrupts import interrupt_handled
try:
    exec("import os, signal\\nos.kill(os.getpid(), signal.SIGINT)\\nfor _ in range(10**7): pass")
except KeyboardInterrupt:
    if sys.argv[1] == "handled":
        interrupt_handled()
print("caught", flush=True)
"""  # (ends normally: SystemExit from -c exits at once, without the interpreter's check)


@pytest.mark.parametrize(("how", "code"), [("handled", 0), ("left", -signal.SIGINT)])
def test_a_caught_ctrl_c_from_exec_exits_with_the_code_we_chose_only_once_handled(how, code):
    proc = subprocess.run([sys.executable, "-c", _INTERRUPT_IN_EXEC, how], capture_output=True, cwd=REPO,
                          timeout=60)
    if how == "left" and proc.returncode == 0:
        pytest.skip("this Python forgets a caught Ctrl-C by itself")
    # "left" is the interpreter's behaviour without the reset: the test can see the defect
    assert proc.stdout == b"caught\n" and proc.returncode == code, proc.stderr


def test_a_ctrl_c_wrapped_by_python_while_a_class_is_built_still_counts_as_one():
    from anovax.interrupts import is_interrupt

    class Interrupting:
        def __set_name__(self, owner, name):
            raise KeyboardInterrupt

    with pytest.raises(BaseException) as caught:  # noqa: PT011 - the type varies by Python version
        type("Built", (), {"field": Interrupting()})
    assert is_interrupt(caught.value)
    assert not is_interrupt(RuntimeError("unrelated")) and not is_interrupt(SystemExit(1))
    try:
        try:
            raise KeyboardInterrupt
        except KeyboardInterrupt:
            raise ValueError("a different failure while handling it")  # noqa: B904 - context, not cause
    except ValueError as exc:
        assert not is_interrupt(exc)


class _InterruptedOnce:
    """A command's future whose ``done()`` raises KeyboardInterrupt once ``when()`` holds: Ctrl-C
    landing in the console's wait between two checks, outside the ``try`` that handles it."""

    def __init__(self, future, when) -> None:
        self._future = future
        self._when = when
        self._raised = False

    def done(self) -> bool:
        if not self._raised and self._when():
            self._raised = True
            raise KeyboardInterrupt
        return self._future.done()

    def __getattr__(self, name):
        return getattr(self._future, name)


def test_a_ctrl_c_between_the_consoles_checks_still_shows_how_the_command_ended(gemini_app, fake_gemini):
    fake_gemini.script(delay_reply(SLOW_S, then=plan(step("get_time"))))
    real_submit = gemini_app.submit

    def submit(text, source="text"):
        return _InterruptedOnce(real_submit(text, source), lambda: fake_gemini.requests)
    gemini_app.submit = submit  # type: ignore[method-assign]
    shown = []
    code = console(gemini_app, io.StringIO("what time is it\n"), io.StringIO(), show=shown.append, as_json=True)
    assert code == 0
    assert [(r.status, r.message) for r in shown] == [(Status.STOPPED, "Stopped.")]


def test_cancel_that_takes_back_a_timer_its_own_source_just_set_and_only_soon_after(tmp_path, monkeypatch):
    import anovax.assistant as assistant_module
    from anovax.events import EventType

    app = build_assistant(Settings(planner="offline", log_path=None), memory=Memory(tmp_path / "m.json"),
                          desktop=SimulatedDesktop.plausible())
    try:
        assert app.on_speech("set a timer for 5 minutes", source="phone").status is Status.DONE
        # another front end's command is not this one's to take back (nor is its queue)
        assert app.on_speech("cancel that", source="text").message == "Nothing to stop."
        assert len(app.timers.pending()) == 1
        taken = app.on_speech("no, cancel that", source="phone")
        assert taken.message == "Cancelled the 5 minute timer you just set."
        assert app.timers.pending() == ()
        app.bus.flush()
        (cancelled,) = [e for e in app.bus.recent() if e.type is EventType.TIMER_CANCELLED]
        assert cancelled.command_id == taken.command_id  # the command that cancelled it
        (stopped,) = [e for e in app.bus.recent() if e.type is EventType.COMMAND_STOPPED and e.data["source"] == "phone"]
        assert stopped.data["message"] == taken.message  # the event says what was done, not "Nothing to stop."
        # past the window the timer stays
        assert app.on_speech("set a timer for 10 minutes", source="phone").status is Status.DONE
        monkeypatch.setattr(assistant_module, "TAKE_BACK_S", -1.0)
        assert app.on_speech("cancel that", source="phone").message == "Nothing to stop."
        assert len(app.timers.pending()) == 1
    finally:
        # the state folder is shared by the session's assistants: leave no timer behind
        if app.timers.pending():
            app.timers.cancel("all")
        app.close()
