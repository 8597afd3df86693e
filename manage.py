#!/usr/bin/env python
"""Django's command-line utility for administrative tasks."""

import os
import sys


def main() -> None:
    # Local development settings by default; production runs spider_api.wsgi (or sets DEBUG=0).
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "spider_api.settings_local")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
