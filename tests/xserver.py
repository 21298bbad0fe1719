"""A private X server (Xvfb, plus openbox so windows get the focus) for tests and benchmarks.

It never touches os.environ: callers point DISPLAY/XAUTHORITY at ``XServer.env``
themselves, so everything else stays headless.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class XServer:
    """A running Xvfb: ``env`` holds DISPLAY and XAUTHORITY; ``wm`` is True when openbox runs."""

    display: str
    env: dict
    width: int
    height: int
    wm: bool


class XServerMissing(RuntimeError):
    """Xvfb is not installed."""


_WM_CHECK = """
import sys, time
from Xlib import display
conn = display.Display()
atom = conn.intern_atom("_NET_SUPPORTING_WM_CHECK")
end = time.monotonic() + float(sys.argv[1])
while conn.screen().root.get_full_property(atom, 0) is None:
    if time.monotonic() > end:
        sys.exit(1)
    time.sleep(0.02)
"""


def _wait_for_wm(env: dict, deadline_s: float) -> bool:
    """True once a window manager announces itself (_NET_SUPPORTING_WM_CHECK on the root).

    Asked from a child process: python-xlib reads DISPLAY/XAUTHORITY from os.environ only.
    """
    done = subprocess.run([sys.executable, "-c", _WM_CHECK, str(deadline_s)], env={**os.environ, **env},
                          capture_output=True, timeout=deadline_s + 10)
    return done.returncode == 0


def _die_with_us() -> list[str]:
    """A prefix that makes the server and WM die with us, even when we are killed with -9
    (or by SIGPIPE under `| head`), instead of lingering forever under -noreset."""
    return ["setpriv", "--pdeathsig", "TERM", "--"] if shutil.which("setpriv") else []


def _stop(proc: subprocess.Popen | None) -> None:
    if proc is None:
        return
    proc.terminate()
    try:
        proc.wait(5)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


@contextlib.contextmanager
def x_server(width: int = 1280, height: int = 800, *, wm: bool = True,
             workdir: Path | None = None) -> Iterator[XServer]:
    """Xvfb on a free display (chosen by the server: -displayfd), plus openbox when ``wm``."""
    if not shutil.which("Xvfb"):
        raise XServerMissing("Xvfb is not installed (Debian package xvfb; `make test` installs it)")
    read_fd, write_fd = os.pipe()
    server = subprocess.Popen(
        # -noreset: without it the server resets when its last client leaves, and a
        # window manager starting at that moment fails (PLATFORM_NOTES)
        [*_die_with_us(), "Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24",
         "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_fd,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    os.close(write_fd)
    with os.fdopen(read_fd) as pipe:
        number = pipe.readline().strip()  # written once the server accepts connections
    if not number:
        _stop(server)
        raise RuntimeError("Xvfb did not start")
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        xauth = Path(tmp) / "Xauthority"
        xauth.touch()  # an empty authority: the server was started without one
        env = {"DISPLAY": f":{number}", "XAUTHORITY": str(xauth)}
        manager = None
        if wm and shutil.which("openbox"):
            manager = subprocess.Popen([*_die_with_us(), "openbox"], env={**os.environ, **env},
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if not _wait_for_wm(env, 10.0):
                _stop(manager)
                manager = None
        try:
            yield XServer(env["DISPLAY"], env, width, height, manager is not None)
        finally:
            _stop(manager)
            _stop(server)


@contextlib.contextmanager
def x_display(width: int = 1280, height: int = 800) -> Iterator[XServer]:
    """``x_server`` made this process's display (``DISPLAY``, ``XAUTHORITY``) until the block ends,
    for benchmarks and scripts that drive real adapters; the old values come back afterwards."""
    with x_server(width, height) as server:
        saved = {key: os.environ.get(key) for key in server.env}
        os.environ.update(server.env)
        try:
            yield server
        finally:
            for key, value in saved.items():
                if value is None:
                    os.environ.pop(key, None)
                else:
                    os.environ[key] = value
