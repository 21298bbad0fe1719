"""Take docs/orb-timers.png: the orb with two countdown chips, as typed commands left them.

    .venv/bin/python scripts/orb_timer_screenshot.py [--out docs/orb-timers.png]

Starts a private Xvfb (tests/xserver.py), opens the orb in the test harness process
(tests/orb_harness.py) with a state folder of its own, sets a tea timer and a reminder through
the orb's command path, and captures the window once both chips count down.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from helpers import wait_or_exit  # noqa: E402
from orb_harness import OrbProcess, save_png  # noqa: E402
from xserver import x_server  # noqa: E402

COMMANDS = ("set a tea timer for 4 minutes", "remind me in 25 minutes to stretch")
wait = functools.partial(wait_or_exit, prog="orb_timer_screenshot")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "orb-timers.png")
    args = ap.parse_args(argv)
    with x_server(1280, 800) as server, tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp)
        (state / "anovax").mkdir()
        (state / "anovax" / "orb.json").write_text(json.dumps({"x": 400, "y": 120, "expanded": False,
                                                               "on_top": True}))
        # the timers file goes to this run's own state folder, never the user's
        orb = OrbProcess({**server.env, "XDG_STATE_HOME": str(state / "xdg")}, state)
        try:
            for text in COMMANDS:
                orb.ask("submit", text=text)
                wait(lambda: len(orb.ask("inspect")["timer_chips"]) >= COMMANDS.index(text) + 1, 20.0, text)
            wait(lambda: "remind you" in orb.ask("inspect")["response"], 20.0, "the reminder's reply")
            time.sleep(1.2)  # the seconds move on once
            geometry = orb.ask("geometry")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            save_png(server.display, geometry["window"], args.out)
            shown = orb.ask("inspect")
        finally:
            orb.close()
    print(f"saved {args.out} ({', '.join(shown['timer_chips'])}; {shown['response']})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
