-- Cluster membership and leases (issue 19; SQLite's 0016). Times are the database's clock in
-- ms. The engine's lease row exists from the start, so claiming it is one conditional UPDATE
-- (no insert race between nodes starting together).
CREATE TABLE cluster_nodes (
  id text PRIMARY KEY,
  address text NOT NULL,
  version text NOT NULL,
  started_at bigint NOT NULL,
  heartbeat_at bigint NOT NULL,
  load double precision NOT NULL,
  memory bigint NOT NULL
);

CREATE TABLE cluster_leases (
  name text PRIMARY KEY,
  holder text,
  epoch bigint NOT NULL,
  expires_at bigint NOT NULL
);

INSERT INTO cluster_leases (name, holder, epoch, expires_at) VALUES ('engine', NULL, 0, 0);
