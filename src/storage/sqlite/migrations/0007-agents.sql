-- Remote agents: processes that run checks inside networks the server cannot reach. An agent
-- is known by its name and belongs to the user whose token it signs in with.
CREATE TABLE agents (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  user_id INTEGER NOT NULL,
  version TEXT NOT NULL,
  address TEXT NOT NULL,
  created INTEGER NOT NULL,
  last_seen INTEGER NOT NULL
);
