"""Every error class AnovaX defines lives in errors.py and is drawn in its docstring's tree."""

from __future__ import annotations

import ast
import builtins
import inspect
from pathlib import Path

import anovax
from anovax import errors

PACKAGE = Path(anovax.__file__).resolve().parent
ERROR_NAMES = {name for name, obj in vars(errors).items() if inspect.isclass(obj) and issubclass(obj, Exception)}
BUILTIN_ERRORS = {name for name, obj in vars(builtins).items()
                  if inspect.isclass(obj) and issubclass(obj, BaseException)}


def _base_name(node: ast.expr) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def error_classes_outside() -> list[str]:
    """``module:Class`` for every class outside errors.py whose base is an exception."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.name == "errors.py" and path.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and any(
                    _base_name(b) in ERROR_NAMES | BUILTIN_ERRORS for b in node.bases):
                found.append(f"{path.relative_to(PACKAGE).as_posix()}:{node.name}")
    return found


def test_no_error_class_is_defined_outside_errors_py():
    assert error_classes_outside() == []


def test_every_error_is_in_the_tree_under_its_parent():
    tree = errors.__doc__
    lines = tree.splitlines()

    def depth(name: str) -> int:
        [line] = [ln for ln in lines if f"── {name} " in ln or ln.strip() == name]
        return (len(line) - len(line.lstrip(" │├└─"))) // 4

    for name in ERROR_NAMES:
        cls = getattr(errors, name)
        if cls is errors.AnovaXError:
            continue
        assert issubclass(cls, errors.AnovaXError), name
        assert depth(name) == depth(cls.__mro__[1].__name__) + 1, f"{name} is not drawn under {cls.__mro__[1].__name__}"


def test_moved_classes_keep_their_old_import_paths():
    from anovax.cancel import Cancelled as from_cancel
    from anovax.desktop.base import Cancelled as from_base
    from anovax.desktop.macfront import FrontmostUnavailable
    from anovax.orb.run import OrbUnavailable
    from anovax.safety.keys import KeyError_
    from anovax.voice.listener import AudioFileError, VoiceUnavailable
    from anovax.voice.stt import SttError

    assert from_cancel is from_base is errors.Cancelled
    assert (FrontmostUnavailable, OrbUnavailable, KeyError_, AudioFileError, VoiceUnavailable, SttError) == (
        errors.FrontmostUnavailable, errors.OrbUnavailable, errors.KeyError_, errors.AudioFileError,
        errors.VoiceUnavailable, errors.SttError)
    assert issubclass(KeyError_, ValueError)  # callers may still catch it as one
