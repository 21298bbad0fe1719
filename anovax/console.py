"""The console front end: the interactive prompt, and how a command's result is printed.

``console`` reads lines on a thread of its own, so a "stop" typed while a command runs is
seen at once; ``emit_result`` prints a result as text or JSON (the event stream) for every
front end that writes to a terminal (``--text``, the prompt, voice, ``--audio-file``).
"""

from __future__ import annotations

import json
import queue
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import wait as futures_wait
from typing import Any, TextIO

from anovax import __version__
from anovax.app import Assistant, CommandResult, Status
from anovax.cancel import is_stop_utterance
from anovax.console_alerts import TimerAlerts
from anovax.console_controls import console_control, is_quit
from anovax.console_question import ConsoleQuestion
from anovax.console_trace import format_plan, format_verdict
from anovax.desktop import SimulatedDesktop
from anovax.interrupts import interrupt_handled
from anovax.port import AssistantPort


def format_reply(result: CommandResult) -> str:
    """The one line a person needs: ``AnovaX: Opening Notepad.``, ``Refused: …``."""
    # a stopped command is not an error: it reads like any other reply ("AnovaX: Stopped.")
    label = {Status.REFUSED: "Refused", Status.FAILED: "Failed", Status.NEEDS_YES: "Not done"}.get(
        result.status, "AnovaX")
    return f"{label}: {result.message}"


def format_steps(result: CommandResult) -> list[str]:
    """What each step came to (``  [done] open_app: notepad is open``), in plan order."""
    lines: list[str] = []
    if result.outcome is not None:
        held = 0
        for step in result.outcome.steps:
            if result.outcome.denied and step.error == result.outcome.denied:
                held += 1  # said once below, not once per step
                continue
            note = step.value if step.ok else (step.error or step.status.value)
            lines.append(f"  [{step.status.value}] {step.tool}: {note}")
        if held:
            lines.append(f"  [not_run] {held} step{'s' if held != 1 else ''} held for a yes")
    return lines


def format_result(result: CommandResult) -> str:
    """The whole account of one command, in the order it happened: the plan, the verdict (the
    gate decides before any step runs), the steps, the reply. A dry run prints this."""
    lines = []
    if result.plan is not None:
        lines += format_plan([(s.tool, s.params) for s in result.plan.steps], result.plan.remember,
                             result.planner, result.timings_ms.get("plan"))
    if result.verdict is not None:
        v = result.verdict
        lines.append(format_verdict(v.ok, v.question if v.needs_yes else "", v.rule, v.reason))
    lines += [*format_steps(result), format_reply(result)]
    if result.status is Status.PLANNED:  # "AnovaX: Opening Spotify." alone read as if it had opened
        lines.append("Dry run: nothing was done. The reply above is what AnovaX would say.")
    return "\n".join(lines)


def render_result(result: CommandResult, actions: list, *, dry_run: bool, verbose: bool) -> str:
    """What a person sees of a finished command. By default the reply alone; a dry run shows its
    plan and verdict (that is what it is for); ``--verbose`` adds the steps and what the
    simulated desktop recorded, after the plan and verdict its trace printed as they happened."""
    if dry_run:
        return format_result(result)
    if not verbose:
        return format_reply(result)
    lines = [*format_steps(result), format_reply(result)]
    if actions:  # no empty heading after a refusal or a stop
        lines.append(format_actions(actions))
    return "\n".join(lines)


def emit_result(result: CommandResult, as_json: bool, out: TextIO, assistant: Assistant, *,
                events: bool = False, verbose: bool = False, write: Callable[[str], None] | None = None) -> None:
    """Print one command's result; ``events``: the JSON output is the event stream even in a dry
    run. ``write`` prints the human text (the console's, which keeps its prompt whole); do not
    call this holding the terminal's lock: with ``verbose`` it first waits for the trace."""
    simulated = assistant.desktop if isinstance(assistant.desktop, SimulatedDesktop) else None
    actions = simulated.take_actions() if simulated is not None else []
    if as_json:
        if assistant.orchestrator is None and not events:  # dry run: print the result
            out.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
        else:
            assistant.bus.flush()  # the events (ending in COMMAND_DONE) are the output
            if simulated is not None:  # then what the simulated desktop recorded
                out.write(json.dumps({"simulated_actions": [{"kind": a.kind, "arg": a.arg} for a in actions],
                                      "typed_text": "".join(a.arg for a in actions if a.kind == "type")},
                                     ensure_ascii=False) + "\n")
        out.flush()
        return
    dry_run = assistant.orchestrator is None
    if verbose and not dry_run:
        assistant.bus.flush()  # the trace's plan and verdict lines go first
    text = render_result(result, actions, dry_run=dry_run, verbose=verbose)
    if write is not None:
        write(text)
    else:
        out.write(text + "\n")
        out.flush()


