"""Take docs/orb-question.png: the orb asking before it forgets everything, on a real desktop.

    .venv/bin/python scripts/orb_question_screenshot.py [--out docs/orb-question.png]

Starts a private Xvfb + openbox (tests/xserver.py) and the real program (`python -m anovax`,
the orb, the offline planner, the X11 desktop) with state folders of its own, types "remember
my favourite colour is green" and then "forget everything" into the orb's text box with xdotool,
and captures the orb while its question waits (then answers No, so nothing is forgotten).
"""

from __future__ import annotations

import argparse
import functools
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from helpers import wait_or_exit  # noqa: E402
from orb_harness import save_png  # noqa: E402
from test_orb_confirm_e2e import Anovax  # noqa: E402
from xserver import x_server  # noqa: E402

COMMANDS = ("remember my favourite colour is green", "forget everything")
wait = functools.partial(wait_or_exit, prog="orb_question_screenshot")


def xdo(env: dict[str, str], *args: str) -> str:
    return subprocess.run(["xdotool", *args], env={**os.environ, **env}, capture_output=True, text=True,
                          timeout=20).stdout


def window_box(display: str, window: int) -> list[int]:
    """[x, y, width, height] of the client window on the screen (xdotool's geometry is the frame's)."""
    from anovax.desktop.x11_focus import open_display

    d = open_display(display)
    try:
        win = d.create_resource_object("window", window)
        size, origin = win.get_geometry(), win.translate_coords(d.screen().root, 0, 0)
        return [-origin.x, -origin.y, size.width, size.height]
    finally:
        d.close()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "orb-question.png")
    args = ap.parse_args(argv)
    with x_server(1280, 800) as server, tempfile.TemporaryDirectory() as tmp:
        run = Anovax(server, Path(tmp))
        try:
            remember, forget = COMMANDS
            xdo(server.env, "mousemove", "--window", run.window, "150", "95", "click", "1")
            xdo(server.env, "type", "--delay", "5", remember)
            xdo(server.env, "key", "Return")
            wait(lambda: run.events("COMMAND_DONE"), 60.0, remember)
            xdo(server.env, "mousemove", "--window", run.window, "150", "95", "click", "1")
            xdo(server.env, "type", "--delay", "5", forget)
            xdo(server.env, "key", "Return")
            wait(lambda: run.events("CONFIRM_REQUESTED"), 60.0, "the question")
            said = run.events("CONFIRM_REQUESTED")[-1]["data"]["question"]
            subprocess.run(["sleep", "1"], check=False)  # the panel draws after the event
            args.out.parent.mkdir(parents=True, exist_ok=True)
            save_png(server.display, window_box(server.display, int(run.window)), args.out)
            xdo(server.env, "key", "Escape")
        finally:
            run.close()
    print(f"saved {args.out} ({said})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
