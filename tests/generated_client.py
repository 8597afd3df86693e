"""Generate the Python client a client developer would (openapi-python-client, from the
published schema) into a directory, for the tests that type-check and run it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.schema_check import published_schema

BIN = Path(sys.executable).parent
PACKAGE = "spider_generated_client"


def generate_client(directory: Path) -> Path:
    """Write the schema and the generated package ``PACKAGE`` under ``directory``."""
    schema = directory / "schema.json"
    schema.write_text(json.dumps(published_schema()))
    config = directory / "config.yaml"
    config.write_text("post_hooks: []\n")
    generate = subprocess.run(
        [
            str(BIN / "openapi-python-client"),
            "generate",
            "--path",
            str(schema),
            "--config",
            str(config),
            "--meta",
            "none",
            "--output-path",
            str(directory / PACKAGE),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert generate.returncode == 0, generate.stdout + generate.stderr
    return directory / PACKAGE
