"""The phone remote under issue 20's attacks: does a paired phone still get its commands through, and how fast?

    python -m benchmarks.bench_remote_attacks [--seconds 12] [--gap 1.0]

The real ``Assistant`` (offline planner, simulated desktop) behind the real remote on loopback,
with the default ``Limits`` (64 connections, 16 per address). A paired phone (its session
cookie) sends "what time is it" every ``--gap`` seconds during each phase; measured per command:
**accept** (the POST until its 202) and **end to end** (the POST until the assistant's
COMMAND_DONE for that command). Phases, each ``--seconds`` long, the attack running in a child
process so that its own work is not counted as the assistant's:

* baseline: nothing else;
* image GETs: 12 credential-less ``GET /api/state?n`` a second from the phone's own address
  (what a web page's ``<img>`` tags send; issue 20 found them banning the phone);
* slow sockets: 32 from 127.0.0.2 and 32 from 127.0.0.3, one header byte every 5 s each,
  reconnected as soon as they are dropped (they held every slot of the old server);
* upload flood: 8 connections from 127.0.0.4, each POSTing a credential-less 300 MB body again and
  again (the old server read 30 GB in 15 s);
* expect hold, slow body, pipelining (the attack report on the first waitress server): 32 sockets
  from each of 127.0.0.2 and 127.0.0.3 sending ``Expect: 100-continue`` with a 300 MB length then
  nothing; a 16000-byte body at one byte a second; 2000 pipelined ``GET /static/app.js`` whose
  answers are never read (tests/remote_floods.py). They held all 64 connections of that server.

Also the assistant process's CPU (user + system, % of one core) and resident memory (peak of
samples every 0.1 s) in each phase, and what the server read from the sockets.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __package__ in (None, ""):
    sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from anovax.app import build_assistant  # noqa: E402
from anovax.desktop.simulated import SimulatedDesktop  # noqa: E402
from anovax.events import Event, EventType  # noqa: E402
from anovax.memory import Memory  # noqa: E402
from anovax.planner.slurp_eval import percentile  # noqa: E402
from anovax.remote import Limits, RemoteServer, SyntheticScreen  # noqa: E402
from anovax.remote.state import assistant_state  # noqa: E402
from anovax.settings import Settings  # noqa: E402

#: the shipped limits, except a rate limit the phone's own commands stay under
LIMITS = Limits(commands_per_minute=600)
#: the attack report's floods (tests/remote_floods.py modes), by phase name
FLOODS = {"expect hold": "expect", "slow body": "body", "pipelining": "pipeline"}
PHASES = ("baseline", "image GETs", "slow sockets", "upload flood", *FLOODS)
WARM_S = 2.0


# -- the attackers, in a child process -----------------------------------------------------------


def attack(kind: str, port: int, seconds: float) -> dict:
    from remote_attacks import Trickler, can_bind, credentialless_gets, upload

    stop_at = time.monotonic() + seconds
    if kind in FLOODS:
        from remote_floods import Flood

        if not (can_bind("127.0.0.2") and can_bind("127.0.0.3")):
            return {"skipped": "127.0.0.2/3 unusable"}
        floods = [Flood(port, ip, FLOODS[kind], sockets=32).start() for ip in ("127.0.0.2", "127.0.0.3")]
        time.sleep(max(0.0, stop_at - time.monotonic()))
        for f in floods:
            f.stop()
        statuses: dict[int, int] = {}
        for f in floods:
            for status, n in f.statuses.items():
                statuses[status] = statuses.get(status, 0) + n
        return {"connects": sum(f.connects for f in floods), "drops": sum(f.drops for f in floods),
                "statuses": statuses}
    if kind == "image GETs":
        got: list[int] = []
        while time.monotonic() < stop_at:
            started = time.monotonic()
            got += credentialless_gets(port, 12)
            time.sleep(max(0.0, 1.0 - (time.monotonic() - started)))
        return {"requests": len(got), "statuses": sorted(set(got))}
    if kind == "slow sockets":
        if not (can_bind("127.0.0.2") and can_bind("127.0.0.3")):
            return {"skipped": "127.0.0.2/3 unusable"}
        tricklers = [Trickler(port, ip, sockets=32, gap_s=5.0).start() for ip in ("127.0.0.2", "127.0.0.3")]
        time.sleep(max(0.0, stop_at - time.monotonic()))
        for t in tricklers:
            t.stop()
        return {"connects": sum(t.connects for t in tricklers), "drops": sum(t.drops for t in tricklers)}
    if kind == "upload flood":
        source = "127.0.0.4" if can_bind("127.0.0.4") else None
        results: list = []
        lock = threading.Lock()

        def flood() -> None:
            while time.monotonic() < stop_at:
                try:
                    result = upload(port, 300_000_000, source=source, wait_s=10.0)
                except OSError:
                    continue
                with lock:
                    results.append(result)

        threads = [threading.Thread(target=flood, daemon=True) for _ in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(seconds + 20)
        return {"uploads": len(results), "pushed_mb": round(sum(r.sent_bytes for r in results) / 1e6, 1),
                "statuses": sorted({r.status for r in results if r.status is not None})}
    return {}


def start_attack(kind: str, port: int, seconds: float) -> subprocess.Popen | None:
    if kind == "baseline":
        return None
    return subprocess.Popen([sys.executable, "-m", "benchmarks.bench_remote_attacks", "--client", kind,
                             json.dumps({"port": port, "seconds": seconds})], cwd=ROOT, stdout=subprocess.PIPE,
                            text=True)


# -- the phone and the assistant's resources ----------------------------------------------------


def rss_mb() -> float:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Sampler:
    """Peak resident memory, sampled every 0.1 s while a phase runs."""

    def __init__(self) -> None:
        self.peak_mb = rss_mb()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="bench-rss", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stop.wait(0.1):
            self.peak_mb = max(self.peak_mb, rss_mb())

    def stop(self) -> float:
        self._stop.set()
        self._thread.join(2)
        return self.peak_mb


class Phone:
    """The paired phone: POSTs a command, times its 202 and the assistant's COMMAND_DONE for it."""

    def __init__(self, server: RemoteServer) -> None:
        from remote_kit import request

        self._request = request
        self.port = server.port
        path = server.pairing_url.split(str(server.port), 1)[1]
        resp = request(self.port, "GET", path)
        self.cookie = {"Cookie": resp.header("Set-Cookie").split(";", 1)[0]}
        self._done: dict[str, float] = {}
        self._cond = threading.Condition()

    def on_event(self, event: Event) -> None:
        if event.type in (EventType.COMMAND_DONE, EventType.COMMAND_STOPPED):
            with self._cond:
                self._done[event.command_id] = time.monotonic()
                self._cond.notify_all()

    def command(self, text: str) -> tuple[int, float, float | None]:
        started = time.monotonic()
        try:
            resp = self._request(self.port, "POST", "/api/command", body={"text": text}, headers=self.cookie,
                                 timeout=10.0)
        except OSError:
            return 0, time.monotonic() - started, None
        accepted = time.monotonic() - started
        if resp.status != 202:
            return resp.status, accepted, None
        command_id = resp.json()["command_id"]
        with self._cond:
            self._cond.wait_for(lambda: command_id in self._done, 20.0)
            done = self._done.get(command_id)
        return 202, accepted, (done - started) if done is not None else None


