"""Set-up installs WebRTC's noise suppressor wherever a wheel of it exists (scripts/setup-env.sh
tolerates its absence elsewhere, so without this check a failed install would only show as the
suppressor's tests skipping)."""

from __future__ import annotations

import platform
import sys

import pytest

from anovax.voice.denoise import NoiseSuppressor


def _has_a_wheel() -> bool:
    """webrtc-noise-gain's wheels: manylinux_2_27+ on x86_64 and aarch64."""
    libc, version = platform.libc_ver()
    glibc = tuple(int(p) for p in version.split(".")[:2]) if libc == "glibc" and version else (0, 0)
    return sys.platform == "linux" and platform.machine() in ("x86_64", "aarch64") and glibc >= (2, 27)


def test_set_up_installed_the_suppressor_where_a_wheel_exists():
    if not _has_a_wheel():
        pytest.skip("no webrtc-noise-gain wheel for this machine: the audio passes as it is")
    assert NoiseSuppressor(16000, 2).available, "scripts/setup-env.sh did not install webrtc-noise-gain"
