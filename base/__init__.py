"""The library every app imports: the API's one error shape, authentication, permissions and
scopes, throttling, pagination, the body parser and input serializer, the OpenAPI helpers,
the hand-built row reads, the request-id logging, the cache and database backends, and the
signals an account's export and erasure send. It imports no app and not the project
(spider_api, the composition root that names the apps): import-linter holds it."""
