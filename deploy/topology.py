"""The high-availability topology on one machine: the files of deploy/ run as separate hosts,
each on its own loopback address (deploy/hosts.env), from Debian's packages and PyPI's Patroni.

    python -m deploy.topology up      # `make topology`: starts it all; last line one JSON object
    python -m deploy.topology status  # the same JSON, of what runs now
    python -m deploy.topology down    # `make topology-down`: stops everything, removes the data

Hosts: etcd; two PostgreSQL 15 members under Patroni (synchronous mode, failsafe mode);
HAProxy (the web balancer, and the primary and standby ports that follow Patroni's REST
checks); PgBouncer in transaction mode; the worker host (Redis, a Celery worker and beat);
two web hosts (gunicorn and the race stream's uvicorn), which reach PostgreSQL only through
PgBouncer, their reads that may be stale through its standby database.

PostgreSQL refuses to run as root: as root, Patroni (with the PostgreSQL it starts) and
PgBouncer run as the ``postgres`` user, Patroni from a virtualenv that user can execute
(``PATRONI_VENV``, made by `make topology-install` from Debian's Python). Everything lives
in ``TOPOLOGY_DIR`` (data, logs, the laid-out configurations, ``state.json``), which `down`
removes. The rehearsal (tests/ops/test_rehearsal.py) drives the same class.
"""

from __future__ import annotations

import contextlib
import json
import os
import pwd
import secrets
import shutil
import signal
import string
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy"
BIN = Path(sys.executable).parent
PATRONI_VENV = Path(os.environ.get("PATRONI_VENV", "/opt/spider-patroni"))
PG_BIN = Path(os.environ.get("PG_BIN_DIR", "/usr/lib/postgresql/15/bin"))
TOPOLOGY_DIR = Path(os.environ.get("TOPOLOGY_DIR", "/tmp/spider-topology"))
MEMBERS = ("pg1", "pg2")
WEB_HOSTS = ("web1", "web2")


def say(message: str) -> None:
    print(f"[topology] {message}", file=sys.stderr, flush=True)


def hosts() -> dict[str, str]:
    """deploy/hosts.env, each value overridable from the environment."""
    values: dict[str, str] = {}
    for line in (DEPLOY / "hosts.env").read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values[key] = os.environ.get(key, value)
    return values


def lay_out(template: Path, target: Path, values: dict[str, str]) -> None:
    """A configuration file with its ${VAR}s filled (as envsubst does in the containers)."""
    target.write_text(string.Template(template.read_text()).substitute(values))


