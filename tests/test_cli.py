"""The command line as a user runs it: a real subprocess, real exit codes, no key, no display."""

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]


@pytest.fixture
def env(tmp_path):
    clean = {k: v for k, v in os.environ.items()
             if k not in {"GEMINI_API_KEY", "GOOGLE_API_KEY", "DISPLAY"} and not k.startswith("ANOVAX_")}
    clean.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_DATA_HOME=str(tmp_path / "data"),
                 ANOVAX_MEMORY=str(tmp_path / "memory.json"), PYTHONPATH=str(REPO))
    return clean


def run(env, *args, stdin=""):
    return subprocess.run([sys.executable, "-m", "anovax", *args], input=stdin, capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=60)


def test_time_and_date_plan_as_json(env):
    proc = run(env, "--text", "what's the time and the date", "--dry-run", "--json")
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert [s["tool"] for s in out["plan"]["steps"]] == ["get_time", "get_date"]
    assert out["verdict"]["ok"] is True and out["status"] == "planned" and out["planner"] == "offline"


def test_terminal_command_is_refused_with_exit_3(env):
    proc = run(env, "--text", "open a terminal and run rm -rf ~", "--dry-run")
    assert proc.returncode == 3, proc.stdout + proc.stderr
    refusal = [line for line in proc.stdout.splitlines() if line.startswith("Refused: ")]
    assert len(refusal) == 1
    sentence = refusal[0].removeprefix("Refused: ")
    assert sentence[0].isupper() and sentence.endswith(".") and "\n" not in sentence


def test_human_output_shows_plan_and_verdict(env):
    proc = run(env, "--text", "open notepad and type hello", "--dry-run")
    assert proc.returncode == 0, proc.stderr
    assert '1. open_app {"name": "notepad"}' in proc.stdout
    assert '2. type_text {"text": "hello"}' in proc.stdout
    assert "Safety: allowed" in proc.stdout


def test_nothing_done_prints_no_empty_simulated_desktop_heading(env):
    proc = run(env, "--text", "stop", "--simulate")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout == "AnovaX: Nothing to stop.\n"


def test_usage_errors_exit_2(env):
    assert run(env, "--bogus").returncode == 2
    assert run(env, "--planner", "gpt").returncode == 2
    bad = dict(env, ANOVAX_PLANNER="gpt")
    proc = run(bad, "--text", "hi")
    assert proc.returncode == 2 and "ANOVAX_PLANNER must be one of" in proc.stderr


def test_empty_command_does_nothing_with_exit_5(env):
    proc = run(env, "--text", "   ", "--json", "--dry-run")
    assert proc.returncode == 5
    assert json.loads(proc.stdout)["message"] == "I didn't catch that."


@pytest.mark.parametrize("args", [("--simulate",), ("--dry-run",)])
def test_a_request_nothing_was_done_for_exits_5_and_small_talk_exits_0(env, args):
    # a first-time user: "I didn't understand …" and "I can only open web addresses …" exited 0
    # with status done, so a script could not tell them from a command that ran
    for text in ("flibber the gnorks", "open htps://example.com"):
        proc = run(env, "--text", text, "--json", *args)
        assert proc.returncode == 5, proc.stdout + proc.stderr
        # a dry run prints one result; --simulate prints every event as a JSON line, COMMAND_DONE holds it
        lines = [json.loads(line) for line in proc.stdout.splitlines()]
        results = [line.get("data", line) for line in lines if line.get("type", "COMMAND_DONE") == "COMMAND_DONE"]
        assert [r.get("status") for r in results if "status" in r] == ["not_done"], proc.stdout
    proc = run(env, "--text", "hello", *args)
    assert proc.returncode == 0 and "AnovaX: Hello" in proc.stdout, proc.stdout + proc.stderr


def test_interactive_console_reads_until_eof(env):
    proc = run(env, stdin="what time is it\n\nopen a terminal and run rm -rf ~\nquit\nnever reached\n")
    assert proc.returncode == 0, proc.stderr
    assert "offline planner" in proc.stdout
    # the reply alone: the plan and the verdict are developer output (--verbose)
    assert re.search(r"^AnovaX: .*It's \d", proc.stdout, re.MULTILINE), proc.stdout
    assert "Plan (" not in proc.stdout and "Safety:" not in proc.stdout
    assert proc.stdout.count("Refused: ") == 1
    assert "never reached" not in proc.stdout


def test_corrupt_memory_file_is_reported_not_fatal(env, tmp_path):
    Path(env["ANOVAX_MEMORY"]).write_text("{broken")
    proc = run(env, stdin="hello\n")
    assert proc.returncode == 0, proc.stderr
    assert "Warning: The memory file" in proc.stdout


