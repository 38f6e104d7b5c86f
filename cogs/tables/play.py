"""What the table cogs share: the path of one move, from an interaction to a published
outcome. Not a cog: functions of the bot's services."""

from __future__ import annotations

import functools
import logging

import discord

from bot.app import CroupierBot
from bot.bank.models import ClaimReceipt
from bot.discord.answer import answer, refuse
from bot.engine.base import IllegalAction
from bot.engine.events import LEFT
from bot.errors import WrongChannel
from bot.i18n import t
from bot.tables import Outcome, Table, TableError
from bot.tables.move_names import COLLECT_MOVES, build_action, rebet_action
from bot.ui.buttons import ButtonSpec, build_buttons
from bot.ui.errors import refusal_text
from bot.ui.limits import fit_content
from bot.ui.render import Ctx, renderer_for
from bot.ui.render import bank as fmt
from bot.ui.wording import t_or

log = logging.getLogger(__name__)

# moves refused outside the bets with the same words in every game: "Bets are closed."
BETTING_MOVES = frozenset({"bet", "sit_out", "bet_modal", "rebet"})
# a "Same bet" / "Rebet ×2" the stack or the range refuses: said with the amount it made
REBET_REFUSALS = frozenset({"insufficient_stack", "bet_out_of_range"})


def table_here(bot: CroupierBot, interaction: discord.Interaction) -> Table:
    """The open table of the channel or thread the command was used in."""
    table = bot.tables.table_in(interaction.channel_id or 0)
    if table is None:
        raise WrongChannel("table.error.no_table_here")
    return table


async def run_move(
    bot: CroupierBot,
    interaction: discord.Interaction,
    table_id: int,
    move: str,
    arg: int | None = None,
    *,
    seen_version: int | None = None,
    from_table_message: bool = False,
    target: int | None = None,
    locale: str | None = None,
    answer: str | None = None,
) -> Outcome | None:
    """Apply a move for the interaction's user and publish the result (``locale``: the
    reader's language when the caller already looked it up; ``answer``: the interaction's
    answer instead of the move's); the outcome, None when refused."""
    if locale is None:
        locale = await bot.locale_for(interaction)
    try:
        outcome = await _apply(bot, interaction, table_id, move, arg, seen_version, target)
    except IllegalAction as exc:
        await _refuse_illegal(bot, interaction, table_id, move, exc, locale)
        return None
    except Exception as exc:  # refusals answered; bugs re-raised with a reference
        await refuse(interaction, exc, locale)
        return None
    if outcome.replayed:
        await refuse(interaction, TableError("already_done"), locale)
        return None
    receipt = None
    if move in COLLECT_MOVES:
        answer, receipt = await collect(bot, outcome, interaction.user.id, locale)
    await bot.publisher.publish(
        outcome,
        interaction=interaction,
        locale=locale,
        from_table_message=from_table_message,
        move=move,
        answer=answer,
    )
    if receipt is not None:  # after the answer: the bank channel's news
        await announce_collected(bot, outcome.table.guild_id, receipt)
    return outcome


async def _apply(
    bot: CroupierBot,
    interaction: discord.Interaction,
    table_id: int,
    move: str,
    arg: int | None,
    seen_version: int | None,
    target: int | None,
) -> Outcome:
    """The move applied and stored for the interaction's user (``target``: whom it acts on)."""
    user = interaction.user.id
    if move == "join":
        bot.publisher.dms.retry(user)  # closed DMs are tried again at a new table
        return await bot.tables.join(table_id, user, arg, interaction.id)
    player = target if target is not None else user
    if move == "rebet":  # the player's last bet (x2), played as a plain bet
        action = rebet_action(bot.tables.get(table_id).game, player, arg)
    else:
        action = build_action(move, player, arg)
    return await bot.tables.act(
        table_id, user, action, interaction_id=interaction.id, seen_version=seen_version
    )


async def _refuse_illegal(
    bot: CroupierBot,
    interaction: discord.Interaction,
    table_id: int,
    move: str,
    exc: IllegalAction,
    locale: str,
) -> None:
    """The engine's refusal of a move, in the words of the move the player made."""
    if exc.code == "forfeit_needs_confirmation":
        collecting = move in COLLECT_MOVES
        await confirm_leave(bot, interaction, table_id, exc, locale, collecting=collecting)
    elif move == "join" and exc.code == "wrong_phase":  # say when a seat can be taken
        await refuse(interaction, TableError("join_between_rounds"), locale)
    elif move in BETTING_MOVES and exc.code == "wrong_phase":  # the same in every game
        await refuse(interaction, IllegalAction("not_betting"), locale)
    elif move == "rebet" and exc.code in REBET_REFUSALS:  # name the bet the click made
        await refuse(interaction, TableError(f"rebet_{exc.code}", **exc.params), locale)
    else:
        await refuse(interaction, exc, locale)


