"""The agents that act on the desktop: apps, typing, the browser, media."""

from __future__ import annotations

from anovax.agents.base import AgentResult, ChildAgent
from anovax.desktop.base import launch_evidence
from anovax.errors import PermanentToolError
from anovax.search_urls import SearchUrls, fill
from anovax.sites import Address, resolve


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
    """Opens the user's search address (settings) with the query URL-encoded into it.

    Done only on window evidence (``Desktop.open_url`` returns it where the desktop can see
    windows): it becomes ``data["verified"]``, the AGENT_VERIFIED payload with the window's title."""

    def template(self, urls: SearchUrls) -> str:
        raise NotImplementedError

    def do_work(self) -> AgentResult:
        url = fill(self.template(self.ctx.search_urls), self.step.params["query"])
        evidence = self.ctx.desktop.open_url(url, self.cancel)
        data: dict[str, object] = {"url": url}
        if evidence is not None:
            data["verified"] = evidence.as_data()
        return AgentResult(value=f"opened {url}", data=data)


class BrowserAgent(_SearchAgent):
    """web_search: a web search in the user's browser."""

    def template(self, urls: SearchUrls) -> str:
        return urls.search


class MediaAgent(_SearchAgent):
    """youtube_search: a video site's results page for the query."""

    def template(self, urls: SearchUrls) -> str:
        return urls.video


class SiteAgent(ChildAgent):
    """open_website: a web address the gate let through, opened as ``sites.resolve`` reads it (a
    known site's name, "wikipedia", is its fixed address; a bare "example.com" gets https). Done
    only on window evidence, as a search is."""

    def do_work(self) -> AgentResult:
        address = resolve(self.step.params["address"])
        if not isinstance(address, Address):  # the gate refuses these; a plug-in's plan may not pass it
            raise PermanentToolError(f"I can't open that web address: it {address}.", code="bad_url")
        evidence = self.ctx.desktop.open_url(address.url, self.cancel)
        data: dict[str, object] = {"url": address.url}
        if evidence is not None:
            data["verified"] = evidence.as_data()
        return AgentResult(value=f"opened {address.url}", data=data)
