"""Take docs/orb.png: the orb, expanded, while a real plan's agents run on the simulated desktop.

    .venv/bin/python scripts/orb_screenshot.py [--out docs/orb.png]

Starts a private Xvfb (tests/xserver.py), opens the orb in the test harness process
(tests/orb_harness.py), runs one quick command (so the history has a line), then
"tell me the time and date, take a screenshot and search for the weather": four parallel
agents, the clock ones quick and the others slow, captured once the quick ones are done
and the slow ones still run.
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

COMMAND = "tell me the time and date, take a screenshot and search for the weather"
DELAYS = {"clock": 0.5, "screenshot": 4.0, "url": 4.0, "speak": 0.3}


wait = functools.partial(wait_or_exit, prog="orb_screenshot")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "orb.png")
    args = ap.parse_args(argv)
    with x_server(1280, 800) as server, tempfile.TemporaryDirectory() as tmp:
        state = Path(tmp)
        (state / "anovax").mkdir()
        (state / "anovax" / "orb.json").write_text(json.dumps({"x": 400, "y": 120, "expanded": True,
                                                               "on_top": True}))
        orb = OrbProcess(server.env, state, delays=DELAYS)
        try:
            orb.ask("submit", text="what's the time")
            wait(lambda: orb.ask("inspect")["history"], 10.0, "the first command")
            wait(lambda: not orb.ask("inspect")["chips"], 10.0, "its chip to fade")
            orb.ask("submit", text=COMMAND)

            def ready() -> bool:
                states = orb.ask("inspect")["chip_states"]
                return len(states) == 4 and states.count("done") == 2 and states.count("running") == 2
            wait(ready, 10.0, "two agents done and two running")
            time.sleep(0.6)  # elapsed times move on a little; the orb is mid-spin
            geometry = orb.ask("geometry")
            args.out.parent.mkdir(parents=True, exist_ok=True)
            save_png(server.display, geometry["window"], args.out)
            shown = orb.ask("inspect")
        finally:
            orb.close()
    print(f"saved {args.out} ({shown['state']}: {', '.join(shown['chips'])})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
