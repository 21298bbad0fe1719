#!/usr/bin/env bash
# Creates .venv/ and installs AnovaX into it, with the Debian packages it needs.
#   scripts/setup-env.sh            runtime set-up (make run)
#   scripts/setup-env.sh --test     also the packages the test suite needs (make test)
# Debian packages are installed only when missing and only when apt-get can run
# (root, or password-less sudo); otherwise we say what is missing and carry on.
set -euo pipefail
cd "$(dirname "$0")/.."

want_test=0
[ "${1:-}" = "--test" ] && want_test=1

PY=${PYTHON:-python3}
# Build headers for PyAudio (no Linux wheels on PyPI), and the venv module where
# the distribution splits it out of Python.
runtime_pkgs=(portaudio19-dev)
"$PY" -c "import venv, ensurepip" 2>/dev/null || runtime_pkgs+=(python3-venv)
# anovax enrol: CMU Sphinx's adaptation tools (feature extraction, bw, mllr_solve, the model
# definition converter) adapt the offline recogniser to the user's voice (anovax/voice/adapt.py).
runtime_pkgs+=(sphinxtrain sphinxbase-utils pocketsphinx)
# What the test suite drives for real (grows with the desktop, voice and remote issues).
# Desktop adapters: an X server, a window manager (focus), the keyboard tool, a terminal
# to launch, and espeak for the real pyttsx3 engine; Tk for the typing target window.
# Voice: a PulseAudio null sink is the tests' microphone (its monitor is the default input,
# paplay speaks into it; libasound2-plugins routes PortAudio's ALSA to it), aplay plays pyttsx3's
# speech, sox adds noise to the synthetic speech.
test_pkgs=(xvfb openbox xdotool xterm espeak-ng pulseaudio pulseaudio-utils libasound2-plugins alsa-utils sox)
# Phone remote: Debian's Chromium for the Playwright page test (Playwright's own browser download
# is not used).
test_pkgs+=(chromium)
# Real apps the keyboard-target tests type into and read back: mousepad (a GTK text editor, the
# tests' "notepad"), galculator, and xclip to read an app's text through the clipboard.
test_pkgs+=(mousepad galculator xclip tmux)
# A second and a third speech synthesiser whose voices the wake gate's thresholds never saw (the
# voice benchmarks report them beside espeak-ng's, and a test speaks with festival).
test_pkgs+=(festival festvox-kallpc16k festvox-kdlpc16k flite)
"$PY" -c "import tkinter" 2>/dev/null || test_pkgs+=(python3-tk)

apt_ok() {
    command -v apt-get >/dev/null 2>&1 || return 1
    if [ "$(id -u)" = 0 ]; then SUDO=(); elif sudo -n true 2>/dev/null; then SUDO=(sudo -n); else return 1; fi
}

missing=()
pkgs=("${runtime_pkgs[@]}")
[ "$want_test" = 1 ] && pkgs+=("${test_pkgs[@]}")
for p in "${pkgs[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ] && command -v dpkg-query >/dev/null 2>&1; then
    if apt_ok; then
        echo "setup: installing Debian packages: ${missing[*]}"
        export DEBIAN_FRONTEND=noninteractive
        "${SUDO[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 || {
            "${SUDO[@]}" apt-get update -qq >/dev/null
            "${SUDO[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
        }
    else
        echo "setup: cannot install Debian packages (${missing[*]}) without root; continuing" >&2
    fi
fi

if [ ! -x .venv/bin/python ]; then
    echo "setup: creating .venv with $($PY --version 2>&1)"
    "$PY" -m venv .venv
fi
.venv/bin/python -m pip install -q --disable-pip-version-check --upgrade pip >/dev/null

extras=""
[ "$want_test" = 1 ] && extras="[dev]"
echo "setup: installing anovax$extras into .venv"
if ! .venv/bin/python -m pip install -q --disable-pip-version-check -e ".$extras"; then
    # Almost always PyAudio failing to build without portaudio headers: install
    # everything else so the assistant still runs with text input.
    echo "setup: full install failed; installing without PyAudio (voice input will be off)" >&2
    .venv/bin/python -m pip install -q --disable-pip-version-check --no-deps -e .
    .venv/bin/python - "$want_test" <<'PY' | xargs .venv/bin/python -m pip install -q --disable-pip-version-check
import sys, tomllib
project = tomllib.load(open("pyproject.toml", "rb"))["project"]
deps = [d for d in project["dependencies"] if not d.lower().startswith("pyaudio")]
if sys.argv[1] == "1":
    deps += project["optional-dependencies"]["dev"]
print("\n".join(deps))
PY
fi
# noise suppression (anovax/voice/denoise.py), the package alone and only as a wheel: its source
# build needs C++, and the whole project again would fail wherever PyAudio did
denoise=$(.venv/bin/python -c 'import tomllib; print(tomllib.load(open("pyproject.toml", "rb"))["project"]["optional-dependencies"]["denoise"][0])')
if ! .venv/bin/python -m pip install -q --disable-pip-version-check --only-binary webrtc-noise-gain "$denoise" >/dev/null 2>&1; then
    echo "setup: could not install the noise suppressor ($denoise: no wheel for this machine, or no network);" \
        "the microphone's audio is used as it is" >&2
fi
if [ "$want_test" = 1 ]; then
    # tests/test_wheel.py builds a wheel offline and without build isolation, so the venv itself
    # needs pyproject's build backend (Python's bundled setuptools is older than it asks for).
    .venv/bin/python - <<'PY'
import subprocess, sys, tomllib
requires = tomllib.load(open("pyproject.toml", "rb"))["build-system"]["requires"]
subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", "--disable-pip-version-check", *requires])
PY
fi

# memory.json in the checkout is a blank template that AnovaX then fills with the user's own facts:
# keep those out of `git status` and out of commits (undo with --no-skip-worktree).
if command -v git >/dev/null 2>&1 && git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    git update-index --skip-worktree memory.json 2>/dev/null || true
fi

# the offline planner's fuzzy fallback is trained from its grammar once and cached in the user's
# cache folder (anovax/planner/fuzzy_cache.py); doing it here keeps the first start fast
.venv/bin/python -c "from anovax.planner.fuzzy_cache import load_model; load_model()" \
    || echo "setup: the fuzzy model was not trained now; the first start will train it" >&2

# bytecode for AnovaX's own modules: an editable install has none until a start writes it, and a
# shell with PYTHONDONTWRITEBYTECODE never does (0.52 s a start instead of 0.41 s); a changed
# module's stale bytecode is ignored by Python, so this can only help
.venv/bin/python -m compileall -q anovax >/dev/null 2>&1 || true
