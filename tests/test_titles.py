"""normalise_title: the one window-title squash the X11 and Windows launch checks share."""

from __future__ import annotations

import pytest

from anovax.desktop import apps, windows, x11


def test_x11_and_windows_share_one_normalise():
    assert x11.normalise is apps.normalise_title
    assert windows.normalise is apps.normalise_title


@pytest.mark.parametrize(("title", "squashed"), [
    ("AnovaX-Test Editor", "anovaxtesteditor"),
    ("Calculator - Standard", "calculatorstandard"),
    ("gedit.Gedit|Untitled Document 1", "geditgedituntitleddocument1"),
    ("", ""),
    ("  -- ", ""),
    # case-folding, not lower(): the Windows copy's rule, which the X11 copy lacked
    ("Straße", "strasse"),
    ("STRASSE", "strasse"),
])
def test_normalise_title(title, squashed):
    assert apps.normalise_title(title) == squashed
