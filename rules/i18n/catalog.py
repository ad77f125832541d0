"""A catalog read from its ``.po`` file at run time: Babel parses it and writes the compiled form into
memory for :mod:`gettext`, so no ``.mo`` file is built, shipped or left stale."""

from __future__ import annotations

import gettext
from dataclasses import dataclass
from functools import cache
from io import BytesIO
from typing import IO

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from rules.i18n.languages import DOMAIN, SOURCE, Language
from rules.resources import locale_file

Key = tuple[str | None, str]  # (message context, msgid)


@dataclass(frozen=True)
class Translator:
    """One language's messages. Text is a ``str.format`` template filled with the placeholders given
    (``{name}``); without placeholders it is returned as it is. ``ngettext`` always fills ``{n}``."""

    language: Language
    messages: gettext.NullTranslations
    translated: frozenset[Key]  # the messages the catalog has a translation of

    def gettext(self, msgid: str, /, **placeholders: object) -> str:
        return _fill(self.messages.gettext(msgid), placeholders)

    def ngettext(self, singular: str, plural: str, n: int, /, **placeholders: object) -> str:
        """The form of ``n``'s number in this language (Czech has three: 1, 2-4, 5 and more)."""
        return _fill(self.messages.ngettext(singular, plural, n), {"n": n, **placeholders})

    def pgettext(self, context: str, msgid: str, /, **placeholders: object) -> str:
        """``msgid`` as said in ``context`` (the same English word can need two translations)."""
        return _fill(self.messages.pgettext(context, msgid), placeholders)

    def npgettext(self, context: str, singular: str, plural: str, n: int, /, **placeholders: object) -> str:
        return _fill(self.messages.npgettext(context, singular, plural, n), {"n": n, **placeholders})

    def has(self, msgid: str, context: str | None = None) -> bool:
        """Whether the catalog translates ``msgid`` (in ``context``); the source language has everything."""
        return self.language == SOURCE or (context, msgid) in self.translated


def _fill(text: str, placeholders: dict[str, object]) -> str:
    return text.format(**placeholders) if placeholders else text


def parse(po: IO[bytes], language: Language) -> Translator:
    """A translator from a ``.po`` file's bytes (fuzzy and empty entries fall back to English)."""
    catalog = read_po(po, locale=language, domain=DOMAIN)
    compiled = BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    translated = frozenset(
        (message.context, message.id if isinstance(message.id, str) else message.id[0])
        for message in catalog
        if message.id and not message.fuzzy and _complete(message.string)
    )
    return Translator(language, gettext.GNUTranslations(compiled), translated)


def _complete(string: object) -> bool:
    if isinstance(string, str):
        return bool(string)
    return isinstance(string, tuple | list) and all(string)


@cache
def translator(language: Language) -> Translator:
    """The shipped catalog of ``language``, read once; English is the code's own text."""
    if language == SOURCE:
        return Translator(language, gettext.NullTranslations(), frozenset())
    with locale_file(language, DOMAIN).open("rb") as po:
        return parse(po, language)
