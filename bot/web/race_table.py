"""The race's numbers as a table (issue 39): one row a piece, its place, its player and the game's
numbers (``rules.race_table``): Peloton's time, points and mountains, the Leader 1 family's energy
spent and risks taken, a car's laps and life points. A plain table without JavaScript; the script
(``static/web.js``) makes its headings buttons that sort it."""

from __future__ import annotations

from html import escape

from bot.web.timeline import Timeline
from rules.i18n import _, pgettext
from rules.race_table import Line, Numbers


def race_numbers(race: Timeline) -> Numbers | None:
    """The race's numbers now (None: the game has none, or the race has not started)."""
    read = race.game.numbers
    if read is None or race.state is None or not race.turns:
        return None
    return read(race.turns[0].state, race.state)


def _rows(race: Timeline, numbers: Numbers) -> list[tuple[Line, int | None]]:
    """Each piece's line and place: while racing, its place in the race now; at the finish, in the
    finish's order, its rank (None: did not finish)."""
    outcome = race.game.rules.outcome(race.state)
    if not outcome.finished:
        return [(line, place) for place, line in enumerate(numbers.lines, start=1)]
    order = {p.piece: i for i, p in enumerate(outcome.placings)}
    rank = {p.piece: p.rank for p in outcome.placings}
    lines = sorted(numbers.lines, key=lambda line: order.get(line.piece, len(order)))
    return [(line, rank.get(line.piece)) for line in lines]


def numbers_html(race: Timeline, caption: str) -> str:
    """The race's table, under ``caption`` if one is given ("" when there is nothing to show)."""
    numbers = race_numbers(race)
    if numbers is None:
        return ""
    people = dict(race.people)
    piece_word = _(race.game.piece)
    player_word = pgettext("web", "player")
    heads = [
        '<th scope="col" data-kind="number">#</th>',
        f'<th scope="col">{escape(piece_word)}</th>',
        f'<th scope="col">{escape(player_word)}</th>',
    ]
    heads += [
        f'<th scope="col" data-kind="number"{" data-lower-first" if column in numbers.lower_first else ""}>'
        f"{escape(_(column))}</th>"
        for column in numbers.columns
    ]
    rows = []
    for index, (line, place) in enumerate(_rows(race, numbers)):
        name = race.game.narration.piece_name(race.state, line.piece)
        cells = [
            f'<td data-v="{index}">{place if place is not None else "–"}</td>',
            f"<td>{escape(name)}</td>",
            f"<td>{escape(people.get(line.player, ''))}</td>",
        ]
        cells += [f'<td data-v="{"" if v.number is None else v.number}">{escape(v.shown)}</td>' for v in line.values]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    titled = f"<caption>{escape(caption)}</caption>" if caption else ""
    return (
        f'<div class="table"><table class="sortable">{titled}'
        f"<thead><tr>{''.join(heads)}</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
