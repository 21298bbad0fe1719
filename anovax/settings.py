"""Typed settings, parsed once at start-up from the environment and an optional TOML file.

Precedence, highest first: command-line flags (applied by the CLI with
``dataclasses.replace``), environment variables, the TOML file, built-in
defaults. The core never reads ``os.environ``; it is handed a ``Settings``.
"""

from __future__ import annotations

import ipaddress
import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from anovax import paths
from anovax.desktop.apps import App, user_apps
from anovax.errors import ConfigError
from anovax.search_urls import DEFAULT_SEARCH_URL, DEFAULT_VIDEO_URL, SearchUrls, template_problem
from anovax.voice.talkkey import known_keysym, parse_talk_key

PLANNERS = ("auto", "gemini", "ollama", "offline")
LOG_LEVELS = ("debug", "info", "warning", "error")
#: speech recognisers (anovax.voice.stt.STT_CHOICES); the first is the default
STT_ENGINES = ("sphinx", "google")
#: whether to listen to the microphone: auto = when there is one
VOICE_MODES = ("auto", "on", "off")
#: whether to open the orb window: auto = when there is a display
ORB_MODES = ("auto", "on", "off")
#: bounds of ANOVAX_WAKE_TIMEOUT, seconds
WAKE_TIMEOUT_RANGE = (1.0, 3600.0)
#: bounds of the phone remote's screen stream: width in pixels, frames per second
REMOTE_WIDTH_RANGE = (160, 3840)
REMOTE_FPS_RANGE = (1.0, 30.0)
#: a fixed remote token shorter than this is guessable; the random one has 43 characters
REMOTE_TOKEN_MIN_CHARS = 16
#: the checkout's own memory.json, used when AnovaX runs from a source tree
_CHECKOUT_MEMORY = Path(__file__).resolve().parents[1] / "memory.json"


def default_memory_path() -> Path:
    """The checkout's memory.json when running from source, else the user data folder."""
    if _CHECKOUT_MEMORY.exists():
        return _CHECKOUT_MEMORY
    return paths.data_dir() / "memory.json"


def default_log_path(env: Mapping[str, str] | None = None) -> Path:
    return paths.state_dir(env) / "events.jsonl"


def default_config_path() -> Path:
    return paths.config_dir() / "config.toml"


@dataclass(frozen=True)
class Setting:
    """Documentation of one setting: its TOML key, environment variable and meaning."""

    key: str
    env: tuple[str, ...]
    default: str
    description: str


@dataclass(frozen=True)
class Settings:
    """Every knob AnovaX has. Immutable; derive variants with dataclasses.replace."""

    #: which planner answers: auto (Gemini when a key is set, else offline), gemini, offline
    planner: str = "auto"
    #: Gemini API key; only ever read from the environment, never written anywhere
    gemini_api_key: str = field(default="", repr=False)
    #: Gemini model name
    model: str = "gemini-2.5-flash"
    #: another address for the Gemini API (a proxy, or the tests' loopback fake); empty: Google's
    gemini_base_url: str = ""
    #: local model served by Ollama, and where
    ollama_model: str = "llama3.2"
    ollama_host: str = "http://127.0.0.1:11434"
    #: seconds one planner or recovery call to a model may take
    planner_timeout_s: float = 10.0
    #: persistent facts file
    memory_path: Path = field(default_factory=default_memory_path)
    #: the JSONL event log (rotated by size); empty path string turns it off
    log_path: Path | None = field(default_factory=default_log_path)
    #: console log level
    log_level: str = "warning"
    #: where the settings were read from (None: environment and defaults only)
    config_file: Path | None = None
    #: the user's own app names (the settings file's [apps] table), looked up before the built-ins
    apps: tuple[App, ...] = ()
    #: where screenshots go; None: the desktop's pictures folder (XDG PICTURES, else ~/Pictures)
    pictures_dir: Path | None = None
    #: speech recogniser: sphinx (offline) or google (sends the audio to Google)
    stt: str = "sphinx"
    #: seconds without a phrase before the awake assistant goes back to sleep
    wake_timeout_s: float = 8.0
    #: seconds a question ("Type `ls` ... in Terminal?") waits for a yes before it is denied
    confirm_timeout_s: float = 20.0
    #: listen to the microphone: auto (when one exists), on, off
    voice: str = "auto"
    #: the key that, held, makes a phrase a command without the wake word (an X keysym name), or "off"
    talk_key: str = "Control_R"
    #: the orb window: auto (when there is a display; else the console status line), on, off
    orb: str = "auto"
    #: start the phone remote (a paired web page on the LAN) with the assistant
    remote: bool = False
    #: TCP port of the phone remote
    remote_port: int = 8765
    #: address the phone remote listens on; empty: this machine's LAN address (loopback without one)
    remote_bind: str = ""
    #: fixed bearer token for scripted use; empty: a random one per start. Environment only.
    remote_token: str = field(default="", repr=False)
    #: width in pixels the phone's screen stream is scaled down to
    remote_width: int = 1280
    #: the screen stream's frame-rate cap
    remote_fps: float = 15.0
    #: where the phone remote keeps its bans across restarts (the state folder); None: in memory only
    remote_bans_path: Path | None = None
    #: what web_search opens: an http(s) address with {query} where the encoded words go
    search_url: str = DEFAULT_SEARCH_URL
    #: what youtube_search opens, the same way
    video_url: str = DEFAULT_VIDEO_URL
    #: sentences to show at start-up about settings that were ignored (a bad search template)
    notices: tuple[str, ...] = ()

    @property
    def search_urls(self) -> SearchUrls:
        return SearchUrls(self.search_url, self.video_url)

    @property
    def use_gemini(self) -> bool:
        if self.planner == "gemini":
            return True
        return self.planner == "auto" and bool(self.gemini_api_key)

    @property
    def effective_planner(self) -> str:
        """gemini, ollama or offline: what ``auto`` resolves to."""
        if self.planner == "auto":
            return "gemini" if self.gemini_api_key else "offline"
        return self.planner


