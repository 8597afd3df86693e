"""Card faces in a real browser: pips laid out as on real cards (as many as the rank says,
those below the middle upside down), court cards drawn as SVG made for the project (nothing
fetched from anywhere else), only on cards not covered; a phone's narrow cards keep one big
pip and a readable corner."""

from __future__ import annotations

from urllib.parse import urlsplit

import pytest

from tests.browser.web import DEVICES, layout_deal, open_page, screenshot
from tests.browser_plugin import assert_no_console_errors

pytestmark = pytest.mark.django_db(transaction=True)

COLUMNS = ["|Ks", "|Qs", "|Js", "|Ts", "|9s", "|8s", "|7s", "|6s", "|3s", "Ks|2sAs"]
PIPS = {"T": 10, "9": 9, "8": 8, "7": 7, "6": 6, "3": 3, "A": 1}


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    settings.POOL_AUTOFILL = False
    settings.POOL_SYNC_VET_SECONDS = 0


FACES_JS = """() => [...document.querySelectorAll('.column')].map((col) => {
  const cards = [...col.querySelectorAll('.card.up')];
  return cards.map((card) => {
    const face = card.querySelector('svg.face');
    const shown = face && getComputedStyle(face).display !== 'none';
    const pip = getComputedStyle(card.querySelector('.pip')).display !== 'none';
    return {
      card: card.dataset.card, shown, pip,
      paths: face ? face.querySelectorAll(':scope > path').length : 0,
      turned: face ? [...face.querySelectorAll(':scope > path')]
        .filter((p) => (p.getAttribute('transform') || '').includes('rotate')).length : 0,
      court: face ? face.querySelectorAll(':scope > rect').length === 1 : false,
    };
  });
})"""


@pytest.mark.parametrize("device", ["desktop", "phone"])
def test_faces_pips_and_courts(live_server, new_page, device) -> None:
    layout_deal(COLUMNS)
    page = new_page(**DEVICES[device])
    hosts: set[str] = set()
    page.on("request", lambda r: hosts.add(urlsplit(r.url).netloc))
    open_page(page, f"{live_server.url}/")
    page.wait_for_selector(".column .card.up")
    columns = page.evaluate(FACES_JS)

    assert hosts == {urlsplit(live_server.url).netloc}  # no font or image service
    tops = [col[-1] for col in columns]
    covered = [card for col in columns for card in col[:-1]]
    assert covered and not any(c["shown"] for c in covered)  # a covered face is not drawn
    if device == "phone":  # 390 px: one big pip, as the corner, readable
        assert all(c["pip"] and not c["shown"] for c in tops)
        size = page.eval_on_selector(".card.up .corner", "el => getComputedStyle(el).fontSize")
        assert float(size.removesuffix("px")) >= 14
    else:
        assert all(c["shown"] and not c["pip"] for c in tops)
        for top in tops:
            rank = top["card"][0]
            if rank in "JQK":
                assert top["court"], top
            else:
                assert top["paths"] == PIPS[rank], top
                # Below the middle a pip stands on its head, as on real cards.
                assert top["turned"] == {10: 5, 9: 4, 8: 3, 7: 2, 6: 2, 3: 1, 1: 0}[PIPS[rank]]
    screenshot(page, f"cards-{device}")
    assert_no_console_errors(page)
