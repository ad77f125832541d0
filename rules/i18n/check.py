"""What a catalog must be before players read it: every message of the template translated, in every
plural form its language has, with the same ``{placeholders}`` as the English."""

from __future__ import annotations

from string import Formatter

from babel.messages.catalog import Catalog, Message


def placeholders(text: str) -> set[str] | None:
    """The ``{names}`` of a ``str.format`` template; None if it is not one (an unpaired brace)."""
    try:
        return {name for _, name, _, _ in Formatter().parse(text) if name is not None}
    except ValueError:
        return None


def _forms(message: Message) -> list[str]:
    string = message.string
    return [string] if isinstance(string, str) else [str(s or "") for s in string or ()]


def _english(message: Message) -> list[str]:
    return [message.id] if isinstance(message.id, str) else list(message.id)


def problems(template: Catalog, catalog: Catalog) -> list[str]:
    """Every way ``catalog`` falls short of ``template``: a message missing, empty, fuzzy or not in the
    template, a plural form missing, a placeholder added, lost or broken."""
    language = str(catalog.locale)
    found: list[str] = []
    wanted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in template if m.id}
    for message in catalog:
        if not message.id:
            continue
        key = (message.context, message.id if isinstance(message.id, str) else message.id[0])
        where = f"{language}: {key[1]!r}" + (f" ({key[0]})" if key[0] else "")
        if key not in wanted:
            found.append(f"{where}: not in the template (extract again, then pybabel update)")
            continue
        wanted.discard(key)
        forms = _forms(message)
        if message.fuzzy:
            found.append(f"{where}: marked fuzzy")
        if not isinstance(message.id, str) and len(forms) != catalog.num_plurals:
            found.append(f"{where}: {len(forms)} plural forms, {language} has {catalog.num_plurals}")
        english = set().union(*(placeholders(e) or set() for e in _english(message)))
        for i, form in enumerate(forms):
            said = placeholders(form)
            if not form:
                found.append(f"{where}: form {i} untranslated")
            elif said is None:
                found.append(f"{where}: form {i} has an unpaired brace: {form!r}")
            elif not english - {"n"} <= said <= english:  # a plural form may leave the number out
                found.append(f"{where}: form {i} has {sorted(said)}, the English {sorted(english)}: {form!r}")
    found += [f"{language}: {message!r} ({context}): missing" for context, message in sorted(wanted, key=str)]
    return found
