"""The talk key on X11: the RECORD extension reports every key press and release on the server
without grabbing anything, so the key goes on working in other apps (why not ``XGrabKey``:
talkkey.py). Two connections: the "voice-talk-key" thread blocks in ``record_enable_context`` on
one, ``close`` disables the context from the other, which ends that call.

xdotool's keydown/keyup (XTEST) reach RECORD like a real keyboard, which is how it is tested.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import Any

from anovax.desktop.x11_focus import open_display
from anovax.voice.talkkey import HeldKey, keysym

log = logging.getLogger(__name__)

#: how long ``start`` waits for the server to begin sending key events
START_TIMEOUT_S = 5.0
#: how long ``close`` waits for the thread
CLOSE_TIMEOUT_S = 3.0


class X11TalkKey:
    """A key watched through RECORD; ``start`` it, ``close`` it once."""

    def __init__(self, name: str, keycodes: frozenset[int], held: HeldKey, control: Any, data: Any,
                 context: int) -> None:
        self.name = name
        #: "" while it works; why it stopped, once it has
        self.reason = ""
        self._keycodes = keycodes
        self._held = held
        self._control = control
        self._data = data
        self._context = context
        self._started = threading.Event()
        self._closed = False
        self._thread = threading.Thread(target=self._run, name="voice-talk-key", daemon=True)

    @classmethod
    def start(cls, name: str, on_change: Callable[[bool], Any], *, display_name: str | None = None) -> X11TalkKey:
        """Watch ``name`` (an X keysym name); raises with the reason when it cannot."""
        from Xlib import X
        from Xlib.ext import record

        control = open_display(display_name)
        try:
            if not control.has_extension("RECORD"):
                raise RuntimeError("the X server has no RECORD extension")
            code = keysym(name)
            if not code:
                raise ValueError(f"{name!r} is not an X key name")
            keycodes = frozenset(found for found, _index in control.keysym_to_keycodes(code))
            if not keycodes:
                raise ValueError(f"no key of this keyboard makes {name}")
            data = open_display(display_name)
        except BaseException:
            control.close()
            raise
        try:
            context = data.record_create_context(0, [record.AllClients], [{
                "core_requests": (0, 0), "core_replies": (0, 0), "ext_requests": (0, 0, 0, 0),
                "ext_replies": (0, 0, 0, 0), "delivered_events": (0, 0),
                "device_events": (X.KeyPress, X.KeyRelease), "errors": (0, 0),
                "client_started": False, "client_died": False}])
            data.sync()
        except BaseException:
            data.close()
            control.close()
            raise
        key = cls(name, keycodes, HeldKey(on_change), control, data, context)
        key._thread.start()
        if not key._started.wait(START_TIMEOUT_S):
            key.close()
            raise TimeoutError("the X server did not start reporting keys")
        if key.reason:
            raise RuntimeError(key.reason)
        return key

    @property
    def held(self) -> bool:
        return self._held.held

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._control.record_disable_context(self._context)
            self._control.sync()
        except Exception:  # noqa: BLE001 - the server may be gone already; the thread has ended then
            log.debug("disabling the RECORD context failed", exc_info=True)
        self._thread.join(CLOSE_TIMEOUT_S)
        if self._thread.is_alive():
            log.warning("the talk key thread did not stop within %.1f s; leaving it behind", CLOSE_TIMEOUT_S)
        self._held.close()  # a key held at exit: the listener hears it let go
        for connection in (self._control, self._data):
            try:
                connection.close()
            except Exception:  # noqa: BLE001
                log.debug("closing an X connection failed", exc_info=True)

    def _run(self) -> None:
        try:
            self._data.record_enable_context(self._context, self._on_record)
            self._data.record_free_context(self._context)
        except Exception as exc:  # noqa: BLE001 - a display that went away ends hold-to-talk, nothing else
            if not self._closed:
                self.reason = f"the talk key stopped: {exc or type(exc).__name__}"
                log.info("%s", self.reason, exc_info=True)
        finally:
            self._started.set()  # a start() still waiting learns of the failure from ``reason``
            self._held.close()

    def _on_record(self, reply: Any) -> None:
        from Xlib import X
        from Xlib.ext import record
        from Xlib.protocol import rq

        if reply.category == record.StartOfData:
            self._started.set()
            return
        if reply.category != record.FromServer or reply.client_swapped:
            return
        data = reply.data
        while len(data):
            event, data = rq.EventField(None).parse_binary_value(data, self._data.display, None, None)
            if getattr(event, "detail", None) not in self._keycodes:
                continue
            if event.type == X.KeyPress:
                self._held.press()
            elif event.type == X.KeyRelease:
                self._held.release()
