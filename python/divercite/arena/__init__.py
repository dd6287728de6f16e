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

A Django application (Debian's python3-django): the database (SQLite in DIR, or PostgreSQL)
is also the game queue. The modules:
    config         the arena folder and its settings file
    settings       Django's settings, read from the arena folder
    models         entries (teams and house opponents), versions, games, challenges,
                   tournaments, worker tokens, the audit log
    uploads        an uploaded agent checked and unpacked
    house          the house opponents, and a game's seats as the runner's players
    queue          games queued, claimed, leased, finished, played again after a stop
    matchmaking    which pair plays next
    standings      ratings and the seeds' statistics
    tournament     a final tournament: versions frozen, its round robin, its standings
    playing        one game played by the runner (no Django: workers elsewhere use it)
    live           a game followed as it is played (the runner's -live lines)
    worker         serve's threads that play the queued games and analyse lost ones
    worker_tokens  the tokens of workers on other machines
    worker_api     the API those workers use: claims, leases, results
    remote         `worker URL`: a worker on another machine (no Django)
    audit          the administrator's actions, logged
    api, pages     the HTTP API and the pages
    server         `serve`: the pages, the API and the workers until Ctrl-C
    production     `serve --production`: the pages behind gunicorn
    backup         a running arena copied into one file, and restored
    cli, cli_*     the command line
"""
