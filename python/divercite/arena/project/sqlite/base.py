"""Django's SQLite backend, each transaction begun with BEGIN IMMEDIATE.

In write-ahead mode, a transaction begun with a plain BEGIN that reads, then writes after
another connection has written, fails at once with "database is locked": the busy timeout
does not apply to it (SQLite cannot let it write on an outdated snapshot). The arena's page
threads and game workers write at once all the time; BEGIN IMMEDIATE takes the write lock at
the start, waiting its turn under the busy timeout. (Django 5.1 has this as the option
"transaction_mode"; Debian's Django, 3.2, has not.) Writes outside a transaction (autocommit)
take the lock statement by statement and need nothing."""

from django.db.backends.sqlite3 import base


class DatabaseWrapper(base.DatabaseWrapper):
    def _start_transaction_under_autocommit(self):
        self.cursor().execute("BEGIN IMMEDIATE")
