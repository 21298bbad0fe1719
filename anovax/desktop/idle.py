"""Is an app's main thread asleep in its event loop, or does it still have work to do?

A new window whose widget tree has stopped changing is usually ready for keys, but not on a
starved machine: an app that has not been given the CPU changes nothing either, and the keys
then reach a toplevel whose text widget is not mapped yet, and are lost (Tk drops them; the
stress run lost one command in 100 that way). Windows has ``WaitForInputIdle`` for exactly
this. On Linux the same question is answered by the kernel: a thread waiting for events is
asleep (``S``); one with startup work queued is runnable (``R``) until it gets a CPU, however
long that takes. So a launch also waits until the app has been seen asleep for a while.

Asleep is not enough on its own. An app can doze with events already waiting for it: tkinter
naps 20 ms between polls of its event loop, and an app blocked on the window manager sleeps
while the window manager is starved. Under two busy loops the stress run caught exactly that:
the window was mapped and focused, its app asleep, but the app had not yet read the MapNotify
that makes it map its Text; the keys came first and Tk dropped them. So the kernel is asked a
second thing: whether the app's sockets (its X connection among them) hold bytes it has not
read yet (``sock_diag``, what ``ss -x`` shows as Recv-Q). Asleep with nothing unread means it
has handled everything the X server sent it.

Nor is that enough: the next loaded run lost keys to an app asleep with nothing unread, in the
middle of building its window. Two more holes: an app asleep in a round trip whose request the X
server has not read yet (the bytes it sent still sit in its socket: ``ss -x`` Send-Q, counted
here too), and an app that did a burst of startup work between two of our polls and was asleep
at both, because a starved poller looks rarely. The second is closed by the kernel's count of
the CPU time the main thread has used (``/proc/PID/schedstat``): a launch check that sees it
grow by more than an idle app's timers use has seen work being done (``cpu_ns``).

The main thread is the one watched (``/proc/PID/stat`` describes the thread-group leader): it
runs the event loop in Tk, GTK, Qt and Chromium alike. But asleep is not always waiting for
events: it may be waiting for another thread of its own. Tk's main thread does that at every
turn of its loop that has idle work queued (mapping a new Text is idle work): it waits until its
notifier thread has polled the sockets, and under load that thread may not get the CPU for a
while. A CI run typed into the bare toplevel of an app in exactly that state. So an app whose
main thread sleeps on a futex (a lock or condition: waiting for a thread of its own, not for
events) while another thread of it is runnable or in uninterruptible I/O is not idle either
(``threads_at_work``). Only then: a browser's main thread waits for events in epoll while some
of its dozens of threads work, and counting those delayed Chromium's launch by 0.6 s."""

from __future__ import annotations

import os
import socket
import struct
from dataclasses import dataclass
from pathlib import Path

# how long an app must look quiet before it gets keys: the one launch-settle time
from anovax.desktop.launcher import SETTLE_S

PROC = Path("/proc")

#: polls that must all find the app quiet, as well as SETTLE_S: a starved poller looks rarely,
#: and then it is the count, not the clock, that gives the app time to show it is still busy
QUIET_POLLS = 8
#: CPU the app's main thread may use while it counts as quiet: this much, or QUIET_CPU_SHARE of
#: the time when quiet has lasted longer. An idle Tk app's timers use about 1.7 ms per 100 ms
#: here (under two busy loops), while building one Text widget takes 12 ms
QUIET_CPU_S = 0.005
QUIET_CPU_SHARE = 0.05

