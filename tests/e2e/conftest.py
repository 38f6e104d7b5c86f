"""End-to-end fixtures: a scan of every public message for cards shown before their reveal.

The ``leak_scan`` fixture is autouse: every e2e test runs under it.

How it works (and why it cannot pass silently):

- ``TableService.observers`` gets ``LeakScan.observe`` in every service the test builds
  (restarts included). At each committed outcome it takes a snapshot of the table at that
  moment: the card codes of ``public_view()``, of the whole engine state (``to_dict()``:
  hands, the hole card, the bank's face-down card, the rigged order...), of every seated
  player's ``private_view()`` and of the PRIVATE/HIDDEN events. A code of the engine state
  or of a private view that the public view does not show is *hidden* at that moment.
- ``Publisher.publish`` (bot/discord/publisher.py, every committed outcome goes through it) is
  wrapped: after each publish, the table message as the channel now shows it and every
  new public message of the table's channel (announcements, pings, hints; ephemeral
  messages are private and skipped) are
  read straight from SimCord's store (no REST call) as text: content, embeds, button
  labels. A hidden code may not appear in them, unless (for announcements) a PUBLIC event
  of that outcome reveals it. Limit: with several decks a hidden copy of a card that is
  also public reads the same as the public one (a renderer may repeat a public card, e.g.
  "chooses the value of A♥"), so only codes with no public copy are checked.
- Violations are collected and fail the test at teardown. So do: a published outcome the
  observer never saw (the hook was lost), commits that were never checked, and a blind
  scan (public cards were in the view but the scan never recognised a single card in the
  channel: the card format drifted away from ``bot.ui.cards``).
- Cards are recognised in both forms the bot writes: the text form (``A♠``) and its card
  emojis (``<:AS_1f3a:123…>``, by name, whatever the id: tests/card_markup.py ``CardsIn``).
- ``tests/e2e/test_dms.py::test_leak_scan_catches_a_leaking_renderer`` proves it fails.

The ``discord_spec_check`` fixture is autouse too: every REST request SimCord recorded
during the test (``env.http_requests``, every simulated Discord the test started, restarts
included) is checked against Discord's official OpenAPI spec (``tests/discord_api``), and
any violation fails the test at teardown; so does a message over Discord's size limits,
which the spec does not carry (``tests/e2e/discord_limits.py``).

The ``discord_rules`` fixture is autouse too: Discord's answers where SimCord is kinder
(archived and locked threads, Embed Links, forums that require a tag), in
``tests/e2e/discord_rules.py``.

The ``answer_first`` fixture is autouse too: the first request the bot makes on behalf of
an interaction must be its response (``tests/e2e/discord_limits.py``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field, fields, is_dataclass
from typing import Any

import pytest
import simcord

from bot.engine.base import Visibility
from bot.tables import Outcome, Table, TableService
from bot.ui.cards import card_text
from tests.card_markup import CardsIn
from tests.discord_api.checker import SpecChecker
from tests.e2e import discord_rules as rules
from tests.e2e.discord_limits import AnswerFirst, limit_problems

CODE = re.compile(r"^[A2-9TJQKX][SHDC]$")


def card_codes(value: Any) -> Iterator[str]:
    """Every card code in a JSON-able value (dict values, lists, strings) or a view (its
    fields), with repeats."""
    if isinstance(value, str):
        if CODE.match(value):
            yield value
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            yield from card_codes(getattr(value, f.name))
    elif isinstance(value, dict):
        for item in value.values():
            yield from card_codes(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from card_codes(item)


def message_text(message: Any) -> str:
    """The visible text of a stored SimCord message: content, embeds, button labels."""
    parts = [message.content or ""]
    for embed in message.embeds or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        parts += [str((embed.get("author") or {}).get("name") or "")]
        for f in embed.get("fields") or []:
            parts += [str(f.get("name") or ""), str(f.get("value") or "")]
        parts.append(str((embed.get("footer") or {}).get("text") or ""))

    def labels(components: Any) -> Iterator[str]:
        for c in components or []:
            if isinstance(c, dict):
                if c.get("label"):
                    yield str(c["label"])
                yield from labels(c.get("components"))

    parts += list(labels(message.components))
    return "\n".join(parts)


TABLE_VERSION = re.compile(r"Table (?:#|n°)\d+ · v(\d+)")  # the footer, in en and fr


@dataclass
class Snapshot:
    """The cards of one table at one committed moment."""

    table: Table
    version: int
    public: Counter[str]  # cards in public_view()
    events_public: Counter[str]  # cards in the PUBLIC events of the outcome
    hidden: Counter[str]  # engine and private cards, minus the public ones
    codes: set[str] = field(default_factory=set)  # every card code to check


class LeakScan:
    """Collects snapshots at each commit, checks the channel after each publish."""

    def __init__(self) -> None:
        self.env: Any = None
        self.pending: dict[int, tuple[Outcome, Snapshot]] = {}
        self.latest: dict[int, Snapshot] = {}
        self.versions: dict[tuple[int, int], Snapshot] = {}  # (table, version) -> snapshot
        self.checked: dict[int, set[tuple[int, str | None, str]]] = {}
        self.violations: list[str] = []
        self.commits = 0
        self.checks = 0
        self.public_cards_checked = 0  # public cards in the view at checks
        self.recognised = 0  # card texts recognised in checked messages

    # ------------------------------------------------------------ observe (at commit)
    def observe(self, table: Table, outcome: Outcome) -> None:
        """TableService observer: snapshot the table's cards now."""
        self.commits += 1
        game = table.game
        public = Counter(card_codes(game.public_view()))
        engine = Counter(card_codes(game.to_dict()))
        private: Counter[str] = Counter()
        events_public: Counter[str] = Counter()
        for event in outcome.events:
            codes = Counter(card_codes(dict(event.data)))
            if event.visibility is Visibility.PUBLIC:
                events_public += codes
            else:
                private |= codes
        for player in game.seated():
            private |= Counter(card_codes(game.private_view(player)))
        hidden = (engine | private) - public
        snap = Snapshot(
            table, table.version, public, events_public, hidden, set(engine | private | public)
        )
        self.pending[id(outcome)] = (outcome, snap)
        self.latest[table.id] = snap
        self.versions[(table.id, table.version)] = snap

    # ------------------------------------------------------------ check (after publish)
    def after_publish(self, outcome: Outcome) -> None:
        """Called after ``Tables.publish(outcome)``: check the channel at that moment."""
        entry = self.pending.pop(id(outcome), None)
        if entry is None or entry[0] is not outcome:
            self.violations.append(
                f"table {outcome.table.id}: an outcome was published that the observer never "
                "saw (TableService.observers not called?)"
            )
            return
        self.violations.extend(self.check_snapshot(entry[1], announcements=True))

    def check_snapshot(self, snap: Snapshot, *, announcements: bool) -> list[str]:
        """Check the table message and the new public messages of the table's channel."""
        if self.env is None:
            return []
        table = snap.table
        store = self.env.backend.messages.get(table.channel_id, {})
        seen = self.checked.setdefault(table.channel_id, set())
        out: list[str] = []
        self.checks += 1
        self.public_cards_checked += sum(snap.public.values())
        for message in sorted(store.values(), key=lambda m: m.id):
            if message.is_ephemeral:
                continue
            is_table = message.id == table.message_id
            text = message_text(message)
            # by its text too: an interaction's UPDATE_MESSAGE (a table message turned into
            # its round's summary) may leave ``edited_timestamp`` as it was
            key = (message.id, message.edited_timestamp, text)
            if not is_table and key in seen:
                continue
            seen.add(key)
            in_text = CardsIn(text)
            allowed = snap.public + (
                snap.events_public if announcements and not is_table else Counter()
            )
            if is_table:  # a table message shows the version in its footer, the one to check
                # (edits can land after later commits: what it shows may be newer than snap)
                found = TABLE_VERSION.search(text)
                shown_snap = found and self.versions.get((table.id, int(found[1])))
                if shown_snap:
                    allowed = shown_snap.public
            for code in snap.codes:
                count = in_text.count(code)
                self.recognised += count if allowed[code] else 0
                if count and not allowed[code]:
                    what = "table message" if is_table else "message"
                    out.append(
                        f"table {table.id} v{snap.version}: {card_text(code)} is not public yet "
                        f"but shown {count} time(s) in a public {what} (id {message.id}); hidden "
                        f"now: {dict(snap.hidden)}:\n{text}"
                    )
        return out

    def check_table(self, table: Table) -> None:
        """Check a table's channel now against its latest snapshot; raise on a leak."""
        snap = self.latest.get(table.id)
        assert snap is not None, f"table {table.id} was never observed"
        problems = self.check_snapshot(snap, announcements=False)
        if problems:
            raise AssertionError("private cards shown publicly:\n" + "\n\n".join(problems))

    def raise_if_violations(self) -> None:
        """Fail with every problem found so far."""
        if self.violations:
            raise AssertionError("leak scan:\n" + "\n\n".join(self.violations))

    # ------------------------------------------------------------ the end of a test
    def finish(self) -> None:
        """Check what no publish covered, then fail on any problem."""
        for snap in self.latest.values():
            self.violations.extend(self.check_snapshot(snap, announcements=False))
        if self.commits and self.env is not None and not self.checks:
            self.violations.append(f"{self.commits} commits observed but nothing was checked")
        if self.public_cards_checked and not self.recognised:
            self.violations.append(
                f"blind scan: {self.public_cards_checked} public cards were in the views at "
                "the checks but no card text was recognised in any message (card format?)"
            )
        self.raise_if_violations()


