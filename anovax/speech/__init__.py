"""Speech out, a port of its own: the engine (engine.py), whether a sound card can be heard
(probe.py), and the ``Speaker`` that says a command's reply under the ``tts`` lock (speaker.py)."""

from anovax.speech.engine import ConsoleSpeech, SpeechOut, TtsThread
from anovax.speech.speaker import SilentSpeech, Speaker, make_speech_out, reply_to_say

__all__ = ["ConsoleSpeech", "SilentSpeech", "Speaker", "SpeechOut", "TtsThread", "make_speech_out", "reply_to_say"]
