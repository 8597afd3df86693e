"""The rehearsal's load and its observers (tests/ops/test_rehearsal.py).

- ``Crowd``: players of bench/load.py (2-suit games, random moves, an ``Idempotency-Key`` on
  every action, resent until answered), ``Winner``s (1-suit vetted deals, each played along
  its solver line through the API: ranked wins, so leaderboard entries and coins), ``Reader``s
  (anonymous: boards, player pages, finished games' logs and replays) and a ``Prober`` (a
  player who finishes a game every second: a reader that sees their count lag more than the
  router's bound behind has read a stale standby).
- ``Sampler``: PostgreSQL's connections from the pool, once a second, on whichever member
  leads.
- ``access_lines``: the web hosts' access log (which database served each routed read).
"""

from __future__ import annotations

import json
import random
import threading
import time
import uuid
from collections import Counter
from datetime import datetime
from pathlib import Path
from typing import Any

import httpx

from bench.load import Stats, User, percentile
from deploy.topology import Topology

# The router's bound in the rehearsal (REPLICA_MAX_LAG_SECONDS) and the slack a reader's own
# request takes: a read that began later than bound + slack after a write must show it.
BOUND_SECONDS = 3
SLACK_SECONDS = 1.0


class Player(User):
    """bench/load.py's player on 2-suit deals (its 1-suit pool is the winners')."""

    SUITS = 2

    def new_game(self) -> dict[str, Any] | None:
        while self.running():
            r = self.call("new_game", "POST", "/api/v1/games", json={"suits": self.SUITS})
            if r is not None and r.status_code == 201:
                state = r.json()
                self.games.add(state["id"])
                return state
            time.sleep(1)
        return None


