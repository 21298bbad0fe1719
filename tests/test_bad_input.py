"""Bad input never costs an event (issue point 8).

Undecodable bytes on the console or in ``--text``, a lone surrogate or invalid UTF-8 from the
phone, NUL and other control characters: the command runs on text with U+FFFD in it (or is
refused with one sentence), and the JSONL log, ``--json`` output and the console keep every
event without a single logging traceback.
"""

from __future__ import annotations

import io
import json
import logging
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import finishes, wait_for
from hypothesis import given
from hypothesis import strategies as st
from remote_kit import TEST_LIMITS, request, start_remote, stop_remote

from anovax.app import Status, build_assistant
from anovax.desktop import SimulatedDesktop
from anovax.eventlog import JsonLines, JsonlLog, json_line
from anovax.events import Event, EventBus, EventType
from anovax.memory import Memory
from anovax.remote import RemoteServer
from anovax.settings import Settings
from anovax.textclean import REPLACEMENT, clean_text, fix_surrogates, tolerant_stdio

REPO = Path(__file__).resolve().parents[1]
#: console lines that end the session instead of running (cli.console)
ENDS_CONSOLE = {"quit", "exit", ":q", "bye anova"}
#: an interpreter that decodes stdio strictly (a UTF-8 terminal locale) instead of with surrogateescape
STRICT_STDIO = {"PYTHONIOENCODING": "utf-8:strict"}
#: the --text argument, as the bytes a shell would pass: Latin-1, a BOM-ish pair, an encoded
#: surrogate, a truncated sequence, DEL and an escape sequence around words the planner knows
BAD_ARGV = b"open notepad and type caf\xe9 \xff\xfe na\xc3\xafve \xed\xa0\x80 \xe2\x82 \x7f\x1b[31m ok"


# -- helpers ---------------------------------------------------------------------------------


@pytest.fixture
def env(tmp_path):
    clean = {k: v for k, v in os.environ.items()
             if k not in {"GEMINI_API_KEY", "GOOGLE_API_KEY", "DISPLAY", "PYTHONIOENCODING", "PYTHONUTF8"}
             and not k.startswith("ANOVAX_")}
    clean.update(HOME=str(tmp_path), XDG_CONFIG_HOME=str(tmp_path / "cfg"), XDG_DATA_HOME=str(tmp_path / "data"),
                 ANOVAX_MEMORY=str(tmp_path / "memory.json"), ANOVAX_LOG=str(tmp_path / "events.jsonl"),
                 ANOVAX_PLANNER="offline", ANOVAX_VOICE="off", ANOVAX_ORB="off", ANOVAX_REMOTE="0", DISPLAY="",
                 PYTHONPATH=str(REPO))
    return clean


def run_cli(env: dict, *args: str | bytes, stdin: bytes = b"", timeout: float = 300) -> subprocess.CompletedProcess:
    """The CLI in a subprocess, bytes in and bytes out (argv may hold bytes that are not UTF-8)."""
    return subprocess.run([sys.executable, "-m", "anovax", *args], input=stdin, capture_output=True, env=env,
                          cwd=REPO, timeout=timeout)


def decoded_output(proc: subprocess.CompletedProcess) -> tuple[str, str]:
    """stdout and stderr, which must be UTF-8 (no raw bad bytes echoed) and free of tracebacks."""
    out = proc.stdout.decode("utf-8")
    err = proc.stderr.decode("utf-8")
    for stream in (out, err):
        assert "Traceback" not in stream, err[-3000:]
        assert "Logging error" not in stream, err[-3000:]
    return out, err


def log_events(path: Path) -> list[dict]:
    """Every event in the JSONL log and its rotated backups, oldest first; each line must be
    UTF-8 JSON, and splitting on any line break Python knows must find the same lines."""
    events: list[dict] = []
    for file in [path.with_name(f"{path.name}.{n}") for n in (3, 2, 1)] + [path]:
        if not file.exists():
            continue
        raw = file.read_bytes()
        assert raw.endswith(b"\n")
        lines = raw.decode("utf-8").splitlines()
        assert len(lines) == raw.count(b"\n"), f"a line break inside a JSON line in {file.name}"
        events.extend(json.loads(line) for line in lines)
    return events


def count(events: list[dict], kind: str) -> int:
    return sum(1 for e in events if e["type"] == kind)


def has_surrogate(text: str) -> bool:
    return any(0xD800 <= ord(ch) <= 0xDFFF for ch in text)


