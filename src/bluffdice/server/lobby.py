"""The hall's lobby: new tables from the lobby's form, the room the server has for them,
the listing of tables and finished games, and replays and reviews of finished games.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from bluffdice.bots import available_bots
from bluffdice.games.base import BluffdiceError, RuleError
from bluffdice.games.record import Record
from bluffdice.games.registry import BUILTIN, get_game, parse_rules, rules_string
from bluffdice.server.persistence import KEEP_FINISHED, HallPart
from bluffdice.server.refusals import HallError, clean_name, token_digest
from bluffdice.server.reviewer import ReviewJob
from bluffdice.server.tables import LiveTable, SeatSpec, game_name
from bluffdice.store.tables import StoredTable
from bluffdice.table import Table
from bluffdice.table.fair import commitment_of

MIN_LIMIT, MAX_LIMIT = 1.0, 3600.0


class Lobby(HallPart):
    """The lobby side of `Hall`: creating, listing, replaying and reviewing tables."""

    server_seed: Callable[[], bytes]
    _unloaded: dict[str, StoredTable]

    def _start_lobby(self) -> None:
        self._reviews: dict[str, dict[str, Any]] = {}

    def open_table(
        self,
        rules: str,
        players: int,
        limit: float | None,
        seats: list[SeatSpec],
        fair: bool = False,
        listed: bool = False,
    ) -> LiveTable:
        table_id = secrets.token_urlsafe(12)  # 96 bits: the link is the invitation
        live = LiveTable(self.hall(), table_id, rules, players, limit, seats, listed=listed)
        if fair:
            live.server_seed = self.server_seed()
        if self.store is not None:
            self.store.create(
                id=table_id,
                game=game_name(rules),
                rules=rules,
                players=players,
                limit=limit,
                seats=[s.stored() for s in seats],
                status="open",
            )
            if live.server_seed is not None:
                seed = live.server_seed
                self.store.keep_fair(table_id, seed.hex(), commitment_of(seed))
        self.tables[table_id] = live
        return live

    def active_tables(self) -> list[LiveTable]:
        return [t for t in self.tables.values() if t.status in ("open", "running")]

    def _check_room(self, address: str, bots_only: bool) -> None:
        """Refuse a new table over the limits: in all, per address, of bots only."""
        limits = self.limits
        active = self.active_tables()
        if len(active) + len(self._unloaded) >= limits.tables:
            raise HallError.said("err.tooManyTables", count=limits.tables)
        if address and sum(t.address == address for t in active) >= limits.tables_per_address:
            raise HallError.said("err.tooManyYours", count=limits.tables_per_address)
        if bots_only:
            if limits.bot_tables <= 0:
                raise HallError.said("err.botTables")
            running = sum(all(s.kind == "bot" for s in t.seats) for t in active)
            if running >= limits.bot_tables:
                raise HallError.said("err.tooManyBotTables", count=limits.bot_tables)

    def create(self, request: Any, address: str = "") -> dict[str, Any]:
        """A new table from the lobby's form: {"rules", "seats": [{"kind", "bot"}...],
        "limit", "name", "dice", "listed"}. The person creating it takes the first
        person's seat. With "dice": "fair" the table commits to its secret now and starts
        when every person has also given a seed (`give_seed`); the default is the OS's
        generator. The table is private (reached by its link) unless "listed" is true.
        The answer's "host" token lets its creator hand seats over (`hand_over`)."""
        if not isinstance(request, dict):
            raise HallError.said("err.tableObject")
        try:
            rules_obj = parse_rules(str(request.get("rules", "")))
        except RuleError as exc:  # the page words it from its catalogue's rule.* keys
            raise HallError(str(exc), exc.key, exc.params) from None
        except BluffdiceError as exc:
            raise HallError(str(exc)) from None
        rules = rules_string(rules_obj)
        game = game_name(rules)
        spec = get_game(game)
        seats_in = request.get("seats")
        if not isinstance(seats_in, list):
            raise HallError.said("err.noSeats")
        if not spec.min_players <= len(seats_in) <= spec.max_players:
            refusal = HallError.said(
                "err.players", game=spec.title, low=spec.min_players, high=spec.max_players
            )
            # the page says the game's title in its own language
            refusal.params["game"] = {"key": f"game.{spec.name}", "params": {}}
            raise refusal
        bots = available_bots(game)
        seats: list[SeatSpec] = []
        for item in seats_in:
            kind = item.get("kind") if isinstance(item, dict) else None
            if kind == "bot":
                bot = str(item.get("bot", ""))
                if bot not in bots:
                    raise HallError.said(
                        "err.noBot", game=game, bot=repr(bot), bots=", ".join(bots)
                    )
                seats.append(SeatSpec("bot", bot=bot, seed=""))
            elif kind == "human":
                seats.append(SeatSpec("human"))
            else:
                raise HallError.said("err.seatKind")
        limit = request.get("limit")
        if limit is not None:
            if isinstance(limit, bool) or not isinstance(limit, int | float):
                raise HallError.said("err.limitNumber")
            if not MIN_LIMIT <= limit <= MAX_LIMIT:
                raise HallError.said("err.limitRange", low=f"{MIN_LIMIT:g}", high=f"{MAX_LIMIT:g}")
            limit = float(limit)
        dice = request.get("dice", "system")
        if dice not in ("system", "fair"):
            raise HallError.said("err.dice")
        listed = request.get("listed", False)
        if not isinstance(listed, bool):
            raise HallError.said("err.listed")
        humans = [i for i, s in enumerate(seats) if s.kind == "human"]
        name = clean_name(request.get("name")) if humans else None
        self._check_room(address, not humans)
        live = self.open_table(rules, len(seats), limit, seats, fair=dice == "fair", listed=listed)
        host = secrets.token_urlsafe(24)
        live.host, live.address = token_digest(host), address
        if self.store is not None:
            self.store.keep_access(live.id, listed=listed, host=live.host)
        answer: dict[str, Any] = {"id": live.id, "seat": None, "token": None, "host": host}
        if name is not None:
            seat, token = live.claim(name, humans[0])
            answer.update(seat=seat, token=token)
        else:
            live.start()
        return answer

    def listing(self, offset: int = 0, limit: int = 20) -> dict[str, Any]:
        """The listed open and running tables (a page of them: `limit` from `offset`,
        newest first; their count is "total"), and the latest listed finished games,
        for the lobby. A table is listed only when its creator chose so."""
        listed = [t for t in self.active_tables() if t.listed]
        listed.reverse()  # newest first
        offset = max(0, offset)
        limit = max(1, min(limit, 50))
        live = [t.info() for t in listed[offset : offset + limit]]
        done: list[dict[str, Any]] = []
        if self.store is not None:
            for stored in self.store.tables(("finished",), limit=20, listed_only=True):
                done.append(
                    {
                        "id": stored.id,
                        "game": stored.game,
                        "rules": stored.rules,
                        "names": [s.get("name") or s.get("bot") for s in stored.seats],
                        "winners": (stored.result or {}).get("winners", []),
                    }
                )
        return {
            "tables": live,
            "total": len(listed),
            "offset": offset,
            "limit": limit,
            "finished": done,
        }

    def replay(self, table_id: str) -> dict[str, Any]:
        """A finished game step by step, everything revealed: for the replay page."""
        table = self._finished_table(table_id)
        return {
            "id": table_id,
            "game": table.spec.name,
            "rules": rules_string(table.rules),
            "names": list(table.names),
            "outcome": table.outcome(),
            "steps": [
                {"actor": e.actor, "text": e.text, "update": table.update_for(e, None, True)}
                for e in table.log
            ],
        }

    def review_job(self, table_id: str) -> ReviewJob:
        """What a review worker needs of a finished game (`server.reviewer`): its rules,
        names and steps, all public once it is over. A game no longer in memory is not
        rebuilt here (the worker replays it): its stored steps are read and counted.
        Refused for a game longer than `limits.review_steps`."""
        live = self.tables.get(table_id)
        if live is not None and live.table is not None:
            if not live.table.over:
                raise HallError.said("err.notOver")
            record, names = live.table.record, list(live.table.names)
        else:
            stored = self.store.get(table_id) if self.store is not None else None
            if stored is None or self.store is None:
                raise HallError.said("err.noGame")
            if stored.status != "finished":
                raise HallError.said("err.notOver")
            steps = tuple(step.text for step in self.store.steps(table_id))
            record = Record(stored.game, stored.rules, stored.players, steps)
            seats = [SeatSpec.from_stored(s) for s in stored.seats]
            gone = LiveTable(self.hall(), stored.id, stored.rules, stored.players, None, seats)
            names = gone.names()
        if len(record.steps) > self.limits.review_steps:
            raise HallError.said(
                "err.reviewLong", steps=len(record.steps), most=self.limits.review_steps
            )
        spec = get_game(record.game)
        own = any(spec.name in names for names in BUILTIN.values())
        return ReviewJob(
            table_id,
            record.game,
            record.rules,
            record.players,
            record.steps,
            tuple(names),
            None if own else spec,
        )

    def keep_review(self, table_id: str, review: dict[str, Any]) -> None:
        """Keep a review worked out, for the last KEEP_FINISHED reviewed games."""
        self._reviews[table_id] = review
        while len(self._reviews) > KEEP_FINISHED:
            self._reviews.pop(next(iter(self._reviews)))

    def cached_review(self, table_id: str) -> dict[str, Any] | None:
        """A review already worked out (kept for the last KEEP_FINISHED reviewed games)."""
        return self._reviews.get(table_id)

    def _finished_table(self, table_id: str) -> Table:
        """A finished game at a table: the one in memory, or rebuilt from the store."""
        live = self.tables.get(table_id)
        table = live.table if live is not None else None
        stored = self.store.get(table_id) if self.store is not None else None
        if table is None:
            if stored is None or self.store is None:
                raise HallError.said("err.noGame")
            seats = [SeatSpec.from_stored(s) for s in stored.seats]
            gone = LiveTable(self.hall(), stored.id, stored.rules, stored.players, None, seats)
            table = gone.rebuilt(self.store.steps(table_id))
        if not table.over:
            raise HallError.said("err.notOver")
        return table
