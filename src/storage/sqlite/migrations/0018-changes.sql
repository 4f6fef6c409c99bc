-- The change feed (issue 19; PostgreSQL's 0016). One node writes and nobody else reads here; it
-- is kept so that both backends run the same code.
CREATE TABLE changes (
  seq INTEGER PRIMARY KEY AUTOINCREMENT,
  topic TEXT NOT NULL,
  key TEXT NOT NULL,
  origin TEXT NOT NULL,
  payload TEXT,
  at INTEGER NOT NULL
);
CREATE INDEX changes_at ON changes (at);
