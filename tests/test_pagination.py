import pytest
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from spider_api.pagination import PageNumberPagination


def _page(query: str) -> list[int]:
    request = Request(APIRequestFactory().get(f"/items{query}"))
    return PageNumberPagination().paginate_queryset(list(range(250)), request)


@pytest.mark.parametrize(
    ("query", "size"), [("", 20), ("?page_size=5", 5), ("?page_size=500", 100)]
)
def test_pages_hold_20_items_or_the_page_size_asked_up_to_100(query, size):
    assert len(_page(query)) == size


def test_pages_are_numbered_from_1():
    assert _page("?page=2")[0] == 20
