"""Command line and console front end.

    anovax                         interactive prompt (the console interface)
    anovax --text "…"              run one command on the desktop
    anovax --text "…" --simulate   run it against a simulated desktop and show what it would do
    anovax --text "…" --dry-run    plan and safety-check only, print both
    anovax --audio-file FILE.wav   run a recording through the wake gate and recogniser, as
                                   if it were said to the microphone (with --dry-run/--simulate)
    --json                         events as JSON lines (the result object with --dry-run)
    anovax doctor [--json]         what this machine lets AnovaX do: display, window manager,
                                   focus checks, apps, microphone, speech, planner, remote

Exit codes: 0 done, 2 usage or configuration error, 3 refused by safety, 4 failed,
130 stopped (Ctrl-C) (doctor: 0 when no check failed, 1 otherwise).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import json
import logging
import os
import queue
import signal
import sys
import threading
from collections import deque
from concurrent.futures import wait as futures_wait
from pathlib import Path
from typing import Any, TextIO

from anovax import __version__, doctor
from anovax.app import Assistant, CommandResult, Status
from anovax.cancel import is_stop_utterance
from anovax.desktop import SimulatedDesktop, make_desktop
from anovax.eventlog import JsonLines, JsonlLog
from anovax.errors import ConfigError
from anovax.events import EventType
from anovax.interrupts import interrupt_handled, is_interrupt
from anovax.settings import PLANNERS, Settings, load_settings
from anovax.textclean import tolerant_stdio

EXIT_USAGE = 2
#: after Ctrl-C, how long --text waits for the stopped command to wind down and report
STOP_WAIT_S = 2.0
#: doctor: some check failed
EXIT_DOCTOR_FAILED = 1
EPILOG = """subcommands:
  anovax doctor [--json]   check what this machine lets AnovaX do (display, window manager,
                           focus checks, apps, microphone, speech, planner, remote)"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # argparse exits 2 too; keep one message format
        self.print_usage(sys.stderr)
        print(f"anovax: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="anovax", description="AnovaX, a local-first desktop voice assistant.", epilog=EPILOG,
                     formatter_class=argparse.RawDescriptionHelpFormatter)
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--text", "-t", help="run one command given as text, then exit")
    source.add_argument("--audio-file", type=Path, metavar="FILE",
                        help="run a recording (WAV, AIFF or FLAC) through the wake gate and speech recogniser, "
                             "as if said to the microphone, then exit")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="plan and safety-check only; never act on the desktop")
    mode.add_argument("--simulate", action="store_true",
                      help="run the whole pipeline against a simulated desktop that records every action")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--planner", choices=PLANNERS, help="override ANOVAX_PLANNER")
    parser.add_argument("--memory", type=Path, help="override ANOVAX_MEMORY (the facts file)")
    parser.add_argument("--config", type=Path, help="settings file (TOML) instead of the default")
    parser.add_argument("--version", action="version", version=f"anovax {__version__}")
    return parser


def format_result(result: CommandResult) -> str:
    """The human-readable account of one command: the plan, the verdict, the reply."""
    lines = []
    if result.plan is not None:
        ms = result.timings_ms.get("plan")
        took = f", {ms:.1f} ms" if ms is not None else ""
        lines.append(f"Plan ({result.planner} planner{took}):")
        if not result.plan.steps:
            lines.append("  (no actions)")
        for i, step in enumerate(result.plan.steps, 1):
            lines.append(f"  {i}. {step.tool} {json.dumps(dict(step.params), ensure_ascii=False)}")
        for key, value in result.plan.remember.items():
            lines.append(f"  remember {key} = {value!r}")
    if result.outcome is not None:
        for step in result.outcome.steps:
            note = step.value if step.ok else (step.error or step.status.value)
            lines.append(f"  [{step.status.value}] {step.tool}: {note}")
    if result.verdict is not None:
        if result.verdict.ok:
            lines.append("Safety: allowed")
        else:
            lines.append(f"Safety: refused [{result.verdict.rule}] {result.verdict.reason}")
    # a stopped command is not an error: it reads like any other reply ("AnovaX: Stopped.")
    label = {Status.REFUSED: "Refused", Status.FAILED: "Failed"}.get(result.status, "AnovaX")
    lines.append(f"{label}: {result.message}")
    return "\n".join(lines)


