"""The static files' storage under `serve --production`: WhiteNoise's (hashed names, and their
gzip and Brotli copies, served by its middleware with a year's cache), which compresses only
what changed since the last collect.

Every `serve --production` collects the files again; WhiteNoise would compress all of them
again, 15 s of Brotli on a busy machine for the admin's files. A compressed copy is written
with its source's modification time (as a float: to within a fraction of a microsecond):
where it still has it, it is the source's."""

import os

from whitenoise.storage import CompressedManifestStaticFilesStorage


class ArenaStaticStorage(CompressedManifestStaticFilesStorage):
    def compress_files(self, names):
        return super().compress_files([name for name in names if not self._compressed(name)])

    def _compressed(self, name) -> bool:
        path = self.path(name)
        try:
            source = os.stat(path).st_mtime_ns
        except FileNotFoundError:
            return False
        for suffix in (".br", ".gz"):
            try:
                if abs(os.stat(path + suffix).st_mtime_ns - source) < 10_000:
                    return True
            except FileNotFoundError:
                pass
        return False
