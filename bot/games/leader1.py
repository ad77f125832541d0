"""Leader 1 in the bot: seats, choice labels, the AI, the board, summaries, hidden feed tiles."""

from __future__ import annotations

from typing import Any

from bot.games.base import own_colour
from bot.views_model import ChoiceView
from renderer import render_board
from rules.action import Action
from rules.leader1 import ai, legal_actions, pending
from rules.leader1.engine import Choice
from rules.leader1.model import RIDER_TYPES, TEAMS, Event, State
from rules.leader1.moves import RideOption, ride_options
from rules.leader1.narrate import describe, summary
from rules.leader1.order import arrival_order, classification
from rules.leader1.setup import riders_allowed


def option_text(o: RideOption, state: State) -> tuple[str, str]:
    """A menu label and description that spell out a ride's consequences."""
    label = f"{o.to} · {o.squares} sq · "
    label += f"+{o.recovery} energy back" if o.recovery else f"cost {o.cost}"
    parts = [f"{o.free} free" + (" incl. slipstream" if o.slipstream else ""), f"{o.paid} paid"]
    if o.crossings:
        parts.append(f"crosses {o.crossings} on a blocked road")
    rider = state.rider(o.rider)
    need = state.setup.ruleset.risk_threshold(rider.risks)
    risks = [k for k in ("crack", "fall") if getattr(o, k)]
    if risks:
        parts.append(f"{' and '.join(risks)} risk: roll {need}+ (worst cost {o.worst_cost})")
        label += " · RISK"
    if o.rejoins:
        parts.append("rejoins the peloton")
    if o.finishes:
        parts.append("crosses the line")
    return label[:100], "; ".join(parts)[:100]


