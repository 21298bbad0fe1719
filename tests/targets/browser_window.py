"""A stand-in browser with a real window: ``browser_window.py TITLES_LOG URL``.

Its window's title is "New Tab - Fake Browser", then "<URL> - Fake Browser" (what a browser
shows while a page loads), so
AnovaX's window evidence and a test's title check see which address it was given. Once the window
is on screen, the title is appended to TITLES_LOG: a line there means a window showed it. The
window stays until it is closed or the process is ended. Used by the eval and by tests as $BROWSER
(through a one-line shell script, as webbrowser wants a command).
"""

from __future__ import annotations

import sys
import tkinter as tk
from pathlib import Path

TITLE_SUFFIX = " - Fake Browser"


def main(argv: list[str]) -> int:
    log, url = Path(argv[0]), argv[1]
    root = tk.Tk(className="FakeBrowser")
    title = url + TITLE_SUFFIX
    # like a browser: a placeholder first, the address a moment later
    root.title("New Tab" + TITLE_SUFFIX)
    root.after(50, lambda: root.title(title))
    root.geometry("420x120")
    tk.Label(root, text=url, wraplength=400).pack(padx=8, pady=8)

    def shown() -> None:
        if not root.winfo_viewable() or root.title() != title:
            root.after(20, shown)
            return
        with log.open("a", encoding="utf-8") as fh:
            fh.write(title + "\n")

    root.after(20, shown)
    root.mainloop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
