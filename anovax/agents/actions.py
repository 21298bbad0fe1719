"""The agents that act on the desktop: apps, typing, the browser, media."""

from __future__ import annotations

from typing import ClassVar
from urllib.parse import quote_plus

from anovax.agents.base import AgentResult, ChildAgent
from anovax.desktop.base import launch_evidence

#: fixed search URLs: a query is always encoded into these, never opened as a URL itself
WEB_SEARCH_URL = "https://www.google.com/search?q="
YOUTUBE_SEARCH_URL = "https://www.youtube.com/results?search_query="


class AppAgent(ChildAgent):
    """open_app: start an application by its everyday name.

    When the desktop verified the app's window (``launch_evidence``), the result carries it
    as ``data["verified"]`` (window, title, class, pid, seconds): the AGENT_VERIFIED payload.
    """

    def do_work(self) -> AgentResult:
        name = self.step.params["name"]
        detail = self.ctx.desktop.launch_app(name, self.cancel)
        self.ctx.set_current_app(name)
        data: dict[str, object] = {"app": name}
        evidence = launch_evidence(self.ctx.desktop)
        if evidence is not None:
            data["verified"] = evidence.as_data()
        return AgentResult(value=detail, data=data)


class TypingAgent(ChildAgent):
    """type_text and press_keys: the keyboard, always under the kb_mouse lock."""

    def do_work(self) -> AgentResult:
        desktop = self.ctx.desktop
        if self.step.tool == "type_text":
            typed = desktop.type_text(self.step.params["text"], self.cancel)
            return AgentResult(value=f"typed {typed} characters", data={"chars": typed})
        keys = self.step.params["keys"]
        desktop.press_keys(keys, self.cancel)
        return AgentResult(value=f"pressed {keys}")


class _SearchAgent(ChildAgent):
    """Opens a fixed https search address with the query URL-encoded into it."""

    search_url: ClassVar[str] = ""

    def do_work(self) -> AgentResult:
        url = self.search_url + quote_plus(self.step.params["query"])
        self.ctx.desktop.open_url(url, self.cancel)
        return AgentResult(value=f"opened {url}", data={"url": url})


class BrowserAgent(_SearchAgent):
    """web_search: a web search in the user's browser."""

    search_url = WEB_SEARCH_URL


class MediaAgent(_SearchAgent):
    """youtube_search: a YouTube results page for the query."""

    search_url = YOUTUBE_SEARCH_URL
