"""The rehearsal (`make rehearsal`): the topology of deploy/ on this machine (deploy/topology.py:
two web hosts behind HAProxy, PgBouncer in transaction mode, two PostgreSQL members under
Patroni in synchronous mode with failsafe mode, etcd), real players playing real games through
the balancer, and one fault after another, each ending with the checks `make faults` makes:
every 2xx action is in its game's log, every snapshot is its log's replay, every ranked win has
its board entry and its coins, once (tests/ops/verify.py). Readers read what the standby may
serve and must never see it more than the router's bound behind; players who just won must
read their win back.

First the figures of the healthy topology (the standby's share of the reads, the actions' p99
through HAProxy and PgBouncer against one gunicorn straight on the primary, the same players
alternating game by game), then the faults:

a. a web host killed (SIGKILL): its players are served by the other within a few seconds;
b. PgBouncer restarted: play resumes, every retried action answered;
c. the standby stopped: play goes on, the standby's reads go to the primary, it rejoins;
d. the standby paused (SIGSTOP): its reads go to the primary past the bound, come back after;
e. the primary lost (Patroni and PostgreSQL SIGKILLed, its data directory removed) while its
   standby was a moment behind: the standby is promoted, no acknowledged action is lost, the
   old member rebuilt from the new primary rejoins as the synchronous standby;
f. etcd stopped past the leader key's TTL: the leader stays primary (failsafe mode).

Each test fails when its protection is taken away: ``REHEARSAL_WITHOUT`` names one
(``balancer_failover``, ``idempotent_retries``, ``non_strict_sync``, ``lag_bound``,
``synchronous_mode``, ``failsafe_mode``: one for each of a to f) and the run is the same
with that protection off.
The figures go to ``REHEARSAL_FIGURES`` (var/rehearsal.json), which `make rehearsal` prints.
Skipped unless ``SPIDER_REHEARSAL=1``; the machine's loopback block 127.0.0.20-29 must be free.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from deploy.topology import DEPLOY, ROOT, Topology, wait_for
from tests.ops.procs import say, stock_pool, verify_games
from tests.ops.rehearsal import (
    BOUND_SECONDS,
    Crowd,
    Sampler,
    access_lines,
    began,
    replica_share,
)

pytestmark = [pytest.mark.rehearsal, pytest.mark.slow]

WITHOUT = os.environ.get("REHEARSAL_WITHOUT", "")
FIGURES_PATH = Path(os.environ.get("REHEARSAL_FIGURES", ROOT / "var" / "rehearsal.json"))
FAULTS = (
    "a_web_host_killed",
    "b_pgbouncer_restarted",
    "c_standby_stopped",
    "d_standby_paused",
    "e_primary_lost",
    "f_etcd_stopped",
)
FIGURES: dict[str, Any] = {"faults": {name: {"passed": False} for name in FAULTS}}


def _haproxy_config(directory: Path) -> Path | None:
    """Without the balancer's two ways around a dead web host, its health checks and the
    redispatch of a connection refused (REHEARSAL_WITHOUT=balancer_failover): either alone
    is enough for fault a."""
    if WITHOUT != "balancer_failover":
        return None
    text = (DEPLOY / "haproxy" / "haproxy.cfg").read_text()
    text = re.sub(r'(server web\d "[^"]+") check', r"\1", text)
    text = text.replace("    option redispatch\n", "")
    path = directory / "haproxy-unchecked.cfg"
    path.write_text(text)
    return path


@pytest.fixture(scope="module")
def topo() -> Iterator[Topology]:
    app = {
        "THROTTLE_RATE_AUTH": "100000/min",
        "THROTTLE_RATE_GAME_CREATE": "100000/min",
        "THROTTLE_RATE_ACTIONS": "100000/min",
        "THROTTLE_RATE_POOL": "100000/min",
        "THROTTLE_RATE_HINTS": "100000/min",
        "POOL_LOW_WATER": "0",  # the pools are stocked beforehand: no solver in the way
        "DAILY_PAR_MAX_NODES": "0",
        "REPLICA_MAX_LAG_SECONDS": str(BOUND_SECONDS),
        "LOG_LEVEL": "INFO",
    }
    if WITHOUT == "lag_bound":
        app["REPLICA_MAX_LAG_SECONDS"] = "1000000"
    directory = Path(os.environ.get("REHEARSAL_DIR", "/tmp/spider-rehearsal"))
    topology = Topology(directory, app_env=app)
    started = time.monotonic()
    try:
        topology.up(direct=True, haproxy_config=_haproxy_config(Path("/tmp")))
        if WITHOUT == "synchronous_mode":
            topology.patch_config({"synchronous_mode": False})
        if WITHOUT == "failsafe_mode":
            topology.patch_config({"failsafe_mode": False})
        if WITHOUT == "non_strict_sync":
            topology.patch_config({"synchronous_mode_strict": True})
        say(f"topology up in {time.monotonic() - started:.0f} s: {topology.roles()}")
        env = _admin_env(topology)
        # Random players' 2-suit deals need no proof; the winners' 1-suit ones carry their line.
        stock_pool(env, unvetted={2: 3000})
        seeds = [int.from_bytes(os.urandom(7), "big") for _ in range(400)]
        stock_pool({**env, "POOL_PAR_MAX_NODES": "0"}, vetted_seeds={1: seeds})
        say("pools stocked: 3000 2-suit deals, 1-suit deals with their solver lines")
        yield topology
    finally:
        FIGURES["startup_s"] = round(time.monotonic() - started, 1)
        _write_figures()
        topology.down(remove=os.environ.get("REHEARSAL_KEEP") != "1")


def _admin_env(t: Topology) -> dict[str, str]:
    """For the checks: straight to the leader, a session of its own (not the pool)."""
    leader = t.leader() or "pg1"
    address = t.h["PG1_ADDR"] if leader == "pg1" else t.h["PG2_ADDR"]
    user, db = t.h["SPIDER_DB_USER"], t.h["SPIDER_DB"]
    url = f"postgres://{user}:{t.secret('app')}@{address}:{t.h['PG_PORT']}/{db}"
    return {
        **t.app_env(),
        "DATABASE_URL": url,
        "DATABASE_REPLICA_URL": "",
        "DATABASE_TRANSACTION_POOLING": "0",
    }


@pytest.fixture(scope="module")
def sampler(topo: Topology) -> Iterator[Sampler]:
    s = Sampler(topo)
    s.start()
    yield s
    s.stop()
    FIGURES["pg_connections_max"] = s.pooled_max
    FIGURES["pg_connections_max_all"] = s.all_max
    FIGURES["pool_size"] = int(topo.h["PGBOUNCER_POOL_SIZE"])


def _write_figures() -> None:
    faults = FIGURES["faults"]
    FIGURES["faults_passed"] = sum(1 for f in faults.values() if f["passed"])
    FIGURES["lost"] = sum(int(f.get("lost", 0)) for f in faults.values())
    FIGURES["load"] = Path("/proc/loadavg").read_text().split()[:3]
    FIGURES["without"] = WITHOUT or None
    FIGURES_PATH.parent.mkdir(parents=True, exist_ok=True)
    FIGURES_PATH.write_text(json.dumps(FIGURES))


def _check(topo: Topology, crowd: Crowd, fault: str, mark: dict[int, int]) -> dict[str, Any]:
    """The checks every fault ends with (on the actions accepted since ``mark``, and every
    game and win there is); returns the fault's record."""
    accepted = crowd.accepted_since(mark)
    report = verify_games(_admin_env(topo), accepted)
    record = FIGURES["faults"][fault]
    record.update(
        accepted=len(accepted),
        lost=report["missing_accepted_count"],
        ranked_wins=report["ranked_wins"],
        retries=crowd.stats.retries - mark[-1],
    )
    say(
        f"{fault}: {len(accepted)} actions accepted, {report['games']} games and "
        f"{report['actions']} logged actions verified, {record['lost']} lost, "
        f"{report['ranked_wins']} ranked wins so far, {record['retries']} requests sent again"
    )
    assert report["missing_accepted_count"] == 0, report["missing_accepted"]
    assert report["snapshot_mismatches"] == [], report["snapshot_mismatches"]
    assert report["wins_without_entry"] == [], report["wins_without_entry"]
    assert report["entry_problems"] == [], report["entry_problems"]
    assert report["coin_problems"] == [], report["coin_problems"]
    assert crowd.server_errors() == [], crowd.server_errors()[:5]
    assert crowd.readers_problems() == [], crowd.readers_problems()[:5]
    assert crowd.stale_reads() == [], crowd.stale_reads()[:5]
    assert crowd.ryw_violations() == [], crowd.ryw_violations()[:5]
    assert len(accepted) > 0
    return record


