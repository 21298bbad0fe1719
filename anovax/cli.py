"""The command line: arguments, exit codes, and which front ends start (``anovax.console``,
``anovax.frontends``, the orb); ``anovax.app.build_assistant`` wires everything else.

    anovax                         interactive prompt (the console interface)
    anovax --text "…"              run one command on the desktop
    anovax --text "…" --simulate   run it against a simulated desktop and show what it would do
    anovax --text "…" --dry-run    plan and safety-check only, print both
    --verbose                      also the plan and the safety verdict as they happen, each
                                   step's result and what a simulated desktop recorded
    anovax --audio-file FILE.wav   run a recording through the wake gate and recogniser, as
                                   if it were said to the microphone (with --dry-run/--simulate)
    --json                         events as JSON lines (the result object with --dry-run)
    anovax doctor [--json]         what this machine lets AnovaX do: display, window manager,
                                   focus checks, apps, microphone, speech, planner, remote

Exit codes: 0 done, 2 usage or configuration error, 3 refused by safety or held for a yes that
nobody gave (no, no answer in time, nobody to ask, a dry run), 4 failed, 5 nothing done (the
words were not understood or ask for something AnovaX cannot do; empty input too),
130 stopped (Ctrl-C) (doctor: 0 when no check failed, 1 otherwise).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import logging
import os
import signal
import sys
import threading
from pathlib import Path
from typing import Any

from anovax import __version__, doctor
from anovax.app import Assistant, Status, build_assistant
from anovax.console import Lines, banner, console, emit_result
from anovax.console_controls import is_quit
from anovax.console_alerts import TimerAlerts
from anovax.console_trace import VerboseTrace
from anovax.desktop import SimulatedDesktop, make_desktop
from anovax.errors import ConfigError
from anovax.eventlog import JsonLines, JsonlLog
from anovax.events import EventType
from anovax.frontends import OUT_LOCK, audio_file_main, make_remote, start_voice
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
                           focus checks, apps, microphone, speech, planner, remote)
  anovax enrol [--forget]  read sentences aloud once so the offline recogniser adapts to
                           your voice (stays on this machine; --forget undoes it)"""


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
                        help="run a recording (WAV of any format, FLAC, Ogg, MP3, AIFF) through the wake gate and speech recogniser, "
                             "as if said to the microphone, then exit")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--dry-run", action="store_true", help="plan and safety-check only; never act on the desktop")
    mode.add_argument("--simulate", action="store_true",
                      help="run the whole pipeline against a simulated desktop that records every action")
    parser.add_argument("--json", action="store_true", help="print machine-readable JSON")
    parser.add_argument("--verbose", "-v", action="store_true",
                        help="show the plan and the safety verdict as they happen, then each step's result "
                             "(by default only the reply is printed)")
    parser.add_argument("--planner", choices=PLANNERS, help="override ANOVAX_PLANNER")
    parser.add_argument("--memory", type=Path, help="override ANOVAX_MEMORY (the facts file)")
    parser.add_argument("--config", type=Path, help="settings file (TOML) instead of the default")
    parser.add_argument("--version", action="version", version=f"anovax {__version__}")
    return parser


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
        return SimulatedDesktop.plausible(user_apps=settings.apps)
    try:
        return make_desktop(settings)
    except ConfigError as exc:
        print(f"anovax: {exc.message} Actions will be simulated.", file=sys.stderr, flush=True)
        return SimulatedDesktop.plausible(user_apps=settings.apps)


def _witness_for(args: argparse.Namespace, settings: Settings):
    """A dry run on a real display still asks the desktop where the keys would go, so it says
    what the real run would (a question for a terminal in front); None elsewhere."""
    if not args.dry_run or args.simulate:
        return None
    try:
        return make_desktop(settings)
    except ConfigError:
        return None


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


#: where replies go when they cannot be heard, by front end (the sentence must be true there)
REPLIES_PRINTED = "Replies are printed only."
REPLIES_IN_ORB = "Replies are shown in the orb window only."
#: how long the console waits for the voice listener to say whether it listens before showing
#: its prompt (a missing microphone is known in a fraction of a second; a slow start comes later,
#: printed above the prompt)
VOICE_SETTLE_S = 1.5


def _speech_notice(assistant: Assistant, where: str = REPLIES_PRINTED) -> None:
    """Say once, at start-up, that replies will not be heard, why (no sound card...), and where
    they go instead: printed here, or in the orb window once it is open."""
    why = assistant.speaker.unavailable if assistant.speaker is not None else None
    if why:
        print(f"anovax: speech is off: {why}. {where}", file=sys.stderr, flush=True)


def _wayland_notice(assistant: Assistant) -> None:
    """Say once, at start-up, what Wayland rules out, rather than let keys vanish later."""
    if assistant.desktop is None or isinstance(assistant.desktop, SimulatedDesktop):
        return  # nothing will be sent to the display
    notice = doctor.wayland_notice(os.environ)
    if notice:
        print(f"anovax: {notice}", file=sys.stderr, flush=True)


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


def _listening(voice: Any) -> bool:
    """Whether voice input is on or still starting (the recogniser can take longer to load than
    the banner waits; should it then find no microphone, its own line says so)."""
    if voice is None:
        return False
    state = getattr(voice, "state", None)
    return state is None or state.on


