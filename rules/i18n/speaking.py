"""The language text is being written in now, and the calls that write it.

Code that makes text for players calls ``_``, ``ngettext`` and ``pgettext`` (and marks text kept
for later with ``N_``); they translate into the language of the moment, which whoever asked for the
text sets with ``speaking``: the server's language for what the race channel and the boards show,
the person's own for a private reply or a private message. Without ``speaking`` it is English. The
language is a context variable, so each request (an asyncio task) has its own.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar

from rules.i18n.catalog import translator
from rules.i18n.languages import SOURCE, Language

_language: ContextVar[Language] = ContextVar("domestique_language", default=SOURCE)


def current() -> Language:
    """The language text is written in now."""
    return _language.get()


@contextlib.contextmanager
def speaking(language: Language) -> Iterator[Language]:
    """Text made inside is in ``language`` (back to the language before it after)."""
    token = _language.set(language)
    try:
        yield language
    finally:
        _language.reset(token)


# English is the code's own text: it is written as it is, without a catalog lookup (a board or a
# decision's list of choices writes a few hundred strings)


def _(msgid: str, /, **placeholders: object) -> str:
    """``msgid`` in the language of the moment, its ``{placeholders}`` filled."""
    language = _language.get()
    text = msgid if language == SOURCE else translator(language).messages.gettext(msgid)
    return text.format(**placeholders) if placeholders else text


def ngettext(singular: str, plural: str, n: int, /, **placeholders: object) -> str:
    """The form for ``n`` in the language of the moment (``{n}`` filled)."""
    language = _language.get()
    if language == SOURCE:
        return (singular if n == 1 else plural).format(**{"n": n, **placeholders})
    return translator(language).ngettext(singular, plural, n, **placeholders)


def pgettext(context: str, msgid: str, /, **placeholders: object) -> str:
    """``msgid`` as said in ``context`` (a button, a board heading), in the language of the moment."""
    language = _language.get()
    text = msgid if language == SOURCE else translator(language).messages.pgettext(context, msgid)
    return text.format(**placeholders) if placeholders else text


def npgettext(context: str, singular: str, plural: str, n: int, /, **placeholders: object) -> str:
    """The form for ``n`` in ``context``, in the language of the moment (``{n}`` filled)."""
    language = _language.get()
    if language == SOURCE:
        return (singular if n == 1 else plural).format(**{"n": n, **placeholders})
    return translator(language).npgettext(context, singular, plural, n, **placeholders)


def N_(msgid: str, /) -> str:
    """Marks ``msgid`` for the catalogs where it is kept for later (a table of words); translated
    where it is shown, with ``_(text)``."""
    return msgid
