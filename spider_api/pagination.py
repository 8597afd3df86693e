"""The API's pagination: `?page=N`, 20 items a page, `?page_size=` up to 100."""

from rest_framework import pagination


class PageNumberPagination(pagination.PageNumberPagination):
    page_size = 20
    page_size_query_param = "page_size"
    max_page_size = 100