def _main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    # before argparse: "doctor" as a positional would clash with the console's flags
    if argv[:1] == ["doctor"]:
        return doctor_main(argv[1:])
    if argv[:1] == ["enrol"]:
        from anovax.voice.enrol import enrol_main

        return enrol_main(argv[1:])
    args = build_parser().parse_args(argv)
    try:
        settings = _settings_from(args)
        logging.basicConfig(level=settings.log_level.upper(), format="%(levelname)s %(name)s: %(message)s")
        assistant = build_assistant(settings, desktop=_desktop_for(args, settings), witness=_witness_for(args, settings),
                                    timers_saved=not args.simulate)
    except ConfigError as exc:
        print(f"anovax: {exc.message}", file=sys.stderr)
        return EXIT_USAGE
    for notice in settings.notices:  # settings ignored in favour of their default (a bad search address)
        print(f"anovax: {notice}", file=sys.stderr, flush=True)
    _wayland_notice(assistant)
    if settings.log_path is not None:  # with what came before it: a missed timer fired at start
        try:
            assistant.bus.subscribe("jsonl-log", JsonlLog(settings.log_path), replay=lambda _event: True)
        except OSError as exc:
            print(f"anovax: cannot write the event log {settings.log_path}: {exc.strerror or exc}", file=sys.stderr)
    if args.json and (assistant.orchestrator is not None or args.audio_file is not None):
        # with a timer missed while AnovaX was off, fired before this subscribed (it was dropped)
        assistant.bus.subscribe("stdout", JsonLines(sys.stdout),
                                replay=lambda event: event.type is EventType.TIMER_FIRED)
    # every line for a person goes through here: once the console's status line exists, never
    # over its prompt
    say = Lines(sys.stdout, OUT_LOCK)
    verbose = args.verbose and not args.json
    if verbose and assistant.orchestrator is not None:  # a dry run prints its plan block anyway
        assistant.bus.subscribe("verbose", VerboseTrace(say).feed)
    voice = remote = status = None
    try:
        if (args.text is not None or args.audio_file is not None) and assistant.timers is not None:
            if args.simulate:  # a rehearsal keeps no timer: it says so, rather than promise one
                assistant.timers.rehearsal = True
            else:
                assistant.timers.one_shot = True  # a timer set now waits for the next start
            if not args.json:  # (with --json, the TIMER_FIRED event line above)
                # a timer that came due while AnovaX was off fires now: printed, not only logged
                # (a one-shot run used to take it off timers.json without a word)
                TimerAlerts(assistant.bus, say)
        if args.text is not None:
            _speech_notice(assistant)
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
            emit_result(result, args.json, sys.stdout, assistant, verbose=verbose, write=say)
            assistant.bus.flush()  # a missed timer's alert, fired meanwhile, is printed before the exit
            return result.exit_code
        if args.audio_file is not None:
            _speech_notice(assistant)
            return audio_file_main(assistant, args.audio_file, args.json, sys.stdout, verbose=verbose, lines=say)
        voice = start_voice(assistant, args.json, sys.stdout, say=say, verbose=verbose)
        remote = make_remote(assistant)
        if settings.orb != "off" and not args.json:
            from anovax.orb.controls import OrbControls
            from anovax.orb.run import OrbUnavailable, orb_unavailable, run_orb

            reason = orb_unavailable()  # None: a window can open
            if reason is None:
                controls = OrbControls.for_assistant(assistant, voice=voice, remote=remote)
                try:
                    # Tk on this, the main thread, until closed; the terminal no longer reads commands
                    return run_orb(assistant, controls, opened=lambda: (print(
                        "anovax: the orb window is open: type commands there. Ctrl-C or 'quit' here closes "
                        "the window (Ctrl-C stops a running command first).", file=sys.stderr, flush=True),
                        _speech_notice(assistant, REPLIES_IN_ORB)),
                        terminal=sys.stdin if sys.stdin is not None and sys.stdin.isatty() else None,
                        is_quit=is_quit, hint=sys.stderr)
                except OrbUnavailable as exc:
                    reason = str(exc)
            if settings.orb == "on":
                print(f"anovax: ANOVAX_ORB=on, but the orb cannot open: {reason}. Using the console.",
                      file=sys.stderr)
        from anovax.orb.run import run_console_status

        if voice is not None:  # its first word (listening, or why not) before the banner, not over the prompt
            voice.settled.wait(VOICE_SETTLE_S)
        _speech_notice(assistant)  # before the banner and the first prompt, never over it

        # only on a terminal: elsewhere a status line per change would clutter piped output
        if sys.stderr.isatty() and not args.json:
            status = say.status = run_console_status(assistant, sys.stderr, lock=OUT_LOCK)
        return console(assistant, sys.stdin, sys.stdout, as_json=args.json, status=status, remote=remote, say=say,
                       show=lambda result: emit_result(result, args.json, sys.stdout, assistant, verbose=verbose,
                                                       write=say),
                       greeting=None if args.json else banner(assistant, listening=_listening(voice)))
    finally:
        say.status = None
        if status is not None:
            status.close()
        if remote is not None and remote.running:
            remote.stop()
        if voice is not None:
            voice.close()
        assistant.close()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
