"""The few Win32 calls the Windows adapter needs to see windows, behind a Protocol.

``WindowsDesktop`` decides from these answers whether a launched app's window has the
foreground and whether typing may go on (windows.py). Everything it asks the OS goes
through ``WinApi``, so that logic is unit-tested on Linux against a scripted fake;
``Win32Api`` is the real thing, written from the documented user32/kernel32/registry
APIs. ctypes' Windows parts and winreg are loaded on first use, so importing this
module works on every OS (it cannot be exercised off Windows).
"""

from __future__ import annotations

import os
import threading
from typing import Any, Protocol

#: OpenProcess right that is granted for most processes, elevated ones included (unlike
#: PROCESS_QUERY_INFORMATION), and is all QueryFullProcessImageNameW needs
PROCESS_QUERY_LIMITED_INFORMATION = 0x1000
#: where installers register programs that are not on PATH ("chrome.exe", "winword.exe");
#: the shell's Run box and ShellExecute look there too
APP_PATHS_KEY = r"Software\Microsoft\Windows\CurrentVersion\App Paths"
#: GetClassNameW: a window class name is at most 256 characters
_MAX_CLASS_NAME = 256
#: QueryFullProcessImageNameW: long paths can exceed MAX_PATH
_MAX_IMAGE_PATH = 32768
#: ShowWindow: restore a minimised window before bringing it to the front
_SW_RESTORE = 9
#: GetWindow: the owner window; PostMessage: the close button's request
_GW_OWNER = 4
_WM_CLOSE = 0x0010


class WinApi(Protocol):
    """What WindowsDesktop asks Windows; a test fake implements the same methods."""

    def foreground_window(self) -> int:
        """The window the user is working in (GetForegroundWindow); 0 when there is none,
        which happens for a moment while the foreground changes."""
        ...

    def window_pid(self, hwnd: int) -> int | None:
        """The process that created ``hwnd``; None if the window is gone."""
        ...

    def window_title(self, hwnd: int) -> str:
        """The caption of ``hwnd``; "" when it has none or is gone."""
        ...

    def window_class(self, hwnd: int) -> str:
        """The window class name of ``hwnd`` ("Notepad", "ApplicationFrameWindow"); "" if gone."""
        ...

    def is_window(self, hwnd: int) -> bool:
        """Whether ``hwnd`` still exists."""
        ...

    def top_level_windows(self) -> set[int]:
        """The visible top-level windows now."""
        ...

    def process_image(self, pid: int) -> str:
        """The full path of the program ``pid`` runs; "" when it can't be read."""
        ...

    def activate(self, hwnd: int) -> None:
        """Ask Windows to bring ``hwnd`` to the foreground (restored if minimised). Windows grants
        it to the process that is in front, which AnovaX is after a click on the orb."""
        ...

    def app_paths(self, exe_name: str) -> str | None:
        """Where the App Paths registry key says ``exe_name`` (e.g. "chrome.exe") is; None if unregistered."""
        ...

    # -- window tools (win_windows.py) ----------------------------------------------------

    def z_order(self) -> list[int]:
        """The visible top-level windows, topmost first (EnumWindows' order)."""
        ...

    def owner(self, hwnd: int) -> int:
        """The window that owns ``hwnd`` (GetWindow GW_OWNER): a dialog's main window; 0 for none."""
        ...

    def owned_windows(self, hwnd: int) -> set[int]:
        """The visible windows ``hwnd`` owns (its dialogs)."""
        ...

    def window_state(self, hwnd: int) -> str:
        """"minimized" (IsIconic), "maximized" (IsZoomed) or "normal"."""
        ...

    def show_window(self, hwnd: int, command: int) -> None:
        """ShowWindow(hwnd, command): SW_MINIMIZE, SW_MAXIMIZE or SW_RESTORE."""
        ...

    def post_close(self, hwnd: int) -> None:
        """PostMessage(hwnd, WM_CLOSE): the close button's polite request, which the app may answer
        with its own "save changes?" dialog."""
        ...


