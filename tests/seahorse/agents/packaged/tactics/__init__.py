"""A sub-package of the packaged agent."""
