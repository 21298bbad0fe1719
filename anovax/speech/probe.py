"""Can speech be heard here? Asked once, at start-up, before any engine is made.

On Linux pyttsx3's espeak driver plays every sentence with ``aplay``. With no sound card
``aplay`` fails to open ALSA's default device, prints ~9 lines of ``ALSA lib …`` noise and the
sentence is lost (measured on Debian 12 with no card). Opening the device once with an empty
raw stream answers the question in a few milliseconds without making a sound.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable

#: the open attempt never plays anything; a wedged sound server must not hold start-up
PROBE_TIMEOUT_S = 3.0
#: an empty raw stream: aplay opens (and closes) the default PCM and plays nothing
_OPEN_DEFAULT = ["-q", "-t", "raw", "-f", "S16_LE", "-r", "16000", "-c", "1", "/dev/null"]


def sound_card_problem(which: Callable[[str], str | None] = shutil.which,
                       run: Callable[..., subprocess.CompletedProcess[bytes]] = subprocess.run,
                       platform: str = sys.platform) -> str | None:
    """Why speech cannot be heard on this machine, or None when it can (or cannot be told).

    Only Linux is probed: there ``aplay`` is the player, and opening ALSA's default device is
    what fails without a sound card. A missing ``aplay`` is left to the engine's own check."""
    if not platform.startswith("linux"):
        return None
    aplay = which("aplay")
    if aplay is None:
        return None
    try:
        done = run([aplay, *_OPEN_DEFAULT], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE, timeout=PROBE_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return "the sound device did not answer (aplay hung opening it)"
    except OSError as exc:
        return f"aplay could not run ({exc.strerror or exc})"
    if done.returncode == 0:
        return None
    lines = [line.strip() for line in (done.stderr or b"").decode("utf-8", "replace").splitlines() if line.strip()]
    # the last line is aplay's own ("aplay: main:831: audio open error: No such file or directory"):
    # its cause is enough; ALSA's own lines are noise to a person reading the console
    cause = lines[-1].rsplit(": ", 1)[-1] if lines else f"exit code {done.returncode}"
    return f"no sound card (the default sound device cannot be opened: {cause})"