class SpecCheck:
    """The REST requests of every simulated Discord a test starts, against the spec."""

    def __init__(self, checker: SpecChecker) -> None:
        self.checker = checker
        self.envs: list[Any] = []  # every simcord.Env made during the test
        self.allowed: list[str] = []  # violations a test makes on purpose

    def problems(self) -> list[str]:
        """Every violation in the requests recorded so far."""
        out = []
        for env in self.envs:
            for entry in env.http_requests:
                out += self.checker.check(entry.method, entry.path, entry.params, entry.json)
                out += [f"{entry.method} {entry.path}: {p}" for p in limit_problems(entry.json)]
        return out

    def allow(self, fragment: str) -> None:
        """Let violations containing ``fragment`` pass: at least one must occur."""
        self.allowed.append(fragment)

    def finish(self) -> None:
        """Fail on any violation not allowed, and on an allowed one that never came."""
        problems = self.problems()
        missing = [f for f in self.allowed if not any(f in p for p in problems)]
        assert not missing, f"expected spec violations never came: {missing}"
        problems = [p for p in problems if not any(f in p for f in self.allowed)]
        if problems:
            raise AssertionError(
                f"{len(problems)} REST request(s) break Discord's OpenAPI spec:\n"
                + "\n".join(problems)
            )


@pytest.fixture(autouse=True)
def discord_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """Discord's rules SimCord does not model: archived threads, Embed Links, forum tags
    (tests/e2e/discord_rules.py)."""
    rules.install(monkeypatch)