def expected_commands(data: bytes) -> int:
    """The commands the console runs for ``data``: one per non-blank line that is not a control."""
    n = 0
    for raw in data.split(b"\n"):
        text = raw.decode("utf-8", "replace").strip()
        if text.lower() in ENDS_CONSOLE:
            break
        if text and not text.startswith(":"):
            n += 1
    return n


def random_console_input(size: int = 300 * 1024, seed: int = 8) -> bytes:
    """``size`` seeded random bytes; about one line in 100 is a real command with bad bytes in it,
    so the planner and the simulated desktop (agents, typing) get U+FFFD text too (few: each
    one's app launch takes the simulated desktop 0.3 s)."""
    rng = random.Random(seed)
    data = bytearray(rng.randbytes(size))  # a newline every 256 bytes on average: ~1,200 lines
    pos = 0
    while True:
        pos = data.find(b"\n", pos + 1)
        if pos < 0:
            break
        if rng.random() < 1 / 100:
            line = b"open notepad and type h\xffi \x00there\xed\xb2\x80 \xe2\x80\xa8x\n"
            data[pos + 1:pos + 1] = line
            pos += len(line) - 1
    return bytes(data[:size]) + b"\n"


# -- the console and --text, end to end ------------------------------------------------------


def test_300kb_of_random_bytes_on_the_console_cost_no_event(env, tmp_path):
    data = random_console_input()
    expected = expected_commands(data)
    assert expected >= 300  # hundreds of commands, every length up to several KB
    started = time.monotonic()
    proc = run_cli(env, "--simulate", stdin=data)
    took = time.monotonic() - started
    out, err = decoded_output(proc)
    assert proc.returncode == 0, err[-3000:]
    events = log_events(tmp_path / "events.jsonl")
    received = [e for e in events if e["type"] == "COMMAND_RECEIVED"]
    done = [e for e in events if e["type"] == "COMMAND_DONE"]
    print(f"300 KB console run: {expected} commands, {len(events)} events, {took:.1f} s")
    assert len(received) == len(done) == expected, (len(received), len(done), expected)
    assert {e["command_id"] for e in received} == {e["command_id"] for e in done}
    assert not any(has_surrogate(json.dumps(e, ensure_ascii=False)) for e in events)
    texts = [e["data"]["text"] for e in received]
    assert any(REPLACEMENT in t for t in texts)
    assert all("\x00" not in t and "\x1b" not in t for t in texts)
    typed = [e for e in events if e["type"] == "AGENT_DONE" and e.get("tool") == "type_text"]
    assert typed, "the planted commands ran on the simulated desktop"
    answers = [line for line in out.split("\n") if line.startswith(("AnovaX: ", "Failed: ", "Refused: "))]
    assert len(answers) == expected  # the console printed every command's result


@pytest.mark.parametrize("args,io_env", [
    (("--json", "--simulate"), {}),
    (("--json", "--dry-run"), STRICT_STDIO),
    (("--simulate",), STRICT_STDIO),
    (("--dry-run",), {}),
], ids=["json-simulate", "json-dryrun-strict-stdio", "human-simulate-strict-stdio", "human-dryrun"])
def test_invalid_utf8_in_the_text_argument_costs_no_event(env, tmp_path, args, io_env):
    proc = run_cli(env | io_env, "--text", BAD_ARGV, *args)
    out, err = decoded_output(proc)
    assert proc.returncode == 0, (proc.returncode, out, err)
    events = log_events(tmp_path / "events.jsonl")
    assert count(events, "COMMAND_RECEIVED") == count(events, "COMMAND_DONE") == 1
    text = next(e for e in events if e["type"] == "COMMAND_RECEIVED")["data"]["text"]
    assert text.startswith("open notepad and type caf\ufffd \ufffd\ufffd na\u00efve ")
    assert not has_surrogate(text) and "\x7f" not in text and "\x1b" not in text
    if "--json" in args:
        lines = [json.loads(line) for line in out.splitlines()]  # every stdout line is JSON
        if "--simulate" in args:  # the event stream, then the simulated desktop's record
            types = [line.get("type") for line in lines]
            assert types.count("COMMAND_RECEIVED") == types.count("COMMAND_DONE") == 1
            assert "\ufffd" in lines[-1]["typed_text"]
        else:
            assert lines[0]["text"] == text and lines[0]["status"] == "planned"
    elif "--dry-run" in args:  # the plan block
        assert "type_text" in out and "\ufffd" in out
    else:  # the reply alone
        assert "Typing into Notepad: caf\ufffd" in out, out


