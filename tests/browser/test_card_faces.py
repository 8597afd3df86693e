"""Card faces in a real browser: pips laid out as on real cards (as many as the rank says,
those below the middle upside down, the field centred on the card), the index again at the
bottom right upside down, court cards drawn as SVG made for the project with a body of their
own for J, Q and K (nothing fetched from anywhere else), only on cards not covered; a phone's
narrow cards show one large suit sign in the middle and a corner clear of the edge."""

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
      court: face ? face.querySelectorAll(':scope > .court > rect').length === 1 : false,
      body: face?.querySelector('.court > g > path')?.getAttribute('d') || null,
    };
  });
})"""


# Each top card's boxes on the page: the card, its corner, its face's pip field (or court
# frame) without the mirrored index, the mirrored index, and the one large pip.
BOXES_JS = """() => [...document.querySelectorAll('.column .card.up:last-child')].map((card) => {
  const box = (el) => (el ? el.getBoundingClientRect().toJSON() : null);
  const face = card.querySelector('svg.face');
  const parts = face ? [...face.querySelectorAll(':scope > path, :scope > .court')] : [];
  const rects = parts.map((p) => p.getBoundingClientRect());
  const field = rects.length ? {
    top: Math.min(...rects.map((r) => r.top)), bottom: Math.max(...rects.map((r) => r.bottom)),
  } : null;
  return { code: card.dataset.card, card: box(card), corner: box(card.querySelector('.corner')),
    field, index: box(face?.querySelector('.index')), pip: box(card.querySelector('.pip')) };
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
    boxes = page.evaluate(BOXES_JS)
    if device == "phone":  # 390 px: one large sign in the middle, a readable corner
        assert all(c["pip"] and not c["shown"] for c in tops)
        size = page.eval_on_selector(".card.up .corner", "el => getComputedStyle(el).fontSize")
        assert float(size.removesuffix("px")) >= 14
        for box in boxes:
            assert box["corner"]["left"] - box["card"]["left"] >= 2.5, box  # clear of the edge
            assert box["corner"]["top"] - box["card"]["top"] >= 1.5, box
            pip, card = box["pip"], box["card"]
            assert abs((pip["left"] + pip["right"]) / 2 - (card["left"] + card["right"]) / 2) < 2
            assert pip["height"] >= card["width"] * 0.5, box  # ♥ and ♦ told by their shape
            assert pip["top"] >= box["corner"]["bottom"] - 2, box  # under the corner
            assert pip["bottom"] <= card["bottom"], box
    else:
        for box in boxes:
            card, field, index = box["card"], box["field"], box["index"]
            # The pip field (or the court's frame) centred on the card, clear of both indices.
            middle = (field["top"] + field["bottom"]) / 2
            assert abs(middle - (card["top"] + card["bottom"]) / 2) < card["height"] * 0.03, box
            assert field["top"] >= box["corner"]["bottom"] - 1, box
            assert field["bottom"] <= index["top"] + 1, box
            # The index again at the bottom right, as far from the edges as the top-left one.
            inset = box["corner"]["left"] - card["left"]
            assert abs((card["right"] - index["right"]) - inset) < 3, box
            assert card["bottom"] - index["bottom"] >= 0, box  # its em box inside the card
        bodies = {c["card"][0]: c["body"] for c in tops if c["card"][0] in "JQK"}
        assert len(set(bodies.values())) == 3, bodies  # J, Q and K each a body of its own
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
