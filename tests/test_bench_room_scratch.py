"""The room benchmarks render thousands of phrases in worker processes: what they write to disk
is gone when the run ends (workers are terminated, so they cannot clean up after themselves)."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

pytest.importorskip("pocketsphinx")
from benchmarks import voice_room as vr  # noqa: E402


def scratch_of(job: int) -> str:
    """In a worker: the room's scratch folder, with a file written in it as a phrase would be."""
    room = vr.room()
    Path(room._tmp, f"p{job}.wav").write_bytes(b"RIFF")
    return room._tmp


def _ours() -> set[str]:
    return {p for p in os.listdir(tempfile.gettempdir()) if p.startswith(("anovax-room-", "anovax-rooms-"))}


@pytest.mark.slow
def test_parallel_rooms_leave_no_scratch_behind():
    before = _ours()
    folders = vr.run_parallel(scratch_of, list(range(8)), workers=2)
    assert 1 <= len(set(folders)) <= 2  # a room per worker (one may have taken every job)...
    assert not any(Path(f).exists() for f in folders)  # ...removed with the run
    assert _ours() <= before
    assert vr._SCRATCH is None  # the parent's own rooms still clean up after themselves
