"""The online recogniser (opt-in, ``ANOVAX_STT=google``): SpeechRecognition's ``recognize_google``,
which sends the audio to Google's web speech API."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from anovax.errors import SttError
from anovax.voice.recognizer import normalise, sentence

if TYPE_CHECKING:
    import speech_recognition as sr


class GoogleRecognizer:
    """SpeechRecognition's ``recognize_google``: the audio is sent to Google. Opt-in only."""

    name = "google"
    offline = False

    def __init__(self, language: str = "en-US", key: str | None = None, endpoint: str | None = None,
                 timeout: float | None = 10.0) -> None:
        import speech_recognition as sr

        self._sr = sr
        self._recognizer = sr.Recognizer()
        self._recognizer.operation_timeout = timeout
        self.language = language
        self.key = key
        self.endpoint = endpoint

    def recognize(self, audio: sr.AudioData) -> str:
        kw: dict[str, Any] = {"language": self.language, "key": self.key}
        if self.endpoint:
            kw["endpoint"] = self.endpoint
        return map_google_result(lambda: self._recognizer.recognize_google(audio, **kw), self._sr)


def map_google_result(call: Any, sr_module: Any = None) -> str:
    """Run ``call`` (a recognize_google call) and map its outcome: text -> normalised words,
    ``UnknownValueError`` -> "", ``RequestError`` -> SttError("... unreachable ..."), and an
    ``OSError`` (a read timeout or reset connection, which SpeechRecognition lets through; no
    FLAC encoder) -> SttError too."""
    if sr_module is None:
        import speech_recognition as sr_module
    try:
        text = call()
    except sr_module.UnknownValueError:
        return ""
    except sr_module.RequestError as exc:
        raise SttError(sentence(f"Google speech recognition is unreachable: {exc}")) from exc
    except OSError as exc:
        raise SttError(sentence(f"Google speech recognition failed: {exc}")) from exc
    if isinstance(text, dict):  # show_all=True style answers
        alts = text.get("alternative") or [{}]
        text = alts[0].get("transcript", "")
    return normalise(re.sub(r"[^\w' ]+", " ", str(text)))
