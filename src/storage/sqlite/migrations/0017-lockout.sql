-- Failed sign-ins and lock-outs (issue 19; PostgreSQL's 0015). One node uses them alone here,
-- as a node of a PostgreSQL cluster does with the others.
CREATE TABLE auth_failures (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  at INTEGER NOT NULL
);
CREATE INDEX auth_failures_key ON auth_failures (scope, key, at);

CREATE TABLE auth_locks (
  scope TEXT NOT NULL,
  key TEXT NOT NULL,
  until INTEGER NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX auth_locks_until ON auth_locks (until);
