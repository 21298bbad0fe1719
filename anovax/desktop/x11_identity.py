"""X11: which process owns a window, and what that window is (``X11Identifier``).

The pid comes from the window's ``_NET_WM_PID``, else from the X server itself: the X-Resource
extension's ``QueryClientIds`` with the LocalClientPID mask names the process at the other end
of the connection that created the window. That is how a Tk window (Tk sets no ``_NET_WM_PID``)
is traced to its program. The server only knows it for local clients; otherwise the pid stays
unknown and the window UNKNOWN.

Why the request is defined here with python-xlib's ``rq`` module: the installed ``Xlib`` may
be pyautogui's dependency ``python3-xlib`` (0.15 here), which has no ``Xlib.ext.res``; python-xlib
gained it only in 0.29. One request, written from the X-Resource 1.2 protocol, works with either
package and on the connection we already hold; calling libXRes through ctypes would have added a
Debian package and a second connection for the same three words on the wire.

The rest is /proc (procfs.py), the installed ``.desktop`` entries and the user's ``[apps]``,
judged by identity.py. Lookups are cached per (window, pid) for ``CACHE_S``.
"""

from __future__ import annotations

import logging
import os
import struct
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from anovax.desktop import apps, procfs
from anovax.desktop.identity import AppEntry, Proc, classify_program, identify, parse_entry
from anovax.target import TargetClass, WindowIdentity, unknown

log = logging.getLogger(__name__)

#: X-Resource's name, and its QueryClientIds minor opcode (protocol 1.2)
XRES = "X-Resource"
_QUERY_CLIENT_IDS = 4
#: XRes client id mask: the client's local process id
LOCAL_CLIENT_PID = 2
#: an identity is reused this long for the same (window, pid): a chunk-by-chunk caller asks often,
#: while a shell started in a terminal a moment ago must still be seen soon
CACHE_S = 1.0
#: installed applications are read again after this long (an app installed meanwhile)
ENTRIES_TTL_S = 300.0


def _client_ids_request() -> Any:
    """The QueryClientIds request class, built on first use (python-xlib is imported lazily)."""
    from Xlib.protocol import rq

    spec = rq.Struct(rq.Card32("client"), rq.Card32("mask"))

    class QueryClientIds(rq.ReplyRequest):
        _request = rq.Struct(rq.Card8("opcode"), rq.Opcode(_QUERY_CLIENT_IDS), rq.RequestLength(),
                             rq.LengthOf("specs", 4), rq.List("specs", spec))
        # each id is (client, mask, length in bytes, value): parsed by hand below, because rq's
        # List counts items where XRes counts bytes
        _reply = rq.Struct(rq.ReplyCode(), rq.Pad(1), rq.Card16("sequence_number"), rq.ReplyLength(),
                           rq.Card32("count"), rq.Pad(20), rq.String8("ids", pad=0))

    return QueryClientIds


_REQUEST: Any = None


def parse_client_ids(count: int, data: bytes) -> int | None:
    """The pid in a QueryClientIds reply's ids (``count`` of them in ``data``), else None."""
    offset = 0
    for _ in range(count):
        if offset + 12 > len(data):
            return None
        _client, mask, length = struct.unpack_from("=III", data, offset)
        offset += 12
        if mask == LOCAL_CLIENT_PID and length >= 4 and offset + 4 <= len(data):
            pid = struct.unpack_from("=I", data, offset)[0]
            return pid if pid > 0 else None
        offset += length
    return None


def xres_opcode(display: Any) -> int | None:
    """X-Resource's major opcode on ``display`` (a python-xlib Display), or None without it."""
    ext = display.query_extension(XRES)
    return ext.major_opcode if ext is not None and getattr(ext, "present", False) else None


def xres_pid(display: Any, opcode: int, window: int) -> int | None:
    """The pid of the client that created ``window``, by X-Resource (``opcode`` from xres_opcode);
    None when the server does not know it (a remote client)."""
    global _REQUEST
    if _REQUEST is None:
        _REQUEST = _client_ids_request()
    reply = _REQUEST(display=display.display, opcode=opcode, specs=[{"client": window, "mask": LOCAL_CLIENT_PID}])
    ids = reply.ids.encode("utf-8") if isinstance(reply.ids, str) else bytes(reply.ids)  # rq decodes valid UTF-8
    return parse_client_ids(reply.count, ids)


