"""Leader 1's menu: each legal choice with its words (a ride's squares, cost and risks, a drop, a
pursuit). Below the game (``game.py``) and its pace hooks (``pace.py``), which both read it."""

from __future__ import annotations

from rules.game import Choice
from rules.i18n import _, current
from rules.leader1 import engine, game_kit, words
from rules.leader1.model import State
from rules.leader1.moves import RideOption


def option_text(o: RideOption, state: State, need: int | None = None) -> tuple[str, str]:
    """A menu label and description that spell out a ride's consequences (``need``: the roll its rider
    needs to get through a risk, when the caller knows it)."""
    risky = o.crack or o.fall
    if risky and need is None:
        need = state.setup.ruleset.risk_threshold(state.rider(o.rider).risks)
    # the words depend on these alone, not on the rider or the path: the same few dozen rides
    # are written again decision after decision, race after race
    key: tuple[object, ...] = (current(), o.to, o.squares, o.free, o.paid, o.crossings, o.cost, o.recovery)
    key += (o.slipstream, o.rejoins, o.finishes)
    if risky:
        key += (o.crack, o.fall, o.worst_cost, need)
    texts = _TEXTS.get(key)
    if texts is None:
        texts = _option_text(o, need)
        if len(_TEXTS) >= _TEXTS_KEPT:
            _TEXTS.clear()
        _TEXTS[key] = texts
    return texts


_TEXTS: dict[tuple[object, ...], tuple[str, str]] = {}  # ride texts by what they say (``option_text``)
_TEXTS_KEPT = 4096  # a few hundred kB; forgotten at once when full


def _option_text(o: RideOption, need: int | None) -> tuple[str, str]:
    risks = [k for k in ("crack", "fall") if getattr(o, k)]
    middle: list[str] = []
    if risks:
        middle = [
            _(
                "{risks} risk: roll {need}+ (worst cost {worst})",
                risks=words.risks(risks),
                need=need,
                worst=o.worst_cost,
            )
        ]
    label, detail = game_kit.ride_texts(o, middle, bool(risks))
    return label[:100], detail


def piece_name(state: State | None, rider_id: str) -> str:
    return game_kit.piece_name(state, rider_id)


class _Riders:
    """A rider's name and the roll it needs through a risk, worked out once per listing of choices
    (a decision lists ~30 rides of the same two or three riders)."""

    def __init__(self, state: State) -> None:
        self.state = state
        self._names: dict[str, str] = {}
        self._needs: dict[str, int] = {}

    def name(self, rider: str) -> str:
        if rider not in self._names:
            self._names[rider] = piece_name(self.state, rider)
        return self._names[rider]

    def need(self, rider: str) -> int:
        if rider not in self._needs:
            self._needs[rider] = self.state.setup.ruleset.risk_threshold(self.state.rider(rider).risks)
        return self._needs[rider]


def _choice(state: State, c: engine.Choice, riders: _Riders) -> Choice:
    a = c.action
    o = c.option
    do = a.do
    if do in ("ride", "breakaway") and o is not None:
        rider = o.rider
        label, detail = option_text(o, state, riders.need(rider) if (o.crack or o.fall) else None)
        return game_kit.ride_choice(a, o, label, detail, name=riders.name(rider))
    if do == "drop":
        if state.setup.options.drop == "leaves":  # the race option (rulings R-DROP)
            detail = _("leaves the peloton before it moves (no cost), rides behind it from next turn")
        else:
            detail = _("stays for the peloton's move and pays it, then rides behind it from next turn")
        return Choice(a, _("Drop {rider}", rider=riders.name(str(a.rider))), detail, piece=a.rider)
    if do == "pursue":
        return Choice(a, _("Pursue (+1)"), _("the peloton moves one more square"))
    if do == "eat":
        return game_kit.eat_choice(state, a, riders.name(str(a.rider)))
    return Choice(a, _("Pass"), "")


def choices(state: State, player: str) -> list[Choice]:
    riders = _Riders(state)
    return [_choice(state, c, riders) for c in engine.legal_actions(state, player)]