def test_run_py_is_the_same_command(env):
    proc = subprocess.run([sys.executable, "run.py", "--text", "what time is it", "--json", "--dry-run"], capture_output=True,
                          text=True, env=env, cwd=REPO, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["plan"]["steps"] == [{"tool": "get_time", "params": {}}]


def test_make_run_starts_the_console(env):
    """`make run` as the README says: no key, no display, no microphone, commands on stdin."""
    proc = subprocess.run(["make", "-s", "run"], input="what's the date\nquit\n", capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert re.search(r"^AnovaX: .*Today is ", proc.stdout, re.MULTILINE), proc.stdout


def json_lines(stdout):
    return [json.loads(line) for line in stdout.splitlines() if line.strip()]


def test_simulated_time_and_date_agents_run_as_one_batch(env):
    """The two read-only agents are one parallel batch. That a batch's agents really run at the
    same time is shown in-process with a gate (test_orchestrator), never by wall-clock stamps,
    which a loaded machine reorders."""
    from anovax.orchestrator import batches
    from anovax.plan import plan_from_obj
    from anovax.tools import TOOLS

    proc = run(env, "--text", "what's the time and the date", "--simulate", "--json")
    assert proc.returncode == 0, proc.stderr
    events = [e for e in json_lines(proc.stdout) if "type" in e]
    (ready,) = [e for e in events if e["type"] == "PLAN_READY"]
    plan = plan_from_obj(ready["data"]["plan"])
    assert [s.tool for s in plan.steps] == ["get_time", "get_date"]
    assert batches(plan.steps, TOOLS) == [[0, 1]]
    spawned = [e["tool"] for e in events if e["type"] == "AGENT_SPAWNED"]
    done = {e["tool"] for e in events if e["type"] == "AGENT_DONE"}
    assert spawned == ["get_time", "get_date"] and done == {"get_time", "get_date"}
    assert events[-1]["type"] == "COMMAND_DONE" and events[-1]["data"]["status"] == "done"
    assert [e["seq"] for e in events] == sorted(e["seq"] for e in events)


def test_simulated_open_then_type_records_exact_text(env):
    proc = run(env, "--text", "open notepad and type hello world", "--simulate", "--json")
    assert proc.returncode == 0, proc.stderr
    lines = json_lines(proc.stdout)
    events = [e for e in lines if "type" in e]
    done_open = next(e["seq"] for e in events if e["type"] == "AGENT_DONE" and e["tool"] == "open_app")
    start_type = next(e["seq"] for e in events if e["type"] == "AGENT_STARTED" and e["tool"] == "type_text")
    assert done_open < start_type
    assert lines[-1]["typed_text"] == "hello world"


def test_simulate_prints_the_reply_alone_by_default(env):
    proc = run(env, "--text", "open notepad and type hello", "--simulate")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "AnovaX: Opening Notepad. Typing into Notepad: hello.\n"


def test_simulate_verbose_output_and_event_log(env, tmp_path):
    log = tmp_path / "events.jsonl"
    proc = run(dict(env, ANOVAX_LOG=str(log)), "--text", "open notepad and type hello", "--simulate", "--verbose")
    assert proc.returncode == 0, proc.stderr
    assert "Simulated desktop:" in proc.stdout and "  type 'hello'" in proc.stdout
    # in the order it happened: the plan, the gate's verdict, then the steps it let run, the reply
    lines = proc.stdout.splitlines()
    order = [lines.index('Plan (offline planner, ' + lines[0].split(", ", 1)[1]) if lines[0].startswith("Plan (")
             else -1, lines.index("Safety: allowed"),
             next(i for i, line in enumerate(lines) if line.startswith("  [done] ")),
             lines.index("AnovaX: Opening Notepad. Typing into Notepad: hello."), lines.index("Simulated desktop:")]
    assert order == sorted(order) and order[0] == 0, proc.stdout
    logged = [json.loads(line)["type"] for line in log.read_text().splitlines()]
    assert logged[0] == "COMMAND_RECEIVED" and logged[-1] == "COMMAND_DONE"
    assert "AGENT_SPAWNED" in logged and "SPEAK_START" in logged


def test_a_simulated_screenshot_claims_no_file(env, tmp_path):
    # issue 18 round 2: without a display no picture is written, so none may be named as saved
    proc = run(env, "--text", "take a screenshot", "--simulate", "--json")
    assert proc.returncode == 0, proc.stderr
    done = [e for e in json_lines(proc.stdout) if e.get("type") == "COMMAND_DONE"][0]
    agent = [e for e in json_lines(proc.stdout) if e.get("type") == "AGENT_DONE"][0]["data"]
    assert agent["value"] == "simulated"
    assert "No screenshot was taken: this desktop is simulated (on a real one it would go to ~/Pictures)." \
        in done["data"]["message"]
    assert "saved" not in done["data"]["message"] and not list((tmp_path / "Pictures").glob("*.png"))
    proc = run(env, "--text", "take a screenshot", "--simulate")
    assert "No screenshot was taken: this desktop is simulated" in proc.stdout


def test_no_display_falls_back_to_simulation_with_a_clear_line(env):
    proc = run(env, "--text", "what time is it")
    assert proc.returncode == 0, proc.stderr
    assert "Actions will be simulated." in proc.stderr


def test_a_recording_ends_with_the_code_most_in_need_of_a_look():
    # a reviewer: max() let one misheard phrase (5, nothing done) hide a failure (4) or a refusal (3)
    from anovax.results import worst_exit_code

    assert worst_exit_code([5, 4, 0]) == 4 and worst_exit_code([3, 5]) == 3 and worst_exit_code([5, 5]) == 5
    assert worst_exit_code([0, 5]) == 0  # a recording that ran a command did something
    assert worst_exit_code([4, 130]) == 130 and worst_exit_code([]) == 0


def test_a_dry_run_says_that_nothing_was_done(env):
    # a first-time user: "--dry-run" printed "AnovaX: Opening Spotify." for an app that is not
    # installed, which reads as if it had opened
    proc = run(env, "--text", "open notepad", "--dry-run")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert proc.stdout.rstrip().endswith("AnovaX: Opening Notepad.\nDry run: nothing was done. The reply above is "
                                         "what AnovaX would say."), proc.stdout
    refused = run(env, "--text", "open a terminal and run rm -rf ~", "--dry-run")
    assert refused.returncode == 3 and "Dry run" not in refused.stdout, refused.stdout
