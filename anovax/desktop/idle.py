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

Only the main thread counts (``/proc/PID/stat`` describes the thread-group leader): it runs
the event loop in Tk, GTK, Qt and Chromium alike."""

from __future__ import annotations

import os
import socket
import struct
from pathlib import Path

PROC = Path("/proc")

# linux/netlink.h, linux/sock_diag.h, linux/unix_diag.h
_NETLINK_SOCK_DIAG = 4
_SOCK_DIAG_BY_FAMILY = 20
_NLM_F_REQUEST = 1
_NLMSG_ERROR = 2
_UDIAG_SHOW_RQLEN = 0x10
_UNIX_DIAG_RQLEN = 4
_NO_COOKIE = 0xFFFFFFFF
_NLMSG = struct.Struct("=IHHII")  # len, type, flags, seq, pid
_REQUEST = struct.Struct("=BBHIIIII")  # family, protocol, pad, states, inode, show, cookie[2]
_MSG = struct.Struct("=BBBBIII")  # family, type, state, pad, inode, cookie[2]
_ATTR = struct.Struct("=HH")  # len, type
#: sockets asked about per process: a toolkit app has a handful (X, D-Bus, a wakeup pipe)
SOCKETS_MAX = 64


def waiting_for_events(pid: int | None, proc_root: Path = PROC) -> bool | None:
    """True when ``pid``'s main thread is asleep and none of its Unix sockets holds unread
    bytes: it has handled all it was sent and waits for more. False when it runs, is
    runnable, or has input it has not read yet; None when that cannot be known."""
    asleep = sleeping(pid, proc_root)
    if not asleep:
        return asleep
    unread = unread_bytes(pid, proc_root)  # type: ignore[arg-type]  # sleeping() vouched for pid
    return asleep if unread is None else unread == 0


def unread_bytes(pid: int, proc_root: Path = PROC) -> int | None:
    """Bytes waiting unread in ``pid``'s Unix sockets (0: none), or None when that cannot be
    known (the process is gone, its fds are not ours to see, no sock_diag in this kernel)."""
    try:
        inodes = _socket_inodes(proc_root / str(pid) / "fd")
    except OSError:
        return None
    if not inodes:
        return 0
    try:
        with socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, _NETLINK_SOCK_DIAG) as diag:
            diag.settimeout(1.0)
            return sum(_unread(diag, seq, inode) for seq, inode in enumerate(inodes, 1))
    except (OSError, AttributeError, struct.error):  # AttributeError: no AF_NETLINK (not Linux)
        return None


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


def _unread(diag: socket.socket, seq: int, inode: int) -> int:
    """One socket's unread bytes; 0 for a socket that is not a Unix one (an inet socket, or
    one closed meanwhile: the kernel answers with an error message then)."""
    request = _REQUEST.pack(socket.AF_UNIX, 0, 0, 0xFFFFFFFF, inode, _UDIAG_SHOW_RQLEN, _NO_COOKIE, _NO_COOKIE)
    diag.send(_NLMSG.pack(_NLMSG.size + len(request), _SOCK_DIAG_BY_FAMILY, _NLM_F_REQUEST, seq, 0) + request)
    reply = diag.recv(8192)  # one socket per call, one question at a time: this is its answer
    length, kind, _, _, _ = _NLMSG.unpack_from(reply)
    if kind == _NLMSG_ERROR or length < _NLMSG.size + _MSG.size:
        return 0
    at = _NLMSG.size + _MSG.size
    while at + _ATTR.size <= length:
        size, attr = _ATTR.unpack_from(reply, at)
        if size < _ATTR.size:
            break
        if attr == _UNIX_DIAG_RQLEN:
            # for a listening socket this is its backlog of connections, also work not yet done
            return int(struct.unpack_from("=I", reply, at + _ATTR.size)[0])
        at += (size + 3) & ~3
    return 0


def sleeping(pid: int | None, proc_root: Path = PROC) -> bool | None:
    """True when ``pid``'s main thread is asleep waiting for something (state ``S``), False
    when it is running, runnable or in any other state, None when that cannot be known (no
    pid, no /proc, the process is gone)."""
    if pid is None or pid <= 0:
        return None
    try:
        stat = (proc_root / str(pid) / "stat").read_bytes()
    except OSError:
        return None
    # "pid (comm) state ...": comm may itself hold spaces and parentheses, so split at the last ")"
    _, paren, rest = stat.rpartition(b")")
    fields = rest.split()
    if not paren or not fields:
        return None
    return fields[0] == b"S"
