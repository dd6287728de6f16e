"""The arena's core, a Django application (label "arena"): the models and their migrations,
the admin, and the services over them: teams and their uploads, the game queue, serve's
workers that consume it, standings, tournaments, storage, worker tokens, failed logins, the
audit log, backups. It imports play/ and agent_files/ (no Django there), never the API, the
pages, the project or the command line."""
