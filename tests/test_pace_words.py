"""The words of every game's standing orders and moments in Hungarian and Czech (issue 27)."""

from __future__ import annotations

import pytest

from rules.i18n import Language, _, speaking
from rules.registry import find_game, game_ids

WITH_ORDERS = [g for g in game_ids() if find_game(g).pace.orders or find_game(g).pace.moments]


@pytest.mark.parametrize("language", ["hu", "cs"])
@pytest.mark.parametrize("game_id", WITH_ORDERS)
def test_standing_orders_keep_their_n_in_every_language(game_id: str, language: Language) -> None:
    """The bot writes the player's number over the capital N of an order's or a moment's words
    (``label.replace("N", ...)``): a translation keeps exactly the N's of the English, and no other."""
    pace = find_game(game_id).pace
    texts = [t for k in pace.orders for t in (k.label, k.number) if t]
    texts += [t for m in pace.moments for t in (m.label, m.number)]
    with speaking(language):
        said = {text: _(text) for text in texts}
    assert texts and {t: s.count("N") for t, s in said.items()} == {t: t.count("N") for t in texts}
    assert all(s != t for t, s in said.items())
