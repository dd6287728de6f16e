"""What plays games, with no Django: the house opponents and a game's seats (house), one game
run by the match runner (runner), a game followed as it is played (live), what a record must
be (record_checks), the next pair (matchmaking), and the worker on another machine that
plays an arena's games over HTTP (remote_worker). serve's own workers (core.serve_workers)
use them over the database; a remote worker uses them over the workers' API."""