# linux/netlink.h, linux/sock_diag.h, linux/unix_diag.h
_NETLINK_SOCK_DIAG = 4
_SOCK_DIAG_BY_FAMILY = 20
_NLM_F_REQUEST = 1
_NLMSG_ERROR = 2
_UDIAG_SHOW_RQLEN = 0x10
_UNIX_DIAG_RQLEN = 4
_NO_COOKIE = 0xFFFFFFFF
_TCP_LISTEN = 10  # a Unix socket's listening state, as the kernel reports it
_NLMSG = struct.Struct("=IHHII")  # len, type, flags, seq, pid
_REQUEST = struct.Struct("=BBHIIIII")  # family, protocol, pad, states, inode, show, cookie[2]
_MSG = struct.Struct("=BBBBIII")  # family, type, state, pad, inode, cookie[2]
_ATTR = struct.Struct("=HH")  # len, type
#: sockets asked about per process: a toolkit app has a handful (X, D-Bus, a wakeup pipe)
SOCKETS_MAX = 64


def waiting_for_events(pid: int | None, proc_root: Path = PROC) -> bool | None:
    """True when ``pid``'s main thread is asleep, not in a blocking read (a round trip), not waiting
    on a thread of its own at work, and none of its Unix sockets holds bytes in either direction:
    it has handled all it was sent, nobody has yet to read what it sent (a request it waits on),
    and it waits for more. False when it runs, is runnable, reads, waits for a thread at work, or
    has bytes in flight; None when that cannot be known."""
    asleep = sleeping(pid, proc_root)
    if not asleep or pid is None:  # (sleeping() is None without a pid)
        return asleep
    where = _wchan(pid, proc_root)
    if where is not None and where.startswith(_READ_WAITS) and _age_s(pid, proc_root) < READ_WAIT_MAX_S:
        return False  # in a round trip whose answer has not come: nothing in flight shows it
    if waits_on_a_thread(pid, proc_root) is not False and threads_at_work(pid, proc_root):
        return False
    queues = _queues(pid, proc_root)
    return asleep if queues is None else queues == (0, 0)


#: threads of an app looked at: a browser has dozens, and each look is one small read
THREADS_MAX = 256


#: where a thread sleeps in a blocking read of a socket or a pipe (``/proc/PID/wchan``, as
#: kernels have named it): an event loop never does, it polls first, so an app asleep there is in
#: a round trip whose answer has not come (a D-Bus call at start-up whose service has read the
#: request and takes its time: nothing is in flight either way, and nothing else shows it)
_READ_WAITS = ("unix_stream_read", "__skb_wait_for_more_packets", "sk_wait_data", "anon_pipe_read",
               "pipe_read", "pipe_wait")
#: ...but only in an app's first seconds, its start-up round trips: some apps idle in a read
#: (a Wine app's message loop waits in a read of its server pipe), and past this a read is how
#: such an app waits for events; an older app in a read is judged as before
READ_WAIT_MAX_S = 3.0


def _age_s(pid: int, proc_root: Path) -> float:
    """Seconds since ``pid`` started (``/proc/PID/stat``'s starttime against ``/proc/uptime``);
    infinite when that cannot be read, so nothing is held back on a guess."""
    fields = _stat_fields(proc_root / str(pid) / "stat")
    try:
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # type: ignore[index]
        uptime = float((proc_root / "uptime").read_text(encoding="ascii").split()[0])
    except (TypeError, ValueError, IndexError, OSError):
        return float("inf")
    return max(0.0, uptime - started)


def _wchan(pid: int, proc_root: Path) -> str | None:
    """The kernel function ``pid``'s main thread sleeps in; None when running, or not said."""
    try:
        where = (proc_root / str(pid) / "wchan").read_text(encoding="ascii", errors="replace").strip()
    except OSError:
        return None
    return None if where in ("", "0") else where  # "0": running, or hidden by this kernel


def waits_on_a_thread(pid: int, proc_root: Path = PROC) -> bool | None:
    """True when ``pid``'s main thread sleeps on a futex (the kernel function it waits in,
    ``/proc/PID/wchan``, is one of futex_wait_queue / futex_wait_queue_me / futex_do_wait as
    kernels have named it): a lock or condition, which another thread releases. False when it
    sleeps elsewhere (poll, epoll, select: waiting for events or a peer); None when the kernel
    does not say."""
    where = _wchan(pid, proc_root)
    return None if where is None else where.startswith("futex")


