"""The built wheel works outside the checkout: its prompts and other data files ship inside it.

A clean copy of the repository (what ``git ls-files --cached --others --exclude-standard``
lists: no stale ``build/``, ``.venv`` or ``*.egg-info``) is built into a wheel with this
interpreter's pip, offline and without build isolation; the build writes its ``build/`` and
``*.egg-info`` in the copy, never in the checkout. The wheel (a zip) is unpacked and run with
``PYTHONPATH=<unpacked>`` from a folder outside the checkout, so a file read relative to the
checkout (``Path(__file__).parents[1] / "prompts"``) fails here as it does for a user.

The venv also has an editable install of the checkout. setuptools' editable finder is appended
to ``sys.meta_path`` (after the ``PathFinder`` that searches ``sys.path``, PYTHONPATH first),
so it cannot shadow the unpacked wheel; the driver below asserts that every ``anovax`` module
imported in the subprocess comes from the unpacked folder all the same.
"""

from __future__ import annotations

import configparser
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest
from fakes.fake_gemini import plan_reply

REPO = Path(__file__).resolve().parents[1]
PROMPTS = REPO / "anovax" / "prompt_templates"

# Run in the subprocess: check where anovax comes from, run the CLI (as ``python -m MODULE`` or
# through a ``module:function`` entry point), then check every anovax module loaded on the way.
DRIVER = r'''
import importlib, os, runpy, sys

root = os.path.realpath(sys.argv[1])
target = sys.argv[2]
sys.argv = ["anovax"] + sys.argv[3:]


def outside():
    return sorted(f"{name}: {mod.__file__}" for name, mod in list(sys.modules.items())
                  if (name == "anovax" or name.startswith("anovax."))
                  and getattr(mod, "__file__", None)
                  and os.path.commonpath([root, os.path.realpath(mod.__file__)]) != root)


import anovax
if outside():
    sys.stderr.write("DRIVER: anovax imported from outside the wheel: " + "; ".join(outside()) + "\n")
    sys.exit(97)
code = 0
try:
    if ":" in target:
        module, _, attr = target.partition(":")
        code = getattr(importlib.import_module(module), attr)()
    else:
        runpy.run_module(target, run_name="__main__", alter_sys=True)
except SystemExit as exc:
    code = exc.code
if outside():
    sys.stderr.write("DRIVER: anovax imported from outside the wheel: " + "; ".join(outside()) + "\n")
    sys.exit(98)
sys.stderr.write(f"DRIVER: anovax from {anovax.__file__}\n")
sys.exit(code)
'''


