"""Command line and console front end.

    anovax                         interactive prompt (the console interface)
    anovax --text "…"              run one command on the desktop
    anovax --text "…" --simulate   run it against a simulated desktop and show what it would do
    anovax --text "…" --dry-run    plan and safety-check only, print both
    --json                         events as JSON lines (the result object with --dry-run)
    anovax doctor [--json]         what this machine lets AnovaX do: display, window manager,
                                   focus checks, apps, microphone, speech, planner, remote

Exit codes: 0 done, 2 usage or configuration error, 3 refused by safety, 4 failed
(doctor: 0 when no check failed, 1 otherwise).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import logging
import os
import sys
from pathlib import Path
from typing import TextIO

from anovax import __version__, doctor
from anovax.app import Assistant, CommandResult, Status
from anovax.desktop import SimulatedDesktop, make_desktop
from anovax.eventlog import JsonLines, JsonlLog
from anovax.errors import ConfigError
from anovax.settings import PLANNERS, Settings, load_settings

EXIT_USAGE = 2
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
    parser.add_argument("--text", "-t", help="run one command given as text, then exit")
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
    label = {Status.REFUSED: "Refused", Status.FAILED: "Failed"}.get(result.status, "AnovaX")
    lines.append(f"{label}: {result.message}")
    return "\n".join(lines)


def _emit(result: CommandResult, as_json: bool, out: TextIO, assistant: Assistant) -> None:
    simulated = assistant.desktop if isinstance(assistant.desktop, SimulatedDesktop) else None
    actions = simulated.take_actions() if simulated is not None else []
    if as_json:
        if assistant.orchestrator is None:  # dry run: no events worth streaming, print the result
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


def console(assistant: Assistant, stdin: TextIO, out: TextIO, *, as_json: bool = False) -> int:
    """The interactive prompt: one command per line until EOF, 'quit' or Ctrl-C."""
    interactive = stdin.isatty()
    if not as_json:
        out.write(banner(assistant) + "\n")
    while True:
        if interactive:
            out.write("you> ")
            out.flush()
        try:
            line = stdin.readline()
        except KeyboardInterrupt:
            out.write("\n")
            return 0
        if not line:
            return 0
        text = line.strip()
        if not text:
            continue
        if text.lower() in {"quit", "exit", ":q", "bye anova"}:
            return 0
        _emit(assistant.on_speech(text), as_json, out, assistant)


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


def main(argv: list[str] | None = None) -> int:
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
    if args.json and assistant.orchestrator is not None:
        assistant.bus.subscribe("stdout", JsonLines(sys.stdout))
    try:
        if args.text is not None:
            result = assistant.on_speech(args.text)
            _emit(result, args.json, sys.stdout, assistant)
            return result.exit_code
        return console(assistant, sys.stdin, sys.stdout, as_json=args.json)
    finally:
        assistant.close()


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