@pytest.fixture(scope="module")
def crowd(topo: Topology) -> Iterator[Crowd]:
    """The players, from the first test to the last (each fault meets them mid-game)."""
    players = Crowd(
        topo,
        bases=[topo.balancer, topo.web_url("direct")],
        idempotent=WITHOUT != "idempotent_retries",
    )
    players.start()
    try:
        players.wait_playing()
        yield players
    finally:
        players.stop()
        FIGURES["ranked_wins_seen"] = players.wins()
        FIGURES["retries"] = players.stats.retries


def _healthy(topo: Topology) -> tuple[str, str]:
    leader, standby = topo.wait_healthy(180, sync=WITHOUT != "synchronous_mode")
    for web in ("web1", "web2"):
        topo.wait_web(topo.web_url(web))
    return leader, standby


def test_the_healthy_topology(topo: Topology, sampler: Sampler, crowd: Crowd) -> None:
    """The figures: the standby's share of the routed reads, and the actions' p99 through
    HAProxy and PgBouncer over one gunicorn straight on the primary (each player's games
    alternate between the two, so both see the same players at the same moments)."""
    mark = crowd.mark()
    since = time.time()
    time.sleep(float(os.environ.get("REHEARSAL_BASELINE_SECONDS", "40")))
    until = time.time()
    through, straight = crowd.action_p99(0), crowd.action_p99(1)
    counts = {route: len(crowd.stats.by_route.get(route, [])) for route in (0, 1)}
    crowd.single_route()  # from here on through the balancer only
    share, reads = replica_share(topo, since, until)
    FIGURES.update(
        replica_read_share=round(share, 3),
        replica_reads_counted=reads,
        action_p99_ms_through_topology=round(through, 1),
        action_p99_ms_straight=round(straight, 1),
        topology_p99_ratio=round(through / straight, 2) if straight else None,
        actions_through_topology=counts[0],
        actions_straight=counts[1],
    )
    say(
        f"healthy: standby served {share:.1%} of {reads} routed reads; actions' p99 "
        f"{through:.1f} ms through HAProxy+PgBouncer ({counts[0]}), {straight:.1f} ms "
        f"straight ({counts[1]})"
    )
    report = verify_games(_admin_env(topo), crowd.accepted_since(mark))
    assert report["missing_accepted_count"] == 0
    assert crowd.server_errors() == [] and crowd.readers_problems() == []
    assert crowd.stale_reads() == [] and crowd.ryw_violations() == []
    assert reads > 0


