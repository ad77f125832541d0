"""The race's web page in Discord (``docs/web.md``): its link in the lobby, the prompts, the finish and
``/race status``, and ``/race web`` (the link; the host turns the page off or makes a new link)."""

from __future__ import annotations

from typing import Protocol

from bot.service.common import Refusal
from bot.service.model import Outcome
from bot.storage import RaceRow, Storage
from rules.i18n import N_, _

NOT_SERVED = N_("This bot serves no web pages (its operator can turn them on with DOMESTIQUE_WEB).")
WEB_ACTIONS = ("link", "off", "new", "public", "private")


class PageLinks(Protocol):
    """How ``domestique run`` makes the pages' links when it serves them (``bot.web.links.Links``): a
    race's (and its catch-up from an action on), a league's; None when the page is off."""

    async def race(self, race_id: int, since: int | None = None) -> str | None: ...

    async def league(self, league_id: int) -> str | None: ...


class WebLinks:
    """The race and league pages' links, for the texts that carry them (none unless pages are served)."""

    def __init__(self, storage: Storage, links: PageLinks | None = None) -> None:
        self.storage = storage
        self.links = links
        self._known: dict[int, str | None] = {}  # links already asked for, by race (the lobby's text has no wait)

    @property
    def served(self) -> bool:
        return self.links is not None

    async def league_link(self, league_id: int) -> str | None:
        """The league's web page link, or None (pages not served, or turned off)."""
        return await self.links.league(league_id) if self.links is not None else None

    async def page_link(self, race_id: int, since: int | None = None) -> str | None:
        if self.links is None:
            return None
        link = await self.links.race(race_id, since)
        if since is None:
            if len(self._known) > 10_000:
                self._known.clear()
            self._known[race_id] = link
        return link

    def known_link(self, race: RaceRow) -> str:
        """The race page's line for a text written without a wait (the lobby), if its link is known."""
        link = self._known.get(race.id)
        return _("Watch on the web: {link}", link=f"<{link}>") if link else ""

    def forget(self, race_id: int) -> None:
        """The race's page is off: its link is known to be none."""
        self._known[race_id] = None

    async def page_line(self, race: RaceRow, since: int | None = None, words: str | None = None) -> str:
        """The page's link after ``words`` (already in the reader's language; default "Watch on the web")."""
        link = await self.page_link(race.id, since)
        said = words or _("Watch on the web")
        return f"{said}: <{link}>" if link else ""


class Web:
    """``/race web`` and ``/league web``: a page's link; the host (organiser) turns it off or makes a new one."""

    def __init__(self, links: WebLinks, storage: Storage) -> None:
        self.links = links
        self.storage = storage

    async def league_web(self, league_id: int, action: str) -> Outcome:
        """The league page's link, or (the organiser, checked by the league service) off or a new one."""
        if not self.links.served:
            raise Refusal(_(NOT_SERVED))
        if action not in WEB_ACTIONS:
            raise Refusal(_("Choose link, off, new, public or private."))
        if action in ("public", "private"):
            return await self._visibility("league", league_id, action == "public")
        if action == "off":
            await self.storage.web_off("league", league_id)
            return Outcome(
                _("The league's web page is off: its link no longer works. /league web new makes a new one.")
            )
        if action == "new":
            await self.storage.renew_web_token("league", league_id)
        link = await self.links.league_link(league_id)
        if link is None:
            return Outcome(_("The organiser turned this league's web page off. /league web new makes a new link."))
        said = _("A new link (the old one no longer works)") if action == "new" else _("The league's web page")
        return Outcome(f"{said}: <{link}>", ephemeral=action != "link")

    async def web(self, channel_id: int, user_id: int, action: str = "link") -> Outcome:
        """``/race web``: the page's link; the host turns it ``off`` or makes a ``new`` one."""
        if not self.links.served:
            raise Refusal(_(NOT_SERVED))
        race = await self.storage.active_race(channel_id) or await self.storage.latest_race(channel_id)
        if race is None:
            raise Refusal(_("There is no race in this channel. Start one with /race new."))
        if action not in WEB_ACTIONS:
            raise Refusal(_("Choose link, off, new, public or private."))
        if action != "link" and user_id != race.host_id:
            raise Refusal(_("Only the race's host can turn its page off, make a new link or make it public."))
        if action in ("public", "private"):
            return await self._visibility("race", race.id, action == "public")
        if action == "off":
            await self.storage.web_off("race", race.id)
            self.links.forget(race.id)
            return Outcome(_("The race's web page is off: its link no longer works. /race web new makes a new one."))
        if action == "new":
            await self.storage.renew_web_token("race", race.id)
        link = await self.links.page_link(race.id)
        if link is None:
            return Outcome(_("The host turned this race's web page off. /race web new (host) makes a new link."))
        said = _("A new link (the old one no longer works)") if action == "new" else _("The race's web page")
        return Outcome(f"{said}: <{link}>", ephemeral=action != "link")

    async def _visibility(self, kind: str, ref_id: int, public: bool) -> Outcome:
        """Make a page public (search engines may list it) or private again (the default: ``noindex``)."""
        await self.storage.set_web_public(kind, ref_id, public)
        if not public:
            return Outcome(_("The web page is private again: search engines are asked not to list it."))
        if kind == "league":
            return Outcome(_("The league's web page is public now: search engines may list it (/league web private)."))
        return Outcome(_("The race's web page is public now: search engines may list it (/race web private)."))
