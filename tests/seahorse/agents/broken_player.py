"""Fails to import: the wrapper must say so on stderr and exit with code 2."""
raise ImportError("this agent is broken on purpose")