class Winner(Player):
    """Plays each 1-suit deal along its solver line (read from the database: the test knows
    it, the server checks every move as from anyone), then reads back its win: its place on
    the board and its page (read-your-writes: the cookie of its last write pins it)."""

    SUITS = 1

    def __init__(self, *args: Any, topology: Topology, published: list, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.topology = topology
        self.published = published  # (time, game id) of wins, for the readers
        self.wins = 0
        self.ryw_violations: list[str] = []

    def line(self, game: str) -> list[dict[str, Any]]:
        leader = self.topology.leader() or "pg1"
        rows = self.topology.sql(
            self.topology.member_dsn(leader, "spider"),
            "SELECT d.solver_line FROM games_game g JOIN games_deal d ON d.id = g.deal_id "
            f"WHERE g.id = '{uuid.UUID(game)}'",
        )
        return list(rows[0][0] or []) if rows else []

    def run(self) -> None:
        time.sleep(self.delay)
        try:
            if not self.register():
                return
            while self.running():
                state = self.new_game()
                if state is None:
                    return
                try:
                    line = self.line(state["id"])
                except Exception:  # the primary is changing: the next game
                    continue
                self.play_line(state, line)
                self.pause()
        finally:
            for client in self.clients:
                client.close()

    def play_line(self, state: dict[str, Any], line: list[dict[str, Any]]) -> None:
        game = state["id"]
        while self.running() and state["status"] == "in_progress":
            if state["version"] >= len(line):
                return
            body = self.act(game, {**line[state["version"]], "version": state["version"]})
            if body is not None:
                state = body
                if state["status"] == "won":
                    self.read_back_win(game)
                self.pause()
                continue
            fresh = self.call("game", "GET", f"/api/v1/games/{game}")
            if fresh is None or fresh.status_code != 200:
                return
            state = fresh.json()

    def read_back_win(self, game: str) -> None:
        self.wins += 1
        places = self.call("places", "GET", f"/api/v1/leaderboard/games/{game}")
        if places is None or places.status_code != 200:
            code = None if places is None else places.status_code
            self.ryw_violations.append(f"{game}: its place answered {code}")
        page = self.call("player", "GET", f"/api/v1/players/{self.username}")
        if page is not None and page.status_code == 200:
            wins = sum(s["wins"] for s in page.json()["stats"])
            if wins < self.wins:
                self.ryw_violations.append(f"{game}: its page shows {wins} wins of {self.wins}")
        self.published.append((time.monotonic(), game, self.username))


class Prober(threading.Thread):
    """Finishes a 2-suit game every second (a deal, then resign): ``acked`` holds when each
    finish was answered, so a reader can tell how many finishes its answer must show."""

    def __init__(self, base: str, stop: threading.Event) -> None:
        super().__init__(daemon=True)
        self.stats = Stats()
        self.stop_event = stop
        self.user = User(
            base, self.stats, float("inf"), 0, hints=False, think=0, idempotent=True, stop=stop
        )
        self.acked: list[float] = []

    @property
    def username(self) -> str:
        return self.user.username

    def run(self) -> None:
        u = self.user
        while not u.register():  # before any fault; retried if a fault met it
            if self.stop_event.wait(1):
                return
        while not self.stop_event.is_set():
            r = u.call("new_game", "POST", "/api/v1/games", json={"suits": 2})
            if r is not None and r.status_code == 201:
                game = r.json()
                deal = u.call(
                    "action",
                    "POST",
                    f"/api/v1/games/{game['id']}/actions",
                    json={"type": "deal", "version": game["version"]},
                )
                if deal is not None and deal.status_code == 200:
                    end = u.call("resign", "POST", f"/api/v1/games/{game['id']}/resign")
                    if end is not None and end.status_code == 200:
                        self.acked.append(time.monotonic())
            self.stop_event.wait(1)
        u.client.close()

    def finished_before(self, moment: float) -> int:
        return sum(1 for t in list(self.acked) if t < moment)


class Reader(threading.Thread):
    """Anonymous reads of what the standby may serve; never writes, so never pinned. A read
    that got no answer from the app (dropped, 502, 503 with Retry-After) is sent again, as a
    client does; every answer must then be 200, and the prober's page must show every finish
    older than the bound. ``unavailable`` keeps when a 503 came (no fault of the standby's
    may cause one: its reads go to the primary)."""

    def __init__(
        self,
        base: str,
        stop: threading.Event,
        published: list,
        prober: Prober,
        seed: int,
        think: float,
    ) -> None:
        super().__init__(daemon=True)
        self.client = httpx.Client(base_url=base, timeout=60)
        self.stop_event = stop
        self.published = published
        self.prober = prober
        self.rnd = random.Random(seed)
        self.think = think
        self.reads: Counter[str] = Counter()
        self.problems: list[str] = []
        self.stale: list[str] = []
        self.unavailable: list[float] = []

    def get(self, kind: str, url: str) -> httpx.Response | None:
        give_up = time.monotonic() + User.RETRY_FOR_SECONDS
        last = ""
        while time.monotonic() < give_up:
            try:
                r = self.client.get(url)
            except httpx.HTTPError as exc:
                last = f"{kind} {url}: {type(exc).__name__}"
                time.sleep(0.3)
                continue
            self.reads[kind] += 1
            if r.status_code in User.RETRIED:
                if r.status_code == 503:
                    self.unavailable.append(time.monotonic())
                last = f"{kind} {url}: {r.status_code}"
                time.sleep(0.3)
                continue
            if r.status_code not in (200, 304):
                self.problems.append(f"{kind} {url}: {r.status_code} {r.text[:160]}")
            return r
        self.problems.append(f"no answer: {last}")
        return None

    def run(self) -> None:
        try:
            while not self.stop_event.is_set():
                self.read_one()
                self.stop_event.wait(self.rnd.expovariate(1 / self.think))
        finally:
            self.client.close()

    def read_one(self) -> None:
        now = time.monotonic()
        settled = [p for p in list(self.published) if p[0] < now - BOUND_SECONDS - SLACK_SECONDS]
        roll = self.rnd.random()
        if roll < 0.25 or not settled:
            began = time.monotonic()
            must = self.prober.finished_before(began - BOUND_SECONDS - SLACK_SECONDS)
            r = self.get("player", f"/api/v1/players/{self.prober.username}")
            if r is not None and r.status_code == 200:
                played = sum(s["played"] for s in r.json()["stats"])
                if played < must:
                    self.stale.append(f"prober's page: {played} games, {must} finished before")
            elif r is not None and r.status_code == 404 and must == 0:
                self.problems.pop()  # the prober is not registered yet: nothing to show
            return
        _, game, username = self.rnd.choice(settled)
        if roll < 0.4:
            self.get("board", "/api/v1/leaderboard?suits=1")
        elif roll < 0.55:
            self.get("places", f"/api/v1/leaderboard/games/{game}")
        elif roll < 0.7:
            self.get("log", f"/api/v1/games/{game}/actions")
        elif roll < 0.8:
            self.get("replay", f"/api/v1/games/{game}/positions/{self.rnd.randint(0, 20)}")
        elif roll < 0.9:
            self.get("player_games", f"/api/v1/players/{username}/games")
        else:
            self.get("player", f"/api/v1/players/{username}")


class Crowd:
    """Players, winners, readers and the prober, started together and stopped together."""

    def __init__(
        self,
        topology: Topology,
        *,
        players: int = 4,
        winners: int = 2,
        readers: int = 3,
        bases: list[str] | None = None,
        idempotent: bool = True,
        published: list | None = None,
    ) -> None:
        base = topology.balancer
        self.stop_event = threading.Event()
        self.stats = Stats()
        self.published: list = published if published is not None else []
        common: dict[str, Any] = {
            "hints": False,
            "idempotent": idempotent,
            "stop": self.stop_event,
            "bases": bases,
        }
        forever = float("inf")
        self.players: list[User] = [
            Player(base, self.stats, forever, random.randrange(2**32), think=0.02, **common)
            for _ in range(players)
        ]
        self.winners = [
            Winner(
                base,
                self.stats,
                forever,
                random.randrange(2**32),
                think=0.05,
                topology=topology,
                published=self.published,
                **common,
            )
            for _ in range(winners)
        ]
        self.prober = Prober(base, self.stop_event)
        self.readers = [
            Reader(base, self.stop_event, self.published, self.prober, random.randrange(2**32), 0.1)
            for _ in range(readers)
        ]

    @property
    def everyone(self) -> list[threading.Thread]:
        return [*self.players, *self.winners, self.prober, *self.readers]

    def start(self) -> None:
        for thread in self.everyone:
            thread.start()

    def single_route(self) -> None:
        """From now on every player plays through the first base URL only."""
        for user in self.users:
            user.clients = user.clients[:1]
            user.client, user.route = user.clients[0], 0

    def mark(self) -> dict[int, int]:
        """Where each player's record stands now (for ``accepted_since``; -1: the retries)."""
        with self.stats.lock:
            retries = self.stats.retries
        return {-1: retries, **{id(u): len(u.accepted) for u in self.users}}

    def accepted_since(self, mark: dict[int, int]) -> list[dict[str, Any]]:
        return [a for u in self.users for a in u.accepted[mark.get(id(u), 0) :]]

    def wait_playing(self, timeout: float = 60) -> None:
        """Until every player and winner has had an action accepted."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if all(u.accepted for u in (*self.players, *self.winners)):
                return
            time.sleep(0.2)
        raise AssertionError("the players did not start playing")

    def stop(self) -> None:
        self.stop_event.set()
        for thread in self.everyone:
            thread.join(120)

    # -- what happened ----------------------------------------------------------------------
    @property
    def users(self) -> list[User]:
        return [*self.players, *self.winners]

    def accepted(self) -> list[dict[str, Any]]:
        return [a for u in self.users for a in u.accepted]

    def accepted_times(self) -> list[float]:
        return sorted(t for u in self.users for t in u.accepted_at)

    def first_accepted_after(self, moment: float) -> float | None:
        return next((t for t in self.accepted_times() if t > moment), None)

    def longest_gap(self, start: float, end: float) -> float:
        """The longest time without an accepted action between ``start`` and ``end``."""
        times = [start, *(t for t in self.accepted_times() if start < t < end), end]
        return max(b - a for a, b in zip(times, times[1:], strict=False))

    def each_played_after(self, moment: float) -> bool:
        return all(any(t > moment for t in u.accepted_at) for u in self.users)

    def errors_after(self, moment: float) -> list[str]:
        s = self.stats
        with s.lock:
            return [e for e, t in zip(s.errors, s.error_times, strict=True) if t > moment]

    def server_errors(self) -> list[str]:
        """Answers no fault excuses: a 500, or an error that is not JSON."""
        with self.stats.lock:
            errors = list(self.stats.errors)
        return [
            e
            for e in errors
            if ": 500 " in e
            or ": 504 " in e
            or (": 503 " in e and '"database_unavailable"' not in e)
        ]

    def readers_problems(self) -> list[str]:
        return [p for r in self.readers for p in r.problems]

    def readers_unavailable(self, start: float, end: float) -> int:
        """503s the readers met between two times."""
        return sum(1 for r in self.readers for t in list(r.unavailable) if start <= t <= end)

    def stale_reads(self) -> list[str]:
        return [p for r in self.readers for p in r.stale]

    def ryw_violations(self) -> list[str]:
        return [v for w in self.winners for v in w.ryw_violations]

    def action_p99(self, route: int | None = None) -> float:
        with self.stats.lock:
            values = (
                list(self.stats.action_latencies)
                if route is None
                else list(self.stats.by_route.get(route, []))
            )
        return percentile(values, 0.99)

    def wins(self) -> int:
        return sum(w.wins for w in self.winners)


class Sampler(threading.Thread):
    """Once a second: PostgreSQL's client connections to the app's database on the leader,
    those from the pool (through HAProxy's address) apart."""

    def __init__(self, topology: Topology) -> None:
        super().__init__(daemon=True)
        self.topology = topology
        self.stop_event = threading.Event()
        self.pooled_max = 0
        self.all_max = 0

    def run(self) -> None:
        t = self.topology
        while not self.stop_event.wait(1):
            leader = t.leader()
            if leader is None:
                continue
            try:
                pooled, every = t.sql(
                    t.member_dsn(leader),
                    "SELECT count(*) FILTER (WHERE client_addr = "
                    f"'{t.h['HAPROXY_ADDR']}'), count(*) FROM pg_stat_activity "
                    f"WHERE backend_type = 'client backend' AND datname = '{t.h['SPIDER_DB']}'",
                    timeout=2,
                )[0]
            except Exception:  # a member going or coming: the next second
                continue
            self.pooled_max = max(self.pooled_max, int(pooled))
            self.all_max = max(self.all_max, int(every))

    def stop(self) -> None:
        self.stop_event.set()
        self.join(10)


def began(row: dict[str, Any]) -> float:
    """When an access-log line's request began (wall time): logged at its end."""
    return datetime.fromisoformat(row["ts"]).timestamp() - row["duration_ms"] / 1000


def access_lines(topology: Topology, since: float, until: float) -> list[dict[str, Any]]:
    """The web hosts' access-log lines of reads the router decided, of requests that began
    between two wall times."""
    found = []
    for host in ("web1", "web2"):
        for line in (
            Path(topology.state["procs"][host]["log"]).read_text(errors="replace").splitlines()
        ):
            if '"database"' not in line:
                continue
            try:
                row = json.loads(line)
            except ValueError:
                continue
            if since <= began(row) <= until:
                found.append(row)
    return found


def replica_share(topology: Topology, since: float, until: float) -> tuple[float, int]:
    rows = access_lines(topology, since, until)
    served = Counter(r["database"] for r in rows)
    total = sum(served.values())
    return (served["replica"] / total if total else 0.0), total