def run_phase(kind: str, server: RemoteServer, phone: Phone, seconds: float, gap_s: float) -> dict:
    attacker = start_attack(kind, server.port, seconds + WARM_S)
    time.sleep(WARM_S if attacker is not None else 0.0)
    stats0 = server.http_stats
    read0 = (stats0.bytes_read + stats0.bytes_drained) if stats0 else 0
    cpu0, wall0, sampler = cpu_s(), time.monotonic(), Sampler()
    results = []
    stop_at = time.monotonic() + seconds
    while time.monotonic() < stop_at:
        started = time.monotonic()
        results.append(phone.command(f"what time is it {len(results)}"))
        time.sleep(max(0.0, gap_s - (time.monotonic() - started)))
    cpu = (cpu_s() - cpu0) / (time.monotonic() - wall0) * 100
    peak = sampler.stop()
    stats = server.http_stats
    read_mb = ((stats.bytes_read + stats.bytes_drained) - read0) / 1e6 if stats else 0.0
    detail = {}
    if attacker is not None:
        out, _ = attacker.communicate(timeout=seconds + 60)
        detail = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
    accepted = [r for r in results if r[0] == 202]
    return {"kind": kind, "sent": len(results), "accepted": len(accepted),
            "accept_ms": [r[1] * 1000 for r in accepted], "e2e_ms": [r[2] * 1000 for r in accepted if r[2] is not None],
            "cpu": cpu, "rss_peak_mb": peak, "read_mb": read_mb, "attack": detail}


def row(r: dict) -> str:
    acc, e2e = r["accept_ms"], r["e2e_ms"]
    return (f"| {r['kind']} | {r['accepted']}/{r['sent']} | {percentile(acc, 50):.1f} | {max(acc, default=0):.1f} | "
            f"{percentile(e2e, 50):.0f} | {max(e2e, default=0):.0f} | {r['cpu']:.0f}% | {r['rss_peak_mb']:.0f} | "
            f"{r['read_mb']:.2f} | {json.dumps(r['attack'])} |")


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=12.0, help="measured seconds per phase")
    ap.add_argument("--gap", type=float, default=1.0, help="seconds between the phone's commands")
    ap.add_argument("--client", nargs=2, metavar=("KIND", "JSON"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.client:
        print(json.dumps(attack(args.client[0], **json.loads(args.client[1]))))
        return 0

    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(planner="offline", memory_path=Path(tmp) / "memory.json", log_path=None, remote_port=0,
                            remote_bind="127.0.0.1")
        assistant = build_assistant(settings, memory=Memory(settings.memory_path), desktop=SimulatedDesktop())
        server = RemoteServer(settings, assistant.bus, assistant.submit, state=assistant_state(assistant),
                              frames=SyntheticScreen(320, 180), limits=LIMITS, confirmations=assistant.confirmations)
        server.start()
        try:
            phone = Phone(server)
            assistant.bus.subscribe("bench-phone", phone.on_event)
            print(f"### A paired phone's commands under attack (real assistant, default limits, a command every "
                  f"{args.gap:g} s for {args.seconds:g} s per phase)\n")
            print("| phase | accepted | accept p50 ms | accept max ms | end to end p50 ms | end to end max ms | "
                  "assistant CPU | peak RSS MB | read from sockets MB | attack |")
            print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---|")
            for kind in PHASES:
                print(row(run_phase(kind, server, phone, args.seconds, args.gap)), flush=True)
                time.sleep(1.0)  # let the attack's last sockets go
            stats = server.http_stats
            print(f"\nserver counters: {stats}")
        finally:
            server.stop()
            assistant.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