def _emit(result: CommandResult, as_json: bool, out: TextIO, assistant: Assistant, *, events: bool = False) -> None:
    """Print one command's result; ``events``: the JSON output is the event stream even in a dry run."""
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
    else:
        out.write(format_result(result) + "\n")
        if simulated is not None:
            out.write(format_actions(actions) + "\n")
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


#: what ends the console session (typed on a line of its own)
QUIT_WORDS = frozenset({"quit", "exit", ":q", "bye anova"})


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


def console(assistant: Assistant, stdin: TextIO, out: TextIO, *, as_json: bool = False, status: Any = None,
            remote: Any = None) -> int:
    """The interactive prompt: one command per line until end of input or 'quit'.

    Commands run one at a time, in the order typed. "stop" (or "cancel", "never mind"), typed
    while a command runs, is handled at once: the command ends as stopped and the lines typed
    after it that have not run are dropped. Ctrl-C does the same while a command runs; at the
    idle prompt it ends the session. ``:remote on`` / ``:remote off`` / ``:unban`` switch the
    phone remote (lines starting with ":" are console controls, never commands)."""
    interactive = stdin.isatty()
    hold = status.hold if status is not None else contextlib.nullcontext
    reader = _LineReader(stdin)
    pending: deque[str] = deque()  # typed while a command ran, not yet run
    at_end = False

    def say(text: str) -> None:
        with hold():
            out.write(text + "\n")
            out.flush()

    def stop() -> None:
        # the lines typed ahead are this front end's queue: dropped, counted and logged with it
        report = assistant.stop("console", waiting=[line.strip() for line in pending])
        pending.clear()
        if not as_json:  # with --json the COMMAND_STOPPED event is the output
            say(report.message)

    def run(text: str) -> None:
        nonlocal at_end
        future = assistant.submit(text, source="console")
        while not future.done():
            try:
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
            elif is_stop_utterance(line.strip()):
                stop()
            elif line.strip():
                pending.append(line)
        with hold():
            _emit(future.result(), as_json, out, assistant)

    if not as_json:
        say(banner(assistant))
    while True:
        try:
            if pending:
                line: str | None = pending.popleft()
            elif at_end:
                return 0
            else:
                if interactive:
                    with hold():
                        out.write("you> ")
                        out.flush()
                line = reader.get()
            if line is None:
                return 0
            text = line.strip()
            if not text:
                continue
            if text.lower() in QUIT_WORDS:
                return 0
            if text.startswith(":"):
                say(console_control(text, remote))
                continue
            run(text)
        except KeyboardInterrupt:  # at the idle prompt (a running command's Ctrl-C is caught in run)
            interrupt_handled()
            if assistant.busy:
                stop()
                continue
            with hold():
                out.write("\n")
                out.flush()
            return 0


def console_control(text: str, remote: Any) -> str:
    """The console's own switches (the orb has buttons for them)."""
    words = text[1:].lower().split()
    if remote is None:
        return "The phone remote is not available here."
    try:
        if words == ["remote", "on"]:
            if not remote.running:
                remote.start()
            return f"Phone remote on at {remote.address}. Pair a phone by opening: {remote.pairing_url}"
        if words == ["remote", "off"]:
            if remote.running:
                remote.stop()
            return "Phone remote off."
        if words == ["unban"]:
            remote.unban()
            return "Every banned address may try again."
    except OSError as exc:  # the port is taken, or the address is gone
        return f"The phone remote can't start: {exc.strerror or exc}."
    return "Console controls: :remote on, :remote off, :unban, quit."