def _repo_files() -> list[str]:
    """The checkout's files as git lists them: tracked and untracked-but-not-ignored, present on disk."""
    if shutil.which("git") is None:
        pytest.skip("git is not installed: cannot list the repository's files")
    proc = subprocess.run(["git", "-C", str(REPO), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                          capture_output=True, timeout=60)
    if proc.returncode != 0:
        pytest.skip(f"not a git checkout: {proc.stderr.decode(errors='replace').strip()}")
    files = []
    for rel in sorted(set(proc.stdout.decode().split("\0")) - {""}):
        path = REPO / rel
        # deleted in the work tree, or reached through a symlinked folder (copied as the symlink itself)
        if not os.path.lexists(path) or path.parent.resolve() != REPO.resolve() / Path(rel).parent:
            continue
        files.append(rel)
    return files


def _copy_repo(dest: Path) -> None:
    for rel in _repo_files():
        src, dst = REPO / rel, dest / rel
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            os.symlink(os.readlink(src), dst)
        elif src.is_file():
            shutil.copy2(src, dst)


def _check_build_backend() -> None:
    """The venv's setuptools must satisfy pyproject's build requirements (no isolation, no network)."""
    from packaging.requirements import Requirement

    for spec in tomllib.loads((REPO / "pyproject.toml").read_text())["build-system"]["requires"]:
        req = Requirement(spec)
        try:
            have = importlib.metadata.version(req.name)
        except importlib.metadata.PackageNotFoundError:
            have = None
        assert have is not None and req.specifier.contains(have, prereleases=True), (
            f"this venv has {req.name} {have or '(none)'}; pyproject.toml wants {spec}: "
            "run scripts/setup-env.sh --test (make test does)")


def _clean_env(tmp: Path, unpacked: Path) -> dict[str, str]:
    """No key, proxy or user setting from outside; every file AnovaX writes goes under ``tmp``."""
    drop = {"GEMINI_API_KEY", "GOOGLE_API_KEY", "DISPLAY", "WAYLAND_DISPLAY", "PYTHONPATH", "PYTHONHOME",
            "PYTHONSTARTUP", "PYTHONSAFEPATH"}
    env = {k: v for k, v in os.environ.items()
           if k not in drop and not k.startswith(("ANOVAX_", "GOOGLE_", "XDG_"))
           and not k.lower().endswith("_proxy")}
    home = tmp / "home"
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"), XDG_STATE_HOME=str(home / ".local/state"),
               XDG_DATA_HOME=str(home / ".local/share"), XDG_CACHE_HOME=str(home / ".cache"),
               XDG_RUNTIME_DIR=str(home / "run"),
               ANOVAX_MEMORY=str(tmp / "memory.json"), ANOVAX_LOG=str(tmp / "events.jsonl"),
               ANOVAX_PICTURES=str(tmp / "pictures"), ANOVAX_VOICE="off", ANOVAX_ORB="off",
               PYTHONPATH=str(unpacked), NO_PROXY="127.0.0.1,localhost", no_proxy="127.0.0.1,localhost")
    for folder in ("home/.config", "home/run"):
        (tmp / folder).mkdir(parents=True, exist_ok=True)
    (tmp / "home/run").chmod(0o700)
    return env


@pytest.fixture(scope="module")
def wheel(tmp_path_factory):
    """(the built wheel, the folder it is unpacked in, its console script's ``module:function``)."""
    _check_build_backend()
    base = tmp_path_factory.mktemp("wheel")
    copy = base / "src"
    _copy_repo(copy)
    dist = base / "dist"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PIP_")}
    env.update(PIP_NO_INDEX="1", PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1",
               PIP_NO_CACHE_DIR="1", PYTHONPATH="")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index",
                           "-w", str(dist), str(copy)],
                          capture_output=True, text=True, env=env, cwd=base, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    wheels = list(dist.glob("anovax-*.whl"))
    assert len(wheels) == 1, sorted(p.name for p in dist.iterdir())
    unpacked = base / "unpacked"
    with zipfile.ZipFile(wheels[0]) as zf:
        zf.extractall(unpacked)
    entry_points = configparser.ConfigParser()
    entry_points.read(next(unpacked.glob("anovax-*.dist-info")) / "entry_points.txt")
    return wheels[0], unpacked, entry_points["console_scripts"]["anovax"].strip()


