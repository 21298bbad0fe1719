"""The headless orb: the status line rendered from the model, and the thread that keeps it on screen."""

import io
import threading

from anovax.app import build_assistant
from anovax.desktop.simulated import SimulatedDesktop
from anovax.events import EventBus
from anovax.memory import Memory
from anovax.orb.console import ConsoleStatus, render_history, render_status
from anovax.orb.model import OrbModel
from anovax.orb.run import run_console_status
from anovax.settings import Settings
from helpers import wait_for
from test_orb_model import T0, agent, done, ev


def snapshot(events, now=T0, **model_args):
    model = OrbModel(**model_args)
    model.apply_all(events)
    return model.snapshot(now)


def test_idle_line():
    # idle is "ready", never "asleep", and the hint names the text box, the only way in known
    assert render_status(snapshot([])) == "· ready: Type a command"


def test_acting_line_lists_each_running_agent_with_its_time():
    snap = snapshot([ev("COMMAND_RECEIVED", data={"text": "open notepad and type hello"}),
                     agent("AGENT_SPAWNED", 1, T0, params={"name": "notepad"}),
                     agent("AGENT_STARTED", 1, T0),
                     agent("AGENT_SPAWNED", 2, T0, tool="type_text", params={"text": "hello"})], now=T0 + 0.42)
    assert render_status(snap, 200) == ("◉ acting: 2 agents: open notepad and type hello | "
                                        "open_app notepad (running 0.4s) | type_text hello (waiting 0.4s)")


def test_failed_agent_shows_its_reason_and_retries_their_count():
    snap = snapshot([ev("COMMAND_RECEIVED"), agent("AGENT_SPAWNED", 1, T0, tool="web_search", params={"query": "x"}),
                     agent("AGENT_RETRY", 1, T0, tool="web_search", error="timeout"),
                     agent("AGENT_SPAWNED", 2, T0), agent("AGENT_FAILED", 2, T0 + 1, error="No window appeared.")],
                    now=T0 + 1)
    line = render_status(snap, 300)
    assert "web_search x (waiting, try 2 1.0s)" in line
    assert "open_app (failed: No window appeared.)" in line


def test_line_fits_the_width_and_shows_mute_and_phone():
    model = OrbModel()
    model.apply_all([ev("COMMAND_RECEIVED", data={"text": "x" * 300})])
    model.set_muted(True)
    line = render_status(model.snapshot(T0), 300)
    assert line.endswith("| mic muted")
    assert len(render_status(model.snapshot(T0), 40)) == 40


def test_refused_and_history_lines():
    snap = snapshot([ev("COMMAND_RECEIVED", data={"text": "delete everything"}),
                     ev("SAFETY_REFUSED", error="I won't delete files."),
                     done(status="refused", message="I won't delete files.", text="delete everything"),
                     ev("COMMAND_RECEIVED", "c2", data={"text": "what time is it"}),
                     done("c2", message="It's noon.", text="what time is it")])
    assert render_history(snap) == ["✓ what time is it — It's noon.",
                                    "⊘ delete everything — I won't delete files."]
    snap = snapshot([ev("COMMAND_RECEIVED"), ev("SAFETY_REFUSED", error="I won't delete files.")])
    assert render_status(snap) == "⊘ refused: I won't delete files."


class FakeTty(io.StringIO):
    def isatty(self):
        return True


def test_inline_status_is_drawn_while_busy_and_cleared_when_idle():
    now = [T0]
    out = FakeTty()
    status = ConsoleStatus(None, out, clock=lambda: now[0], width=lambda: 80)
    assert status.inline
    status.refresh()
    assert out.getvalue() == ""  # idle at start: nothing to show
    status.model.apply_all([ev("COMMAND_RECEIVED", data={"text": "what time is it"})])
    status.refresh()
    assert out.getvalue() == "\r\x1b[K◌ thinking: planning: what time is it"
    status.refresh()
    assert out.getvalue().count("\r") == 1  # unchanged: not redrawn
    with status.hold():
        out.write("heard: what time is it\n")
    assert out.getvalue().endswith("\r\x1b[Kheard: what time is it\n")
    status.refresh()  # still busy: the line comes back under what was written
    assert out.getvalue().endswith("it\n\r\x1b[K◌ thinking: planning: what time is it")
    status.model.apply(done(message="It's noon."))
    now[0] += 5
    status.refresh()
    status.refresh()
    assert out.getvalue().endswith("it\n\r\x1b[K◌ thinking: planning: what time is it\r\x1b[K")
    with status.hold():
        out.write("AnovaX: It's noon.\n")
    assert out.getvalue().endswith("what time is it\r\x1b[KAnovaX: It's noon.\n")  # nothing left to erase


def test_a_failed_chip_lingering_after_its_command_is_not_drawn_over_the_prompt():
    # the console printed the result and its prompt; the failed chip stays in the model for a
    # while (the orb shows it to be hovered), but the terminal line belongs to the prompt now
    now = [T0]
    out = FakeTty()
    status = ConsoleStatus(None, out, clock=lambda: now[0], width=lambda: 80)
    status.model.apply_all([ev("COMMAND_RECEIVED", data={"text": "search the web for cats"}),
                            agent("AGENT_SPAWNED", 1, T0, tool="web_search", params={"query": "cats"}),
                            agent("AGENT_FAILED", 1, T0 + 0.2, tool="web_search", error="no browser"),
                            done(status="failed", message="I couldn't finish that.")])
    with status.hold():
        out.write("Failed: I couldn't finish that.\nyou> ")
    status.prompt = "you> "
    for _ in range(3):
        now[0] += 1
        status.refresh()
    assert out.getvalue() == "Failed: I couldn't finish that.\nyou> "


