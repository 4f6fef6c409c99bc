-- Maintenance windows (issue 20): a schedule in a time zone and a scope of objects (with their
-- subtrees) and tags, read whole at start (PostgreSQL's 0012). Schedule and scope are JSON
-- text: no query looks inside them.
CREATE TABLE maintenance_windows (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  description TEXT NOT NULL,
  schedule TEXT NOT NULL,
  time_zone TEXT NOT NULL,
  scope TEXT NOT NULL,
  collect_data INTEGER NOT NULL,
  enabled INTEGER NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  author INTEGER NOT NULL
);