class Win32Api:
    """``WinApi`` through ctypes (user32, kernel32) and winreg."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._ctypes: Any = None
        self._user32: Any = None
        self._kernel32: Any = None
        self._enum_proc: Any = None

    def _load(self) -> tuple[Any, Any, Any]:
        """ctypes, user32 and kernel32 with their prototypes declared.

        Declaring argtypes/restype matters on 64-bit Windows: without them ctypes passes
        and returns C ints, which truncates window handles and process handles.
        """
        with self._lock:
            if self._user32 is None:
                import ctypes
                from ctypes import wintypes

                user32 = ctypes.WinDLL("user32", use_last_error=True)
                kernel32 = ctypes.WinDLL("kernel32", use_last_error=True)
                hwnd, dword, bool_, handle = wintypes.HWND, wintypes.DWORD, wintypes.BOOL, wintypes.HANDLE
                user32.GetForegroundWindow.argtypes, user32.GetForegroundWindow.restype = [], hwnd
                user32.GetWindowThreadProcessId.argtypes = [hwnd, ctypes.POINTER(dword)]
                user32.GetWindowThreadProcessId.restype = dword
                user32.GetWindowTextLengthW.argtypes, user32.GetWindowTextLengthW.restype = [hwnd], ctypes.c_int
                user32.GetWindowTextW.argtypes = [hwnd, wintypes.LPWSTR, ctypes.c_int]
                user32.GetWindowTextW.restype = ctypes.c_int
                user32.GetClassNameW.argtypes = [hwnd, wintypes.LPWSTR, ctypes.c_int]
                user32.GetClassNameW.restype = ctypes.c_int
                user32.IsWindow.argtypes, user32.IsWindow.restype = [hwnd], bool_
                user32.IsWindowVisible.argtypes, user32.IsWindowVisible.restype = [hwnd], bool_
                user32.IsIconic.argtypes, user32.IsIconic.restype = [hwnd], bool_
                user32.ShowWindow.argtypes, user32.ShowWindow.restype = [hwnd, ctypes.c_int], bool_
                user32.SetForegroundWindow.argtypes, user32.SetForegroundWindow.restype = [hwnd], bool_
                user32.IsZoomed.argtypes, user32.IsZoomed.restype = [hwnd], bool_
                user32.GetWindow.argtypes, user32.GetWindow.restype = [hwnd, ctypes.c_uint], hwnd
                user32.PostMessageW.argtypes = [hwnd, ctypes.c_uint, wintypes.WPARAM, wintypes.LPARAM]
                user32.PostMessageW.restype = bool_
                self._enum_proc = ctypes.WINFUNCTYPE(bool_, hwnd, wintypes.LPARAM)
                user32.EnumWindows.argtypes, user32.EnumWindows.restype = [self._enum_proc, wintypes.LPARAM], bool_
                kernel32.OpenProcess.argtypes, kernel32.OpenProcess.restype = [dword, bool_, dword], handle
                kernel32.QueryFullProcessImageNameW.argtypes = [handle, dword, wintypes.LPWSTR,
                                                                ctypes.POINTER(dword)]
                kernel32.QueryFullProcessImageNameW.restype = bool_
                kernel32.CloseHandle.argtypes, kernel32.CloseHandle.restype = [handle], bool_
                self._ctypes, self._kernel32 = ctypes, kernel32
                self._user32 = user32  # last: it is what marks the whole set as loaded
            return self._ctypes, self._user32, self._kernel32

    def foreground_window(self) -> int:
        _, user32, _ = self._load()
        return int(user32.GetForegroundWindow() or 0)  # HWND comes back as None for NULL

    def window_pid(self, hwnd: int) -> int | None:
        ctypes, user32, _ = self._load()
        from ctypes import wintypes

        pid = wintypes.DWORD(0)
        thread = user32.GetWindowThreadProcessId(hwnd, ctypes.byref(pid))
        return int(pid.value) if thread and pid.value else None

    def window_title(self, hwnd: int) -> str:
        # for another process's window GetWindowText reads the caption Windows keeps,
        # without sending WM_GETTEXT: a hung app cannot hang us here
        ctypes, user32, _ = self._load()
        length = user32.GetWindowTextLengthW(hwnd)
        if length <= 0:
            return ""
        buf = ctypes.create_unicode_buffer(length + 1)
        user32.GetWindowTextW(hwnd, buf, length + 1)
        return str(buf.value)

    def window_class(self, hwnd: int) -> str:
        ctypes, user32, _ = self._load()
        buf = ctypes.create_unicode_buffer(_MAX_CLASS_NAME + 1)
        return str(buf.value) if user32.GetClassNameW(hwnd, buf, len(buf)) else ""

    def is_window(self, hwnd: int) -> bool:
        _, user32, _ = self._load()
        return bool(user32.IsWindow(hwnd))

    def top_level_windows(self) -> set[int]:
        ctypes, user32, _ = self._load()
        found: set[int] = set()

        def collect(hwnd: int | None, _param: int) -> bool:
            if hwnd and user32.IsWindowVisible(hwnd):
                found.add(int(hwnd))
            return True  # keep enumerating

        callback = self._enum_proc(collect)  # held in a local for the call: ctypes must not free it
        if not user32.EnumWindows(callback, 0):
            raise ctypes.WinError(ctypes.get_last_error())
        return found

    def z_order(self) -> list[int]:
        ctypes, user32, _ = self._load()
        found: list[int] = []

        def collect(hwnd: int | None, _param: int) -> bool:
            if hwnd and user32.IsWindowVisible(hwnd):
                found.append(int(hwnd))
            return True

        callback = self._enum_proc(collect)
        if not user32.EnumWindows(callback, 0):
            raise ctypes.WinError(ctypes.get_last_error())
        return found

    def owner(self, hwnd: int) -> int:
        _, user32, _ = self._load()
        return int(user32.GetWindow(hwnd, _GW_OWNER) or 0)

    def owned_windows(self, hwnd: int) -> set[int]:
        return {w for w in self.z_order() if self.owner(w) == hwnd}

    def window_state(self, hwnd: int) -> str:
        _, user32, _ = self._load()
        return "minimized" if user32.IsIconic(hwnd) else "maximized" if user32.IsZoomed(hwnd) else "normal"

    def show_window(self, hwnd: int, command: int) -> None:
        _, user32, _ = self._load()
        user32.ShowWindow(hwnd, command)  # its return value is the previous visibility, not success

    def post_close(self, hwnd: int) -> None:
        ctypes, user32, _ = self._load()
        if not user32.PostMessageW(hwnd, _WM_CLOSE, 0, 0):
            raise ctypes.WinError(ctypes.get_last_error())

    def activate(self, hwnd: int) -> None:
        _, user32, _ = self._load()
        if user32.IsIconic(hwnd):
            user32.ShowWindow(hwnd, _SW_RESTORE)
        user32.SetForegroundWindow(hwnd)  # refused silently when we are not in front: the caller verifies

    def process_image(self, pid: int) -> str:
        ctypes, _, kernel32 = self._load()
        from ctypes import wintypes

        handle = kernel32.OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, False, pid)
        if not handle:  # gone, or a protected process
            return ""
        try:
            size = wintypes.DWORD(_MAX_IMAGE_PATH)
            buf = ctypes.create_unicode_buffer(size.value)
            if not kernel32.QueryFullProcessImageNameW(handle, 0, buf, ctypes.byref(size)):
                return ""
            return str(buf.value)
        finally:
            kernel32.CloseHandle(handle)

    def app_paths(self, exe_name: str) -> str | None:
        import winreg

        key_path = f"{APP_PATHS_KEY}\\{exe_name}"
        # per-user registrations first, as the shell does; both registry views, because a
        # 32-bit Python sees only the WOW6432Node copy of HKLM\Software otherwise
        for root in (winreg.HKEY_CURRENT_USER, winreg.HKEY_LOCAL_MACHINE):
            for view in (winreg.KEY_WOW64_64KEY, winreg.KEY_WOW64_32KEY):
                try:
                    with winreg.OpenKey(root, key_path, 0, winreg.KEY_READ | view) as key:
                        value, kind = winreg.QueryValueEx(key, "")  # the key's default value
                except OSError:
                    continue
                if not isinstance(value, str):
                    continue
                if kind == winreg.REG_EXPAND_SZ:
                    value = os.path.expandvars(value)
                value = value.strip().strip('"')  # some installers store the path quoted
                if value:
                    return value
        return None
