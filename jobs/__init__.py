"""Long work on a job queue: rating re-derivations, a season's exports, archives of match files,
emails. A job is a row (what to do, how far it got, how it ended, in codes and parameters) and
a handler another app registers (:mod:`jobs.kinds`); it runs on Celery with Redis on a server,
in a thread of the web process on a laptop, and at once in the tests (:mod:`jobs.runner`)."""
