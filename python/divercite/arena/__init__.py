"""The arena: a class's Divercité competition as a web service (`divercite-arena`).

    divercite-arena init DIR [--tc SECONDS]        an arena in DIR; the administrator's login
    divercite-arena team add DIR NAME [NAME...]    teams, a line `NAME TOKEN` each
    divercite-arena team list DIR
    divercite-arena serve DIR [--host H] [--port P] [--workers N] [--production ...]
    divercite-arena worker-token add|revoke|list DIR [NAME]   machines that play games
    divercite-arena worker URL [--workers N]       play an arena's games on this machine
    divercite-arena slurm URL --tasks N            workers as a Slurm job array
    divercite-arena tournament create|list|show|csv|retry DIR ...   a final tournament
    divercite-arena backup DIR OUT / restore OUT DIR, audit DIR, upload DIR TEAM FILE

Teams upload agents (a `my_player.py` or a zip of the agent's folder) through the pages or the
HTTP API; each version is checked in the sandbox by a game against the course's random player,
then plays all the time against opponents near its rating and those it met least, the house
opponents (replicas of the course's agents and our engine at three clocks) among them. Ratings
are the Bradley-Terry fit of `divercite-match -ratings` over the games of the current
versions; every game's record is kept whole, and a team's lost game is analysed by
`divercite-analyze`.

A Django project of parts (Debian's python3-django); the database (SQLite in DIR, or
PostgreSQL) is also the game queue. Imports run one way, down this list:
    cli/           the command line, a module a group of commands
    project/       Django's settings, addresses and WSGI application; `serve` (the built-in
                   server) and `serve --production` (gunicorn); the requests' limits
    pages/         the pages (an app: views, templates, static files)
    api/           the HTTP API: the teams' and the public's, the workers'
    core/          the core app: models, migrations, admin, and the services (teams, the
                   game queue and serve's workers, standings, tournaments, storage, worker
                   tokens, failed logins, the audit log, backups)
    play/          what plays games, no Django: house opponents, one game run by the
                   runner, live games, record checks, matchmaking, the remote worker
    agent_files/   an upload checked and unpacked, its Python compiled in a capped child
    arena_folder   the arena folder and its settings file, arena.json
    wording        a count and a measure as every page and message writes them (`1 game`)
"""