def _stat_fields(path: Path) -> list[bytes] | None:
    """The fields of a ``/proc`` ``stat`` file after "pid (comm)", state first; None when it cannot
    be read. comm may itself hold spaces and parentheses, so the split is at the last ")"."""
    try:
        stat = path.read_bytes()
    except OSError:  # no /proc, or the process or thread is gone
        return None
    _, paren, rest = stat.rpartition(b")")
    fields = rest.split()
    return fields if paren and fields else None


def threads_at_work(pid: int, proc_root: Path = PROC) -> bool | None:
    """True when a thread of ``pid`` other than its main one is runnable or in uninterruptible
    I/O (``R``, ``D``): work the main thread may be waiting for. False when all sleep, None
    when that cannot be known."""
    try:
        tids = [entry.name for entry in os.scandir(proc_root / str(pid) / "task")]
    except OSError:
        return None
    for tid in tids[:THREADS_MAX]:
        if tid == str(pid):
            continue
        fields = _stat_fields(proc_root / str(pid) / "task" / tid / "stat")  # None: ended meanwhile
        if fields and fields[0] in (b"R", b"D"):
            return True
    return False


def unread_bytes(pid: int, proc_root: Path = PROC) -> int | None:
    """Bytes waiting unread in ``pid``'s Unix sockets (0: none), or None when that cannot be
    known (the process is gone, its fds are not ours to see, no sock_diag in this kernel)."""
    queues = _queues(pid, proc_root)
    return None if queues is None else queues[0]


def unconsumed_bytes(pid: int, proc_root: Path = PROC) -> int | None:
    """Bytes ``pid`` has sent through its Unix sockets that the other end has not read yet
    (kernel memory still charged to the sender, so a little more than the payload), or None
    when that cannot be known."""
    queues = _queues(pid, proc_root)
    return None if queues is None else queues[1]


def cpu_ns(pid: int | None, proc_root: Path = PROC) -> int | None:
    """CPU time ``pid``'s main thread has used so far, in nanoseconds (``/proc/PID/schedstat``),
    or None when that cannot be known (no pid, the process is gone, a kernel without it)."""
    if pid is None or pid <= 0:
        return None
    try:
        return int((proc_root / str(pid) / "schedstat").read_bytes().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def process_cpu_ns(pid: int | None, proc_root: Path = PROC) -> int | None:
    """CPU time ``pid`` has used so far in all its threads, dead ones included, in nanoseconds
    (``/proc/PID/stat``'s utime + stime: clock ticks, 10 ms each), or None when that cannot be
    known. A game's or a JVM's work runs on other threads than the one ``cpu_ns`` reads."""
    if pid is None or pid <= 0:
        return None
    fields = _stat_fields(proc_root / str(pid) / "stat")
    try:  # state is the 1st field, utime the 12th, stime the 13th
        ticks = int(fields[11]) + int(fields[12])  # type: ignore[index]
    except (TypeError, ValueError, IndexError):
        return None
    return ticks * 1_000_000_000 // os.sysconf("SC_CLK_TCK")


def _queues(pid: int, proc_root: Path) -> tuple[int, int] | None:
    """(unread, unconsumed) bytes over ``pid``'s Unix sockets, or None when unknown."""
    try:
        inodes = _socket_inodes(proc_root / str(pid) / "fd")
    except OSError:
        return None
    unread = unconsumed = 0
    try:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, _NETLINK_SOCK_DIAG) as diag:
            diag.settimeout(1.0)
            for seq, inode in enumerate(inodes, 1):
                inq, outq = _socket_queues(diag, seq, inode)
                unread, unconsumed = unread + inq, unconsumed + outq
    except (OSError, AttributeError, struct.error):  # AttributeError: no AF_NETLINK (not Linux)
        return None
    return unread, unconsumed