#: the documented settings, in README order (tests check README lists each one)
SETTINGS_DOC: tuple[Setting, ...] = (
    Setting("planner", ("ANOVAX_PLANNER",), "auto",
            "`auto` uses Gemini when an API key is set and the offline planner otherwise; `gemini`; `ollama`; `offline`."),
    Setting("gemini_api_key", ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "(unset)",
            "Gemini API key. Environment only: never read from or written to a file."),
    Setting("model", ("ANOVAX_MODEL",), "gemini-2.5-flash", "Gemini model used for planning."),
    Setting("gemini_base_url", ("ANOVAX_GEMINI_BASE_URL",), "(Google's)",
            "Another address for the Gemini API: a proxy, or a loopback fake in tests."),
    Setting("ollama_model", ("ANOVAX_OLLAMA_MODEL",), "llama3.2", "Local model for `ANOVAX_PLANNER=ollama`."),
    Setting("ollama_host", ("ANOVAX_OLLAMA_HOST",), "http://127.0.0.1:11434", "Where the Ollama server listens."),
    Setting("planner_timeout_s", ("ANOVAX_PLANNER_TIMEOUT",), "10",
            "Seconds one planning or recovery call to a model may take before the offline planner answers."),
    Setting("memory_path", ("ANOVAX_MEMORY",), "`memory.json` in the checkout, else `~/.local/share/anovax/memory.json`",
            "Persistent facts file (written atomically, shared safely by two AnovaX processes; a corrupt file is moved aside when something is next remembered)."),
    Setting("log_path", ("ANOVAX_LOG",), "`~/.local/state/anovax/events.jsonl`",
            "JSONL log of every lifecycle event, rotated at 5 MB (3 old files kept); `off` disables it."),
    Setting("log_level", ("ANOVAX_LOG_LEVEL",), "warning", "Console log level: debug, info, warning or error."),
    Setting("pictures_dir", ("ANOVAX_PICTURES",), "XDG `PICTURES` folder, else `~/Pictures`",
            "Where the `screenshot` tool saves its PNG files."),
    Setting("voice", ("ANOVAX_VOICE",), "auto",
            "Listen to the microphone: `auto` when one exists, `on` (say so if there is none), `off`. "
            "Typed commands always work."),
    Setting("stt", ("ANOVAX_STT",), "sphinx",
            "Speech recogniser: `sphinx` runs offline (pocketsphinx with AnovaX's command vocabulary); "
            "`google` **sends every phrase the microphone picks up to Google's web speech service**."),
    Setting("talk_key", ("ANOVAX_TALK_KEY",), "Control_R",
            "Hold-to-talk: while this key is held, what you say is a command without \"hey anova\" "
            "(an X key name: `Control_R` is Right Ctrl, `F12`, `Pause`...; `off` turns it off). X11 only; "
            "see *Voice*."),
    Setting("wake_timeout_s", ("ANOVAX_WAKE_TIMEOUT",), "8",
            "After \"hey anova\" said alone, how many seconds AnovaX waits for the command (one "
            "phrase) before it sleeps again (1 to 3600)."),
    Setting("confirm_timeout_s", ("ANOVAX_CONFIRM_TIMEOUT",), "20",
            "Seconds a question (\"Type `ls` and press Enter in Terminal?\") waits for a yes from the orb, the "
            "console, a paired phone or the voice before the plan is denied (1 to 120)."),
    Setting("remote", ("ANOVAX_REMOTE",), "0",
            "`1` starts the phone remote with the assistant (see *Phone remote*); it can also be switched on "
            "from the orb or the console."),
    Setting("remote_port", ("ANOVAX_REMOTE_PORT",), "8765", "TCP port of the phone remote."),
    Setting("remote_bind", ("ANOVAX_REMOTE_BIND",), "this machine's LAN address",
            "Address the phone remote listens on: `127.0.0.1` keeps it on this machine (an SSH tunnel), "
            "`0.0.0.0` every interface. Without a LAN it falls back to loopback."),
    Setting("remote_token", ("ANOVAX_REMOTE_TOKEN",), "(random per start)",
            "Fixed bearer token for scripts (`Authorization: Bearer …`), at least 16 characters. "
            "Environment only."),
    Setting("remote_width", ("ANOVAX_REMOTE_WIDTH",), "1280",
            "Width in pixels the phone's screen stream is scaled down to (160 to 3840)."),
    Setting("remote_fps", ("ANOVAX_REMOTE_FPS",), "15", "Frame-rate cap of the phone's screen stream (1 to 30)."),
    Setting("orb", ("ANOVAX_ORB",), "auto",
            "The orb window (see *The orb*): `auto` opens it when there is a display and shows a status line in "
            "the console otherwise, `on` (say why when it cannot open), `off` (console only)."),
    Setting("search_url", ("ANOVAX_SEARCH_URL",), "`https://www.google.com/search?q={query}`",
            "What a web search opens: an http(s) address with `{query}` where the words go "
            "(`https://duckduckgo.com/?q={query}`). Its host counts as a search engine for the safety gate. "
            "A bad value is reported at start-up and the default is used."),
    Setting("video_url", ("ANOVAX_VIDEO_URL",), "`https://www.youtube.com/results?search_query={query}`",
            "What a video search (\"play … on YouTube\") opens, the same way."),
    Setting("config_file", ("ANOVAX_CONFIG",), "`~/.config/anovax/config.toml`",
            "Optional TOML settings file; keys are the names in the first column, plus an `[apps]` table "
            "of your own app names (see *Apps*)."),
)