def run_unpacked(tmp_path: Path, unpacked: Path, target: str, *args: str,
                 env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``target`` (a module run as __main__, or ``module:function``) from the unpacked wheel."""
    driver = tmp_path / "driver" / "run_anovax.py"
    driver.parent.mkdir(exist_ok=True)
    driver.write_text(DRIVER)
    cwd = tmp_path / "elsewhere"
    cwd.mkdir(exist_ok=True)
    env = _clean_env(tmp_path, unpacked) | (env_extra or {})
    return subprocess.run([sys.executable, str(driver), str(unpacked), target, *args],
                          capture_output=True, text=True, env=env, cwd=cwd, timeout=120)


def test_prompts_have_a_single_source():
    """Each prompt file exists once, in the package; the top-level prompts/ (if any) only points there."""
    assert sorted(p.name for p in PROMPTS.glob("*.md")) == ["plan_system.md", "recovery_system.md"]
    top = REPO / "prompts"
    if top.exists():
        copies = [p for p in top.rglob("*.md") if p.resolve().parent != PROMPTS.resolve()]
        assert not copies, f"copies of the prompts outside anovax/prompt_templates/: {copies}"


@pytest.mark.slow
def test_wheel_holds_the_runtime_data(wheel):
    path, _, _ = wheel
    names = set(zipfile.ZipFile(path).namelist())
    for rel in ("anovax/prompt_templates/plan_system.md", "anovax/prompt_templates/recovery_system.md",
                "anovax/planner/grammar.yaml", "anovax/py.typed", "anovax/remote/page/index.html",
                "anovax/remote/page/app.js", "anovax/remote/page/app.css"):
        assert rel in names, f"{rel} is missing from {path.name}"
    # every non-Python file of the package in the checkout ships (pycache and the like aside)
    packaged = {rel for rel in _repo_files() if rel.startswith("anovax/") and not rel.endswith(".py")}
    assert packaged <= names, f"package files missing from the wheel: {sorted(packaged - names)}"
    assert not [n for n in names if n.startswith(("tests/", "eval/", "prompts/", "build/"))], sorted(names)


@pytest.mark.slow
def test_offline_command_from_the_unpacked_wheel(wheel, tmp_path):
    _, unpacked, _ = wheel
    proc = run_unpacked(tmp_path, unpacked, "anovax.cli", "--text", "what time is it", "--dry-run",
                        env_extra={"ANOVAX_PLANNER": "offline"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"DRIVER: anovax from {unpacked.resolve()}" in proc.stderr, proc.stderr
    # a dry run plans and checks but does not act: the plan and the spoken reply are printed
    assert "get_time" in proc.stdout and "Safety: allowed" in proc.stdout, proc.stdout + proc.stderr
    assert re.search(r"^AnovaX: \S", proc.stdout, re.MULTILINE), proc.stdout
    # its state stayed in tmp_path: the checkout's memory.json is not the one in use
    assert "memory.json" not in {p.name for p in unpacked.iterdir()}


@pytest.mark.slow
def test_gemini_command_from_the_unpacked_wheel(wheel, tmp_path, fake_gemini):
    _, unpacked, entry_point = wheel
    assert entry_point == "anovax.__main__:main"
    fake_gemini.script(plan_reply({"steps": [{"tool": "open_app", "params": {"name": "notepad"}},
                                             {"tool": "type_text", "params": {"text": "built from the wheel"}}],
                                   "final_response": "Typing it from the wheel.", "remember": {}}))
    proc = run_unpacked(tmp_path, unpacked, entry_point, "--text", "open notepad and type a note",
                        "--simulate", "--json",
                        env_extra={"GEMINI_API_KEY": "test", "ANOVAX_PLANNER": "gemini",
                                   "ANOVAX_GEMINI_BASE_URL": fake_gemini.base_url, "ANOVAX_PLANNER_TIMEOUT": "20"})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"DRIVER: anovax from {unpacked.resolve()}" in proc.stderr, proc.stderr
    lines = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    plans = [e for e in lines if e.get("type") == "PLAN_READY"]
    assert plans and plans[0]["data"]["planner"] == "gemini", proc.stdout + proc.stderr
    assert lines[-1]["typed_text"] == "built from the wheel", lines[-1]
    # the request carried the planning prompt read from the wheel: every literal part of the template
    [request] = fake_gemini.requests
    assert request.api_key == "test"
    template = (PROMPTS / "plan_system.md").read_text(encoding="utf-8")
    for chunk in re.split(r"\{\{\w+\}\}", template):
        assert chunk.strip() in request.system_text, chunk
    assert "open notepad and type a note" in request.user_text
    # everything the run wrote is under tmp_path
    assert (tmp_path / "events.jsonl").is_file()
