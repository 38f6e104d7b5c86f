"""The Pirate 21 renderer without Discord: both catalogs complete, the reshuffle of the
shared variant announced with its commitment, its old seed revealed at the next showdown."""

from __future__ import annotations

import re
import string
from pathlib import Path

from bot.engine.base import Action, ActionKind
from bot.engine.games.pirate21 import END_REASONS, Pirate21
from bot.engine.shuffle import commitment, seeded_entropy
from bot.i18n import catalog
from bot.tables.models import Table, TableSettings
from bot.ui.render import Ctx, renderer_for

SOURCE = Path(__file__).parents[2] / "bot" / "ui" / "render" / "pirate21.py"


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_every_pirate21_key_is_in_both_catalogs_with_the_same_placeholders():
    used = set(re.findall(r'"(pirate21\.[a-z_.0-9]+)"', SOURCE.read_text("utf-8")))
    used |= {f"pirate21.end.{r}" for r in END_REASONS}
    used |= {"move.done.leave.pirate21"}
    en, fr = catalog("en"), catalog("fr")
    assert used <= set(en) and used <= set(fr), sorted(used - set(en) - set(fr))
    for key in [k for k in en if k.startswith("pirate21.")]:
        assert placeholders(en[key]) == placeholders(fr[key]), key


def test_shared_reshuffle_is_announced_and_its_seed_revealed_later():
    game = Pirate21.create(1, {"variant": "shared", "coins_per_player": 3}, seeded_entropy("r"))
    game.apply(Action(ActionKind.JOIN, 2))
    # a pile of 4: round 1 deals it all; round 2 needs the played cards shuffled again
    game.rig(["TS", "9H", "8S", "7D"], only=True)
    table = Table(1, 10, 20, None, 30, "pirate21", 1, TableSettings(name="Tortuga"), game, 1)
    renderer = renderer_for("pirate21")
    events = game.apply(Action(ActionKind.START, 1))
    first_seed = game.shoe.seed
    assert first_seed is not None
    events += game.apply(Action(ActionKind.STAND, 2))
    events += game.apply(Action(ActionKind.STAND, 1))
    texts = renderer.public_posts(Ctx(table, "en"), events)
    reshuffle = [t for t in texts if t.startswith("🔀")]
    assert len(reshuffle) == 1 and "the 4 played cards" in reshuffle[0]
    assert f"`{commitment(game.shoe.seed)}`" in reshuffle[0]  # the new pile's commitment
    assert all(first_seed.hex() not in t for t in texts)  # round 2's cards came from it
    # the next showdown reveals the retired seed
    events = game.apply(Action(ActionKind.STAND, 2))
    events += game.apply(Action(ActionKind.STAND, 1))
    texts = renderer.public_posts(Ctx(table, "fr"), events)
    assert any(first_seed.hex() in t and "Graine" in t for t in texts), texts
    embed = renderer.embed(Ctx(table, "fr"))
    assert "trésor partagé" in (embed.title or "")
