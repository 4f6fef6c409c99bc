-- Measurements and entity states.
--
-- History is stored as a time-series database stores it: points are buffered per series in
-- memory and written as compressed chunks (one row per up to a few hundred points of one
-- series), so a million points are a few thousand rows. What is buffered and not yet in a
-- chunk is safe in two places: the intake journal (every accepted batch, appended before it is
-- acknowledged) and the open chunks (each series' buffer, rewritten at every checkpoint, after
-- which the journal up to that point is dropped). After a crash: open chunks, then the journal.

CREATE TABLE series (
  id INTEGER PRIMARY KEY,
  entity_id INTEGER NOT NULL,
  metric TEXT NOT NULL,
  UNIQUE (entity_id, metric)
);

CREATE TABLE chunks (
  id INTEGER PRIMARY KEY,
  series_id INTEGER NOT NULL,
  start_ts INTEGER NOT NULL,
  end_ts INTEGER NOT NULL,
  n INTEGER NOT NULL,
  data BLOB NOT NULL
);
-- A range query wants the chunks of one series that end at or after `from`.
CREATE INDEX chunks_series_end ON chunks(series_id, end_ts);
CREATE INDEX chunks_end ON chunks(end_ts);

CREATE TABLE open_chunks (
  series_id INTEGER PRIMARY KEY,
  data BLOB NOT NULL
);

-- Hourly aggregates of every sealed chunk, kept longer than raw points.
CREATE TABLE rollups (
  series_id INTEGER NOT NULL,
  hour INTEGER NOT NULL,
  min REAL NOT NULL,
  max REAL NOT NULL,
  sum REAL NOT NULL,
  count INTEGER NOT NULL,
  first REAL NOT NULL,
  first_ts INTEGER NOT NULL,
  last REAL NOT NULL,
  last_ts INTEGER NOT NULL,
  PRIMARY KEY (series_id, hour)
) WITHOUT ROWID;
CREATE INDEX rollups_hour ON rollups(hour);

CREATE TABLE intake_journal (
  id INTEGER PRIMARY KEY,
  body TEXT NOT NULL
);

-- The last payload of each entity and the latest value of every metric it ever sent (what
-- conditions test), as of the last checkpoint; the journal holds what came since.
CREATE TABLE last_stats (
  entity_id INTEGER PRIMARY KEY,
  timestamp INTEGER NOT NULL,
  payload TEXT NOT NULL,
  latest TEXT NOT NULL
);

-- The engine's view of an entity's own state: `auto` from its conditions (or expiry), `manual`
-- set by a user; the entity's shown state (entities.state_id) adds what its children pass up.
CREATE TABLE entity_states (
  entity_id INTEGER PRIMARY KEY REFERENCES entities(id) ON DELETE CASCADE,
  auto_state INTEGER NOT NULL,
  manual_state INTEGER,
  data_at INTEGER
);

CREATE TABLE state_history (
  id INTEGER PRIMARY KEY,
  entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  state_id INTEGER NOT NULL,
  previous_state_id INTEGER NOT NULL,
  timestamp INTEGER NOT NULL,
  reason TEXT NOT NULL
);
CREATE INDEX state_history_entity_time ON state_history(entity_id, timestamp);