async def confirm_leave(
    bot: CroupierBot,
    interaction: discord.Interaction,
    table_id: int,
    exc: IllegalAction,
    locale: str,
    *,
    collecting: bool = False,
) -> None:
    """Ask before a leave that forfeits the welcome stake (``collecting``: the confirmed
    leave collects the stack too)."""
    text = refusal_text(exc, locale) or ""
    table = bot.tables.get(table_id)
    label = t_or("move.leave_confirm", locale, fallback="move.leave_confirm")
    move = "leave_collect_confirm" if collecting else "leave_confirm"
    confirm = ButtonSpec(move, label, discord.ButtonStyle.danger)
    view = build_buttons(table_id, table.version, [confirm])
    assert view is not None
    await answer(interaction, text, view=view)


async def send_hand(
    bot: CroupierBot, interaction: discord.Interaction, table: Table, locale: str
) -> None:
    """The user's private cards at ``table``, ephemeral; their closed DMs are tried again
    at the next private card (they may have opened them)."""
    bot.publisher.dms.retry(interaction.user.id)
    text = renderer_for(table.game_key).hand_text(Ctx(table, locale), interaction.user.id)
    await interaction.response.send_message(fit_content(text), ephemeral=True)


async def collect(
    bot: CroupierBot, outcome: Outcome, user: int, locale: str
) -> tuple[str | None, ClaimReceipt | None]:
    """After a "Leave and collect": pay the stack's claims from this table into the
    balance where they need no approval (a held one waits for an admin, as after any
    leave). The answer (None: the usual one: nothing to collect, or the bank failed and
    the claim waits for ``/bank claim``, nothing lost) and what was paid."""
    table = outcome.table
    left = next((e for e in outcome.events if e.kind == LEFT and e.player == user), None)
    if left is None or not int(left.data.get("keep", 0)):
        return None, None
    try:
        lines = await bot.bank.claims(table.guild_id, user)
        mine = [line for line in lines if line.table_id == table.id]
        pending = [line.claim_id for line in mine if line.status == "pending"]
        held = sum(line.amount for line in mine if line.status == "held")
        receipt = None
        if pending:
            receipt = await bot.bank.claim(table.guild_id, user, claim_ids=pending)
        currency = (await bot.bank_channel.prefs(table.guild_id)).currency
    except Exception:  # the leave is committed: answer it; the claim stays collectable
        log.warning("table %s: collecting a leave failed", table.id, exc_info=True)
        return None, None
    if receipt is None and not held:  # paid meanwhile by a /bank claim: the usual answer
        return None, None
    forfeit = int(left.data.get("forfeit", 0))
    return collected_text(locale, currency, receipt, forfeit, held), receipt


def collected_text(
    locale: str, currency: str, receipt: ClaimReceipt | None, forfeit: int, held: int
) -> str:
    """What a "Leave and collect" did: paid (and the new balance), the welcome stake the
    casino took back, what waits for an admin."""
    money = functools.partial(fmt.amount, locale=locale, currency=currency)
    if receipt is not None:
        paid, balance = money(receipt.total), money(receipt.balance)
        parts = [t("move.collect.paid", locale, amount=paid, balance=balance)]
    else:
        parts = [t("move.collect.left", locale)]
    if forfeit:
        parts.append(t("move.collect.forfeit", locale, forfeit=money(forfeit)))
    if held:
        parts.append(t("move.collect.held", locale, amount=money(held)))
    return " ".join(parts)


async def announce_collected(bot: CroupierBot, guild_id: int, receipt: ClaimReceipt) -> None:
    """The bank channel's line for claims paid, as ``/bank claim`` posts it."""
    prefs = await bot.bank_channel.prefs(guild_id)
    text = t(
        "bank.channel.claim",
        prefs.locale,
        user=f"<@{receipt.user_id}>",
        amount=fmt.amount(receipt.total, prefs.locale, prefs.currency),
        claims=fmt.claims_ref(receipt.paid, prefs.locale),
    )
    await bot.bank_channel.announce(guild_id, text)


async def clicked_table(
    bot: CroupierBot, interaction: discord.Interaction, table_id: int, locale: str
) -> Table | None:
    """The open table a button names, or None once the click is refused as closed: a
    closed table, or another server's (a button older than an id change, ``import-sqlite``
    renumbers tables: nothing of the other one may be played nor shown from here)."""
    try:
        table = bot.tables.get(table_id)
    except TableError:
        table = None
    if table is None or table.guild_id != interaction.guild_id:
        await refuse(interaction, TableError("closed"), locale)
        return None
    return table
