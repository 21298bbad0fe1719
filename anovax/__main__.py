"""``python -m anovax`` is the same as the ``anovax`` command."""

from anovax.cli import main

raise SystemExit(main())
