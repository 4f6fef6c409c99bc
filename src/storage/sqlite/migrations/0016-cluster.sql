-- Cluster membership and leases (issue 19; PostgreSQL's 0014). A SQLite database has one node,
-- which registers and holds the engine's lease like a node of a PostgreSQL cluster, so both
-- answer GET /cluster alike.
CREATE TABLE cluster_nodes (
  id TEXT PRIMARY KEY,
  address TEXT NOT NULL,
  version TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  heartbeat_at INTEGER NOT NULL,
  load REAL NOT NULL,
  memory INTEGER NOT NULL
);

CREATE TABLE cluster_leases (
  name TEXT PRIMARY KEY,
  holder TEXT,
  epoch INTEGER NOT NULL,
  expires_at INTEGER NOT NULL
);

INSERT INTO cluster_leases (name, holder, epoch, expires_at) VALUES ('engine', NULL, 0, 0);