def test_bad_bytes_and_controls_on_a_strict_console(env, tmp_path):
    data = (b"open notepad and type \xff\xfe hi\n"
            b"\x00\x01\x02what time is it\x7f\n"
            b"\xc3\x28\r\n"
            b"\n"
            b"open calculator\xed\xa0\x80\n")
    proc = run_cli(env | STRICT_STDIO, "--simulate", stdin=data)
    out, err = decoded_output(proc)
    assert proc.returncode == 0, err
    events = log_events(tmp_path / "events.jsonl")
    assert count(events, "COMMAND_RECEIVED") == count(events, "COMMAND_DONE") == 4
    texts = [e["data"]["text"] for e in events if e["type"] == "COMMAND_RECEIVED"]
    assert texts[0] == "open notepad and type \ufffd\ufffd hi"
    assert texts[1] == "\ufffd\ufffd\ufffdwhat time is it\ufffd"
    assert texts[2] == "\ufffd("


# -- the phone -------------------------------------------------------------------------------


@pytest.fixture
def remote(tmp_path):
    r = start_remote(tmp_path)
    yield r
    stop_remote(r)


def post_raw(remote, body: bytes):
    return remote.request("POST", "/api/command", body=body,
                          headers={**remote.auth, "Content-Type": "application/json"})


def test_phone_lone_surrogate_and_controls_are_cleaned_before_the_queue(remote):
    resp = post_raw(remote, b'{"text": "open notepad \\ud800 and \\u0000 \\udcff"}')
    assert resp.status == 202, resp.body
    assert remote.submit.calls == [("open notepad \ufffd and \ufffd \ufffd", "phone")]
    # a well-formed pair is one character, not two replacements
    resp = post_raw(remote, b'{"text": "type \\ud83d\\ude00"}')
    assert resp.status == 202 and remote.submit.calls[-1][0] == "type \U0001F600"
    # a surrogate encoded as if it were a character: json.loads reads it as a lone surrogate
    resp = post_raw(remote, b'{"text": "open \xed\xa0\x80 notepad"}')
    assert resp.status == 202 and remote.submit.calls[-1][0] == "open \ufffd notepad"


@pytest.mark.parametrize("body", [
    b'{"text": "caf\xe9"}',  # Latin-1
    b'{"text": "\xff\xfe\xfd"}',
    b'{"text": "open \xc3\x28 \xe2\x82"}',  # a broken two-byte and a truncated three-byte sequence
    b'\xff{"text": "x"}',
], ids=["latin1", "junk-bytes", "broken-sequences", "junk-before-json"])
def test_phone_invalid_utf8_body_is_a_clear_400(remote, body):
    resp = post_raw(remote, body)
    assert resp.status == 400 and resp.header("Content-Type") == "application/json"
    message = resp.json()["error"]
    assert "UTF-8" in message and "Traceback" not in message
    assert remote.submit.calls == []


def test_phone_surrogate_reaches_the_log_as_a_replacement(tmp_path):
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None, remote_port=0,
                        remote_bind="127.0.0.1")
    assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=SimulatedDesktop())
    log = JsonlLog(tmp_path / "events.jsonl")
    assistant.bus.subscribe("jsonl-log", log)
    server = RemoteServer(settings, assistant.bus, assistant.submit, limits=TEST_LIMITS)
    server.start()
    try:
        resp = request(server.port, "POST", "/api/command", body=b'{"text": "open notepad and type \\ud800!"}',
                       headers={"Authorization": f"Bearer {server.token}", "Content-Type": "application/json"})
        assert resp.status == 202, resp.body
        command_id = resp.json()["command_id"]
        wait_for(lambda: any(e.type is EventType.COMMAND_DONE and e.command_id == command_id
                             for e in assistant.bus.recent()), timeout_s=20)
        assert assistant.bus.flush()
    finally:
        server.stop()
        assistant.close()
        log.close()
    events = [e for e in log_events(tmp_path / "events.jsonl") if e["command_id"] == command_id]
    assert [e["type"] for e in events][0] == "COMMAND_RECEIVED" and events[-1]["type"] == "COMMAND_DONE"
    assert events[0]["data"]["text"] == "open notepad and type \ufffd!"
    assert events[-1]["data"]["status"] == "done"


