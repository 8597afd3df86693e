"""Against a real gunicorn on a scratch PostgreSQL database: one action sent by 20 threads
with one Idempotency-Key is applied once; schemathesis, with every check but one
(EXCLUDED_CHECKS says why) and its stateful phase, finds no 5xx, no response that disagrees
with the schema, no request the schema forbids that the server accepts and none it admits
that the server refuses (but for the refusals of state schemathesis.toml names, operation by
operation); and the same of the OAuth2 provider's endpoints against their own description
(tests/ops/oauth_openapi.yaml), with the grants the server does not offer among what it
sends. (`make faults`)"""

from __future__ import annotations

import json
import subprocess
import threading
import uuid
from pathlib import Path

import httpx
import pytest

from tests.ops.procs import (
    BIN,
    app_env,
    manage,
    processes,
    say,
    scratch_database,
    start_web,
    stock_pool,
    verify_games,
)

pytestmark = [pytest.mark.faults, pytest.mark.slow]


def register(base: str, prefix: str = "ops") -> httpx.Client:
    client = httpx.Client(base_url=base, timeout=30)
    username = f"{prefix}_{uuid.uuid4().hex[:10]}"
    r = client.post(
        "/api/v1/auth/register", json={"username": username, "password": "ops test password 1"}
    )
    assert r.status_code == 201, r.text
    client.headers["Authorization"] = f"Bearer {r.json()['token']}"
    return client