def _socket_inodes(fd_dir: Path) -> list[int]:
    inodes: list[int] = []
    for entry in os.scandir(fd_dir):
        try:
            target = os.readlink(entry.path)
        except OSError:  # closed meanwhile
            continue
        if target.startswith("socket:[") and target.endswith("]"):
            inodes.append(int(target[8:-1]))
            if len(inodes) >= SOCKETS_MAX:
                break
    return inodes


def _socket_queues(diag: socket.socket, seq: int, inode: int) -> tuple[int, int]:
    """One socket's (unread, unconsumed) bytes; (0, 0) for a socket that is not a Unix one (an
    inet socket, or one closed meanwhile: the kernel answers with an error message then)."""
    request = _REQUEST.pack(socket.AF_UNIX, 0, 0, 0xFFFFFFFF, inode, _UDIAG_SHOW_RQLEN, _NO_COOKIE, _NO_COOKIE)
    diag.send(_NLMSG.pack(_NLMSG.size + len(request), _SOCK_DIAG_BY_FAMILY, _NLM_F_REQUEST, seq, 0) + request)
    reply = diag.recv(8192)  # one socket per call, one question at a time: this is its answer
    length, kind, _, _, _ = _NLMSG.unpack_from(reply)
    if kind == _NLMSG_ERROR or length < _NLMSG.size + _MSG.size:
        return 0, 0
    state = _MSG.unpack_from(reply, _NLMSG.size)[2]
    at = _NLMSG.size + _MSG.size
    while at + _ATTR.size <= length:
        size, attr = _ATTR.unpack_from(reply, at)
        if size < _ATTR.size:
            break
        if attr == _UNIX_DIAG_RQLEN:
            inq, outq = struct.unpack_from("=II", reply, at + _ATTR.size)
            # for a listening socket the first is its backlog of connections (also work not yet
            # done) and the second its backlog limit, not bytes
            return int(inq), 0 if state == _TCP_LISTEN else int(outq)
        at += (size + 3) & ~3
    return 0, 0


def sleeping(pid: int | None, proc_root: Path = PROC) -> bool | None:
    """True when ``pid``'s main thread is asleep waiting for something (state ``S``), False
    when it is running, runnable or in any other state, None when that cannot be known (no
    pid, no /proc, the process is gone)."""
    if pid is None or pid <= 0:
        return None
    fields = _stat_fields(proc_root / str(pid) / "stat")
    return None if fields is None else fields[0] == b"S"


@dataclass
class QuietWatch:
    """Since when an app has looked idle at every poll, and what it did meanwhile.

    Quiet ends (``restart``) when a poll finds it busy or with bytes in flight, or when its
    main thread has used more CPU since quiet began than ``QUIET_CPU_S`` / ``QUIET_CPU_SHARE``
    allow: work done between two polls that both found it asleep."""

    since: float = 0.0
    cpu_at: int | None = None  # the main thread's CPU time (ns) when quiet began
    polls: int = 0

    def restart(self, now: float, cpu: int | None) -> None:
        self.since, self.cpu_at, self.polls = now, cpu, 0

    def observe(self, now: float, waiting: bool | None, cpu: int | None) -> None:
        if waiting is False or self._worked(now, cpu):
            self.restart(now, cpu)
            return
        if self.cpu_at is None:
            self.cpu_at = cpu
        self.polls += 1

    def settled(self, now: float) -> bool:
        return now - self.since >= SETTLE_S and self.polls >= QUIET_POLLS

    def _worked(self, now: float, cpu: int | None) -> bool:
        if cpu is None or self.cpu_at is None:
            return False
        budget_s = max(QUIET_CPU_S, QUIET_CPU_SHARE * (now - self.since))
        return (cpu - self.cpu_at) / 1e9 > budget_s
