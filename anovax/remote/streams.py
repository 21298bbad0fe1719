"""Streams that scale with clients: one screen capture for every viewer, one bus tap for every SSE client.

Threads:

* "remote-capture" (``ScreenBroadcaster``) exists only while someone watches. It owns the
  grabber (opened and closed in that thread) and the encoder, and publishes the latest
  JPEG; each viewer's request thread waits for a newer one and sends it. A slow viewer
  blocks only its own thread and simply skips frames.
* "bus-remote-sse" (``EventFanout``, a bus subscriber) copies each event into every SSE
  client's bounded queue without waiting; a client whose queue is full is marked
  overflowed and its stream ends (the browser reconnects and replays from the ring).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from anovax.events import Event, EventBus
from anovax.remote.capture import DEFAULT_QUALITY, FrameSource, Grabber, JpegEncoder

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class JpegFrame:
    """The latest encoded frame; ``seq`` grows by one for each frame worth sending."""

    seq: int
    jpeg: bytes
    width: int
    height: int


class ScreenBroadcaster:
    """One capture loop shared by all viewers, running only while there is at least one."""

    def __init__(self, source: FrameSource, *, width: int, max_fps: float, max_viewers: int,
                 quality: int = DEFAULT_QUALITY, on_viewers: Callable[[int], None] | None = None,
                 resend_s: float = 5.0) -> None:
        self.source = source
        self.width = width
        self.max_fps = max_fps
        self.max_viewers = max_viewers
        self.quality = quality
        #: an unchanged screen is re-sent this often, so proxies and dead sockets are noticed
        self.resend_s = resend_s
        self._on_viewers = on_viewers
        self._cond = threading.Condition()
        self._viewers = 0
        self._latest: JpegFrame | None = None
        self._thread: threading.Thread | None = None
        self._closed = False
        #: why the last capture loop stopped early (no display, a grab error); None when healthy
        self.error: str | None = None
        #: frames encoded and grabs skipped because nothing changed, since creation
        self.encoded = 0
        self.unchanged = 0

    @property
    def viewers(self) -> int:
        with self._cond:
            return self._viewers

    @property
    def capturing(self) -> bool:
        with self._cond:
            return self._thread is not None

    def attach(self) -> bool:
        """Count one more viewer and make sure the capture runs; False at the cap."""
        with self._cond:
            if self._closed or self._viewers >= self.max_viewers:
                return False
            self._viewers += 1
            count = self._viewers
            if self._thread is None:
                self.error = None
                self._thread = threading.Thread(target=self._run, name="remote-capture", daemon=True)
                self._thread.start()
        self._notify(count)
        return True

    def detach(self) -> None:
        with self._cond:
            self._viewers = max(0, self._viewers - 1)
            count = self._viewers
            self._cond.notify_all()  # the capture loop stops at once when nobody is left
        self._notify(count)

    def next_frame(self, after_seq: int, timeout_s: float) -> JpegFrame | None:
        """The latest frame if it is newer than ``after_seq``, waiting up to ``timeout_s`` for one."""
        with self._cond:
            self._cond.wait_for(lambda: self._closed or (self._latest is not None and self._latest.seq > after_seq),
                                timeout_s)
            latest = self._latest
        return latest if latest is not None and latest.seq > after_seq else None

    def close(self, timeout_s: float = 2.0) -> None:
        with self._cond:
            self._closed = True
            thread = self._thread
            self._cond.notify_all()
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout_s)

    def reopen(self) -> None:
        """Accept viewers again after ``close`` (the remote was switched off and on)."""
        with self._cond:
            self._closed = False

    def _notify(self, count: int) -> None:
        if self._on_viewers is not None:
            try:
                self._on_viewers(count)
            except Exception:
                log.exception("viewer-count callback failed")

    def _run(self) -> None:
        grabber = None
        try:
            grabber = self.source()
            self._loop(grabber, JpegEncoder(self.width, self.quality))
        except Exception as exc:  # no display, a broken grabber: viewers see the stream end
            log.warning("screen capture stopped: %s", exc)
            self.error = f"{type(exc).__name__}: {exc}"
        finally:
            if grabber is not None:
                try:
                    grabber.close()
                except Exception:
                    log.debug("grabber close failed", exc_info=True)
            with self._cond:
                self._thread = None
                self._latest = None  # a later viewer must not be shown a stale screen
                self._cond.notify_all()

    def _loop(self, grabber: Grabber, encoder: JpegEncoder) -> None:
        period_s = 1.0 / self.max_fps
        previous: bytes | None = None
        seq = 0
        sent_at = 0.0
        while True:
            started = time.monotonic()
            with self._cond:
                if self._closed or self._viewers == 0:
                    return
            frame = grabber.grab()
            # comparing 8 MB of raw pixels costs ~1 ms; encoding them 3-10 ms, sending them to
            # every viewer more: an idle desktop costs almost nothing
            if frame.raw == previous and started - sent_at < self.resend_s:
                self.unchanged += 1
            else:
                previous = frame.raw
                jpeg = encoder.encode(frame)
                self.encoded += 1
                seq += 1
                sent_at = started
                size = encoder.target_size(frame.width, frame.height)
                with self._cond:
                    self._latest = JpegFrame(seq, jpeg, *size)
                    self._cond.notify_all()
            with self._cond:  # the cap: sleep out the rest of the period, wake early to stop
                self._cond.wait_for(lambda: self._closed or self._viewers == 0,
                                    max(0.0, period_s - (time.monotonic() - started)))


class SseClient:
    """One SSE connection's bounded queue; ``overflowed`` is set when it fell too far behind."""

    def __init__(self, maxsize: int) -> None:
        self.queue: queue.Queue[Event] = queue.Queue(maxsize=maxsize)
        self.overflowed = threading.Event()

    def offer(self, event: Event) -> None:
        if self.overflowed.is_set():
            return
        try:
            self.queue.put_nowait(event)
        except queue.Full:
            self.overflowed.set()  # this client reconnects and replays; nobody else waits for it


class EventFanout:
    """Copies bus events to every SSE client without ever blocking the bus."""

    def __init__(self, bus: EventBus, *, max_clients: int, queue_size: int = 256) -> None:
        self.bus = bus
        self.max_clients = max_clients
        self.queue_size = queue_size
        self._clients: set[SseClient] = set()
        self._lock = threading.Lock()
        #: clients dropped because their queue overflowed, since creation
        self.overflows = 0
        bus.subscribe("remote-sse", self._deliver)

    @property
    def clients(self) -> int:
        with self._lock:
            return len(self._clients)

    def attach(self) -> SseClient | None:
        with self._lock:
            if len(self._clients) >= self.max_clients:
                return None
            client = SseClient(self.queue_size)
            self._clients.add(client)
            return client

    def detach(self, client: SseClient) -> None:
        with self._lock:
            self._clients.discard(client)

    def _deliver(self, event: Event) -> None:
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            was = client.overflowed.is_set()
            client.offer(event)
            if not was and client.overflowed.is_set():
                self.overflows += 1
