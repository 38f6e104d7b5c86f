"""The floor bot of ``bench cost``: what one move costs discord.py itself.

One ``DynamicItem`` button (the same routing Croupier's ``MoveButton`` uses) whose callback
answers the click by editing the message with a fixed embed: the same one REST call as a
Croupier move (the interaction response, type 7), with a body of the same size and shape
as a Black Jack table message: in turn the betting one (five buttons, no cards) and a
player's turn (the dealer's and the seats' cards as application emojis, three buttons),
as Croupier's Black Jack moves are (3.95 buttons, 4.5 emojis, 1,318 bytes per response on
average; the floor's two: 4, 4, 1,270). SimCord checks and copies every component and
emoji of a message it stores (Discord's work, done in this process): a floor with fewer
buttons or emojis than Croupier's messages would charge that work to Croupier. The
messages are built once: the floor does no work of its own besides what discord.py does
for any bot.
"""

from __future__ import annotations

from typing import Any

import discord

TEMPLATE = r"fl:(?P<n>\d+)"
# cards are application emojis, as in Croupier's messages: SimCord checks each emoji of a
# message it stores (Discord's own work, done in this process), for both bots alike
_EMOJI = "<:{}:14560744439808000{}>"
_CARDS = [_EMOJI.format(name, n) for name, n in (("9H_6882", 23), ("7H_f904", 21))]
SEATS = "\n".join(
    f"<@14560744439808002{89 + n}> · stack 190 · bet 10\n"
    f"{'▶' if n == 0 else '　'} {' '.join(_CARDS)} **16** · bet 10 · playing"
    for n in range(3)
)
DEALER = f"Dealer: {_EMOJI.format('TS_a98e', 11)} {_EMOJI.format('back_589e', 56)} **10**"
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
        embed, view = client.next_message()
        await interaction.response.edit_message(embed=embed, view=view)


def fixed_embed() -> discord.Embed:
    """A table message's embed: the size and shape of Croupier's mid-round."""
    embed = discord.Embed(
        title="Black Jack — p0's table",
        description="**Play** · round 2 · turn: <@1456074443980800289> · ends"
        f" <t:1767225660:R>\n{DEALER}",
        color=0x2ECC71,
    )
    embed.add_field(name="Seats (3)", value=SEATS, inline=False)
    embed.set_footer(text=FOOTER)
    return embed


def betting_embed() -> discord.Embed:
    """A Black Jack table message while bets are taken (one bet placed, no cards yet)."""
    embed = discord.Embed(
        title="Black Jack — p0's table",
        description="**Bets** · round 1 · ends <t:1767225660:R>",
        color=0xF1C40F,
    )
    seats = (
        "<@1456074443980800081> · stack 190 · bet 10\n"
        "<@1456074443980800082> · stack 200 · betting…\n"
        "<@1456074443980800083> · stack 200 · betting…"
    )
    embed.add_field(name="Seats (3)", value=seats, inline=False)
    embed.set_footer(text=FOOTER)
    return embed


BET_ROWS = (("Bet 10", "Bet 20", "Bet 50", "Other amount…", "Sit out"),)
PLAY_ROWS = (("Carte !", "Servi", "Double"),)


def fixed_view(rows: tuple[tuple[str, ...], ...]) -> discord.ui.View:
    """Buttons with these rows of labels."""
    view = discord.ui.View(timeout=None)
    labels = [(row, label) for row, line in enumerate(rows) for label in line]
    for n, (row, label) in enumerate(labels):
        button = FloorButton(n, label)
        button.item.row = row
        view.add_item(button)
    return view


# ``bench cost --floor-shape game``: a floor whose message has the shape and size of that
# game's table message mid-round (its embed and its rows of buttons), for the games whose
# messages are larger than Black Jack's (Pirate 21's is Black Jack's size: the default).
_U = [f"<@14560744439808002{n}>" for n in (11, 12, 13)]
_C = "<:4D_dd6a:1456074443980800031> <:5D_09ef:1456074443980800032>"
_BACK = "<:back_589e:1456074443980800056>"