def wait_for(what: str, check: Callable[[], Any], timeout: float, interval: float = 0.2) -> Any:
    """Call ``check`` until it returns something truthy; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    last: BaseException | None = None
    while time.monotonic() < deadline:
        try:
            result = check()
        except Exception as exc:  # not up yet
            last = exc
        else:
            if result:
                return result
        time.sleep(interval)
    raise RuntimeError(f"timed out after {timeout:.0f} s waiting for {what} ({last!r})")


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # A zombie (a child of ours, exited) is not alive.
    with contextlib.suppress(OSError):
        if Path(f"/proc/{pid}/stat").read_text().split(") ", 1)[1].startswith("Z"):
            return False
    return True


class Topology:
    def __init__(self, directory: Path = TOPOLOGY_DIR, app_env: dict[str, str] | None = None):
        self.dir = directory
        self.h = hosts()
        self.app_extra = dict(app_env or {})
        self.state_file = self.dir / "state.json"
        self.state: dict[str, Any] = (
            json.loads(self.state_file.read_text())
            if self.state_file.exists()
            else {"procs": {}, "secrets": {}}
        )
        self._popens: dict[str, subprocess.Popen] = {}
        self.as_postgres = os.geteuid() == 0

    # -- bookkeeping ------------------------------------------------------------------------
    def _save(self) -> None:
        self.state_file.write_text(json.dumps(self.state, indent=1))
        self.state_file.chmod(0o600)

    def secret(self, name: str) -> str:
        found = self.state["secrets"].get(name)
        if found is None:
            found = self.state["secrets"][name] = secrets.token_urlsafe(18)
            self._save()
        return str(found)

    def spawn(
        self,
        name: str,
        cmd: list[str],
        env: dict[str, str],
        *,
        role: str,
        address: str,
        postgres_user: bool = False,
        cwd: Path = ROOT,
    ) -> int:
        log = self.dir / "logs" / f"{name}.log"
        user: dict[str, Any] = {}
        if postgres_user and self.as_postgres:
            pw = pwd.getpwnam("postgres")
            user = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
            env = {**env, "HOME": pw.pw_dir, "USER": "postgres"}
        with open(log, "ab") as out:
            proc = subprocess.Popen(
                cmd,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own group: stopping it stops its children
                **user,
            )
        self._popens[name] = proc
        self.state["procs"][name] = {
            "pid": proc.pid,
            "role": role,
            "address": address,
            "log": str(log),
            "cmd": cmd,
            "env": {k: v for k, v in env.items() if k not in os.environ or os.environ[k] != v},
            "postgres_user": postgres_user,
            "cwd": str(cwd),
        }
        self._save()
        return proc.pid

    def respawn(self, name: str) -> int:
        """Start a stopped host again, as it was started."""
        entry = self.state["procs"][name]
        return self.spawn(
            name,
            entry["cmd"],
            {**os.environ, **entry["env"]},
            role=entry["role"],
            address=entry["address"],
            postgres_user=entry["postgres_user"],
            cwd=Path(entry["cwd"]),
        )

    def pid(self, name: str) -> int:
        return int(self.state["procs"][name]["pid"])

    def alive(self, name: str) -> bool:
        entry = self.state["procs"].get(name)
        if entry is None:
            return False
        popen = self._popens.get(name)
        if popen is not None:
            return popen.poll() is None
        return _alive(int(entry["pid"]))

    def signal(self, name: str, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid(name), sig)

    def stop(self, name: str, timeout: float = 30) -> None:
        """TERM to the host's process group, KILL after ``timeout``."""
        if name not in self.state["procs"]:
            return
        self.signal(name, signal.SIGCONT)  # a paused host must be able to hear it
        self.signal(name, signal.SIGTERM)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and self.alive(name):
            time.sleep(0.1)
        self.signal(name, signal.SIGKILL)
        popen = self._popens.pop(name, None)
        if popen is not None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                popen.wait(5)

    def log(self, name: str) -> str:
        return Path(self.state["procs"][name]["log"]).read_text(errors="replace")

    # -- PostgreSQL members ------------------------------------------------------------------
    def member_dir(self, member: str) -> Path:
        return self.dir / member

    def postmaster_pid(self, member: str) -> int | None:
        """The member's postmaster (Patroni starts it in a session of its own)."""
        try:
            text = (self.member_dir(member) / "data" / "postmaster.pid").read_text()
        except (FileNotFoundError, PermissionError):
            return None
        pid = int(text.split()[0])
        return pid if _alive(pid) else None

    def postgres_pids(self, member: str) -> list[int]:
        """The postmaster and every process under it."""
        top = self.postmaster_pid(member)
        if top is None:
            return []
        out = subprocess.run(["ps", "-eo", "pid=,ppid="], capture_output=True, text=True).stdout
        children: dict[int, list[int]] = {}
        for line in out.splitlines():
            child, parent = (int(x) for x in line.split())
            children.setdefault(parent, []).append(child)
        found, todo = [top], [top]
        while todo:
            for child in children.get(todo.pop(), []):
                found.append(child)
                todo.append(child)
        return found

    def member_env(self, member: str) -> dict[str, str]:
        h = self.h
        address = h["PG1_ADDR"] if member == "pg1" else h["PG2_ADDR"]
        home = self.member_dir(member)
        return {
            **os.environ,
            "PATRONI_NAME": member,
            "PATRONI_SCOPE": "spider",
            "PATRONI_RESTAPI_LISTEN": f"{address}:{h['PATRONI_PORT']}",
            "PATRONI_RESTAPI_CONNECT_ADDRESS": f"{address}:{h['PATRONI_PORT']}",
            "PATRONI_ETCD3_HOSTS": f"'{h['ETCD_ADDR']}:{h['ETCD_CLIENT_PORT']}'",
            "PATRONI_POSTGRESQL_LISTEN": f"{address}:{h['PG_PORT']}",
            "PATRONI_POSTGRESQL_CONNECT_ADDRESS": f"{address}:{h['PG_PORT']}",
            "PATRONI_POSTGRESQL_DATA_DIR": str(home / "data"),
            "PATRONI_POSTGRESQL_BIN_DIR": str(PG_BIN),
            "PATRONI_POSTGRESQL_PGPASS": str(home / "pgpass"),
            "PATRONI_SUPERUSER_USERNAME": "postgres",
            "PATRONI_SUPERUSER_PASSWORD": self.secret("superuser"),
            "PATRONI_REPLICATION_USERNAME": "replicator",
            "PATRONI_REPLICATION_PASSWORD": self.secret("replication"),
        }

    def start_member(self, member: str, *, fresh: bool = False) -> int:
        """A member's Patroni; ``fresh``: its data directory removed first (a rebuilt host,
        which Patroni fills from the leader with pg_basebackup)."""
        home = self.member_dir(member)
        if fresh:
            shutil.rmtree(home / "data", ignore_errors=True)
        home.mkdir(exist_ok=True)
        shutil.copy(DEPLOY / "patroni" / "patroni.yml", home / "patroni.yml")
        if self.as_postgres:
            for path in (home, home / "patroni.yml"):
                shutil.chown(path, "postgres", "postgres")
        address = self.h["PG1_ADDR"] if member == "pg1" else self.h["PG2_ADDR"]
        return self.spawn(
            member,
            [str(PATRONI_VENV / "bin" / "patroni"), str(home / "patroni.yml")],
            self.member_env(member),
            role="postgresql",
            address=f"{address}:{self.h['PG_PORT']}",
            postgres_user=True,
            cwd=home,
        )

    def rest(self, member: str, path: str, timeout: float = 2) -> httpx.Response:
        address = self.h["PG1_ADDR"] if member == "pg1" else self.h["PG2_ADDR"]
        return httpx.get(f"http://{address}:{self.h['PATRONI_PORT']}{path}", timeout=timeout)

    def patch_config(self, change: dict[str, Any]) -> None:
        """Change the cluster's dynamic configuration (Patroni's PATCH /config)."""
        for member in MEMBERS:
            with contextlib.suppress(httpx.HTTPError):
                address = self.h["PG1_ADDR"] if member == "pg1" else self.h["PG2_ADDR"]
                r = httpx.patch(
                    f"http://{address}:{self.h['PATRONI_PORT']}/config", json=change, timeout=5
                )
                if r.status_code == 200:
                    return
        raise RuntimeError("no member took the configuration change")

    def cluster(self) -> dict[str, Any]:
        """Patroni's view of the cluster, from whichever member answers."""
        for member in MEMBERS:
            with contextlib.suppress(httpx.HTTPError, ValueError):
                return dict(self.rest(member, "/cluster").json())
        return {"members": []}

    def roles(self) -> dict[str, str]:
        """Each member's role as Patroni says (leader, sync_standby, replica), and its state."""
        return {
            m["name"]: f"{m['role']}:{m.get('state', '?')}"
            for m in self.cluster().get("members", [])
        }

    def leader(self) -> str | None:
        for member in MEMBERS:
            with contextlib.suppress(httpx.HTTPError):
                if self.rest(member, "/primary", timeout=1).status_code == 200:
                    return member
        return None

    def wait_healthy(self, timeout: float = 120, *, sync: bool = True) -> tuple[str, str]:
        """A leader and a streaming synchronous standby (any streaming standby when not
        ``sync``); returns (leader, standby)."""
        roles = ("sync_standby",) if sync else ("sync_standby", "replica")

        def check() -> tuple[str, str] | None:
            members = self.cluster().get("members", [])
            leader = [m["name"] for m in members if m["role"] == "leader"]
            standby = [
                m["name"] for m in members if m["role"] in roles and m.get("state") == "streaming"
            ]
            return (leader[0], standby[0]) if leader and standby else None

        result: tuple[str, str] = wait_for("a leader and a streaming standby", check, timeout)
        return result

    def dsn(self, *, port_key: str = "PG_PRIMARY_PORT", user: str = "postgres") -> str:
        password = self.secret("superuser") if user == "postgres" else self.secret("app")
        host = self.h["HAPROXY_ADDR"]
        return (
            f"postgres://{user}:{password}@{host}:{self.h[port_key]}/"
            f"{self.h['SPIDER_DB'] if user != 'postgres' else 'postgres'}"
        )

    def member_dsn(self, member: str, db: str = "postgres") -> str:
        address = self.h["PG1_ADDR"] if member == "pg1" else self.h["PG2_ADDR"]
        return f"postgres://postgres:{self.secret('superuser')}@{address}:{self.h['PG_PORT']}/{db}"

    def sql(self, dsn: str, query: str, timeout: float = 5) -> list[tuple[Any, ...]]:
        import psycopg

        with psycopg.connect(dsn, connect_timeout=int(timeout), autocommit=True) as conn:
            conn.execute(f"SET statement_timeout = {int(timeout * 1000)}")
            cursor = conn.execute(query)
            return cursor.fetchall() if cursor.description else []

    def create_app_database(self) -> None:
        """The app's role and database, once (as the superuser, on the primary)."""
        h, password = self.h, self.secret("app")
        user, db = h["SPIDER_DB_USER"], h["SPIDER_DB"]
        admin = self.dsn()
        if not self.sql(admin, f"SELECT 1 FROM pg_roles WHERE rolname = '{user}'"):
            self.sql(admin, f"CREATE ROLE {user} LOGIN PASSWORD '{password}'")
        if not self.sql(admin, f"SELECT 1 FROM pg_database WHERE datname = '{db}'"):
            self.sql(admin, f"CREATE DATABASE {db} OWNER {user}")

    # -- the other hosts ----------------------------------------------------------------------
    def values(self) -> dict[str, str]:
        return {
            **self.h,
            "ETCD_NAME": "etcd1",
            "ETCD_DATA_DIR": str(self.dir / "etcd"),
            "PGBOUNCER_RUN_DIR": str(self.dir / "pgbouncer"),
        }

    def start_etcd(self) -> int:
        (self.dir / "etcd").mkdir(exist_ok=True)
        lay_out(DEPLOY / "etcd" / "etcd.yml", self.dir / "etcd.yml", self.values())
        return self.spawn(
            "etcd",
            ["etcd", "--config-file", str(self.dir / "etcd.yml")],
            {**os.environ, "ETCD_UNSUPPORTED_ARCH": os.environ.get("ETCD_UNSUPPORTED_ARCH", "")},
            role="etcd",
            address=f"{self.h['ETCD_ADDR']}:{self.h['ETCD_CLIENT_PORT']}",
        )

    def start_haproxy(self, config: Path | None = None) -> int:
        return self.spawn(
            "haproxy",
            ["haproxy", "-db", "-f", str(config or DEPLOY / "haproxy" / "haproxy.cfg")],
            {**os.environ, **self.h},
            role="haproxy",
            address=f"{self.h['HAPROXY_ADDR']}:{self.h['HAPROXY_HTTP_PORT']}",
        )

    def start_pgbouncer(self) -> int:
        run = self.dir / "pgbouncer"
        run.mkdir(exist_ok=True)
        lay_out(DEPLOY / "pgbouncer" / "pgbouncer.ini", run / "pgbouncer.ini", self.values())
        user = self.h["SPIDER_DB_USER"]
        (run / "userlist.txt").write_text(f'"{user}" "{self.secret("app")}"\n')
        (run / "userlist.txt").chmod(0o600)
        if self.as_postgres:
            for path in (run, run / "pgbouncer.ini", run / "userlist.txt"):
                shutil.chown(path, "postgres", "postgres")
        return self.spawn(
            "pgbouncer",
            ["pgbouncer", str(run / "pgbouncer.ini")],
            dict(os.environ),
            role="pgbouncer",
            address=f"{self.h['PGBOUNCER_ADDR']}:{self.h['PGBOUNCER_PORT']}",
            postgres_user=True,
        )

    def redis_url(self, db: int) -> str:
        return f"redis://{self.h['WORKER_ADDR']}:{self.h['REDIS_PORT']}/{db}"

    def start_redis(self) -> int:
        (self.dir / "redis").mkdir(exist_ok=True)
        return self.spawn(
            "redis",
            [
                shutil.which("redis-server") or "redis-server",
                "--bind",
                self.h["WORKER_ADDR"],
                "--port",
                self.h["REDIS_PORT"],
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir / "redis"),
            ],
            dict(os.environ),
            role="redis",
            address=f"{self.h['WORKER_ADDR']}:{self.h['REDIS_PORT']}",
        )

    def app_env(self, *, direct: bool = False, **extra: str) -> dict[str, str]:
        """A production-like process's environment: through PgBouncer (the primary and the
        standby's database), or ``direct`` to the primary member as it is now."""
        h, password = self.h, self.secret("app")
        user, db = h["SPIDER_DB_USER"], h["SPIDER_DB"]
        bouncer = f"{h['PGBOUNCER_ADDR']}:{h['PGBOUNCER_PORT']}"
        if direct:
            leader = self.leader() or "pg1"
            address = h["PG1_ADDR"] if leader == "pg1" else h["PG2_ADDR"]
            database = {
                "DATABASE_URL": f"postgres://{user}:{password}@{address}:{h['PG_PORT']}/{db}",
                "DATABASE_REPLICA_URL": "",
                "DATABASE_TRANSACTION_POOLING": "0",
            }
        else:
            database = {
                "DATABASE_URL": f"postgres://{user}:{password}@{bouncer}/{h['PGBOUNCER_DB']}",
                "DATABASE_REPLICA_URL": (
                    f"postgres://{user}:{password}@{bouncer}/{h['PGBOUNCER_DB']}_replica"
                ),
                "DATABASE_TRANSACTION_POOLING": "1",
            }
        env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "SPIDER_"))}
        env.update(
            DJANGO_SETTINGS_MODULE="spider_api.settings",
            DEBUG="0",
            SECRET_KEY=self.secret("django"),
            ALLOWED_HOSTS=",".join(
                h[k] for k in ("HAPROXY_ADDR", "WEB1_ADDR", "WEB2_ADDR", "DIRECT_ADDR")
            ),
            SECURE_SSL_REDIRECT="0",
            NUM_PROXIES="0" if direct else "1",
            DATABASE_CONN_MAX_AGE="60",
            CELERY_BROKER_URL=self.redis_url(0),
            CACHE_URL=self.redis_url(1),
            LOG_FORMAT="json",
            POOL_TARGET="5",
            POOL_LOW_WATER="2",
            RACE_STREAM_URL="",
            PATH=f"{BIN}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            **database,
        )
        env.update(self.app_extra)
        env.update(extra)
        return env

    def manage(self, env: dict[str, str], *args: str) -> None:
        subprocess.run(
            [sys.executable, str(ROOT / "manage.py"), *args],
            cwd=ROOT,
            env={**env, "LOG_LEVEL": "WARNING"},
            check=True,
            timeout=600,
        )

    def start_web(self, name: str, *, workers: int = 3, direct: bool = False) -> int:
        address = self.h["DIRECT_ADDR"] if direct else self.h[f"{name.upper()}_ADDR"]
        env = {
            **self.app_env(direct=direct),
            "GUNICORN_BIND": f"{address}:{self.h['WEB_PORT']}",
            "WEB_CONCURRENCY": str(workers),
            "GUNICORN_THREADS": "1",
        }
        return self.spawn(
            name,
            [str(BIN / "gunicorn"), "-c", "gunicorn.conf.py", "spider_api.wsgi"],
            env,
            role="web-direct" if direct else "web",
            address=f"{address}:{self.h['WEB_PORT']}",
        )

    def start_stream(self, host: str) -> int:
        address = self.h[f"{host.upper()}_ADDR"]
        return self.spawn(
            f"stream-{host}",
            [
                str(BIN / "uvicorn"),
                "spider_api.asgi:application",
                "--host",
                address,
                "--port",
                self.h["STREAM_PORT"],
                "--lifespan",
                "on",
                "--no-access-log",
                "--no-proxy-headers",
                "--timeout-graceful-shutdown",
                "5",
            ],
            {**self.app_env(), "RACE_STREAM_DB_THREADS": "2"},
            role="stream",
            address=f"{address}:{self.h['STREAM_PORT']}",
        )

    def start_worker(self) -> None:
        celery = [str(BIN / "celery"), "-A", "spider_api"]
        env = self.app_env()
        # One worker for both queues (the pool's fills and the analyses), as the Procfile's two.
        worker = "worker -l INFO -c 1 --without-gossip --without-mingle -n worker@topology"
        self.spawn(
            "worker",
            [*celery, *worker.split(), "-Q", "celery,analysis"],
            env,
            role="worker",
            address=self.h["WORKER_ADDR"],
        )
        schedule = self.dir / "celerybeat-schedule"
        self.spawn(
            "beat",
            [*celery, "beat", "--loglevel", "INFO", "-s", str(schedule)],
            env,
            role="beat",
            address=self.h["WORKER_ADDR"],
        )

    def web_url(self, name: str) -> str:
        entry = self.state["procs"][name]
        return f"http://{entry['address']}"

    @property
    def balancer(self) -> str:
        return f"http://{self.h['HAPROXY_ADDR']}:{self.h['HAPROXY_HTTP_PORT']}"

    def wait_web(self, url: str, timeout: float = 90) -> None:
        wait_for(
            f"{url}/health/live",
            lambda: httpx.get(f"{url}/health/live", timeout=2).status_code == 200,
            timeout,
        )

    # -- the whole ----------------------------------------------------------------------------
    def up(self, *, direct: bool = False, haproxy_config: Path | None = None) -> dict[str, Any]:
        """Start every host; ``direct``: also the comparison host (one gunicorn straight on
        the primary); ``haproxy_config``: another HAProxy file (the rehearsal's checks)."""
        if self.state["procs"] and any(self.alive(n) for n in self.state["procs"]):
            raise RuntimeError(f"a topology runs already in {self.dir}: `make topology-down`")
        shutil.rmtree(self.dir, ignore_errors=True)
        (self.dir / "logs").mkdir(parents=True)
        self.dir.chmod(0o755)
        self.state = {"procs": {}, "secrets": {}}
        started = time.monotonic()
        self.start_etcd()
        etcd = f"http://{self.h['ETCD_ADDR']}:{self.h['ETCD_CLIENT_PORT']}/health"
        wait_for("etcd", lambda: httpx.get(etcd, timeout=2).json().get("health") == "true", 30)
        self.start_member("pg1")
        wait_for("pg1 the leader", lambda: self.leader() == "pg1", 120)
        self.start_member("pg2")
        self.start_haproxy(haproxy_config)
        leader, standby = self.wait_healthy(180)
        say(f"PostgreSQL: {leader} leads, {standby} streams synchronously")
        self.create_app_database()
        self.start_pgbouncer()
        self.start_redis()
        env = self.app_env()
        # Migrations are an operator's job: straight to the primary through HAProxy, not the
        # transaction pool (a session of its own, as any admin connection).
        self.manage(
            {**env, "DATABASE_URL": self.dsn(user=self.h["SPIDER_DB_USER"])}, "migrate", "-v0"
        )
        for web in WEB_HOSTS:
            self.start_web(web)
            self.start_stream(web)
        self.start_worker()
        if direct:
            self.start_web("direct", direct=True)
        for web in (*WEB_HOSTS, *(["direct"] if direct else [])):
            self.wait_web(self.web_url(web))
        self.wait_web(self.balancer, 30)
        say(f"up in {time.monotonic() - started:.1f} s")
        return self.summary()

    def summary(self) -> dict[str, Any]:
        roles = {
            m["name"]: m["role"] for m in self.cluster().get("members", [])
        }  # leader, sync_standby, replica
        out = []
        for name, entry in self.state["procs"].items():
            row = {
                "name": name,
                "role": roles.get(name, "down") if name in MEMBERS else entry["role"],
                "address": entry["address"],
                "pid": entry["pid"] if self.alive(name) else None,
            }
            if name in MEMBERS:
                row["postgres_pid"] = self.postmaster_pid(name)
            out.append(row)
        return {"balancer": self.balancer, "hosts": out, "dir": str(self.dir)}

    def down(self, *, remove: bool = True) -> None:
        """Everything stopped, last started first; the members' PostgreSQL with them (and any
        postmaster left by a Patroni killed outright); the directory removed (``remove``)."""
        for name in reversed(list(self.state["procs"])):
            self.stop(name)
        for member in MEMBERS:
            for pid in self.postgres_pids(member):
                with contextlib.suppress(ProcessLookupError):
                    os.kill(pid, signal.SIGCONT)
                    os.kill(pid, signal.SIGKILL)
        left = [n for n in self.state["procs"] if self.alive(n)]
        if left:
            raise RuntimeError(f"still running: {left}")
        if remove:
            shutil.rmtree(self.dir, ignore_errors=True)
        say(f"down; {self.dir} {'removed' if remove else 'kept (its logs)'}")


def main() -> None:
    command = sys.argv[1] if len(sys.argv) > 1 else "status"
    topology = Topology()
    if command == "up":
        try:
            print(json.dumps(topology.up()))
        except BaseException:
            say(f"start failed: stopping what started (logs kept in {topology.dir}/logs)")
            topology.down(remove=False)
            raise
    elif command == "down":
        topology.down()
    elif command == "status":
        print(json.dumps(topology.summary()))
    else:
        raise SystemExit(f"usage: python -m deploy.topology up|down|status (not {command!r})")


if __name__ == "__main__":
    main()