def format_actions(actions: list) -> str:
    """What the simulated desktop was asked to do, one line per action (typing joined up)."""
    lines = ["Simulated desktop:"]
    for action in actions:
        if action.kind == "type" and lines[-1].startswith("  type "):
            lines[-1] = lines[-1][:-1] + action.arg + "'"
        elif action.kind != "clock":
            lines.append(f"  {action.kind} '{action.arg}'")
    return "\n".join(lines)


#: what the console shows while it waits for a command
PROMPT = "you> "
#: at the idle prompt, how often a question put by another front end's command is looked for
IDLE_POLL_S = 0.1


class _LineReader:
    """Reads the console's lines on a thread of its own ("console-input"), so a "stop" typed
    while a command runs is seen at once instead of waiting behind that command."""

    def __init__(self, stdin: TextIO) -> None:
        self._lines: queue.SimpleQueue[str | None] = queue.SimpleQueue()
        self._stdin = stdin
        threading.Thread(target=self._read, name="console-input", daemon=True).start()

    def _read(self) -> None:
        try:
            for line in iter(self._stdin.readline, ""):
                self._lines.put(line)
        except (OSError, ValueError):  # the terminal went away, or stdin was closed under us
            pass
        self._lines.put(None)

    def get(self, timeout: float | None = None) -> str | None:
        """The next line, None at end of input; ``queue.Empty`` when ``timeout`` runs out.

        Waits in short slices so Ctrl-C is felt at once on every platform."""
        if timeout is not None:
            return self._lines.get(timeout=timeout)
        while True:
            try:
                return self._lines.get(timeout=0.2)
            except queue.Empty:
                continue


class Lines:
    """How the console's front ends print for a person (results, the voice's lines, the verbose
    trace, timers): on lines of their own that never take the prompt's place, through the status
    line's ``above`` once it exists; plainly under the shared lock before it, or without one."""

    def __init__(self, out: TextIO, lock: Any) -> None:
        self.out = out
        self.lock = lock
        #: the console's status line (ConsoleStatus), which knows whether the prompt shows
        self.status: Any = None

    def __call__(self, text: str, stream: TextIO | None = None) -> None:
        stream = stream if stream is not None else self.out
        if self.status is not None:
            self.status.above(text, stream)
            return
        with self.lock:
            stream.write(text + "\n")
            stream.flush()


def console(assistant: AssistantPort, stdin: TextIO, out: TextIO, *, show: Callable[[CommandResult], None],
            greeting: str | None = None, as_json: bool = False, status: Any = None, remote: Any = None,
            say: Callable[[str], None] | None = None) -> int:
    """The interactive prompt: one command per line until end of input or 'quit'.

    Commands run one at a time, in the order typed. "stop" (or "cancel", "never mind"), typed
    while a command runs, is handled at once: the command ends as stopped and the lines typed
    after it that have not run are dropped. Ctrl-C does the same while a command runs; at the
    idle prompt it ends the session. ``:remote on`` / ``:remote off`` / ``:unban`` switch the
    phone remote, ``:help`` lists them (lines starting with ":" are console controls, never
    commands). ``show`` prints a command's result (``emit_result``; called without the terminal's
    lock); ``greeting`` is printed first (the banner); ``say`` prints a line for a person (``Lines``)."""
    interactive = stdin.isatty()
    # timer alerts come from another thread: every write to ``out`` goes through one lock (the
    # one ``say`` takes, when it has one: results and the voice's lines print through it)
    write_lock = getattr(say, "lock", None) or threading.RLock()
    hold = status.hold if status is not None else lambda: write_lock
    if status is not None:
        status.prompt_out = out
    reader = _LineReader(stdin)
    pending: deque[str] = deque()  # typed while a command ran, not yet run
    at_end = False
    #: set while the prompt waits for a line: an alert then goes below it, and the prompt again
    prompting = threading.Event()

    if say is None:
        def say(text: str) -> None:
            with hold():
                out.write(text + "\n")
                out.flush()

    asking = ConsoleQuestion(assistant, out, hold, status, leave=is_quit) if interactive and not as_json else None

    def prompt() -> str:
        """The line typed at: a shown question's (after a ":help" typed there too), else the
        prompt. Not under ``hold``: a question that went away is forgotten here first."""
        if asking is None:
            return PROMPT
        asking.settle()
        return asking.prompt or PROMPT

    def alert(text: str) -> None:
        if status is not None:  # it knows the prompt: the alert above it, the prompt drawn again
            status.above(text, out)
            return
        with hold():  # the line being typed at (a question's, or the idle prompt) is drawn again below
            again = (asking.prompt if asking is not None else "") or (PROMPT if prompting.is_set() else "")
            out.write(("\n" if again else "") + text + "\n" + again)
            out.flush()

    def stop() -> None:
        if asking is not None:  # Ctrl-C at a shown [y/N]: its line ends, and it is not drawn again
            asking.end()
        # the lines typed ahead are this front end's queue: dropped, counted and logged with it
        report = assistant.stop("console", waiting=[line.strip() for line in pending])
        pending.clear()
        if not as_json:  # with --json the COMMAND_STOPPED event is the output
            say(report.message)

    #: the command whose result has not been shown yet; a Ctrl-C can land between two checks of
    #: ``follow``'s loop, outside its ``try``: ``_loop`` then stops it and follows it again
    unshown: list[Any] = []

    def run(text: str) -> None:
        unshown[:] = [assistant.submit(text, source="console")]
        follow(unshown[0])

    def resume() -> bool:
        """After a Ctrl-C that escaped ``follow``: stop its command and show how it ended."""
        if not unshown:
            return False
        stop()
        follow(unshown[0])
        return True

    def follow(future: Any) -> None:
        nonlocal at_end
        while not future.done():
            try:
                if asking is not None:
                    asking.show_pending()
                if at_end:  # no more input can come: wait on the command alone
                    futures_wait([future], timeout=0.2)
                    continue
                line = reader.get(timeout=0.05)
            except queue.Empty:
                continue
            except KeyboardInterrupt:
                interrupt_handled()
                stop()
                continue
            if line is None:
                at_end = True  # finish this command, then leave
            elif asking is not None and asking.take(line):
                continue  # the answer to the question shown
            elif is_stop_utterance(line.strip()):
                stop()
            elif line.strip():
                pending.append(line)
        if asking is not None:
            asking.end()
        unshown.clear()
        show(future.result())

    def idle_line() -> str | None:
        """The next line at the idle prompt. Meanwhile a question a voice or phone command put is
        shown under it (it went unseen, and the next line typed ran as a command), and the line
        typed after it answers it; then the prompt again."""
        if asking is None:
            return reader.get()
        while True:
            try:
                line = reader.get(timeout=IDLE_POLL_S)
            except queue.Empty:
                if asking.show_pending(below="\n"):  # it went away unanswered
                    prompt_again()
                continue
            if line is None or not asking.showing:  # Ctrl-D: leave (it crashed on None.strip())
                return line
            if not asking.take(line):
                return line  # a new request instead of an answer, or the question had gone
            prompt_again()

    def prompt_again() -> None:
        with hold():
            out.write(PROMPT)
            out.flush()
            if status is not None:
                status.prompt = PROMPT

    if greeting is not None:
        say(greeting)
    alerts = None if as_json else TimerAlerts(assistant.bus, alert)  # with --json the events are the output
    try:
        return _loop(assistant, idle_line, out, pending, say, run, stop, resume, interactive=interactive, status=status,
                     hold=hold, remote=remote, at_end=lambda: at_end, prompting=prompting, prompt=prompt)
    finally:
        if alerts is not None:
            alerts.close()
        if asking is not None:
            asking.close()


