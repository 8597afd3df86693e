"""The models and their migrations agree: a model change without its migration fails here."""

from io import StringIO

import pytest
from django.core.management import call_command

from games.models import Deal


@pytest.mark.django_db
def test_every_model_change_has_its_migration():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit:
        pytest.fail("a model change has no migration:\n" + out.getvalue())


def test_deal_sources_are_the_ones_the_code_writes():
    # The pool, a staff seed, a staff layout: "random" (dealing before the vetted pool) is gone.
    assert set(Deal.Source.values) == {"pool", "staff_seed", "staff_layout"}
