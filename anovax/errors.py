"""The error tree: every failure says whose fault it was and whether retrying can help.

    AnovaXError
    ├── ConfigError          bad settings file or environment value (the user's to fix)
    ├── PlanError            the planner's output is not a valid plan (model misbehaviour)
    │   └── KeyError_            a step names a key or chord that does not exist (also a ValueError)
    ├── SafetyRefusal        a plan was refused by safety_check (carries the Verdict)
    ├── PlannerUnavailable   the online planner could not answer (network, quota, 5xx)
    ├── Cancelled            stopped by the user or expired by the janitor: not a failure
    ├── ToolError            a tool failed while acting on the desktop
    │   ├── TransientToolError   may succeed on retry (window not up yet, busy device)
    │   └── PermanentToolError   retrying cannot help (app not installed, bad argument)
    │       └── TimerError           a timer request that cannot be done as asked (none by that name, over a week)
    │           └── NothingToCancel      nothing to cancel, or which one: said as the answer, not a failure
    ├── VoiceError           one piece of voice input could not be understood
    │   ├── SttError             the speech recogniser failed on a phrase (engine error, service unreachable)
    │   ├── AdaptError           anovax enrol could not adapt the recogniser (a missing tool, too little speech)
    │   └── AudioFileError       a recording given to --audio-file cannot be read (the user's to fix)
    └── Unavailable          a part of AnovaX cannot work on this machine; the rest goes on without it
        ├── VoiceUnavailable     no microphone or no recogniser: typed commands still work
        ├── OrbUnavailable       no window can open: the console status line stands in
        └── FrontmostUnavailable macOS cannot say which app is in front: launches go unverified

Retry logic reads ``is_transient``; it never string-matches messages. The classes keep their
old import paths too (``anovax.desktop.base.Cancelled``, ``anovax.voice.stt.SttError``...).
"""

from __future__ import annotations


class AnovaXError(Exception):
    """Base class for every error AnovaX raises on purpose."""

    #: short machine-readable code, stable across releases
    code: str = "error"
    #: True when the same action may succeed if tried again
    is_transient: bool = False

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class ConfigError(AnovaXError):
    """A setting (environment variable or TOML file) has an invalid value."""

    code = "config"


class PlanError(AnovaXError):
    """The planner produced something that is not a valid plan."""

    code = "bad_plan"


class KeyError_(PlanError, ValueError):
    """A key string that is not a known key or chord (anovax.safety.keys)."""

    code = "bad_key"


class SafetyRefusal(AnovaXError):
    """safety_check refused a plan; ``verdict`` says which rule and why."""

    code = "refused"

    def __init__(self, verdict) -> None:  # Verdict, untyped to keep this module dependency-free
        super().__init__(verdict.reason, code=verdict.rule)
        self.verdict = verdict


class PlannerUnavailable(AnovaXError):
    """The online planner could not produce a plan (network, quota, server error)."""

    code = "planner_unavailable"
    is_transient = True


class Cancelled(AnovaXError):
    """The action was cancelled (expired by the janitor, or stopped by the user)."""

    code = "cancelled"


class ToolError(AnovaXError):
    """A tool failed while acting on the desktop."""

    code = "tool_failed"


class TransientToolError(ToolError):
    """A failure that may go away on retry (a window not up yet, a busy device)."""

    is_transient = True


class PermanentToolError(ToolError):
    """A failure that retrying cannot fix (an app that is not installed)."""


class TimerError(PermanentToolError):
    """A timer or reminder request that cannot be done as asked; the message tells the user why."""

    code = "timer"


class NothingToCancel(TimerError):
    """A cancel with nothing to do, or one that must ask which timer: the message answers the
    request ("You have no timers or reminders running.", "You have 2 running: … Say which one"),
    so the agent says it as its result instead of failing the plan."""

    code = "timer_answer"


class VoiceError(AnovaXError):
    """One phrase or recording could not be turned into words; the listener goes on."""

    code = "voice"


class SttError(VoiceError):
    """The speech recogniser itself failed (engine error, service unreachable)."""

    code = "stt_failed"


class AdaptError(VoiceError):
    """``anovax enrol`` could not adapt the recogniser to the user's voice; ``message`` says why,
    in words the user can act on (a missing package, too few phrases heard)."""

    code = "adapt_failed"


class AudioFileError(VoiceError):
    """A recording given to ``--audio-file`` cannot be read."""

    code = "audio_file"


class Unavailable(AnovaXError):
    """A part of AnovaX cannot work on this machine; the message says why, in words for the user."""

    code = "unavailable"


class VoiceUnavailable(Unavailable):
    """There is no microphone to listen to, or no way to recognise speech; ``message`` says which."""

    code = "voice_unavailable"


class OrbUnavailable(Unavailable):
    """The orb window cannot open here; the console status line stands in."""

    code = "orb_unavailable"


class FrontmostUnavailable(Unavailable):
    """The frontmost app can't be asked for at all (no lsappinfo): launches go unverified."""

    code = "frontmost_unavailable"
