#!/usr/bin/env python3
"""Start AnovaX from a checkout: the same as the ``anovax`` command."""

from anovax.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
