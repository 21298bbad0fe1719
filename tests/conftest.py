import os
import signal
import sys
from pathlib import Path

# Started as a background job (`make test &`, nohup, some CI runners), this process inherits
# Ctrl-C *ignored*, and so would every program a test starts: the tests of what Ctrl-C does
# would then see it do nothing. A Python-level handler is reset to the default on exec, so with
# one installed here each child starts with Ctrl-C working, as it does in a terminal.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

# tests/ is not a package; make its helpers importable as `helpers`
sys.path.insert(0, str(Path(__file__).resolve().parent))

# the loopback fake model servers, as fixtures for every test module
from fakes.fake_gemini import fake_gemini  # noqa: E402,F401
from fakes.fake_ollama import fake_ollama  # noqa: E402,F401


# ----- xvfb: a private X server for the real-desktop tests -----
# Session-scoped: one Xvfb (+ openbox, so windows get focus) for the whole run. It does
# not touch os.environ: tests that want it set DISPLAY/XAUTHORITY from ``xvfb.env``
# with monkeypatch, so the headless tests elsewhere stay headless.
import pytest  # noqa: E402

from xserver import XServerMissing, x_server  # noqa: E402


# ----- nothing outside tmp: a private home for the whole run -----
# The code under test keeps state in HOME-derived folders (the event log in XDG_STATE_HOME,
# the orb's position file, the config file, the speech model cache in XDG_CACHE_HOME) and, run
# from a checkout, in the checkout's memory.json. Session-scoped and autouse, so it is in place
# before any other fixture (the Xvfb's openbox writes to XDG_CACHE_HOME too) and every child
# process inherits it. Tests that want other folders still set their own with monkeypatch.
PRIVATE_HOME = {
    "HOME": "home",
    "XDG_CONFIG_HOME": "home/.config",
    "XDG_DATA_HOME": "home/.local/share",
    "XDG_STATE_HOME": "home/.local/state",
    # cheap: the only cache AnovaX writes is the speech recogniser's model, which the tests build
    # in their own folders; a default-configured recogniser builds it here at most once per run
    # (a few seconds)
    "XDG_CACHE_HOME": "home/.cache",
    # a checkout's memory.json wins over XDG_DATA_HOME for a child `python -m anovax`
    "ANOVAX_MEMORY": "home/memory.json",
}


@pytest.fixture(scope="session", autouse=True)
def private_home(tmp_path_factory):
    """HOME, the XDG folders and ANOVAX_MEMORY under one temporary folder; the developer's own
    ANOVAX_* settings are dropped, so they neither redirect writes nor change results."""
    import anovax.settings

    root = tmp_path_factory.mktemp("private")
    with pytest.MonkeyPatch.context() as mp:
        for name in [k for k in os.environ if k.startswith("ANOVAX_")]:
            mp.delenv(name)
        for name, sub in PRIVATE_HOME.items():
            if name.startswith(("HOME", "XDG_")):
                (root / sub).mkdir(parents=True, exist_ok=True)
            mp.setenv(name, str(root / sub))
        # in-process Settings() defaults to the checkout's memory.json when it exists
        mp.setattr(anovax.settings, "_CHECKOUT_MEMORY", root / "no-checkout" / "memory.json")
        yield root / "home"


@pytest.fixture(scope="session")
def xvfb(tmp_path_factory, private_home):
    """Xvfb 1280x800x24 on a free display plus openbox (``xvfb.wm`` says whether it runs)."""
    try:
        with x_server(1280, 800, workdir=tmp_path_factory.mktemp("xvfb")) as server:
            yield server
    except XServerMissing as exc:
        pytest.skip(str(exc))

