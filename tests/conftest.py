import sys
from pathlib import Path

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


@pytest.fixture(scope="session")
def xvfb(tmp_path_factory):
    """Xvfb 1280x800x24 on a free display plus openbox (``xvfb.wm`` says whether it runs)."""
    try:
        with x_server(1280, 800, workdir=tmp_path_factory.mktemp("xvfb")) as server:
            yield server
    except XServerMissing as exc:
        pytest.skip(str(exc))

