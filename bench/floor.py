"""The floor bot of ``bench cost``: what one move costs discord.py itself.

One ``DynamicItem`` button (the same routing Croupier's ``MoveButton`` uses) whose callback
answers the click by editing the message with a fixed embed: the same one REST call as a
Croupier move (the interaction response, type 7), with a body of the same size and shape
as a Black Jack table message mid-round (title, description, a field of three seats, a
footer with two shuffle commitments, one row of five buttons). The embed and the view are
built once: the floor does no work of its own besides what discord.py does for any bot.
"""

from __future__ import annotations

from typing import Any

import discord

TEMPLATE = r"fl:(?P<n>\d+)"
SEATS = "\n".join(
    f"<@14560744439808000{80 + n}> · stack 210 · bet 10 · 7♣ K♦ 3♥ (20)" for n in range(3)
)
BANK = "<@1456074443980800080> · 9♠ 🂠 · stands on soft 17, pays 3:2, insurance 2:1, 6 decks"
FOOTER = (
    "Table #1 · v12\nShuffle commitment (SHA-256): " + "2" * 64 + "\n"
    "Next shuffle's commitment (SHA-256): " + "0" * 64
)


class FloorButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A button whose click edits its message with the fixed table."""

    def __init__(self, n: int, label: str = "Bet 10") -> None:
        super().__init__(discord.ui.Button(label=label, custom_id=f"fl:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: Any
    ) -> FloorButton:
        """Rebuild the button from its custom_id."""
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """The one REST call: edit the message with the fixed embed and buttons."""
        client = interaction.client
        assert isinstance(client, FloorBot)
        await interaction.response.edit_message(embed=client.embed, view=client.view)


def fixed_embed() -> discord.Embed:
    """A table message's embed: the size and shape of Croupier's mid-round."""
    embed = discord.Embed(
        title="Black Jack — p0's table",
        description="**Bets** · round 2 · ends <t:1767225660:R>",
        color=0xF1C40F,
    )
    embed.add_field(name="Seats (3)", value=SEATS, inline=False)
    embed.add_field(name="🏦 Bank", value=BANK, inline=False)
    embed.set_footer(text=FOOTER)
    return embed


def fixed_view() -> discord.ui.View:
    """One row of five buttons, as a betting round shows."""
    view = discord.ui.View(timeout=None)
    for n, label in enumerate(("Bet 10", "Bet 20", "Bet 50", "Other amount…", "Sit out")):
        view.add_item(FloorButton(n, label))
    return view


class FloorBot(discord.Client):
    """The floor: a client that routes ``FloorButton`` clicks and nothing else."""

    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(intents=intents)
        self.embed = fixed_embed()
        self.view: discord.ui.View

    async def setup_hook(self) -> None:
        """Route the buttons' clicks (after a restart too), build the fixed message."""
        self.add_dynamic_items(FloorButton)
        self.view = fixed_view()