def banner(assistant: Assistant) -> str:
    settings = assistant.settings
    key_note = "" if settings.gemini_api_key else " (no GEMINI_API_KEY set)"
    if assistant.desktop is None:
        acting = "dry run: plans are checked, nothing is executed"
    elif assistant.desktop.name == "simulated":
        acting = "simulated desktop: actions are recorded, not performed"
    else:
        acting = f"acting on the {assistant.desktop.name} desktop"
    lines = [
        f"AnovaX {__version__}: {assistant.planner.name} planner{key_note}, text input, console; {acting}.",
        "Type a command (e.g. 'open notepad and type hello'), or 'quit'.",
    ]
    if assistant.memory.warning:
        lines.append(f"Warning: {assistant.memory.warning}")
    return "\n".join(lines)


def _settings_from(args: argparse.Namespace) -> Settings:
    settings = load_settings(config_file=args.config)
    overrides = {}
    if args.planner:
        overrides["planner"] = args.planner
    if args.memory:
        overrides["memory_path"] = args.memory
    return dataclasses.replace(settings, **overrides)


def _desktop_for(args: argparse.Namespace, settings: Settings):
    """None for a dry run; the simulated desktop on request or when there is no display."""
    if args.dry_run:
        return None
    if args.simulate:
        return SimulatedDesktop.plausible()
    try:
        return make_desktop(settings)
    except ConfigError as exc:
        print(f"anovax: {exc.message} Actions will be simulated.", file=sys.stderr)
        return SimulatedDesktop.plausible()


def build_doctor_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="anovax doctor", description="What this machine lets AnovaX do, and what it does not.")
    parser.add_argument("--json", action="store_true", help="print the checks as JSON")
    parser.add_argument("--config", type=Path, help="settings file (TOML) instead of the default")
    return parser


def doctor_main(argv: list[str]) -> int:
    """``anovax doctor``: every check, whatever the settings or the machine are like."""
    args = build_doctor_parser().parse_args(argv)
    settings: Settings | ConfigError
    try:
        settings = load_settings(config_file=args.config)
    except ConfigError as exc:  # reported as the planner's failed line, after everything else is checked
        settings = exc
    checks = doctor.run_checks(settings, os.environ)
    sys.stdout.write((doctor.to_json(checks) if args.json else doctor.format_report(checks)) + "\n")
    sys.stdout.flush()
    return EXIT_DOCTOR_FAILED if doctor.failed(checks) else 0


def _wayland_notice(assistant: Assistant) -> None:
    """Say once, at start-up, what Wayland rules out, rather than let keys vanish later."""
    if assistant.desktop is None or isinstance(assistant.desktop, SimulatedDesktop):
        return  # nothing will be sent to the display
    notice = doctor.wayland_notice(os.environ)
    if notice:
        print(f"anovax: {notice}", file=sys.stderr, flush=True)


# -- voice -------------------------------------------------------------------------------

#: the voice threads print while the console waits for a line; one writer at a time
# re-entrant: the console status line's hold() takes it around writes that already hold it
_OUT_LOCK = threading.RLock()
_GATE_WORDS = {"drop": "dropped", "wake": "awake", "sleep": "asleep", "barge_in": "stop speaking"}


def format_heard(heard: Any, *, times: bool = True) -> str:
    """One line per recognised phrase: when (in a recording), what was heard, what the wake gate
    did and why."""
    decision = heard.decision
    what = f'command "{decision.text}"' if decision.action == "command" else _GATE_WORDS[decision.action]
    when = f"[{heard.start:.2f}-{heard.end:.2f} s] " if times else ""
    return f'{when}heard "{decision.heard}" -> {what} ({decision.reason})'


