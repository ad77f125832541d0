"""Every message of the code reaches the catalogs: ``pybabel extract`` (on Python 3.11) does not look
inside f-strings, so a ``_()`` written in an f-string's braces is never extracted, never translated,
and shows in English to every player while the catalog tests stay green. None may be written there."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALLS = {"_", "ngettext", "pgettext", "npgettext", "N_", "gettext"}


def hidden_calls(source: str, where: str) -> list[str]:
    """The message calls with a literal text written inside an f-string's braces in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.JoinedStr):
            continue
        for inner in ast.walk(node):
            if isinstance(inner, ast.Call):
                name = inner.func.id if isinstance(inner.func, ast.Name) else getattr(inner.func, "attr", "")
                literal = any(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in inner.args)
                if name in CALLS and literal:  # _(variable) is extracted where the text is marked (N_)
                    found.append(f"{where}:{inner.lineno}: {name}() inside an f-string")
    return found


def test_no_message_is_written_inside_an_f_string() -> None:
    hidden = []
    for package in ("rules", "renderer", "bot"):
        for path in sorted((ROOT / package).rglob("*.py")):
            hidden += hidden_calls(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert hidden == []


def test_the_check_sees_a_message_inside_an_f_string() -> None:
    sample = "x = f\"<p>{_('Hello')}</p>\"\ny = _(\"Hello\")\nz = f\"{escape(pgettext('web', 'Now:'))} {_(t)}\"\n"
    assert hidden_calls(sample, "sample") == [
        "sample:1: _() inside an f-string",
        "sample:3: pgettext() inside an f-string",
    ]


def shadowed_messages(source: str, where: str) -> list[str]:
    """Functions that assign ``_`` (``_, x = ...``) and call ``_()``: the call then fails at run time."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        inside = list(ast.walk(node))
        assigned = any(isinstance(n, ast.Name) and n.id == "_" and isinstance(n.ctx, ast.Store) for n in inside)
        called = any(isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "_" for n in inside)
        if assigned and called:
            found.append(f"{where}:{node.lineno}: {node.name} assigns _ and calls _()")
    return found


def test_no_function_hides_the_message_call_behind_a_throwaway_name() -> None:
    hidden = []
    for package in ("rules", "renderer", "bot"):
        for path in sorted((ROOT / package).rglob("*.py")):
            hidden += shadowed_messages(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    assert hidden == []
    sample = "def f():\n    _, x = 1, 2\n    return _('a')\n\ndef g():\n    return _('a')\n"
    assert shadowed_messages(sample, "s") == ["s:1: f assigns _ and calls _()"]