def _loop(assistant: AssistantPort, next_line: Callable[[], str | None], out: TextIO, pending: deque[str],
          say: Callable[[str], None], run: Callable[[str], None], stop: Callable[[], None], resume: Callable[[], bool],
          *, interactive: bool,
          status: Any, hold: Any, remote: Any, at_end: Callable[[], bool], prompting: threading.Event,
          prompt: Callable[[], str] = lambda: PROMPT) -> int:
    while True:
        try:
            if pending:
                line: str | None = pending.popleft()
            elif at_end():
                return 0
            else:
                if interactive:
                    shown = prompt()
                    with hold():
                        out.write(shown)
                        out.flush()
                        if status is not None:
                            status.prompt = shown
                        prompting.set()
                line = next_line()
                with hold():
                    prompting.clear()
                if status is not None:
                    status.prompt = ""
            if line is None:
                return 0
            text = line.strip()
            if not text:
                continue
            if is_quit(text):
                return 0
            if text.startswith(":"):
                say(console_control(text, remote))
                continue
            run(text)
        except KeyboardInterrupt:  # at the idle prompt (a running command's Ctrl-C is caught in run)
            interrupt_handled()
            if resume():  # it landed in a running command's wait, not at the prompt
                continue
            if assistant.busy:
                stop()
                continue
            with hold():
                out.write("\n")
                out.flush()
            return 0


def banner(assistant: Assistant, *, listening: bool = False) -> str:
    """The console's first lines; ``listening`` when the microphone is on too."""
    settings = assistant.settings
    key_note = "" if settings.gemini_api_key else " (no GEMINI_API_KEY set)"
    if assistant.desktop is None:
        acting = "dry run: plans are checked, nothing is executed"
    elif assistant.desktop.name == "simulated":
        acting = "simulated desktop: actions are recorded, not performed"
    else:
        acting = f"acting on the {assistant.desktop.name} desktop"
    lines = [
        f"AnovaX {__version__}: {assistant.planner.name} planner{key_note}, "
        f"{'voice and text input' if listening else 'text input'}, console; {acting}.",
        "Type a command (e.g. 'open notepad and type hello'), ':help' for the console's own, or 'quit'.",
    ]
    if assistant.memory.warning:
        lines.append(f"Warning: {assistant.memory.warning}")
    return "\n".join(lines)