def audio_file_main(assistant: Assistant, path: Path, as_json: bool, out: TextIO) -> int:
    """``--audio-file``: the recording's phrases through the same recogniser and wake gate as the
    microphone; each command runs to the end before the next phrase is looked at."""
    from anovax.voice.gate import WakeGate
    from anovax.voice.listener import AudioFileError, Recording, VoicePipeline, VoiceState
    from anovax.voice.stt import SttError, make_recognizer

    settings = assistant.settings
    try:
        recognizer = make_recognizer(settings.stt)
    except (SttError, ImportError, OSError, ValueError) as exc:
        print(f"anovax: speech recognition cannot start: {getattr(exc, 'message', None) or exc}", file=sys.stderr)
        return EXIT_USAGE
    recording = Recording(path)
    # a recording cannot contain the assistant's replies, so this gate does not follow SPEAK_*;
    # its clock is the position in the file, so the sleep timeout runs in recorded time
    gate = WakeGate(timeout_s=settings.wake_timeout_s, clock=recording.now)
    codes: list[int] = []

    def run_command(text: str) -> None:
        result = assistant.on_speech(text, source="voice")
        codes.append(result.exit_code)
        _emit(result, as_json, out, assistant, events=as_json)

    def report(heard: Any) -> None:
        assistant.bus.emit(EventType.VOICE_HEARD, "voice", data=heard.to_dict())
        if not as_json:
            out.write(format_heard(heard) + "\n")
            out.flush()

    def state(change: VoiceState) -> None:
        assistant.bus.emit(EventType.VOICE_STATE, "voice",
                           data={"state": change.state, "detail": change.detail, "by_phrase": change.by_phrase})

    pipeline = VoicePipeline(recognizer, gate, on_command=run_command, stop_speaking=assistant.stop_speaking,
                             report=report, on_state=state)
    heard = 0
    try:
        for phrase in recording.phrases():
            pipeline.handle(phrase)
            heard += 1
    except AudioFileError as exc:
        print(f"anovax: {exc.message}", file=sys.stderr)
        return EXIT_USAGE
    if as_json:
        assistant.bus.flush()
    else:
        out.write(f"{heard} phrase{'s' if heard != 1 else ''} in {recording.duration:.1f} s of audio, "
                  f"{len(codes)} command{'s' if len(codes) != 1 else ''} ({recognizer.name} recogniser).\n")
        out.flush()
    return max(codes, default=0)


def start_voice(assistant: Assistant, as_json: bool, out: TextIO) -> Any:
    """Listen to the microphone next to the text console (ANOVAX_VOICE auto or on), or None.

    Start-up runs on the listener's thread; what it comes to (listening, or why not) is one
    stderr line and a VOICE_STATE event, and the console works either way."""
    mode = assistant.settings.voice
    if mode == "off":
        return None
    from anovax.voice.listener import VoiceInput, VoiceState

    def said(text: str) -> None:
        with _OUT_LOCK:
            print(f"anovax: {text}", file=sys.stderr, flush=True)

    def on_state(change: VoiceState) -> None:
        if change.state == "listening":
            said(f"listening: {change.detail}.")
        elif change.state == "unavailable":
            prefix = "ANOVAX_VOICE=on, but voice input is off" if mode == "on" else "voice input is off"
            said(f"{prefix}: {change.detail}. Type your commands instead.")
        elif change.state == "asleep" and not change.by_phrase and not as_json:  # the timeout
            with _OUT_LOCK:
                out.write(f"[{change.state}: {change.detail}]\n")
                out.flush()

    def on_heard(heard: Any) -> None:
        if heard.decision.action != "drop" and not as_json:  # drops are everything said nearby
            with _OUT_LOCK:
                out.write(format_heard(heard, times=False) + "\n")
                out.flush()

    def on_result(result: CommandResult) -> None:
        with _OUT_LOCK:
            _emit(result, as_json, out, assistant)

    try:
        voice = VoiceInput.for_assistant(assistant, on_heard=on_heard, on_result=on_result, on_state=on_state)
        voice.start()
    except Exception as exc:  # noqa: BLE001 - the text console must come up whatever voice does
        said(f"voice input is off: {exc}. Type your commands instead.")
        return None
    return voice


def main(argv: list[str] | None = None) -> int:
    tolerant_stdio()  # undecodable stdin bytes read as U+FFFD; no character makes a write to stdout/stderr raise
    try:
        return _main(argv)
    except BaseException as exc:  # noqa: BLE001 - Ctrl-C outside a command (starting up, shutting down)
        if not is_interrupt(exc):
            raise
        interrupt_handled()  # no traceback, and exit 130 rather than a death by SIGINT
        print(file=sys.stderr)
        return Status.STOPPED.exit_code
    finally:
        if argv is None:  # the real program, not a test calling main([...])
            _leave_on_next_interrupt()


