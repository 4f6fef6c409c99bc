-- Failed sign-ins and lock-outs shared by the nodes (issue 19; SQLite's 0017). Few rows: a
-- key's failures are forgotten when it locks, signs in, or falls out of the window.
CREATE TABLE auth_failures (
  scope text NOT NULL,
  key text NOT NULL,
  at bigint NOT NULL
);
CREATE INDEX auth_failures_key ON auth_failures (scope, key, at);

CREATE TABLE auth_locks (
  scope text NOT NULL,
  key text NOT NULL,
  until bigint NOT NULL,
  PRIMARY KEY (scope, key)
);
CREATE INDEX auth_locks_until ON auth_locks (until);