def test_one_action_sent_by_20_threads_with_one_key_is_applied_once():
    with scratch_database() as db, processes("idempotency") as procs:
        env = app_env(db, None, POOL_AUTOFILL="0")
        manage(env, "migrate", "--noinput", "-v0")
        stock_pool(env, unvetted={1: 3})
        base = start_web(procs, env, workers=4, threads=4)  # up to 16 requests at once
        client = register(base)
        game = client.post("/api/v1/games", json={"suits": 1}).json()
        say(f"game {game['id']} at version {game['version']}; 20 threads, one key, one deal")

        key = f"deal-{uuid.uuid4()}"
        body = {"type": "deal", "version": game["version"]}
        barrier = threading.Barrier(20)
        answers: list[httpx.Response] = []
        lock = threading.Lock()

        def send() -> None:
            with httpx.Client(base_url=base, timeout=60, headers=client.headers) as mine:
                barrier.wait()
                r = mine.post(
                    f"/api/v1/games/{game['id']}/actions",
                    json=body,
                    headers={"Idempotency-Key": key},
                )
            with lock:
                answers.append(r)

        threads = [threading.Thread(target=send) for _ in range(20)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()

        codes = sorted(r.status_code for r in answers)
        replayed = sum(r.headers.get("Idempotent-Replayed") == "true" for r in answers)
        bodies = {json.dumps(r.json(), sort_keys=True) for r in answers}
        log = client.get(f"/api/v1/games/{game['id']}/actions").json()["actions"]
        say(f"answers: {codes.count(200)} x 200, {replayed} replayed, {len(bodies)} distinct")
        say(f"log: {[entry['type'] for entry in log]}")
        assert codes == [200] * 20
        assert replayed == 19  # one applied it, nineteen were answered from its result
        assert len(bodies) == 1
        assert [entry["type"] for entry in log] == ["deal"]
        state = client.get(f"/api/v1/games/{game['id']}").json()
        assert state["version"] == game["version"] + 1 and state["deals_left"] == 4

        report = verify_games(env)
        assert report["snapshot_mismatches"] == []
        say("checked: applied once, every answer identical, the snapshot replays from the log")


def test_schemathesis_finds_nothing_with_every_check(tmp_path):
    with scratch_database() as db, processes("schemathesis") as procs:
        env = app_env(
            db,
            None,
            POOL_AUTOFILL="0",
            POOL_SYNC_VET_SECONDS="0",
            LOG_LEVEL="WARNING",
            EMAIL_URL=f"file://{tmp_path / 'mail'}",  # the password-reset mails it asks for
            # The OAuth run below fuzzes the token endpoint; its throttle is tested elsewhere.
            THROTTLE_RATE_OAUTH_TOKEN="100000/min",
            THROTTLE_RATE_OAUTH_CLIENT="100000/min",
        )
        manage(env, "migrate", "--noinput", "-v0")
        # Deals for every game schemathesis starts (unvetted: the API only needs their seeds).
        stock_pool(env, unvetted={1: 300, 2: 300, 4: 300})
        base = start_web(procs, env, workers=2, threads=2)
        client = register(base, "st")
        game = client.post("/api/v1/games", json={"suits": 2}).json()
        say(f"schemathesis against {base}/api/schema/ as a player with game {game['id']}")

        ending = [f"--exclude-operation-id={op}" for op in SESSION_ENDING]
        output, code = _schemathesis(base, client.headers["Authorization"], tmp_path, ending)
        failed = [code] if code else []
        # Each operation that ends the token it is called with runs on its own, with a
        # player of its own: in the main run it signed the fuzzer out half-way (every later
        # request 401). Once it has, undeclared methods answer 401 before 405 (DRF
        # authenticates first), so that one check is left to the main run.
        for i, op in enumerate(SESSION_ENDING):
            own = register(base, f"st{i}")
            out, code = _schemathesis(
                base,
                own.headers["Authorization"],
                tmp_path,
                [f"--include-operation-id={op}"],
                exclude_checks=f"{EXCLUDED_CHECKS},unsupported_method",
            )
            output += out
            failed += [code] if code else []
        # The OAuth2 provider's own endpoints (not in /api/schema/: OAuth2's shapes, described
        # in oauth_openapi.yaml), grants the server does not offer among what is sent.
        out, code = _schemathesis(
            base,
            register(base, "st-oauth").headers["Authorization"],
            tmp_path,
            [],
            schema=str(OAUTH_SCHEMA),
            phases="examples,coverage,fuzzing",
        )
        output += out
        failed += [code] if code else []
        web_log = procs.started[0].output()
        assert "Traceback" not in web_log, web_log[-4000:]
        assert not failed, "schemathesis found problems (see above)"
        say(
            "checked: no 5xx, every status, content type, header and body as documented, "
            "every request the schema forbids refused and every one it admits taken (but "
            "for the refusals of state schemathesis.toml names), the stateful links followed"
        )


# What a check cannot know of this API, operation by operation (read by every run below).
CONFIG = Path(__file__).with_name("schemathesis.toml")
OAUTH_SCHEMA = Path(__file__).with_name("oauth_openapi.yaml")
# ensure_resource_availability: a game's analysis is 404 `no_analysis` until someone asks
# for it, as documented; the per-operation override in schemathesis.toml turns the check off
# for that read in the phases that honour it, but the stateful phase runs the run's global
# list of checks (schemathesis 4.32), so one run in a few followed POST /games to the analysis
# and failed on a documented answer.
EXCLUDED_CHECKS = "ensure_resource_availability"

# Operations that revoke the token they are called with (or the account behind it).
SESSION_ENDING = (
    "auth_logout",
    "auth_logout_everywhere",
    "me_password",
    "me_delete",
    "me_tokens_delete",
)


def _schemathesis(
    base: str,
    authorization: str,
    cwd: Path,
    extra: list[str],
    exclude_checks: str = EXCLUDED_CHECKS,
    schema: str | None = None,
    phases: str = "examples,coverage,fuzzing,stateful",
) -> tuple[str, int]:
    """One schemathesis run as the player holding ``authorization``, of the API's schema or
    of ``schema`` (a file, against ``base``); (its output, its code)."""
    result = subprocess.run(
        [
            str(BIN / "schemathesis"),
            "--config-file",
            str(CONFIG),
            "run",
            *([f"{base}/api/schema/?format=json"] if schema is None else [schema, "--url", base]),
            # Every check, the negative ones included (a request the schema forbids must be
            # refused) and positive_data_acceptance (one it admits must be taken, but where
            # schemathesis.toml says otherwise), but EXCLUDED_CHECKS.
            "--checks",
            "all",
            "--exclude-checks",
            exclude_checks,
            "--header",
            f"Authorization: {authorization}",
            "--max-examples",
            "25",
            "--phases",
            phases,
            "--workers",
            "2",
            "--seed",
            "20261130",
            "--request-timeout",
            "30",
            "--no-color",
            # The race event stream is served by the ASGI stream process, not by this WSGI
            # server, and never ends by design: the race tests read it for real.
            "--exclude-path-regex",
            "/events$",
            *extra,
        ],
        capture_output=True,
        text=True,
        timeout=900,
        cwd=cwd,
    )
    output = result.stdout + result.stderr
    print(output[-12000:], flush=True)
    return output, result.returncode