def test_a_web_host_killed(topo: Topology, sampler: Sampler, crowd: Crowd) -> None:
    time.sleep(2)  # the games still on the comparison host move to the balancer
    topo.stop("direct")
    mark = crowd.mark()
    killed = time.monotonic()
    topo.signal("web1", signal.SIGKILL)
    say("web1 killed (SIGKILL, gunicorn and its workers)")
    time.sleep(12)
    late = crowd.errors_after(killed + 5)
    record = FIGURES["faults"]["a_web_host_killed"]
    record["errors_after_5s"] = len(late)
    record["first_accepted_s"] = round((crowd.first_accepted_after(killed) or killed) - killed, 2)
    say(f"a: {len(late)} failed answers from 5 s after the kill on: {late[:3]}")
    assert late == [], late[:5]
    assert crowd.each_played_after(killed + 5), "a player was not served after the kill"
    _check(topo, crowd, "a_web_host_killed", mark)
    topo.respawn("web1")
    _healthy(topo)
    record["passed"] = True


def test_b_pgbouncer_restarted(topo: Topology, sampler: Sampler, crowd: Crowd) -> None:
    mark = crowd.mark()
    unanswered_before = sum(len(u.unanswered) for u in crowd.users)
    stopped = time.monotonic()
    topo.stop("pgbouncer", timeout=5)
    time.sleep(1)
    topo.respawn("pgbouncer")
    back = time.monotonic()
    say(f"PgBouncer stopped and started again ({back - stopped:.1f} s away)")
    time.sleep(10)
    record = FIGURES["faults"]["b_pgbouncer_restarted"]
    resumed = crowd.first_accepted_after(back)
    record["resumed_s"] = round((resumed or back + 99) - back, 2)
    unanswered = [e for u in crowd.users for e in u.unanswered][unanswered_before:]
    record["unanswered"] = len(unanswered)
    say(f"b: play resumed {record['resumed_s']} s after; {len(unanswered)} requests unanswered")
    assert resumed is not None and resumed - back < 5
    assert unanswered == [], unanswered[:5]
    _check(topo, crowd, "b_pgbouncer_restarted", mark)
    record["passed"] = True