def load_entries(dirs: Iterable[Path]) -> list[AppEntry]:
    """Every application entry in ``dirs``; the first file of a given name wins (XDG order)."""
    out = []
    for path in apps.entry_files(dirs):
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        entry = parse_entry(text, path.name)
        if entry is not None:
            out.append(entry)
    return out


class X11Identifier:
    """Identities of X11 windows (``identify``) and of programs not yet started (``classify_argv``).

    ``describe(window)`` is X11Focus.describe, ``client_pid(window)`` X11Focus.client_pid: the
    focus connection's own lock keeps the requests in order. Never raises: any failure is an
    UNKNOWN identity that says why.
    """

    def __init__(self, describe: Callable[[int], Any], client_pid: Callable[[int], int | None], *,
                 vouched: Iterable[apps.App] = (), entry_dirs: Callable[[], list[Path]] | None = None,
                 proc_root: Path = procfs.PROC, own_pid: int | None = None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._describe, self._client_pid = describe, client_pid
        self._vouched = tuple(vouched)
        self._entry_dirs = entry_dirs or (lambda: apps.application_dirs(os.environ))
        self._proc_root, self._own_pid, self._clock = proc_root, own_pid or os.getpid(), clock
        self._lock = threading.Lock()
        self._entries: list[AppEntry] | None = None
        self._entries_at = 0.0
        self._cache: dict[tuple[int, int | None], tuple[float, WindowIdentity]] = {}

    def entries(self) -> list[AppEntry]:
        """The installed application entries (read once per ENTRIES_TTL_S)."""
        with self._lock:
            now = self._clock()
            if self._entries is None or now - self._entries_at > ENTRIES_TTL_S:
                self._entries, self._entries_at = load_entries(self._entry_dirs()), now
            return self._entries

    def identify(self, window: int) -> WindowIdentity | None:
        """What ``window`` is; None when it no longer exists."""
        try:
            info = self._describe(window)
            if info is None:
                return None
            pid, pid_from = info.pid, "_NET_WM_PID"
            if pid is None:
                pid, pid_from = self._client_pid(window), "XRes"
        except Exception as exc:  # a dead connection or a protocol surprise: nobody can vouch for it
            log.warning("could not look window %#x up: %s", window, exc)
            return unknown(window=window, why=f"lookup failed: {exc}")
        key = (window, pid)
        now = self._clock()
        with self._lock:
            hit = self._cache.get(key)
            if hit is not None and now - hit[0] < CACHE_S:
                return hit[1]
        try:
            facts = procfs.process_facts(pid, self._proc_root) if pid is not None else None
            found = identify(window, title=info.title, wm_class=info.wm_class, pid=pid, facts=facts,
                             own_pid=self._own_pid, entries=self.entries(), vouched=self._vouched,
                             pid_from=pid_from)
        except Exception as exc:  # unreadable /proc or entries: fail closed
            log.warning("could not identify window %#x: %s", window, exc)
            return unknown(info.title, window=window, why=f"identification failed: {exc}")
        with self._lock:
            self._cache = {k: v for k, v in self._cache.items() if now - v[0] < CACHE_S}
            self._cache[key] = (now, found)
        return found

    def classify_argv(self, argv: tuple[str, ...]) -> TargetClass:
        """The class of the program ``argv`` would start (its executable resolved, not run)."""
        try:
            # a symlink such as x-terminal-emulator: Proc.names holds the real program's name and argv[0]'s
            exe = os.path.realpath(argv[0]) if os.path.isabs(argv[0]) else argv[0]
            klass, why, _name, _cats = classify_program(Proc(0, exe, argv), entries=self.entries(),
                                                        vouched=self._vouched)
            log.debug("%s classifies as %s: %s", argv[0], klass.value, why)
            return klass
        except Exception as exc:  # fail closed
            log.warning("could not classify %s: %s", argv[0] if argv else "?", exc)
            return TargetClass.UNKNOWN