@pytest.fixture(scope="session")
def discord_spec() -> SpecChecker:
    """Discord's OpenAPI spec, loaded once: its validators are made once per session."""
    return SpecChecker()


@pytest.fixture(autouse=True)
def discord_spec_check(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch, discord_spec: SpecChecker
) -> Iterator[SpecCheck]:
    """Check every REST request the bot sent during the test against Discord's spec."""
    check = SpecCheck(discord_spec)
    init = simcord.Env.__init__

    def init_recorded(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        check.envs.append(self)

    monkeypatch.setattr(simcord.Env, "__init__", init_recorded)
    yield check
    if "simcord_env" in request.fixturenames:
        assert check.envs, "the spec check did not see the test's simulated Discord"
    check.finish()


@pytest.fixture(autouse=True)
def answer_first(monkeypatch: pytest.MonkeyPatch) -> Iterator[AnswerFirst]:
    """Every interaction is answered (or deferred) before any other request made for it."""
    check = AnswerFirst()
    check.install(monkeypatch)
    init = simcord.Env.__init__

    def init_watched(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        check.watch(self)

    monkeypatch.setattr(simcord.Env, "__init__", init_watched)
    yield check
    check.finish()


@pytest.fixture(autouse=True)
def leak_scan(
    request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> Iterator[LeakScan]:
    """Scan every public message of the test for cards shown before their reveal."""
    from bot.discord.publisher import Publisher

    scan = LeakScan()
    init = TableService.__init__

    def init_observed(self: TableService, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.observers.append(scan.observe)

    publish = Publisher.publish

    async def publish_checked(self: Publisher, outcome: Outcome, *args: Any, **kw: Any) -> None:
        await publish(self, outcome, *args, **kw)
        scan.after_publish(outcome)

    monkeypatch.setattr(TableService, "__init__", init_observed)
    monkeypatch.setattr(Publisher, "publish", publish_checked)
    if "simcord_env" in request.fixturenames:
        scan.env = request.getfixturevalue("simcord_env")  # started after the patches
        assert scan.env.bot.publisher.publish.__func__ is publish_checked
    yield scan
    scan.finish()