class Leader1Adapter:
    id = "leader1"
    max_riders = 3
    piece = "rider"
    teams = TEAMS

    def players(self, lobby: dict[str, Any]) -> list[dict[str, Any]]:
        seats = lobby["seats"]
        per = int(lobby.get("riders", 3))
        out = []
        for seat in seats:
            kinds = seat.get("kinds") or list(RIDER_TYPES[:per])
            player: dict[str, Any] = {
                "id": seat["player"],
                "name": seat["name"][:32],
                "team": seat["team"],
                "riders": kinds,
            }
            for quality in ("sprinter", "descender"):
                if seat.get(quality):
                    player[quality] = seat[quality]
            if seat.get("carry"):
                player["carry"] = seat["carry"]
            out.append(player)
        return out

    def probe_players(self) -> list[dict[str, Any]]:
        return [
            {"id": "a", "team": "yellow", "riders": ["rouleur"]},
            {"id": "b", "team": "blue", "riders": ["rouleur"]},
        ]

    def ask(self, state: State, who: str) -> str:
        decision = pending(state)
        assert decision is not None
        texts = {
            "ride": f"{who}, ride **{decision.rider}** (turn {state.turn}, {decision.phase}).",
            "breakaway": f"{who}, break away, drop a rider, or pass (turn {state.turn}).",
            "pursuit": f"{who}, you hold the peloton token: pursue (+1) or pass (turn {state.turn}).",
        }
        return texts[decision.kind]

    def highlight(self, state: State) -> str | None:
        decision = pending(state)
        return decision.rider if decision is not None and decision.kind == "ride" else None

    def seat(self, seats: list[dict[str, Any]], riders: int, team: str | None) -> tuple[str, list[str]]:
        """A colour and rider types for a new seat (A.2); ValueError says why there is none.

        With one rider each (up to 10 players) colours may be shared, each seat taking a type
        of that colour nobody rides yet; otherwise each player has a colour of their own.
        """
        if riders == 1:
            if len(seats) >= 10:
                raise ValueError("The race is full: 10 players at most.")
            used = {(s["team"], k) for s in seats for k in (s.get("kinds") or ["rouleur"])}
            open_teams = [t for t in TEAMS if any((t, k) not in used for k in RIDER_TYPES)]
            unseated = [t for t in open_teams if all(s["team"] != t for s in seats)]
            team = team or (unseated or open_teams or [None])[0]
            if team is None or team not in TEAMS or team not in open_teams:
                raise ValueError(f"No rider of that colour is free; free colours: {', '.join(open_teams) or 'none'}.")
            return team, [next(k for k in RIDER_TYPES if (team, k) not in used)]
        return own_colour(seats, TEAMS, team), list(RIDER_TYPES[:riders])

    def check_lobby(self, lobby: dict[str, Any]) -> str | None:
        count = len(lobby["seats"])
        allowed = riders_allowed(count)
        if not allowed:
            return f"Leader 1 needs 2 to 10 players; there are {count}. Add AI riders or invite friends."
        if int(lobby.get("riders", 3)) not in allowed and count <= 5:
            return f"with {count} players each rides {' or '.join(map(str, allowed))} rider(s)"
        return None

    def choice_views(self, state: State, player: str) -> tuple[str, str | None, list[ChoiceView]]:
        decision = pending(state)
        assert decision is not None and decision.player == player
        views = []
        for index, choice in enumerate(legal_actions(state, player)):
            view = self._view(state, index, choice)
            if view is not None:
                views.append(view)
        return decision.kind, decision.rider, views

    def _view(self, state: State, index: int, choice: Choice) -> ChoiceView | None:
        action = choice.action
        if action.do in ("ride", "breakaway") and choice.option is not None:
            label, description = option_text(choice.option, state)
            return ChoiceView(
                index, action.do, label, description, action.rider, choice.option.risk_count > 0, action.to
            )
        if action.do == "drop":
            return ChoiceView(
                index, "drop", f"Drop {action.rider}", "dropped behind the peloton; pays nothing", action.rider
            )
        if action.do == "pass":
            return ChoiceView(index, "pass", "Pass")
        if action.do == "pursue":
            return ChoiceView(index, "pursue", "Pursue (+1)", "the peloton moves one more square")
        return None  # eating is offered by /race hand and /eat

    def ai_action(self, state: State, player: str, *, safe: bool) -> Action:
        action = ai.choose(state, player)
        if not safe or action.do not in ("ride", "breakaway"):
            return action
        options = [c for c in legal_actions(state, player) if c.action == action]
        if options and options[0].option is not None and options[0].option.risk_count:
            decision = pending(state)
            if decision is not None and decision.kind == "breakaway":
                return Action(player, "pass")
            safe_rides = [c for c in legal_actions(state, player) if c.option is not None and not c.option.risk_count]
            if safe_rides:
                return max(
                    safe_rides, key=lambda c: (c.option.squares - c.option.cost if c.option else 0, c.action.to or "")
                ).action
        return action

    def board(self, state: State, *, highlight_rider: str | None, title: str, alliances: list[str]) -> bytes:
        highlight = None
        if highlight_rider is not None:
            decision = pending(state)
            breakaway = decision is not None and decision.kind == "breakaway"
            highlight = ride_options(state, highlight_rider, breakaway=breakaway)
        return render_board(state, highlight=highlight, title=title, alliances=alliances)

    def turn_summary(self, state: State, events: list[Event]) -> list[str]:
        return summary(events)

    def announcements(self, events: list[Event]) -> list[str]:
        """What is told at once, even mid-turn: a feed tile eaten shows its value then."""
        return [line for e in events if e.type == "ate" and (line := describe(e))]

    def status_lines(self, state: State) -> list[str]:
        lines = []
        for r in [*arrival_order(state), *classification(state)]:
            where = "peloton" if r.status == "peloton" else r.cell
            lines.append(
                f"{r.id} ({r.player}): {r.status}{'' if where is None else ' at ' + where}, "
                f"energy {r.energy}, {len(r.kept)} kept, {r.risks} risks"
            )
        return lines

    def hidden_draws(self, before: State, after: State, events: list[Event]) -> list[tuple[str, str]]:
        """(player, private text) for each feed tile drawn in ``events``."""
        out = []
        for e in events:
            if e.type == "fed":
                rider = after.rider(str(e.data["rider"]))
                count = int(e.data["kept"])
                if count <= len(rider.kept):
                    out.append(
                        (
                            rider.player,
                            f"{rider.id} took a feed tile worth {rider.kept[count - 1]} "
                            f"(kept face down; /eat to use it).",
                        )
                    )
        return out

    def hand(self, state: State, player: str) -> list[str]:
        lines = []
        for r in state.riders:
            if r.player == player:
                tiles = ", ".join(f"#{i}: {v}" for i, v in enumerate(r.kept)) or "none"
                lines.append(f"{r.id}: energy {r.energy}; kept tiles {tiles}")
        return lines

    def export_leaks(self, state: State, requester: str | None) -> bool:
        """A replayable record shows every feed tile drawn: hidden while others keep theirs."""
        return any(r.kept for r in state.riders if r.player != requester)

    def result_lines(self, state: State) -> list[str]:
        arrived = arrival_order(state)
        lines = []
        first_turn = arrived[0].arrived_turn if arrived else 0
        for rank, r in enumerate(arrived, start=1):
            delay = (r.arrived_turn or 0) - (first_turn or 0)
            lines.append(f"{rank}. {r.id} ({r.player}) turn {r.arrived_turn}" + (f", +{delay}" if delay else ""))
        for r in state.riders:
            if r.status == "eliminated":
                lines.append(f"— {r.id} ({r.player}) eliminated")
        return lines

    def rider_choices(self, state: State, player: str) -> list[str]:
        return [r.id for r in state.riders if r.player == player and r.racing]


LEADER1 = Leader1Adapter()