_FILE_KEYS = {"planner", "model", "memory_path", "log_path", "log_level", "gemini_base_url", "ollama_model",
              "ollama_host", "planner_timeout_s", "pictures_dir", "stt", "wake_timeout_s", "confirm_timeout_s", "voice", "orb",
              "talk_key",
              "remote", "remote_port", "remote_bind", "remote_width", "remote_fps", "search_url", "video_url"}


def _choice(name: str, value: str, allowed: tuple[str, ...]) -> str:
    norm = value.strip().lower()
    if norm not in allowed:
        raise ConfigError(f"{name} must be one of {', '.join(allowed)}, not {value!r}.")
    return norm


def _seconds(values: dict[str, Any], key: str, var: str, low: float, high: float) -> None:
    """Parse ``values[key]`` (if given) as a number of seconds from ``low`` to ``high``."""
    if key not in values:
        return
    try:
        seconds = float(values[key])
    except (TypeError, ValueError):
        seconds = float("nan")
    if not low <= seconds <= high:  # also false for nan
        raise ConfigError(f"{var} must be a number of seconds from {low:g} to {high:g}, not {values[key]!r}.")
    values[key] = seconds


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            data = tomllib.load(fh)
    except OSError as exc:
        raise ConfigError(f"Cannot read the settings file {path}: {exc.strerror or exc}.") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"The settings file {path} is not valid TOML: {exc}.") from exc
    section = dict(data.get("anovax", data))
    if not isinstance(data.get("anovax", data), Mapping):
        raise ConfigError(f"The [anovax] section of {path} must be a table.")
    table = section.pop("apps", None) if "apps" in section else data.get("apps")
    if table is not None:
        if not isinstance(table, Mapping):
            raise ConfigError(f"[apps] in {path} must be a table of names = program or [arguments].")
        try:
            apps = user_apps(table)
        except ValueError as exc:
            raise ConfigError(f"In [apps] of {path}: {exc}.") from exc
    secret = sorted(set(section) & {"gemini_api_key", "google_api_key", "remote_token"})
    if secret:  # a key in a file is one `cat` away from anyone: the environment only
        raise ConfigError(f"{', '.join(secret)} in {path}: secrets are read from the environment only "
                          "(GEMINI_API_KEY, ANOVAX_REMOTE_TOKEN), never from the settings file.")
    unknown = set(section) - _FILE_KEYS
    if unknown:
        raise ConfigError(f"Unknown settings in {path}: {', '.join(sorted(unknown))}.")
    for key, value in section.items():
        if not isinstance(value, str):
            raise ConfigError(f"Setting {key} in {path} must be a string.")
    if table is not None:
        section["apps"] = apps
    return section


