"""anovax.desktop.idle: whether an app's main thread is waiting for events (Linux /proc)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from anovax.desktop.idle import sleeping
from helpers import wait_for

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")


def test_a_process_waiting_on_a_pipe_is_asleep():
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        wait_for(lambda: sleeping(proc.pid), 10.0, "the reader to block on its pipe")
    finally:
        proc.communicate(b"")


def test_a_process_that_computes_is_not():
    proc = subprocess.Popen([sys.executable, "-c", "print(flush=True)\nwhile True: pass"],
                            stdout=subprocess.PIPE)
    try:
        proc.stdout.readline()  # in its loop now: running or waiting for a CPU, never asleep
        assert all(sleeping(proc.pid) is False for _ in range(50))
    finally:
        proc.kill()
        proc.wait()


def test_this_thread_reading_its_own_state_is_running():
    import os

    assert sleeping(os.getpid()) is False


@pytest.mark.parametrize("pid", [None, 0, -1])
def test_no_pid_cannot_be_told(pid):
    assert sleeping(pid) is None


def test_a_gone_process_cannot_be_told():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    assert sleeping(proc.pid) is None


@pytest.mark.parametrize(("stat", "expected"), [
    (b"42 (a b) c) S 1 42", True),  # a command name with spaces and parentheses
    (b"42 (tk) R 1 42", False),
    (b"42 (tk) D 1 42", False),  # waiting for the disk is not waiting for events
    (b"garbage", None),
    (b"42 (tk)", None),
])
def test_the_stat_line_is_parsed_at_the_last_parenthesis(tmp_path, stat, expected):
    (tmp_path / "42").mkdir()
    (tmp_path / "42" / "stat").write_bytes(stat)
    assert sleeping(42, proc_root=tmp_path) is expected
