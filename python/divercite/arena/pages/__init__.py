"""The pages, a Django application (label "arena_pages"): views over core/ and api/'s JSON,
their templates and static files."""
