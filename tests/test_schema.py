"""The OpenAPI schema generates without a single warning, and the docs are served."""

import re

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


def _schema(tmp_path):
    schema_file = tmp_path / "schema.yaml"
    call_command("spectacular", "--file", str(schema_file))
    return yaml.safe_load(schema_file.read_text())


def _operations(schema):
    for route, operations in schema["paths"].items():
        for method, operation in operations.items():
            yield f"{method.upper()} {route}", operation


def test_no_error_example_is_shown_as_a_request_body(tmp_path):
    """An example is a request's only where it is one: an error body never is."""
    schema = _schema(tmp_path)

    shown = 0
    for name, operation in _operations(schema):
        for media in operation.get("requestBody", {}).get("content", {}).values():
            for example_name, example in media.get("examples", {}).items():
                value = example["value"]
                shown += 1
                assert not ({"code", "detail"} <= set(value)), f"{name}: {example_name}"
    assert shown > 10  # the request examples are there, only the errors are not


def test_an_error_shape_several_operations_share_is_named_for_what_it_is(tmp_path):
    """A generated client names a component as the schema does: a shared one must not carry
    the name of the first operation that used it (`AppsCreate400ValidationError`)."""
    schema = _schema(tmp_path)
    users: dict[str, set[str]] = {}
    operation_ids = set()
    for name, operation in _operations(schema):
        operation_ids.add("".join(p.title() for p in operation["operationId"].split("_")))
        for response in operation["responses"].values():
            ref = response.get("content", {}).get("application/json", {}).get("schema", {})
            if "$ref" in ref:
                users.setdefault(ref["$ref"].rsplit("/", 1)[1], set()).add(name)

    shared = {component for component, names in users.items() if len(names) > 1}
    assert "BodyValidationError" in shared  # the 400 of a body, everywhere
    for component in shared:  # not `<OperationId><status>...`
        assert not any(re.match(f"{op}[0-9]{{3}}", component) for op in operation_ids), component
