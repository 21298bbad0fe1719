"""Can this computer open an app called ...? The question the offline planner, the voice checks
and the rehearsal desktop ask of an app name no table knows.

"start the dishwasher" must not become "Opening Dishwasher." Names in the alias table and the
user's own apps are handled before this; any other name is looked up the way the desktop adapter
would launch it (``anovax.desktop.apps.resolve``: the platform's app table, a program on PATH
with an app-like name, an installed ``.desktop`` entry). A name nothing resolves is declined at
planning time, as the launch itself would fail ("I couldn't find an app called ...") when a
model plans it. On Linux a program found only on PATH must also be run by a desktop entry:
PATH holds every command-line tool, and "open open" is not a request to run /usr/bin/open.

The desktop modules are imported on the first unknown name only (they cost ~25 ms at start-up).
"""

from __future__ import annotations

import logging
import os
import shutil
import time
from collections.abc import Callable

_LOG = logging.getLogger(__name__)

#: "can this computer open an app called ``name``?"
AppCheck = Callable[[str], bool]
#: answers are kept this long, so an app installed meanwhile is seen (the Linux adapter's TTL too)
_TTL_S = 60.0
_seen: dict[str, tuple[float, bool]] = {}


def installed_app(name: str) -> bool:
    """True when the desktop adapter could resolve ``name`` to a program on this computer."""
    now = time.monotonic()
    hit = _seen.get(name)
    if hit is not None and now - hit[0] < _TTL_S:
        return hit[1]
    found = _resolves(name)
    if len(_seen) > 256:  # names are spoken words: keep the table small
        _seen.clear()
    _seen[name] = (now, found)
    return found


def _resolves(name: str) -> bool:
    from anovax.desktop import apps
    from anovax.errors import AnovaXError
    from anovax.probes import platform_key

    platform = platform_key()
    try:
        entries = tuple(apps.desktop_entries(apps.application_dirs(os.environ))) if platform == "linux" else ()
        found = apps.resolve(name, platform, apps.platform_finder(platform, shutil.which), entries=entries)
    except AnovaXError:
        return False
    except (OSError, ValueError):  # an unreadable entry or table: not vouched for, never a crash
        _LOG.debug("could not look up app %r", name, exc_info=True)
        return False
    if platform != "linux" or apps.index(apps.TABLES[platform]).get(found.name) is not None:
        return True
    # Linux's PATH holds every command-line tool too ("open open" found /usr/bin/open, "open ls"
    # /bin/ls): a name found only there counts when an installed desktop entry runs that program
    program = os.path.basename(found.argv[0])
    return any(found.name in entry.names or os.path.basename(entry.argv[0]) == program for entry in entries)