# -- Assistant.submit ------------------------------------------------------------------------


def test_submit_cleans_text_from_every_source(tmp_path):
    settings = Settings(planner="offline", memory_path=tmp_path / "memory.json", log_path=None)
    assistant = build_assistant(settings, memory=Memory(settings.memory_path))  # dry run
    seen: list[Event] = []
    assistant.bus.subscribe("seen", seen.append)
    try:
        result = assistant.on_speech("open notepad and type \udcff\x00hi")
        assert result.status is Status.PLANNED
        assert result.text == "open notepad and type \ufffd\ufffdhi"
        assert result.plan.steps[-1].params["text"] == "\ufffd\ufffdhi"
        for junk in (None, b"\xff", 42):
            assert assistant.on_speech(junk).message == "I didn't catch that."
        assert assistant.bus.flush()
    finally:
        assistant.close()
    received = [e for e in seen if e.type is EventType.COMMAND_RECEIVED]
    assert received[0].data["text"] == "open notepad and type \ufffd\ufffdhi"
    assert len(received) == sum(e.type is EventType.COMMAND_DONE for e in seen) == 4


# -- clean_text ------------------------------------------------------------------------------


@pytest.mark.parametrize("value,expected", [
    ("open notepad", "open notepad"),
    ("caf\u00e9 \U0001F600 \u4e2d", "caf\u00e9 \U0001F600 \u4e2d"),  # real text is untouched
    ("a\udcffb", "a\ufffdb"),  # a surrogateescape byte
    ("\ud800", "\ufffd"),  # a lone high surrogate from JSON
    ("\udc80\udc81", "\ufffd\ufffd"),
    ("\ud83d\ude00", "\ufffd\ufffd"),  # a pair split into two code points is not a character in a str
    ("a\x00b", "a\ufffdb"),
    ("\x1b[31mred\x1b[0m", "\ufffd[31mred\ufffd[0m"),
    ("del\x7f c1\x85\x9f", "del\ufffd c1\ufffd\ufffd"),
    ("tab\tnew\nline", "tab\tnew\nline"),
    ("crlf\r\nlone\rcr", "crlf\nlone\ncr"),
    ("", ""),
])
def test_clean_text(value, expected):
    assert clean_text(value) == expected


@pytest.mark.parametrize("value", [None, 42, 3.5, b"open notepad", bytearray(b"x"), ["open"], object()])
def test_clean_text_of_a_non_string_is_empty(value):
    assert clean_text(value) == ""


#: any code point, with Latin-1 (controls among them) and surrogates far more often than by chance
ANY_CHAR = st.one_of(st.integers(0, 0xFF), st.integers(0xD800, 0xDFFF), st.integers(0, 0x10FFFF)).map(chr)


@given(st.text(alphabet=ANY_CHAR, max_size=200))
def test_clean_text_is_always_encodable_and_control_free(value):
    cleaned = clean_text(value)
    cleaned.encode("utf-8")  # strict: no surrogate survives
    assert all(ch in "\t\n" or not (ord(ch) < 0x20 or 0x7F <= ord(ch) < 0xA0) for ch in cleaned)
    assert clean_text(cleaned) == cleaned
    assert len(cleaned) <= len(value)


def test_clean_text_is_linear():
    nasty = ("\udcff\x00a\r\n\ud800\r" * 200_000)  # 1.4 M characters, nearly all to replace
    # a deadline against a quadratic blow-up (which would take hours here), not a speed check
    cleaned = finishes(lambda: clean_text(nasty), 60.0, "clean_text on 1.4 M characters")
    assert len(cleaned) == 6 * 200_000 and not has_surrogate(cleaned)


def test_fix_surrogates_leaves_good_text_alone():
    text = "caf\u00e9 \x00 \U0001F600"
    assert fix_surrogates(text) == text
    assert fix_surrogates("\udcff") == "\ufffd"


# -- the writers -----------------------------------------------------------------------------


def nasty_event(seq: int = 1) -> Event:
    class Odd:
        def __str__(self) -> str:
            return "odd \udcff"

    return Event(EventType.COMMAND_RECEIVED, f"c{seq}", seq=seq, tool="type_\ud800", error="bad \udc80 byte",
                 params={"text": "\udcff\x00", "\udcfekey": 1},
                 data={"text": "line\u2028sep\x85nel\u2029para \udcff", "obj": Odd()})


