"""The Django project: its settings (read from the arena folder), its addresses, its WSGI
application and gunicorn's settings, the built-in server of `serve` and `serve --production`,
and what a request may cost before its sender is known (request_limits). It stands above the
apps (core, api, pages) and puts them together; nothing below imports it."""
