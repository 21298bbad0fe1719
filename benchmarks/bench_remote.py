"""The phone remote's streams on a private Xvfb: MJPEG frames delivered and CPU, SSE latency.

    python -m benchmarks.bench_remote [--seconds S] [--viewers 1,5,20] [--fps 30] [--width 1280]

1. MJPEG: 1, 5 and 20 viewers of a 1920x1080 screen that changes every frame (an
   animation drawn with python-xlib), scaled to 1280 px, 30 fps cap. AnovaX's shared capture (one thread, latest
   frame broadcast) against a naive loop that grabs and encodes per client (same server,
   same scaling and encoder), measured in the same run. Frames per second are counted by
   the viewers, in a separate process; CPU is this process's user + system time over the
   same window, in % of one core (Xvfb's own work is not included). Target: ≥ 15 fps for
   5 viewers within one core, CPU nearly flat in viewers. Also: 5 viewers of a still screen.
2. SSE: 1,000 events published 2 ms apart, publish → receipt by clients in another process
   (CLOCK_MONOTONIC is shared between processes), 1 and 10 clients. Target p99 ≤ 50 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import Future
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from anovax.events import EventBus, EventType  # noqa: E402
from anovax.planner.slurp_eval import percentile  # noqa: E402
from anovax.remote import Limits, MssScreen, RemoteServer, SyntheticScreen  # noqa: E402
from anovax.remote.capture import JpegEncoder  # noqa: E402
from anovax.settings import Settings  # noqa: E402

WARM_S = 1.0
LIMITS = Limits(max_screen_viewers=64, max_event_clients=64, max_connections=256, max_connections_per_ip=256)

# a full-screen animation drawn straight with python-xlib (a Tk canvas managed only ~6 redraws a
# second here): four moving boxes and a changing stripe, 60 times a second
ANIMATION = r"""
import time
from Xlib import X, display
d = display.Display(); s = d.screen()
w = s.root.create_window(0, 0, s.width_in_pixels, s.height_in_pixels, 0, s.root_depth,
                         background_pixel=0x202838, override_redirect=True)
w.map()
gc = w.create_gc()
colours = [0x5b8cff, 0x3fcf8e, 0xf5b942, 0xff6b6b]
prev = [(0, 0)] * 4
n = 0
while True:
    n += 1
    for i, c in enumerate(colours):
        gc.change(foreground=0x202838); w.fill_rectangle(gc, *prev[i], 160, 120)
        x = (n * (7 + 3 * i)) % (s.width_in_pixels - 160); y = (n * (5 + 2 * i) + 200 * i) % (s.height_in_pixels - 120)
        gc.change(foreground=c); w.fill_rectangle(gc, x, y, 160, 120); prev[i] = (x, y)
    gc.change(foreground=(n * 2654435761) & 0xffffff); w.fill_rectangle(gc, 0, s.height_in_pixels - 40, s.width_in_pixels, 40)
    d.flush()
    time.sleep(1 / 60)
