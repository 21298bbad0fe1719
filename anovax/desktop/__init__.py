"""The desktop port: the only way agents touch the machine.

``Desktop`` is the interface; ``SimulatedDesktop`` records actions (tests,
``--simulate``); ``make_desktop`` picks the real adapter for this platform.
"""

from anovax.desktop.base import Cancelled, CancelToken, Desktop
from anovax.desktop.simulated import Action, SimulatedDesktop

__all__ = ["Action", "CancelToken", "Cancelled", "Desktop", "SimulatedDesktop", "make_desktop"]


def make_desktop(settings=None) -> Desktop:
    """The real desktop adapter for this platform (imported lazily: it pulls in GUI libraries)."""
    from anovax.desktop.real import make_real_desktop

    return make_real_desktop(settings)
