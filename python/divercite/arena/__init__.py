"""The arena: a class's Divercité competition as a web service (`divercite-arena`).

    divercite-arena init DIR [--tc SECONDS]        an arena in DIR; the administrator's login
    divercite-arena team add DIR NAME [NAME...]    teams, a line `NAME TOKEN` each
    divercite-arena team list DIR
    divercite-arena serve DIR [--host H] [--port P] [--workers N]

Teams upload agents (a `my_player.py` or a zip of the agent's folder) through the pages or the
HTTP API; each version is checked in the sandbox by a game against the course's random player,
then plays all the time against opponents near its rating and those it met least, the house
opponents (replicas of the course's agents and our engine at three clocks) among them. Ratings
are the Bradley-Terry fit of `divercite-match -ratings` over the games of the current
versions; every game's record is kept whole, and a team's lost game is analysed by
`divercite-analyze`.

A Django application (Debian's python3-django): the database (SQLite in DIR) is also the
game queue. The modules:
    config       the arena folder and its settings file
    settings     Django's settings, read from the arena folder
    models       entries (teams and house opponents), versions, games, challenges
    uploads      an uploaded agent checked and unpacked
    house        the house opponents and the runner's players for versions
    queue        games queued, claimed, finished, played again after a stop
    matchmaking  which pair plays next
    standings    ratings and the seeds' statistics
    worker       threads that play the queued games
    api, pages   the HTTP API and the pages
    server       `serve`: the pages, the API and the workers until Ctrl-C
    cli          the command line
"""