"""


# -- the naive baseline: what a per-request capture loop costs --------------------------------


def naive_app(display: str, width: int, fps: float):
    """A WSGI app where every viewer grabs and encodes its own frames (no sharing, no skipping)."""

    def app(environ, start_response):
        start_response("200 OK", [("Content-Type", "multipart/x-mixed-replace; boundary=frame")])
        return frames()

    def frames() -> Iterator[bytes]:
        grabber = MssScreen(display=display)()  # created in this request's thread, as mss wants
        encoder = JpegEncoder(width)
        try:
            while True:
                started = time.monotonic()
                jpeg = encoder.encode(grabber.grab())
                yield (f"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: {len(jpeg)}\r\n\r\n".encode()
                       + jpeg + b"\r\n")
                time.sleep(max(0.0, 1.0 / fps - (time.monotonic() - started)))
        finally:
            grabber.close()

    return app


# -- clients, run in a child process so their work is not counted ----------------------------


def client_mjpeg(port: int, path: str, headers: dict, viewers: int, seconds: float) -> dict:
    counts = [0] * viewers
    start_at = time.monotonic() + WARM_S
    stop_at = start_at + seconds

    def watch(i: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", path, headers=headers)
        resp = conn.getresponse()
        while time.monotonic() < stop_at:
            line = resp.readline()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                resp.readline()
                resp.read(int(line.split(b":", 1)[1]))
                if time.monotonic() >= start_at:
                    counts[i] += 1
        conn.close()

    threads = [threading.Thread(target=watch, args=(i,), daemon=True) for i in range(viewers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(seconds + WARM_S + 10)
    return {"fps": [n / seconds for n in counts]}


def client_sse(port: int, headers: dict, clients: int, expect: int, ready_path: str) -> dict:
    """One thread and a selector for every client: ten Python threads parsing through http.client
    measured their own GIL convoy (p99 ~400 ms) rather than the server (p99 ~1 ms in-process)."""
    import re
    import selectors
    import socket

    stamp = re.compile(rb'"t": ([0-9.]+)')
    request = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    selector = selectors.DefaultSelector()
    buffers: dict[socket.socket, bytes] = {}
    for _ in range(clients):
        sock = socket.create_connection(("127.0.0.1", port))
        sock.sendall(f"GET /api/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n{request}\r\n".encode())
        selector.register(sock, selectors.EVENT_READ)
        buffers[sock] = b""
    latencies: list[float] = []
    Path(ready_path).write_text("ready")
    deadline = time.monotonic() + 60
    while len(latencies) < expect * clients and time.monotonic() < deadline:
        for key, _ in selector.select(1.0):
            data = key.fileobj.recv(1 << 16)
            now = time.monotonic()
            if not data:
                selector.unregister(key.fileobj)
                continue
            # events end with a blank line; chunk framing only ever falls between events
            *complete, buffers[key.fileobj] = (buffers[key.fileobj] + data).split(b"\n\n")
            for event in complete:
                latencies.extend((now - float(m)) * 1000 for m in stamp.findall(event))
    return {"latencies_ms": latencies}


def run_client(kind: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "benchmarks.bench_remote", "--client", kind, json.dumps(kwargs)],
                            cwd=ROOT, stdout=subprocess.PIPE, text=True)


# -- measurements -------------------------------------------------------------------------------


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measure_mjpeg(port: int, path: str, headers: dict, viewers: int, seconds: float) -> tuple[list[float], float]:
    client = run_client("mjpeg", port=port, path=path, headers=headers, viewers=viewers, seconds=seconds)
    time.sleep(WARM_S + 0.3)  # the client starts counting after its own warm-up (it started a little later)
    cpu0, wall0 = cpu_s(), time.monotonic()
    time.sleep(seconds - 0.3)
    cpu = (cpu_s() - cpu0) / (time.monotonic() - wall0) * 100
    out, _ = client.communicate(timeout=seconds + 30)
    return json.loads(out)["fps"], cpu


def measure_sse(server: RemoteServer, bus: EventBus, clients: int, events: int, gap_s: float) -> list[float]:
    with tempfile.TemporaryDirectory() as tmp:
        ready = Path(tmp) / "ready"
        # Last-Event-ID = now: without it the stream replays recent events, whose age is not latency
        recent = bus.recent(0)
        headers = {"Authorization": f"Bearer {server.token}", "Last-Event-ID": str(recent[-1].seq if recent else 0)}
        client = run_client("sse", port=server.port, headers=headers,
                            clients=clients, expect=events, ready_path=str(ready))
        deadline = time.monotonic() + 30
        while not ready.exists() and time.monotonic() < deadline:
            time.sleep(0.01)
        while server.event_clients < clients and time.monotonic() < deadline:
            time.sleep(0.01)
        next_at = time.monotonic()
        for i in range(events):
            bus.emit(EventType.AGENT_DONE, f"bench{i}", tool="get_time", data={"t": time.monotonic()})
            next_at += gap_s
            time.sleep(max(0.0, next_at - time.monotonic()))
        out, _ = client.communicate(timeout=60)
    return json.loads(out)["latencies_ms"]


def mjpeg_table(display: str, viewer_counts: list[int], seconds: float, fps: float, width: int) -> list[str]:
    from anovax.remote.runtime import serve

    bus = EventBus()
    settings = Settings(log_path=None, remote_port=0, remote_bind="127.0.0.1", remote_width=width, remote_fps=fps)
    shared = RemoteServer(settings, bus, lambda text, source="": Future(), frames=MssScreen(display=display),
                          limits=LIMITS)
    shared.start()
    # the same server as AnovaX's (waitress with its threads sized for the viewers): only the capture differs
    naive = serve(naive_app(display, width, fps), "127.0.0.1", 0, LIMITS)
    halt = threading.Event()

    def naive_loop() -> None:
        while not halt.is_set():
            naive.serve_once()

    naive_thread = threading.Thread(target=naive_loop, name="bench-naive", daemon=True)
    naive_thread.start()
    auth = {"Authorization": f"Bearer {shared.token}"}
    rows = []
    try:
        for viewers in viewer_counts:
            for label, port, headers in (("shared capture (AnovaX)", shared.port, auth),
                                         ("naive per-client loop", naive.port, {})):
                got, cpu = measure_mjpeg(port, "/api/screen", headers, viewers, seconds)
                rows.append(f"| {label} | {viewers} | {sum(got) / len(got):.1f} | {min(got):.1f} | {cpu:.0f}% |")
                time.sleep(0.5)  # let the previous viewers' threads finish
    finally:
        halt.set()
        naive_thread.join(5)
        naive.close_all()
        naive.task_dispatcher.shutdown(timeout=2)
        shared.stop()
        bus.close()
    return rows


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=4.0, help="measured seconds per row")
    ap.add_argument("--viewers", default="1,5,20")
    ap.add_argument("--fps", type=float, default=30.0)
    ap.add_argument("--width", type=int, default=1280)
    ap.add_argument("--events", type=int, default=1000)
    ap.add_argument("--client", nargs=2, metavar=("KIND", "JSON"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.client:
        kind, params = args.client[0], json.loads(args.client[1])
        print(json.dumps(client_mjpeg(**params) if kind == "mjpeg" else client_sse(**params)))
        return 0

    from xserver import XServerMissing, x_server

    counts = [int(n) for n in args.viewers.split(",")]
    print(f"### MJPEG screen stream: 1920x1080 → {args.width} px, cap {args.fps:g} fps, "
          f"encoder {JpegEncoder(args.width).name}, {args.seconds:g} s per row\n")
    print("| server | viewers | fps per viewer (mean) | fps (slowest viewer) | CPU of this process |")
    print("|---|---:|---:|---:|---:|")
    try:
        with x_server(1920, 1080, wm=False) as xs:
            animation = subprocess.Popen([sys.executable, "-c", ANIMATION], env={**os.environ, **xs.env},
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(1.0)
            try:
                for row in mjpeg_table(xs.display, counts, args.seconds, args.fps, args.width):
                    print(row, flush=True)
            finally:
                animation.terminate()
                animation.wait(5)
            still = mjpeg_table(xs.display, [5], args.seconds, args.fps, args.width)
            print(still[0].replace("shared capture (AnovaX)", "shared capture, still screen (nothing re-sent)"))
            print(still[1].replace("naive per-client loop", "naive per-client loop, still screen"), flush=True)
    except XServerMissing as exc:
        print(f"skipped: {exc}")

    print(f"\n### SSE: {args.events} events 2 ms apart, publish → receipt in another process\n")
    print("| clients | receipts | p50 ms | p99 ms | max ms | target |")
    print("|---:|---:|---:|---:|---:|---|")
    bus = EventBus()
    server = RemoteServer(Settings(log_path=None, remote_port=0, remote_bind="127.0.0.1"), bus,
                          lambda text, source="": Future(), frames=SyntheticScreen(), limits=LIMITS)
    server.start()
    try:
        for clients in (1, 10):
            lat = measure_sse(server, bus, clients, args.events, 0.002)
            verdict = "PASS" if lat and percentile(lat, 99) <= 50 else "FAIL"
            print(f"| {clients} | {len(lat)} | {percentile(lat, 50):.2f} | {percentile(lat, 99):.2f} | "
                  f"{max(lat):.2f} | p99 ≤ 50 ms: {verdict} |", flush=True)
    finally:
        server.stop()
        bus.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
