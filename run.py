#!/usr/bin/env python3
"""Start AnovaX from a checkout: the same as the ``anovax`` command."""

if __name__ == "__main__":
    from anovax.__main__ import main

    raise SystemExit(main())
