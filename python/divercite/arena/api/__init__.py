"""The HTTP API under /api/: the teams' and the public's (team_views), the workers'
(worker_views: claims, leases, results). Views over core/."""
