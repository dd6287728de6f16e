"""Django's SQLite backend, with write transactions that take the lock when they begin."""
