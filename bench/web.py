"""Web client benchmark: what a person waits for, in headless Chromium against gunicorn.

Starts gunicorn (DEBUG off, static files collected and compressed, served by WhiteNoise) on a
scratch PostgreSQL database and a free port, signs a player in with a game in progress, then:

- first_visit_kb: bytes transferred (compressed bodies + headers) for a first visit of `/`
  with an empty cache: the page, its modules and stylesheet, and the API calls it makes;
- playable_ms: from navigation start to the table drawn and taking input (the client's
  `spider:ready` performance mark), median of cold visits (a fresh browser context each);
- guest_playable_ms: the same for a first visit with nothing stored (no token): the client
  makes a guest account and deals a 1-suit game from the pool (docs/rules.md#guests), median;
- tap_to_board_p50/p99_ms: from the pointer-down of an action's last tap (a move's, Undo's,
  the stock's) to the table first drawn after it, then the next animation frame: ahead of the
  server's answer when the client can tell what the action does (a move, a deal as face-down
  cards, an undo of an action it saw), else with the answer;
- slow_tap_to_board_p99_ms: the same over --slow-moves actions with Chromium's network
  emulation adding 300 ms to every request and its CPU throttled 4x (a phone on a slow
  network): the table must not wait for the network;
- slow_guest_playable_ms: guest_playable_ms with 150 ms added to every request, median;
- layout_shift: the layout shifts Chromium reports (PerformanceObserver, `layout-shift`, all
  of them, after input or not) while playing --hint-rounds hints through the page (ask, then
  tap what it says), summed: a hint coming or going must move nothing;
- axe_serious: the serious and critical violations axe-core (node_modules, `npm ci`) finds on
  the game, daily, leaderboard, rules, race, log-in, sign-up and account pages; null without
  axe-core;
- move_p99_ms (and p50): from the pointer-down of a move's last tap (or of Undo, or of the
  stock) to the server's answer drawn (the table's `data-version` changed, then the next
  animation frame), measured inside the page over --moves actions a casual player might make;
  move_request_p50/p99_ms: the share of that spent in the request (network + server), from
  the browser's Resource Timing, so the client's own part is the difference;
- at 390x844 with touch (a phone), over --phone-moves actions through the page, a refused
  move tried after every third: phone_header_px, the header's height (one row: at most 56);
  phone_faceup_step_px, the median over the positions whose longest column fits the screen
  of the smallest vertical step between two face-up cards (at least 18); toast_overlaps, the
  controls (links, buttons, summaries, counters, the stock) any message on screen (a toast,
  a refusal, a hint, a notice) covered at any moment sampled, summed (0);
  phone_empty_share, the median share of the table's felt no card covers at the start of a
  game.

    .venv/bin/python bench/web.py --visits 10 --moves 200 --slow-moves 60 --hint-rounds 8 \
        --phone-moves 60

Last line: one JSON object of the figures.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

try:  # imported as bench.<module>
    from bench.client import choose, rank
    from bench.servers import free_port, server_env, wait_live
except ImportError:  # run as a script: bench/ itself is on sys.path
    from client import choose, rank  # type: ignore[import-not-found,no-redef]
    from servers import (  # type: ignore[import-not-found,no-redef]
        free_port,
        server_env,
        wait_live,
    )

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# In the page: the time of the latest pointer-down; when the table is next drawn ahead of
# the answer (a move drawn at once: `data-drawn` changes alone), and when it shows the server's
# answer (`data-version` changes), each one animation frame later (on screen by then).
MEASURE_JS = """() => {
  const bench = { down: 0, shown: [], taps: [], fetch: [], expected: 0 };
  window.__bench = bench;
  const table = document.querySelector('.table');
  let version = table.dataset.version;
  let drawn = table.dataset.drawn;
  let tapOpen = false;
  document.addEventListener('pointerdown', () => {
    bench.down = performance.now();
    tapOpen = true;
  }, true);
  new MutationObserver(() => {
    const start = bench.down;
    const confirmed = table.dataset.version !== version;
    const redrawn = table.dataset.drawn !== drawn;
    version = table.dataset.version;
    drawn = table.dataset.drawn;
    if ((redrawn || confirmed) && tapOpen) {
      tapOpen = false;
      requestAnimationFrame(() => bench.taps.push(performance.now() - start));
    }
    if (!confirmed) return;
    tapOpen = false;
    requestAnimationFrame(() => {
      bench.shown.push(performance.now() - start);
      // The request's own share (network + server), from Resource Timing.
      const posts = performance.getEntriesByType('resource')
        .filter((e) => e.name.endsWith('/actions'));
      if (posts.length) bench.fetch.push(posts[posts.length - 1].duration);
      performance.clearResourceTimings();
    });
  }).observe(table, { attributes: true, attributeFilter: ['data-drawn', 'data-version'] });
}"""


def prepare(db: str, env: dict[str, str], guests: int) -> str:
    """A scratch database, migrated, with one staff player and ``guests`` vetted 1-suit deals
    in the pool (one per guest visit); returns the player's token."""
    subprocess.run(["dropdb", "-h", "127.0.0.1", "-U", "postgres", "--if-exists", db], check=True)
    subprocess.run(["createdb", "-h", "127.0.0.1", "-U", "postgres", db], check=True)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=ROOT)
    subprocess.run([*manage, "collectstatic", "--noinput", "-v0"], env=env, check=True, cwd=ROOT)
    fill = [*manage, "fill_pool", "--suits", "1", "--count", str(guests)]
    subprocess.run(fill, env=env, check=True, cwd=ROOT, capture_output=True)
    made = subprocess.run(
        [
            *manage,
            "shell",
            "-c",
            "from accounts.models import User; from accounts.services import device_token_issue;"
            "u = User.objects.create_user('bench', password='bench horse battery', is_staff=True);"
            "print(device_token_issue(user=u).secret)",
        ],
        env=env,
        check=True,
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    return made.stdout.strip().splitlines()[-1]


def start_server(env: dict[str, str], port: int, workers: int) -> subprocess.Popen:
    cmd = [str(BIN / "gunicorn"), "spider_api.wsgi", "-b", f"127.0.0.1:{port}", "-w", str(workers)]
    return wait_live(subprocess.Popen(cmd, env=env, cwd=ROOT), port, 30)


def signed_in(base: str, token: str) -> dict[str, Any]:
    """A browser context's storage as the client leaves it after logging in."""
    return {
        "cookies": [],
        "origins": [
            {
                "origin": base,
                "localStorage": [
                    {"name": "spider.token", "value": token},
                    {"name": "spider.user", "value": "bench"},
                    {"name": "spider.onetap", "value": "off"},  # tap a card, then a column
                ],
            }
        ],
    }


def first_visit(browser: Any, base: str, token: str) -> tuple[int, float]:
    """(bytes transferred, ms until playable) of one visit of `/` with an empty cache."""
    context = browser.new_context(storage_state=signed_in(base, token))
    page = context.new_page()
    responses: list[Any] = []
    page.on("requestfinished", lambda request: responses.append(request))
    page.goto(f"{base}/")
    page.wait_for_selector(".column .card.up")
    playable = page.evaluate("() => performance.getEntriesByName('spider:ready')[0].startTime")
    page.wait_for_load_state("networkidle")
    total = 0
    for request in responses:
        sizes = request.sizes()
        total += sizes["responseBodySize"] + sizes["responseHeadersSize"]
    context.close()
    return total, playable


def throttle(page: Any, latency_ms: float, cpu_rate: float = 1) -> None:
    """Chromium's own emulation (CDP): ``latency_ms`` added to every request, the CPU
    ``cpu_rate`` times slower."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    conditions = {"offline": False, "latency": latency_ms}
    cdp.send(
        "Network.emulateNetworkConditions",
        {**conditions, "downloadThroughput": -1, "uploadThroughput": -1},
    )
    if cpu_rate > 1:
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": cpu_rate})


def guest_visit(browser: Any, base: str, latency_ms: float = 0) -> float:
    """ms until playable of a first visit of `/` with nothing stored: a guest's dealt board."""
    context = browser.new_context()
    page = context.new_page()
    if latency_ms:
        throttle(page, latency_ms)
    page.goto(f"{base}/")
    page.wait_for_selector(".column .card.up")
    playable = page.evaluate("() => performance.getEntriesByName('spider:ready')[0].startTime")
    context.close()
    return float(playable)


def play(
    browser: Any,
    base: str,
    token: str,
    moves: int,
    rnd: random.Random,
    latency_ms: float = 0,
    cpu_rate: float = 1,
) -> tuple[list[float], list[float], list[float]]:
    """Make ``moves`` actions through the page (taps, Undo, the stock): the in-page times from
    tap to drawn, and of the requests alone (throttled as ``throttle`` says)."""
    api = httpx.Client(base_url=f"{base}/api/v1", headers={"Authorization": f"Bearer {token}"})
    context = browser.new_context(
        storage_state=signed_in(base, token), viewport={"width": 1280, "height": 800}
    )
    page = context.new_page()
    if latency_ms or cpu_rate > 1:
        throttle(page, latency_ms, cpu_rate)
    shown: list[float] = []
    fetched: list[float] = []
    taps: list[float] = []

    def collect() -> None:
        shown.extend(page.evaluate("() => window.__bench.shown"))
        taps.extend(page.evaluate("() => window.__bench.taps"))
        fetched.extend(page.evaluate("() => window.__bench.fetch"))

    def new_game() -> dict[str, Any]:
        if page.url.startswith(base):
            collect()
        body = {"suits": 2, "seed": rnd.randrange(1, 2**63)}
        state = api.post("/games", json=body).raise_for_status().json()
        page.goto(f"{base}/play/{state['id']}")
        page.wait_for_selector(".column .card.up")
        page.evaluate(MEASURE_JS)
        return state

    state = new_game()
    for _ in range(moves):
        action = choose(state, rnd, undo_rate=0.1, undo_when_stuck=True)
        if action is None or state["status"] != "in_progress":
            state = new_game()
            continue
        tap_action(page, action)  # an undo with the bar's Undo (a stuck table's offers one too)
        page.wait_for_function("n => window.__bench.shown.length >= n", arg=done_on_page(page))
        state = api.get(f"/games/{state['id']}").json()
    collect()
    context.close()
    api.close()
    return shown, fetched, taps


# Every layout shift the page reports, summed (whether input came just before or not).
SHIFTS_JS = """
window.__shift = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) window.__shift += e.value;
}).observe({ type: 'layout-shift', buffered: true });
"""


def hint_shifts(browser: Any, base: str, token: str, rounds: int, rnd: random.Random) -> float:
    """The layout shift while playing ``rounds`` hints through the page (ask for one, then
    make its move or deal), from a 1-suit deal."""
    api = httpx.Client(base_url=f"{base}/api/v1", headers={"Authorization": f"Bearer {token}"})
    state = api.post("/games", json={"suits": 1, "seed": rnd.randrange(1, 2**63)}).json()
    api.close()
    context = browser.new_context(
        storage_state=signed_in(base, token), viewport={"width": 1280, "height": 800}
    )
    page = context.new_page()
    page.add_init_script(SHIFTS_JS)
    page.goto(f"{base}/play/{state['id']}")
    page.wait_for_selector(".column .card.up")
    page.wait_for_timeout(300)
    page.evaluate("() => { window.__shift = 0; }")  # the first drawing is not play
    for _ in range(rounds):
        version = int(page.evaluate("document.querySelector('.table').dataset.version"))
        page.get_by_role("button", name="Hint", exact=True).click()
        hint = page.wait_for_selector(".hint-box .hint")
        kind = hint.get_attribute("data-type")
        if kind == "move":
            frm, to = hint.get_attribute("data-from"), hint.get_attribute("data-to")
            count = hint.get_attribute("data-count")
            page.locator(f'.column[data-col="{frm}"] .card.up[data-count="{count}"]').click(
                position={"x": 6, "y": 4}
            )
            page.locator(f'.column[data-col="{to}"]').click(position={"x": 6, "y": 4})
        elif kind == "deal":
            page.locator(".stock").click()
        else:
            break
        page.wait_for_function(
            "v => document.querySelector('.table').dataset.version === v", arg=str(version + 2)
        )
    page.wait_for_timeout(300)
    shift = float(page.evaluate("() => window.__shift"))
    context.close()
    return shift


PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
# The controls no message may cover, and the messages: each control covered counted once per
# sample (a message's own buttons are its own, not covered).
OVERLAPS_JS = """() => {
  const shown = (el) => el.offsetParent !== null && el.getBoundingClientRect().width > 0
    && getComputedStyle(el).visibility !== 'hidden';
  const controls = [...document.querySelectorAll(
    'header a, header button, .game button, .game a, .game summary, .game .stat')]
    .filter(shown);
  const messages = [...document.querySelectorAll(
    '#toast.show, .game .refusal, .game .messages .hint, .game .messages .notice')]
    .filter((el) => getComputedStyle(el).visibility !== 'hidden'
      && el.getBoundingClientRect().width > 0);
  let covered = 0;
  for (const c of controls) {
    const b = c.getBoundingClientRect();
    if (messages.some((m) => !m.contains(c) && (() => {
      const a = m.getBoundingClientRect();
      return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    })())) covered += 1;
  }
  return covered;
}"""
# The smallest step between two face-up cards of a column, while the longest column fits the
# screen (null when it does not, or no column holds two face-up cards).
STEP_JS = """() => {
  // Where layout put each card (offsetTop: a card sliding in is where it lands, not where its
  // transition has it now).
  const cols = [...document.querySelectorAll('.column')];
  const bottoms = cols.map((c) => {
    const last = c.lastElementChild;
    return last ? c.getBoundingClientRect().top + last.offsetTop + last.offsetHeight : 0;
  });
  if (Math.max(...bottoms) > innerHeight) return null;
  const steps = [];
  for (const c of cols) {
    const tops = [...c.querySelectorAll('.card.up')].map((e) => e.offsetTop);
    for (let i = 1; i < tops.length; i += 1) steps.push(tops[i] - tops[i - 1]);
  }
  return steps.length ? Math.min(...steps) : null;
}"""
# The share of the table's felt (below its stock) that no card covers.
EMPTY_JS = """() => {
  const felt = document.querySelector('.columns').getBoundingClientRect();
  const height = innerHeight - felt.top;
  let covered = 0;
  for (const c of document.querySelectorAll('.column')) {
    const last = c.lastElementChild?.getBoundingClientRect();
    if (last) covered += c.getBoundingClientRect().width * Math.min(last.bottom - felt.top, height);
  }
  return 1 - covered / (felt.width * height);
}"""


def refused_move(state: dict[str, Any]) -> dict[str, Any] | None:
    """A move of one face-up card onto a column whose top card does not take it (the server
    refuses it: the page shows why)."""
    cols = [c["cards"] for c in state["columns"]]
    for src, cards in enumerate(cols):
        for dst, target in enumerate(cols):
            if cards and target and src != dst and rank(target[-1]) != rank(cards[-1]) + 1:
                return {"type": "move", "from": src, "to": dst, "count": 1}
    return None


def tap_action(page: Any, action: dict[str, Any]) -> None:
    """An action made through the page as a player does: Undo, the stock, or tap a card and
    then the column to move it to."""
    if action["type"] == "undo":
        page.locator(".controls").get_by_role("button", name="Undo", exact=True).click()
    elif action["type"] == "deal":
        page.locator(".stock").click()
    else:
        src = f'.column[data-col="{action["from"]}"] .card.up[data-count="{action["count"]}"]'
        page.locator(src).click(position={"x": 6, "y": 4})
        page.locator(f'.column[data-col="{action["to"]}"]').click(position={"x": 6, "y": 4})


def phone_play(
    browser: Any, base: str, token: str, moves: int, rnd: random.Random
) -> dict[str, Any]:
    """At a phone's size: the header's height, the face-up step and the empty felt, and what
    messages cover while ``moves`` actions are played through the page (a refused move after
    every third, sampled as its message shows and a moment later)."""
    api = httpx.Client(base_url=f"{base}/api/v1", headers={"Authorization": f"Bearer {token}"})
    context = browser.new_context(storage_state=signed_in(base, token), **PHONE)
    page = context.new_page()
    header = 0.0
    steps: list[float] = []
    empty: list[float] = []
    overlaps = 0
    samples = 0

    def new_game() -> dict[str, Any]:
        body = {"suits": 1, "seed": rnd.randrange(1, 2**63)}
        state = api.post("/games", json=body).raise_for_status().json()
        page.goto(f"{base}/play/{state['id']}")
        page.wait_for_selector(".column .card.up")
        page.wait_for_timeout(100)  # laid out again once measured
        empty.append(float(page.evaluate(EMPTY_JS)))
        return state

    state = new_game()
    header = float(page.evaluate("document.querySelector('header.top').offsetHeight"))
    for n in range(moves):
        if n % 3 == 2 and (refused := refused_move(state)):
            tap_action(page, refused)
            for wait in (150, 600):
                page.wait_for_timeout(wait)
                overlaps += int(page.evaluate(OVERLAPS_JS))
                samples += 1
        action = choose(state, rnd, undo_rate=0.05, undo_when_stuck=True)
        if action is None or state["status"] != "in_progress":
            state = new_game()
            continue
        version = state["version"]
        tap_action(page, action)
        page.wait_for_function(
            "v => Number(document.querySelector('.table').dataset.version) > v", arg=version
        )
        overlaps += int(page.evaluate(OVERLAPS_JS))
        samples += 1
        step = page.evaluate(STEP_JS)
        if step is not None:
            steps.append(float(step))
        state = api.get(f"/games/{state['id']}").json()
    context.close()
    api.close()
    return {
        "phone_header_px": round(header, 1),
        "phone_faceup_step_px": round(statistics.median(steps), 1) if steps else None,
        "phone_step_samples": len(steps),
        "phone_empty_share": round(statistics.median(empty), 3),
        "toast_overlaps": overlaps,
        "overlap_samples": samples,
    }


AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_PAGES = ["/", "/daily", "/leaderboard", "/rules", "/race", "/account"]
AXE_SIGNED_OUT = ["/login", "/signup"]


def axe_serious(browser: Any, base: str, token: str) -> int | None:
    """Serious and critical violations axe-core finds on the client's pages (each rule broken
    counts once per page); None without axe-core."""
    if not AXE.exists():
        return None
    found = 0
    for storage, paths in ((signed_in(base, token), AXE_PAGES), (None, AXE_SIGNED_OUT)):
        context = browser.new_context(storage_state=storage, bypass_csp=True)
        page = context.new_page()
        for path in paths:
            page.goto(f"{base}{path}")
            page.wait_for_selector("body[data-ready]")
            page.add_script_tag(path=str(AXE))
            found += page.evaluate(
                "async () => (await axe.run(document, {resultTypes: ['violations']}))"
                ".violations.filter((v) => ['serious', 'critical'].includes(v.impact)).length"
            )
        context.close()
    return found


def measure(
    browser: Any,
    base: str,
    token: str,
    *,
    visits: int,
    moves: int,
    slow_moves: int,
    hint_rounds: int,
    rnd: random.Random,
    phone_moves: int = 30,
) -> dict[str, Any]:
    """Every figure, against the service at ``base`` (``token``: a staff player's, with a
    game in progress to resume; the pool holds a 1-suit deal for each guest visit)."""
    visited = [first_visit(browser, base, token) for _ in range(visits + 1)][1:]
    guests = [guest_visit(browser, base) for _ in range(visits + 1)][1:]
    slow_guests = [guest_visit(browser, base, latency_ms=150) for _ in range(visits)]
    shown, fetched, taps = play(browser, base, token, moves, rnd)
    _, _, slow_taps = play(browser, base, token, slow_moves, rnd, latency_ms=300, cpu_rate=4)
    shift = hint_shifts(browser, base, token, hint_rounds, rnd)
    axe = axe_serious(browser, base, token)
    phone = phone_play(browser, base, token, phone_moves, rnd)
    sizes = [size for size, _ in visited]
    playable = [ms for _, ms in visited]
    return {
        "first_visit_kb": round(statistics.median(sizes) / 1024, 1),
        "playable_ms": round(statistics.median(playable), 1),
        "playable_p90_ms": round(percentile(playable, 0.9), 1),
        "guest_playable_ms": round(statistics.median(guests), 1),
        "tap_to_board_p50_ms": round(statistics.median(taps), 1),
        "tap_to_board_p99_ms": round(percentile(taps, 0.99), 1),
        "move_p50_ms": round(statistics.median(shown), 1),
        "move_p99_ms": round(percentile(shown, 0.99), 1),
        "move_request_p50_ms": round(statistics.median(fetched), 1),
        "move_request_p99_ms": round(percentile(fetched, 0.99), 1),
        "moves_measured": len(shown),
        "taps_measured": len(taps),
        "visits": len(visited),
        "slow_tap_to_board_p99_ms": round(percentile(slow_taps, 0.99), 1),
        "slow_tap_to_board_p50_ms": round(statistics.median(slow_taps), 1),
        "slow_taps_measured": len(slow_taps),
        "slow_guest_playable_ms": round(statistics.median(slow_guests), 1),
        "layout_shift": round(shift, 4),
        "axe_serious": axe,
        **phone,
    }


def done_on_page(page: Any) -> int:
    """The count of moves shown the page must reach: one more than it had before the action
    (read after the clicks: the answer may already be on screen)."""
    return page.evaluate("() => ++window.__bench.expected")


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--visits", type=int, default=10)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--slow-moves", type=int, default=60)
    parser.add_argument("--hint-rounds", type=int, default=8)
    parser.add_argument("--phone-moves", type=int, default=60)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--db", default="spider_bench_web")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    env = server_env(f"postgres://postgres@127.0.0.1:5432/{args.db}")
    token = prepare(args.db, env, 2 * args.visits + 2)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    server = start_server(env, port, args.workers)
    rnd = random.Random(7)
    try:
        api = httpx.Client(base_url=f"{base}/api/v1", headers={"Authorization": f"Bearer {token}"})
        api.post("/games", json={"suits": 2, "seed": 1234}).raise_for_status()  # to resume
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            figures = measure(
                browser,
                base,
                token,
                visits=args.visits,
                moves=args.moves,
                slow_moves=args.slow_moves,
                hint_rounds=args.hint_rounds,
                rnd=rnd,
                phone_moves=args.phone_moves,
            )
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)

    print(json.dumps(figures))


if __name__ == "__main__":
    main()