def _number(values: dict[str, Any], key: str, var: str, bounds: tuple[float, float], kind: type) -> None:
    """Parse ``values[key]`` as ``kind`` within ``bounds`` (inclusive), or raise ConfigError naming ``var``."""
    if key not in values:
        return
    low, high = bounds
    try:
        number = kind(values[key])
    except (TypeError, ValueError):
        number = None
    if number is None or not low <= number <= high:  # also false for nan
        raise ConfigError(f"{var} must be a number from {low:g} to {high:g}, not {values[key]!r}.")
    values[key] = number


def _remote_values(values: dict[str, Any], named: Callable[[str], str]) -> None:
    """Check and convert the phone remote's settings in place; ``named`` says how an error names
    a setting (its variable, or its key in the file)."""
    if "remote" in values:
        flag = str(values["remote"]).strip().lower()
        if flag not in {"0", "1", "true", "false", "on", "off", "yes", "no"}:
            raise ConfigError(f"{named('ANOVAX_REMOTE')} must be 0 or 1, not {values['remote']!r}.")
        values["remote"] = flag in {"1", "true", "on", "yes"}
    _number(values, "remote_port", named("ANOVAX_REMOTE_PORT"), (1, 65535), int)
    _number(values, "remote_width", named("ANOVAX_REMOTE_WIDTH"), REMOTE_WIDTH_RANGE, int)
    _number(values, "remote_fps", named("ANOVAX_REMOTE_FPS"), REMOTE_FPS_RANGE, float)
    if "remote_bind" in values:
        try:
            values["remote_bind"] = str(ipaddress.ip_address(values["remote_bind"]))
        except ValueError as exc:
            raise ConfigError(f"{named('ANOVAX_REMOTE_BIND')} must be an IP address such as 127.0.0.1 or 0.0.0.0, "
                              f"not {values['remote_bind']!r}.") from exc
    token = values.get("remote_token", "")
    if token and (len(token) < REMOTE_TOKEN_MIN_CHARS or not token.isascii() or not token.isprintable()):
        raise ConfigError(f"ANOVAX_REMOTE_TOKEN must be at least {REMOTE_TOKEN_MIN_CHARS} printable ASCII "
                          "characters (or unset for a random one).")


def _templates(values: dict[str, Any], named: Callable[[str], str]) -> tuple[str, ...]:
    """Drop a bad search or video template (the default stays); say why, for start-up."""
    notices = []
    for key, var, default in (("search_url", "ANOVAX_SEARCH_URL", DEFAULT_SEARCH_URL),
                              ("video_url", "ANOVAX_VIDEO_URL", DEFAULT_VIDEO_URL)):
        if key in values:
            problem = template_problem(str(values[key]))
            if problem:  # a search engine is no reason to refuse to start: the default still works
                notices.append(f"{named(var)} {problem} ({str(values.pop(key))[:80]!r}); using {default}.")
    return tuple(notices)