def test_c_standby_stopped(topo: Topology, sampler: Sampler, crowd: Crowd) -> None:
    leader, standby = _healthy(topo)
    mark = crowd.mark()
    stopped = time.monotonic()
    topo.stop(standby)
    # Away once the stop has returned: until then its PostgreSQL is shutting down and may
    # still answer (or refuse, a read then answered again from the primary) as it should.
    wall, stop_s = time.time(), time.monotonic() - stopped
    say(f"standby {standby} stopped (Patroni, and PostgreSQL with it) in {stop_s:.1f} s")
    time.sleep(15)
    up_again, wall_up = time.monotonic(), time.time()
    topo.respawn(standby)
    _healthy(topo)
    say(f"{standby} back as the synchronous standby in {time.monotonic() - up_again:.1f} s")
    time.sleep(8)
    wall_end = time.time()
    record = FIGURES["faults"]["c_standby_stopped"]
    record["stop_s"] = round(stop_s, 2)
    record["longest_wait_s"] = round(crowd.longest_gap(stopped, up_again), 2)
    _standby_reads_checked(topo, crowd, record, stopped, (wall, wall_up, wall_end))
    assert record["longest_wait_s"] < 10, "play stopped while the standby was away"
    _check(topo, crowd, "c_standby_stopped", mark)
    record["passed"] = True


def _standby_reads_checked(
    topo: Topology,
    crowd: Crowd,
    record: dict[str, Any],
    since: float,
    walls: tuple[float, float, float],
) -> None:
    """The standby was away from ``walls[0]`` to ``walls[1]`` (wall times): no routed read that
    began past the bound was served by it or failed there, no reader met a 503 from
    ``since`` on, and by ``walls[2]`` its reads had come back."""
    away, back, end = walls
    during = access_lines(topo, away + BOUND_SECONDS + 1, back)
    on_standby = [r for r in during if r["database"] == "replica" or r.get("database_retried")]
    after, _ = replica_share(topo, end - 5, end)
    unavailable = crowd.readers_unavailable(since, time.monotonic())
    record.update(
        routed_reads_while_away=len(during),
        of_them_on_the_standby=len(on_standby),
        readers_503=unavailable,
        standby_share_after=round(after, 2),
    )
    say(
        f"longest wait for an action {record['longest_wait_s']} s; {len(during)} routed reads "
        f"past the bound while it was away, {len(on_standby)} on it; share afterwards {after:.0%}"
    )
    assert on_standby == [], [
        (round(began(r) - away, 2), r["database"], r.get("database_retried"))
        for r in on_standby[:5]
    ]
    assert unavailable == 0
    assert after > 0, "the standby's reads did not come back"


