"""A league's page: the general classification, each stage's result, the schedule, links to the stages."""

from __future__ import annotations

import hashlib
from html import escape

from bot.leagues.league import standings_from
from bot.leagues.pact_records import league_tally
from bot.storage import Storage
from bot.web.pact_section import pacts_column
from bot.web.pages import layout, when
from bot.web.timeline import track_title
from rules.i18n import N_, _, current, ngettext
from rules.registry import find_game

STAGE_WORDS = {
    "scheduled": N_("to come"),
    "opening": N_("opening"),
    "running": N_("racing"),
    "finished": N_("finished"),
}


def _plain(line: str) -> str:
    return line.replace("**", "")


def version_of(main: str) -> str:
    """A league page's version: a digest of what it shows (a live page asks whether it changed)."""
    return hashlib.blake2b(main.encode(), digest_size=8).hexdigest()


async def league_page(storage: Storage, league_id: int, live: str) -> str:
    """The whole page; ``live``: the address its script asks every few seconds whether it changed."""
    title, main = await league_main(storage, league_id)
    data = f' data-league-live="{escape(live)}" data-version="{version_of(main)}"'
    return layout(title, main, data=data)


async def league_main(storage: Storage, league_id: int) -> tuple[str, str]:
    """The league page's title and the part of it that changes (header and main)."""
    league = await storage.league(league_id)
    if league is None:
        gone = escape(_("This league is no more."))
        return _("League"), f'<div id="league"><main><p>{gone}</p></main></div>'
    game = find_game(league.game)
    names = {m.player: m.name for m in await storage.members(league.id)}
    stages = await storage.stages(league.id)
    done = [s for s in stages if s.status == "finished" and s.result]
    count, title = escape(ngettext("{n} stage", "{n} stages", len(stages))), escape(_(game.title))
    body = [f"<header><h1>{escape(league.name)}</h1><p>{title} · {count}</p></header><main>"]
    gc = standings_from(done[-1].result["gc"]) if done and done[-1].result else ()
    heading = escape(_("General classification"))
    body.append(f'<section id="gc"><h2>{heading}</h2>')
    if gc and game.scoring is not None:
        leader = next((s for s in gc if not s.eliminated), gc[0])
        someone = _("a player")
        pacts = await league_tally(storage, league.id)
        rows = "".join(
            f"<li>{escape(game.narration.piece_name(None, s.piece))} ({escape(names.get(s.player, someone))}) "
            f"{escape(game.scoring.standing_text(rank, s, leader))}{pacts_column(pacts, s.player)}</li>"
            for rank, s in enumerate(gc, start=1)
        )
        after = escape(_("After stage {number}.", number=done[-1].number))
        body.append(f"<p>{after}</p><ol>{rows}</ol>")
    else:
        none_yet = escape(_("No stage has finished yet."))
        body.append(f"<p>{none_yet}</p>")
    heading = escape(_("Stages"))
    body.append(f'</section><section id="stages"><h2>{heading}</h2><ol class="stages">')
    page_word, result_word = escape(_("the race page")), escape(_("Result"))
    for stage in stages:
        link = ""
        if stage.race_id is not None:
            token = await storage.web_token("race", stage.race_id)
            link = f' · <a href="/r/{token}?lang={current()}">{page_word}</a>' if token else ""
        due = f" · {when(stage.due)}" if stage.due else ""
        track = escape(track_title(stage.track))
        number = escape(_("Stage {number}", number=stage.number))
        state = escape(_(STAGE_WORDS.get(stage.status, stage.status)))
        body.append(f'<li value="{stage.number}"><strong>{number}</strong>: {track}{due} · {state}{link}')
        if stage.result and stage.result.get("lines"):
            lines = [_plain(x) for x in stage.result["lines"][1:] if "<@" not in x]
            body.append(f"<details><summary>{result_word}</summary><ul>")
            body.append("".join(f"<li>{escape(x)}</li>" for x in lines) + "</ul></details>")
        body.append("</li>")
    body.append("</ol></section></main>")
    return league.name, '<div id="league">' + "".join(body) + "</div>"
