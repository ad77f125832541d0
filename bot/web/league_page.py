"""A league's page: the general classification, each stage's result, the schedule, links to the stages."""

from __future__ import annotations

from html import escape

from bot.leagues.league import standings_from
from bot.storage import Storage
from bot.web.pages import layout, when
from rules.registry import find_game

STAGE_WORDS = {"scheduled": "to come", "opening": "opening", "running": "racing", "finished": "finished"}


def _plain(line: str) -> str:
    return line.replace("**", "")


async def league_page(storage: Storage, league_id: int) -> str:
    league = await storage.league(league_id)
    if league is None:
        return layout("League", "<main><p>This league is no more.</p></main>")
    game = find_game(league.game)
    names = {m.player: m.name for m in await storage.members(league.id)}
    stages = await storage.stages(league.id)
    done = [s for s in stages if s.status == "finished" and s.result]
    body = [f"<header><h1>{escape(league.name)}</h1><p>{escape(game.title)} · {len(stages)} stages</p></header><main>"]
    gc = standings_from(done[-1].result["gc"]) if done and done[-1].result else ()
    body.append('<section id="gc"><h2>General classification</h2>')
    if gc and game.scoring is not None:
        leader = next((s for s in gc if not s.eliminated), gc[0])
        rows = "".join(
            f"<li>{escape(game.narration.piece_name(None, s.piece))} ({escape(names.get(s.player, 'a player'))}) "
            f"{escape(game.scoring.standing_text(rank, s, leader))}</li>"
            for rank, s in enumerate(gc, start=1)
        )
        body.append(f"<p>After stage {done[-1].number}.</p><ol>{rows}</ol>")
    else:
        body.append("<p>No stage has finished yet.</p>")
    body.append('</section><section id="stages"><h2>Stages</h2><ol class="stages">')
    for stage in stages:
        link = ""
        if stage.race_id is not None:
            token = await storage.web_token("race", stage.race_id)
            link = f' · <a href="/r/{token}">the race page</a>' if token else ""
        due = f" · {when(stage.due)}" if stage.due else ""
        track = escape(stage.track.split("/", 1)[-1])
        body.append(
            f'<li value="{stage.number}"><strong>Stage {stage.number}</strong>: {track}{due} · '
            f"{STAGE_WORDS.get(stage.status, stage.status)}{link}"
        )
        if stage.result and stage.result.get("lines"):
            lines = [_plain(x) for x in stage.result["lines"][1:] if "<@" not in x]
            body.append("<details><summary>Result</summary><ul>")
            body.append("".join(f"<li>{escape(x)}</li>" for x in lines) + "</ul></details>")
        body.append("</li>")
    body.append("</ol></section></main>")
    return layout(league.name, "".join(body))