def _leave_on_next_interrupt() -> None:
    """From here on a Ctrl-C means "just go": exit 130 at once. Otherwise a second Ctrl-C that
    lands while the interpreter joins its threads at exit kills it with a traceback or SIGINT."""
    if threading.current_thread() is not threading.main_thread():
        return

    def leave(_sig: int, _frame: Any) -> None:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(Status.STOPPED.exit_code)

    signal.signal(signal.SIGINT, leave)


def _main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # before argparse: "doctor" as a positional would clash with the console's flags
    if argv[:1] == ["doctor"]:
        return doctor_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        settings = _settings_from(args)
        logging.basicConfig(level=settings.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
        assistant = Assistant(settings, desktop=_desktop_for(args, settings))
    except ConfigError as exc:
        print(f"anovax: {exc.message}", file=sys.stderr)
        return EXIT_USAGE
    _wayland_notice(assistant)
    if settings.log_path is not None:
        try:
            assistant.bus.subscribe("jsonl-log", JsonlLog(settings.log_path))
        except OSError as exc:
            print(f"anovax: cannot write the event log {settings.log_path}: {exc.strerror or exc}", file=sys.stderr)
    if args.json and (assistant.orchestrator is not None or args.audio_file is not None):
        assistant.bus.subscribe("stdout", JsonLines(sys.stdout))
    voice = remote = status = None
    try:
        if args.text is not None:
            future = assistant.submit(args.text, source="text")
            try:
                result = future.result()
            except KeyboardInterrupt:  # Ctrl-C: stop the command, report it, exit 130
                interrupt_handled()
                assistant.stop("text")
                try:
                    result = future.result(timeout=STOP_WAIT_S)
                except (TimeoutError, KeyboardInterrupt):
                    interrupt_handled()
                    return Status.STOPPED.exit_code
            _emit(result, args.json, sys.stdout, assistant)
            return result.exit_code
        if args.audio_file is not None:
            return audio_file_main(assistant, args.audio_file, args.json, sys.stdout)
        voice = start_voice(assistant, args.json, sys.stdout)
        remote = make_remote(assistant)
        if settings.orb != "off" and not args.json:
            from anovax.orb.controls import OrbControls
            from anovax.orb.run import OrbUnavailable, orb_unavailable, run_orb

            reason = orb_unavailable()  # None: a window can open
            if reason is None:
                controls = OrbControls.for_assistant(assistant, voice=voice, remote=remote)
                try:
                    return run_orb(assistant, controls)  # Tk on this, the main thread, until closed
                except OrbUnavailable as exc:
                    reason = str(exc)
            if settings.orb == "on":
                print(f"anovax: ANOVAX_ORB=on, but the orb cannot open: {reason}. Using the console.",
                      file=sys.stderr)
        from anovax.orb.run import run_console_status

        # only on a terminal: elsewhere a status line per change would clutter piped output
        if sys.stderr.isatty() and not args.json:
            status = run_console_status(assistant, sys.stderr, lock=_OUT_LOCK)
        return console(assistant, sys.stdin, sys.stdout, as_json=args.json, status=status, remote=remote)
    finally:
        if status is not None:
            status.close()
        if remote is not None and remote.running:
            remote.stop()
        if voice is not None:
            voice.close()
        assistant.close()


def make_remote(assistant: Assistant) -> Any:
    """The phone remote, started when ANOVAX_REMOTE=1 and otherwise ready for the orb's switch
    or ``:remote on``; None when it cannot exist here (Flask missing)."""
    try:
        from anovax.remote.runtime import RemoteServer
        from anovax.remote.state import assistant_state
    except ImportError as exc:
        print(f"anovax: the phone remote is unavailable ({exc}).", file=sys.stderr)
        return None
    remote = RemoteServer(assistant.settings, assistant.bus, assistant.submit, state=assistant_state(assistant))
    if assistant.settings.remote:
        try:
            remote.start()
        except OSError as exc:
            print(f"anovax: the phone remote can't start: {exc.strerror or exc}.", file=sys.stderr)
        else:
            print(f"anovax: phone remote on at {remote.address}; pair a phone by opening {remote.pairing_url}",
                  file=sys.stderr)
    return remote


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
