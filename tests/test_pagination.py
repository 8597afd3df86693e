"""One pagination shape for every list: `?page=`/`?page_size=` in, `{page, page_size,
has_next, results}` out."""

import pytest
from rest_framework.exceptions import ValidationError

from base.pagination import page_json, page_request

ROWS = list(range(250))


def _page(query: dict[str, str]) -> dict:
    asked = page_request(query)
    return page_json(asked, ROWS[asked.offset : asked.offset + asked.limit])


@pytest.mark.parametrize(("query", "size"), [({}, 20), ({"page_size": "5"}, 5)])
def test_pages_hold_20_items_or_the_page_size_asked(query, size):
    page = _page(query)

    assert len(page["results"]) == size
    assert (page["page"], page["page_size"], page["has_next"]) == (1, size, True)


def test_pages_are_numbered_from_1_and_the_last_says_so():
    assert _page({"page": "2"})["results"][0] == 20
    last = _page({"page": "13"})
    assert last["results"] == list(range(240, 250)) and last["has_next"] is False
    assert _page({"page": "14"}) == {"page": 14, "page_size": 20, "has_next": False, "results": []}


@pytest.mark.parametrize(
    "query",
    [{"page": "0"}, {"page": "-1"}, {"page": "x"}, {"page_size": "0"}, {"page_size": "101"}],
)
def test_a_page_out_of_range_is_refused(query):
    with pytest.raises(ValidationError) as refused:
        page_request(query)

    assert set(refused.value.detail) == set(query)
