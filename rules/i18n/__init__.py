"""The words players read, in their language: gettext catalogs (``data/locale/<lang>/LC_MESSAGES/
domestique.po``) read at run time with Babel. English is the source language: its text is the code's
own, every other language is a catalog (docs/translating.md)."""

from rules.i18n.catalog import Translator, parse, translator
from rules.i18n.languages import LANGUAGES, SOURCE, Language, lang_for
from rules.i18n.speaking import N_, _, current, ngettext, npgettext, pgettext, speaking

__all__ = [
    "LANGUAGES",
    "N_",
    "SOURCE",
    "Language",
    "Translator",
    "_",
    "current",
    "lang_for",
    "ngettext",
    "npgettext",
    "parse",
    "pgettext",
    "speaking",
    "translator",
]