def test_d_standby_paused(topo: Topology, sampler: Sampler, crowd: Crowd) -> None:
    leader, standby = _healthy(topo)
    mark = crowd.mark()
    pids = topo.postgres_pids(standby)
    paused, wall = time.monotonic(), time.time()
    try:
        for pid in pids:
            os.kill(pid, signal.SIGSTOP)
        say(f"standby {standby} paused: SIGSTOP to its {len(pids)} PostgreSQL processes")
        time.sleep(15)
    finally:
        for pid in pids:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGCONT)
    resumed, wall_resumed = time.monotonic(), time.time()
    _healthy(topo)
    time.sleep(10)
    wall_end = time.time()
    record = FIGURES["faults"]["d_standby_paused"]
    record["longest_wait_s"] = round(crowd.longest_gap(paused, resumed), 2)
    _standby_reads_checked(topo, crowd, record, paused, (wall, wall_resumed, wall_end))
    _check(topo, crowd, "d_standby_paused", mark)
    record["passed"] = True


def _walreceiver(topo: Topology, member: str) -> int | None:
    for pid in topo.postgres_pids(member):
        try:
            if "walreceiver" in Path(f"/proc/{pid}/cmdline").read_text():
                return pid
        except OSError:
            continue
    return None


def test_e_primary_lost(topo: Topology, sampler: Sampler, crowd: Crowd) -> None:
    leader, standby = _healthy(topo)
    mark = crowd.mark()
    receiver = _walreceiver(topo, standby)
    assert receiver is not None
    # The standby a moment behind when the primary dies: its WAL receiver paused 1.5 s. In
    # synchronous mode no commit is acknowledged meanwhile; asynchronously they would be.
    os.kill(receiver, signal.SIGSTOP)
    time.sleep(1.5)
    killed = time.monotonic()
    for pid in [topo.pid(leader), *topo.postgres_pids(leader)]:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    os.kill(receiver, signal.SIGCONT)
    subprocess.run(["rm", "-rf", str(topo.member_dir(leader) / "data")], check=True)
    say(f"primary {leader} lost: Patroni and PostgreSQL SIGKILLed, its data removed")
    wait_for("a new leader", lambda: topo.leader() == standby, 90, interval=0.2)
    promoted = time.monotonic()
    wait_for("an action accepted", lambda: crowd.first_accepted_after(promoted - 1), 60)
    served = crowd.first_accepted_after(killed) or promoted
    say(f"{standby} promoted after {promoted - killed:.1f} s; an action {served - killed:.1f} s")
    topo.start_member(leader, fresh=True)
    _healthy(topo)
    rebuilt = time.monotonic()
    say(f"{leader} rebuilt from {standby}: the synchronous standby {rebuilt - served:.1f} s on")
    time.sleep(6)
    record = FIGURES["faults"]["e_primary_lost"]
    record.update(
        promoted_s=round(promoted - killed, 2),
        failover_s=round(served - killed, 2),
        rebuilt_s=round(rebuilt - served, 2),
        roles_after=topo.roles(),
    )
    FIGURES["failover_s"] = record["failover_s"]
    _check(topo, crowd, "e_primary_lost", mark)
    assert topo.roles().get(leader, "").startswith("sync_standby")
    record["passed"] = True


def test_f_etcd_stopped(topo: Topology, sampler: Sampler, crowd: Crowd) -> None:
    leader, standby = _healthy(topo)
    mark = crowd.mark()
    demoted: list[float] = []
    stopped = time.monotonic()
    topo.stop("etcd")
    say("etcd stopped; waiting past the leader key's TTL (20 s)")
    while time.monotonic() - stopped < 35:
        try:
            if topo.rest(leader, "/primary", timeout=2).status_code != 200:
                demoted.append(time.monotonic() - stopped)
        except httpx.HTTPError:
            demoted.append(time.monotonic() - stopped)
        time.sleep(1)
    back = time.monotonic()
    topo.respawn("etcd")
    _healthy(topo)
    time.sleep(4)
    record = FIGURES["faults"]["f_etcd_stopped"]
    record.update(
        longest_wait_s=round(crowd.longest_gap(stopped, back), 2),
        leader_not_primary_checks=len(demoted),
    )
    say(
        f"f: the leader answered /primary throughout: {not demoted}; "
        f"longest wait for an action {record['longest_wait_s']} s"
    )
    assert demoted == [], f"the leader stopped being primary {demoted[0]:.0f} s in"
    assert record["longest_wait_s"] < 5
    assert topo.leader() == leader
    _check(topo, crowd, "f_etcd_stopped", mark)
    record["passed"] = True
