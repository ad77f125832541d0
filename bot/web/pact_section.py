"""The pacts on the web pages (docs/alliances.md): a race page shows the ledger of its public pacts
(a page reached by its link does not know who reads it, so the allies' private pacts stay in their
thread and in ``/race recap``); a league page shows each member's pacts kept and broken beside the
general classification, as ``/league standings`` does."""

from __future__ import annotations

from html import escape

from bot.leagues.pact_records import PublicLedger
from rules.i18n import _


def ledger_section(ledger: PublicLedger) -> str:
    """The public pacts' ledger as a section of the race page: a line per pact, then each member's
    pacts kept and broken ('' when none was put to the test)."""
    if not ledger.lines:
        return ""
    heading = escape(_("The ledger of public pacts"))
    items = "".join(f"<li>{escape(line)}</li>" for line in ledger.lines)
    counts = [
        _("{name}: pacts kept {kept}, broken {broken}", name=name, kept=kept, broken=broken)
        for name, kept, broken in ledger.members
    ]
    members = "".join(f"<li>{escape(count)}</li>" for count in counts)
    by_member = f'<ul class="pact-members">{members}</ul>' if members else ""
    return f'<section id="pacts"><h2>{heading}</h2><ul>{items}</ul>{by_member}</section>'


def with_section(page: str, section: str) -> str:
    """``page`` with ``section`` at the end of its main part."""
    at = page.rfind("</main>")
    return page if not section or at < 0 else page[:at] + section + page[at:]


def pacts_column(tally: dict[str, tuple[int, int]], player: str) -> str:
    """A member's pacts kept and broken over the league's stages, after their line of the classification
    ('' while no pact was put to the test in the league)."""
    if not tally:
        return ""
    kept, broken = tally.get(player, (0, 0))
    return " · " + escape(_("pacts kept {kept}, broken {broken}", kept=kept, broken=broken))
