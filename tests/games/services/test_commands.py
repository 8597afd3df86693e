"""The pool's management commands: fill_pool and solve."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.engine import Action, deal_layout, replay
from games.models import Deal


@pytest.mark.django_db
def test_fill_pool_vets_deals_until_the_count(settings):
    out = StringIO()
    call_command("fill_pool", "--suits", "1", "--count", "2", stdout=out)

    pooled = Deal.objects.filter(suits=1, state=Deal.State.POOLED)
    assert pooled.count() == 2
    assert all(d.vetted and d.solver_line and d.par == len(d.solver_line) for d in pooled)
    assert "1 suits: +2, pool now 2" in out.getvalue()


def test_solve_prints_a_line_that_wins():
    out = StringIO()
    call_command("solve", "--suits", "1", "--seed", "11", "--json", stdout=out)

    result = json.loads(out.getvalue())
    assert result["status"] == "won" and result["par"] == len(result["line"])
    board = replay(deal_layout(1, 11), [Action.from_json(a) for a in result["line"]])
    assert board.won


def test_solve_prints_the_line_one_action_a_row():
    out = StringIO()
    call_command("solve", "--suits", "1", "--seed", "12", stdout=out)

    head, *rows = out.getvalue().splitlines()
    assert head.startswith("1-suit seed 12: won (par ")
    assert len(rows) == int(head.split("par ")[1].split(",")[0])
    assert json.loads(rows[0].split(None, 1)[1])["type"] in ("move", "deal")
