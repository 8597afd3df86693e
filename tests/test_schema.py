"""The OpenAPI schema generates without a single warning, and the docs are served."""

import pytest
import yaml
from django.core.management import call_command


def test_the_schema_validates_with_no_warnings(tmp_path):
    schema_file = tmp_path / "schema.yaml"

    # --fail-on-warn makes any warning or error of drf-spectacular fail the command.
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema_file))

    schema = yaml.safe_load(schema_file.read_text())
    assert schema["info"]["version"] == "1.0.0"
    assert schema["components"]["securitySchemes"]["bearerAuth"]["scheme"] == "bearer"
    errors = {"Error", "ValidationError", "RetryError", "VersionConflictError"}
    assert errors <= set(schema["components"]["schemas"])


def test_every_operation_documents_its_errors(tmp_path):
    schema_file = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(schema_file))
    schema = yaml.safe_load(schema_file.read_text())

    for route, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = {int(status) for status in operation["responses"]}
            assert any(code >= 400 for code in codes), f"{method.upper()} {route}: no error"


@pytest.mark.parametrize(
    ("url", "content_type"),
    [
        ("/api/schema/", "application/vnd.oai.openapi"),
        ("/api/schema/?format=json", "application/vnd.oai.openapi+json"),
        ("/api/docs/", "text/html"),
    ],
)
def test_schema_and_docs_are_served_without_a_token(client, url, content_type):
    response = client.get(url)

    assert response.status_code == 200
    assert response["Content-Type"].startswith(content_type)
