"""The command line `divercite-arena` (python3 -m divercite.arena): one module a group of
commands (main: the arena, its teams and its server; tournaments; workers), each command's
Django set up by arena_setup.setup."""
