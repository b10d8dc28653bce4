"""The exit statuses of the `ackclock` command."""

RUNS_FAILED = 1  # some runs of a sweep failed
CORE_ERROR = 1  # a failure inside the simulator core
USAGE_ERROR = 2  # a user's mistake: bad option, missing or invalid file
INTERRUPTED = 130  # Ctrl-C (128 + SIGINT, as shells report it)