def test_no_status_line_is_drawn_over_the_prompt():
    # a command from the voice or the phone while the console waits at its prompt, or the
    # console's own refused command whose events reach the status after its result and prompt
    # were printed: the prompt's line is the person's (a refusal's line used to swallow it)
    now = [T0]
    out = FakeTty()
    status = ConsoleStatus(None, out, clock=lambda: now[0], width=lambda: 80)
    out.write("Refused: I won't delete files.\nyou> ")
    status.prompt = "you> "
    status.model.apply_all([ev("COMMAND_RECEIVED", data={"text": "delete everything"}),
                            ev("SAFETY_REFUSED", error="I won't delete files.")])
    status.refresh()
    status.model.apply(done(status="refused", message="I won't delete files."))
    now[0] += 1
    status.refresh()
    assert out.getvalue() == "Refused: I won't delete files.\nyou> "


class Terminal:
    """Two streams on one fake terminal, as stdout and stderr share a real one."""

    def __init__(self):
        self.screen = FakeTty()

    def stream(self):
        screen = self.screen

        class Stream(FakeTty):
            def write(self, text):
                return screen.write(text)
        return Stream()


def test_a_line_printed_while_the_prompt_waits_goes_above_it_and_the_prompt_comes_back():
    # a voice command's reply, a question, a timer: on a line of its own, then the prompt again
    terminal = Terminal()
    stdout, stderr = terminal.stream(), terminal.stream()
    status = ConsoleStatus(None, stderr, clock=lambda: T0, width=lambda: 80)
    status.prompt_out = stdout
    stdout.write("you> ")
    status.prompt = "you> "
    status.above("AnovaX: It's noon.", stdout)
    status.above("anovax: voice input is off: no microphone.", stderr)
    assert terminal.screen.getvalue() == ("you> \r\x1b[KAnovaX: It's noon.\nyou> "
                                          "\r\x1b[Kanovax: voice input is off: no microphone.\nyou> ")
    stdout.write("open notepad\n")  # the person's command and Enter
    status.prompt = ""  # it runs: no prompt to redraw
    status.above("AnovaX: Opening Notepad.", stdout)
    assert terminal.screen.getvalue().endswith("microphone.\nyou> open notepad\nAnovaX: Opening Notepad.\n")


def test_line_mode_prints_each_change_once():
    out = io.StringIO()
    status = ConsoleStatus(None, out, clock=lambda: T0 + 0.5)
    assert not status.inline
    status.refresh()
    status.model.apply_all([ev("COMMAND_RECEIVED", data={"text": "open notepad"}),
                            agent("AGENT_SPAWNED", 1, T0, params={"name": "notepad"})])
    status.refresh()
    status.refresh()  # the elapsed time moved on: not a new line
    status.model.apply(agent("AGENT_DONE", 1, T0 + 0.4))
    status.refresh()
    lines = out.getvalue().splitlines()
    assert lines == ["◉ acting: 1 agent: open notepad | open_app notepad (waiting 0.5s)",
                     "◌ thinking: planning: open notepad | open_app notepad (done 0.4s)"]


def test_status_follows_a_real_assistant_through_the_bus(tmp_path):
    settings = Settings(planner="offline", memory_path=tmp_path / "m.json", log_path=None)
    desktop = SimulatedDesktop.plausible(delays={"launch": 0.3, "speak": 0.3})
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=desktop)
    out = io.StringIO()
    lock = threading.Lock()
    status = run_console_status(assistant, out, lock=lock, inline=False)
    try:
        result = assistant.on_speech("open notepad")
        assert result.exit_code == 0
        wait_for(lambda: "· ready" in out.getvalue().splitlines()[-1] if out.getvalue() else False,
                 what=lambda: out.getvalue())
    finally:
        status.close()
        assistant.close()
    text = out.getvalue()
    # planning takes a millisecond, so "thinking" is folded into the same refresh as the first agent
    assert "◉ acting: 1 agent: open notepad | open_app notepad (waiting" in text or \
           "◉ acting: 1 agent: open notepad | open_app notepad (running" in text
    assert "♪ speaking" in text
    assert status.model.snapshot(T0).history[-1].message == result.message


def test_a_flood_does_not_back_up_the_console(tmp_path):
    bus = EventBus()
    out = FakeTty()
    status = ConsoleStatus(bus, out, width=lambda: 120).start()
    try:
        for i in range(1000):
            bus.emit(ev("AGENT_SPAWNED").type, "flood", agent_id=f"a{i}", tool="get_time")
        wait_for(lambda: bus.stats()["orb-console"]["queued"] == 0 and status.model.version >= 1000)
    finally:
        status.close()
        bus.close()
    assert bus.stats()["orb-console"]["dropped"] == 0
    assert out.getvalue().count("\r") < 200  # redrawn per refresh, not per event