def casino21_embed() -> discord.Embed:
    """A Casino 21 table message mid-round (~1,860 bytes with its buttons)."""
    embed = discord.Embed(
        title="Casino 21 — p10-0's table",
        description=f"**Play** · round 1 · turn 2 · waiting for {' '.join(_U)}"
        f" · ends <t:1767225690:R>\nHost: {_U[0]}\nBank: <:9H_6882:1456074443980800023> {_BACK}",
        color=0x2ECC71,
    )
    seats = "\n".join(
        f"{u} · {_C} **9** · to draw\n　stack 90 · bet 10 · welcome stake 100 · wagered 10/100"
        for u in _U
    )
    embed.add_field(name="Seats (3)", value=seats, inline=False)
    embed.set_footer(text="Table #11 · v7\nShuffle commitment (SHA-256): " + "3" * 64)
    return embed


def sept_et_demi_embed() -> discord.Embed:
    """A Sept et demi table message mid-round (~1,560 bytes with its buttons)."""
    embed = discord.Embed(
        title="Sept et demi — p10-0's table",
        description=f"**Play** · round 1 · turn: {_U[1]} · ends <t:1767225690:R>\n"
        f"🏦 Bank ({_U[0]}): {_BACK} · face down until the bank's turn\n"
        f"🛡️ Guarantee fund: 500 (of 500)\nHost: {_U[0]}\n"
        "A 40-card deck: a pair of sept et demi pays 2:1, the bank wins ties\n"
        f"{_U[1]} drew a card: **Show it**, or **Hide it (show the other)**.",
        color=0x2ECC71,
    )
    seats = (
        f"🏦 {_U[0]} · stack 200 · holds the bank\n"
        f"▶ {_U[1]} · stack 199 · bet 1 · {_BACK} + {_BACK}? · show or hide?\n"
        f"　 {_U[2]} · stack 199 · bet 1 · {_BACK} · waits for their turn"
    )
    embed.add_field(name="Seats (3)", value=seats, inline=False)
    embed.set_footer(text="Table #11 · v7\nShuffle commitment (SHA-256): " + "3" * 64)
    return embed


# each shape: the messages a click edits in, in turn (Black Jack's moves are half bets,
# half a player's turn: 3.95 buttons and 4.5 card emojis per message on average, measured)
SHAPES: dict[str, list[tuple[Any, tuple[tuple[str, ...], ...]]]] = {
    "blackjack": [(betting_embed, BET_ROWS), (fixed_embed, PLAY_ROWS)],
    "casino21": [
        (
            casino21_embed,
            (("Join",), ("Servi (0)", "+1", "+2", "+3", "End the turn"), ("Leave",)),
        )
    ],
    "sept_et_demi": [
        (
            sept_et_demi_embed,
            (("Show it", "Hide it (show the other)"), ("My cards", "Vote to stop")),
        )
    ],
}


class FloorBot(discord.Client):
    """The floor: a client that routes ``FloorButton`` clicks and nothing else."""

    def __init__(self, intents: discord.Intents, shape: str | None = None) -> None:
        # the same client-wide mentions as Croupier's (sent with every message it edits)
        mentions = discord.AllowedMentions(everyone=False, roles=False)
        super().__init__(intents=intents, allowed_mentions=mentions)
        self.shape = SHAPES.get(shape or "", SHAPES["blackjack"])
        self.embeds = [make_embed() for make_embed, _ in self.shape]
        self.embed = self.embeds[0]
        self.messages: list[tuple[discord.Embed, discord.ui.View]] = []
        self.clicks = 0

    @property
    def view(self) -> discord.ui.View:
        """The first message's buttons (the messages are sent with them)."""
        return self.messages[0][1]

    def next_message(self) -> tuple[discord.Embed, discord.ui.View]:
        """The fixed message this click edits in (the shape's messages in turn)."""
        self.clicks += 1
        return self.messages[self.clicks % len(self.messages)]

    async def setup_hook(self) -> None:
        """Route the buttons' clicks (after a restart too), build the fixed messages."""
        self.add_dynamic_items(FloorButton)
        pairs = zip(self.embeds, self.shape, strict=True)
        self.messages = [(embed, fixed_view(rows)) for embed, (_, rows) in pairs]