def test_json_line_survives_any_str():
    event = nasty_event().to_dict()
    line = json_line(event)
    line.encode("utf-8")
    assert len(line.splitlines()) == 1
    back = json.loads(line)
    assert back["error"] == "bad \ufffd byte" and back["tool"] == "type_\ufffd"
    assert back["data"]["text"] == "line\u2028sep\x85nel\u2029para \ufffd"  # escaped on the wire, same text
    assert back["data"]["obj"] == "odd \ufffd" and back["params"] == {"text": "\ufffd\x00", "\ufffdkey": 1}
    ascii_line = json_line(event, ascii_only=True)
    assert ascii_line.isascii() and json.loads(ascii_line) == back


def test_jsonl_log_keeps_every_event_and_never_prints_a_logging_error(tmp_path, capsys):
    log = JsonlLog(tmp_path / "events.jsonl")
    for seq in range(1, 51):
        log(nasty_event(seq))
    log.close()
    events = log_events(tmp_path / "events.jsonl")
    assert [e["seq"] for e in events] == list(range(1, 51))
    assert events[0]["data"]["text"].endswith("para \ufffd")
    assert capsys.readouterr().err == ""


def test_jsonl_log_that_cannot_be_written_says_so_once_without_a_traceback(tmp_path, capsys):
    folder = tmp_path / "events.jsonl"
    folder.mkdir()  # a folder where the file should be: every write fails
    log = JsonlLog(folder)
    for seq in range(1, 6):
        log(nasty_event(seq))
    log.close()
    err = capsys.readouterr().err
    assert "Logging error" not in err and "Traceback" not in err
    assert err.count("cannot write the event log") == 1


@pytest.mark.parametrize("encoding", ["utf-8", "ascii", "latin-1"])
def test_json_lines_on_a_strict_stream_of_any_encoding(encoding):
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding=encoding, errors="strict", write_through=True)
    writer = JsonLines(out)
    writer(nasty_event(1))
    writer(Event(EventType.COMMAND_DONE, "c1", seq=2, data={"text": "caf\u00e9 \U0001F600 \ufffd"}))
    lines = raw.getvalue().decode(encoding).splitlines()
    assert len(lines) == 2
    first, second = (json.loads(line) for line in lines)
    assert first["data"]["text"].endswith("para \ufffd")
    assert second["data"]["text"] == "caf\u00e9 \U0001F600 \ufffd"


def test_the_event_bus_counts_no_error_for_bad_text(tmp_path):
    bus = EventBus()
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8", errors="strict", write_through=True)
    bus.subscribe("jsonl-log", JsonlLog(tmp_path / "events.jsonl"))
    bus.subscribe("stdout", JsonLines(out))
    for seq in range(20):
        bus.publish(nasty_event(seq))
    assert bus.flush()
    stats = bus.stats()
    bus.close()
    assert all(s["errors"] == 0 and s["dropped"] == 0 for s in stats.values()), stats
    assert len(log_events(tmp_path / "events.jsonl")) == 20


def test_tolerant_stdio_reads_and_writes_anything(monkeypatch):
    stdin = io.TextIOWrapper(io.BytesIO(b"open \xff\xfe notepad\n\xc3\x28\n"), encoding="utf-8", errors="strict")
    stdout_raw, stderr_raw = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(stdout_raw, encoding="utf-8", errors="strict", write_through=True)
    stderr = io.TextIOWrapper(stderr_raw, encoding="ascii", errors="strict", write_through=True)
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    tolerant_stdio()
    assert sys.stdin.readline() == "open \ufffd\ufffd notepad\n"
    assert sys.stdin.readline() == "\ufffd(\n"
    print("heard \udcff caf\u00e9")
    handler = logging.StreamHandler(sys.stderr)  # what logging.basicConfig sets up
    record = logging.makeLogRecord({"msg": "heard %s", "args": ("\udcff caf\u00e9",), "levelno": logging.WARNING})
    handler.handle(record)
    assert stdout_raw.getvalue() == "heard ? caf\u00e9\n".encode()
    assert stderr_raw.getvalue() == b"heard \\udcff caf\\xe9\n"


def test_tolerant_stdio_leaves_stand_ins_alone(monkeypatch):
    class NoReconfigure:
        encoding = "utf-8"

    monkeypatch.setattr(sys, "stdin", NoReconfigure())
    monkeypatch.setattr(sys, "stdout", io.StringIO())
    tolerant_stdio()  # neither raises