def load_settings(env: Mapping[str, str] | None = None, config_file: Path | None = None) -> Settings:
    """Build Settings from ``env`` (default: os.environ) and the TOML file, or raise ConfigError."""
    env = os.environ if env is None else env
    values: dict[str, Any] = {}

    explicit = config_file or (Path(env["ANOVAX_CONFIG"]).expanduser() if env.get("ANOVAX_CONFIG") else None)
    path = explicit or default_config_path()
    #: setting -> how an error names it: the environment variable, or the key in the file
    origin: dict[str, str] = {}
    if explicit or path.is_file():
        from_file = _read_toml(path)
        origin.update({k: f"{k} in {path}" for k in from_file})
        values.update(from_file)
        values["config_file"] = path

    env_map = {"ANOVAX_PLANNER": "planner", "ANOVAX_MODEL": "model", "ANOVAX_MEMORY": "memory_path",
               "ANOVAX_LOG": "log_path", "ANOVAX_LOG_LEVEL": "log_level", "ANOVAX_GEMINI_BASE_URL": "gemini_base_url",
               "ANOVAX_OLLAMA_MODEL": "ollama_model", "ANOVAX_OLLAMA_HOST": "ollama_host",
               "ANOVAX_PLANNER_TIMEOUT": "planner_timeout_s", "ANOVAX_PICTURES": "pictures_dir",
               "ANOVAX_STT": "stt", "ANOVAX_WAKE_TIMEOUT": "wake_timeout_s", "ANOVAX_VOICE": "voice",
               "ANOVAX_ORB": "orb", "ANOVAX_CONFIRM_TIMEOUT": "confirm_timeout_s", "ANOVAX_TALK_KEY": "talk_key",
               "ANOVAX_REMOTE": "remote", "ANOVAX_REMOTE_PORT": "remote_port", "ANOVAX_REMOTE_BIND": "remote_bind",
               "ANOVAX_REMOTE_WIDTH": "remote_width", "ANOVAX_REMOTE_FPS": "remote_fps",
               "ANOVAX_SEARCH_URL": "search_url", "ANOVAX_VIDEO_URL": "video_url"}
    for var, key in env_map.items():
        if env.get(var, "").strip():
            values[key] = env[var].strip()
            origin[key] = var

    def named(var: str) -> str:  # a bad value in the file is named as the file's key, not a variable never set
        return origin.get(env_map.get(var, ""), var)

    key = env.get("GEMINI_API_KEY", "").strip() or env.get("GOOGLE_API_KEY", "").strip()
    if key:
        values["gemini_api_key"] = key
    if env.get("ANOVAX_REMOTE_TOKEN", "").strip():
        values["remote_token"] = env["ANOVAX_REMOTE_TOKEN"].strip()

    if "planner" in values:
        values["planner"] = _choice(named("ANOVAX_PLANNER"), values["planner"], PLANNERS)
    if "log_level" in values:
        values["log_level"] = _choice(named("ANOVAX_LOG_LEVEL"), values["log_level"], LOG_LEVELS)
    if "stt" in values:
        values["stt"] = _choice(named("ANOVAX_STT"), values["stt"], STT_ENGINES)
    if "voice" in values:
        values["voice"] = _choice(named("ANOVAX_VOICE"), values["voice"], VOICE_MODES)
    if "orb" in values:
        values["orb"] = _choice(named("ANOVAX_ORB"), values["orb"], ORB_MODES)
    if "talk_key" in values:
        try:
            values["talk_key"] = parse_talk_key(str(values["talk_key"]))
        except ValueError as exc:
            raise ConfigError(f"{named('ANOVAX_TALK_KEY')} {exc}.") from exc
    _seconds(values, "wake_timeout_s", named("ANOVAX_WAKE_TIMEOUT"), *WAKE_TIMEOUT_RANGE)
    _seconds(values, "confirm_timeout_s", named("ANOVAX_CONFIRM_TIMEOUT"), 1, 120)
    if "log_path" in values:
        off = values["log_path"].strip().lower() in {"off", "none", "0", "false"}
        values["log_path"] = None if off else Path(values["log_path"]).expanduser()
    for key in ("memory_path", "pictures_dir"):
        if key in values:
            values[key] = Path(values[key]).expanduser()
    if "model" in values and not values["model"].strip():
        raise ConfigError(f"{named('ANOVAX_MODEL')} must not be empty.")
    _seconds(values, "planner_timeout_s", named("ANOVAX_PLANNER_TIMEOUT"), 0.1, 120)
    for key, var in (("gemini_base_url", "ANOVAX_GEMINI_BASE_URL"), ("ollama_host", "ANOVAX_OLLAMA_HOST")):
        if values.get(key) and not str(values[key]).startswith(("http://", "https://")):
            raise ConfigError(f"{named(var)} must be an http:// or https:// address.")

    _remote_values(values, named)
    values["notices"] = _templates(values, named)
    if values.get("talk_key", "off") != "off" and not known_keysym(str(values["talk_key"])):
        # not fatal: the rest of AnovaX works, and the start-up line says why the key does not
        values["notices"] += (f"{named('ANOVAX_TALK_KEY')} {values['talk_key']!r} is not a key name AnovaX can grab "
                              f"(such as Control_R, F12 or Pause): hold-to-talk is off.",)
        values["talk_key"] = "off"
    values.setdefault("log_path", default_log_path(env))
    values.setdefault("remote_bans_path", paths.state_dir(env) / "remote_bans.json")
    known = {f.name for f in fields(Settings)}
    return Settings(**{k: v for k, v in values.items() if k in known})
