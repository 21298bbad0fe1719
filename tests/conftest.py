import sys
from pathlib import Path

# tests/ is not a package; make its helpers importable as `helpers`
sys.path.insert(0, str(Path(__file__).resolve().parent))

# the loopback fake model servers, as fixtures for every test module
from fakes.fake_gemini import fake_gemini  # noqa: E402,F401
from fakes.fake_ollama import fake_ollama  # noqa: E402,F401


# ----- xvfb: a private X server for the real-desktop tests (tests/test_desktop_real*.py) -----
# Session-scoped: one Xvfb (+ openbox, so windows get focus) for the whole run. It does
# not touch os.environ: tests that want it set DISPLAY/XAUTHORITY from ``xvfb.env``
# with monkeypatch, so the headless tests elsewhere stay headless.
import os as _xvfb_os
import shutil as _xvfb_shutil
import subprocess as _xvfb_subprocess
import sys as _xvfb_sys
from dataclasses import dataclass as _xvfb_dataclass

import pytest as _xvfb_pytest


@_xvfb_dataclass(frozen=True)
class XServer:
    """A running Xvfb: ``env`` holds DISPLAY and XAUTHORITY; ``wm`` is True when openbox runs."""

    display: str
    env: dict
    width: int
    height: int
    wm: bool


_XVFB_WM_CHECK = """
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


def _xvfb_wait_for_wm(env: dict, deadline_s: float) -> bool:
    """True once a window manager announces itself (_NET_SUPPORTING_WM_CHECK on the root).

    Asked from a child process: python-xlib reads DISPLAY/XAUTHORITY from os.environ only.
    """
    done = _xvfb_subprocess.run([_xvfb_sys.executable, "-c", _XVFB_WM_CHECK, str(deadline_s)],
                                env={**_xvfb_os.environ, **env}, capture_output=True, timeout=deadline_s + 10)
    return done.returncode == 0


def _xvfb_die_with_us() -> list:
    """A prefix that makes the server and WM die with pytest, even a pytest killed with -9
    (or by SIGPIPE under `| head`), instead of lingering forever under -noreset."""
    return ["setpriv", "--pdeathsig", "TERM", "--"] if _xvfb_shutil.which("setpriv") else []


@_xvfb_pytest.fixture(scope="session")
def xvfb(tmp_path_factory):
    """Xvfb 1280x800x24 on a free display (chosen by the server: -displayfd) plus openbox."""
    if not _xvfb_shutil.which("Xvfb"):
        _xvfb_pytest.skip("Xvfb is not installed (Debian package xvfb; `make test` installs it)")
    width, height = 1280, 800
    read_fd, write_fd = _xvfb_os.pipe()
    server = _xvfb_subprocess.Popen(
        # -noreset: without it the server resets when its last client leaves, and a
        # window manager starting at that moment fails (PLATFORM_NOTES)
        [*_xvfb_die_with_us(), "Xvfb", "-displayfd", str(write_fd), "-screen", "0", f"{width}x{height}x24",
         "-nolisten", "tcp", "-noreset"],
        pass_fds=(write_fd,), stdout=_xvfb_subprocess.DEVNULL, stderr=_xvfb_subprocess.DEVNULL,
    )
    _xvfb_os.close(write_fd)
    with _xvfb_os.fdopen(read_fd) as pipe:
        number = pipe.readline().strip()  # written once the server accepts connections
    if not number:
        server.kill()
        server.wait()
        _xvfb_pytest.fail("Xvfb did not start")
    xauth = tmp_path_factory.mktemp("xvfb") / "Xauthority"
    xauth.touch()  # python-xlib refuses to connect without an authority file, even an empty one
    env = {"DISPLAY": f":{number}", "XAUTHORITY": str(xauth)}
    wm = None
    if _xvfb_shutil.which("openbox"):
        wm = _xvfb_subprocess.Popen([*_xvfb_die_with_us(), "openbox"], env={**_xvfb_os.environ, **env},
                                    stdout=_xvfb_subprocess.DEVNULL, stderr=_xvfb_subprocess.DEVNULL)
        if not _xvfb_wait_for_wm(env, 10.0):
            wm.kill()
            wm.wait()
            wm = None
    try:
        yield XServer(env["DISPLAY"], env, width, height, wm is not None)
    finally:
        for proc in (wm, server):
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(5)
                except _xvfb_subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
# ----- end of xvfb block -----
