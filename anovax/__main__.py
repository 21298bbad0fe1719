"""``python -m anovax`` and the ``anovax`` command.

Deliberately tiny: the CLI's imports take about a second, and a Ctrl-C during them must end
the program quietly (exit 130) rather than with a traceback from deep inside an import."""

from __future__ import annotations

import sys


def main() -> int:
    try:
        from anovax.cli import main as cli_main

        return cli_main()
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
