"""A regular expression compiled the first time it is used, not when its module is imported.

The safety modules hold a few hundred large patterns; compiling all of them at import costs about
0.1 s of every start, most of it for checks a given plan never reaches (a goal's prose patterns
for "what time is it"). ``LazyPattern`` has ``re.Pattern``'s methods and attributes; two threads
that use it first at the same moment may both compile it, which is harmless (the result is the
same, and ``re`` caches it).
"""

from __future__ import annotations

import re
from typing import Any


class LazyPattern:
    """``re.compile(pattern, flags)``, done on first use."""

    __slots__ = ("_source", "_flags", "_compiled")

    def __init__(self, pattern: str, flags: int | re.RegexFlag = 0) -> None:
        self._source = pattern
        self._flags = flags
        self._compiled: re.Pattern[str] | None = None

    def compiled(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    @property
    def pattern(self) -> str:  # read without compiling: other patterns are built from it
        return self._source

    def __getattr__(self, name: str) -> Any:
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"LazyPattern({self._source[:40]!r}...)"
