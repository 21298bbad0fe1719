"""anovax.desktop.idle: whether an app's main thread is waiting for events (Linux /proc)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from anovax.desktop.idle import sleeping, unread_bytes, waiting_for_events
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


# -- unread input: asleep with events waiting is not idle -----------------------------------

_DOZER = """
import socket, sys, time
a, b = socket.socketpair()
print(sys.argv[1], flush=True)
a.send(b"x" * 300)  # bytes the process has been sent and not read yet, like an unread MapNotify
sys.stdin.readline()
b.recv(1000)
print("read", flush=True)
sys.stdin.readline()
"""


def test_a_sleeping_process_with_unread_input_is_not_waiting_for_events():
    proc = subprocess.Popen([sys.executable, "-c", _DOZER, "up"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "up\n"
        wait_for(lambda: sleeping(proc.pid), 10.0, "the process to block on stdin")
        assert unread_bytes(proc.pid) == 300
        assert waiting_for_events(proc.pid) is False
        proc.stdin.write("\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == "read\n"
        wait_for(lambda: waiting_for_events(proc.pid), 10.0, "the process to sleep with nothing unread")
        assert unread_bytes(proc.pid) == 0
    finally:
        proc.communicate("\n")


def test_a_busy_process_is_not_waiting_whatever_its_sockets_hold():
    proc = subprocess.Popen([sys.executable, "-c", "print(flush=True)\nwhile True: pass"],
                            stdout=subprocess.PIPE)
    try:
        proc.stdout.readline()
        assert all(waiting_for_events(proc.pid) is False for _ in range(20))
    finally:
        proc.kill()
        proc.wait()


_UDP = """
import socket, sys
udp = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
udp.bind(("127.0.0.1", 0))
udp.sendto(b"y" * 50, udp.getsockname())
print("sent", flush=True)
sys.stdin.readline()
"""


def test_sockets_of_other_families_count_as_nothing_unread():
    # an inet socket is not the X connection; the kernel's Unix diag answers "no such socket"
    proc = subprocess.Popen([sys.executable, "-c", _UDP], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline() == "sent\n"
        assert unread_bytes(proc.pid) == 0
    finally:
        proc.communicate("\n")


def test_the_unread_count_of_a_gone_process_cannot_be_told():
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    assert unread_bytes(proc.pid) is None
    assert waiting_for_events(proc.pid) is None
