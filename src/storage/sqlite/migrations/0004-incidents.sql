-- Incidents, their comments and the incident levels. An incident stays in one table for its
-- whole life: `history_at` is NULL while it is active and the time it moved to history after,
-- so moving keeps its id and comments. Partial indexes serve the sorts of the active list and
-- the time ranges of the history without either side's rows in the other's index.
CREATE TABLE incident_levels (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  color TEXT NOT NULL,
  built_in INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);

INSERT INTO incident_levels (id, name, color, built_in, created, updated) VALUES
  (1, 'Alarm', '#F44336', 1, 0, 0),
  (2, 'Warning', '#FFC107', 1, 0, 0),
  (3, 'Cleared', '#4CAF50', 1, 0, 0),
  (4, 'Major', '#B71C1C', 1, 0, 0);

CREATE TABLE incidents (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- no foreign key: incidents of a deleted entity stay in history
  entity_id INTEGER NOT NULL,
  entity_type INTEGER NOT NULL,
  -- 1 state change, 2 incident condition, 3 manual
  type INTEGER NOT NULL,
  -- the engine's (entity, key) of the condition ('state', 'condition:<id>'); NULL for manual ones
  key TEXT,
  data TEXT NOT NULL DEFAULT '',
  state INTEGER NOT NULL,
  last_state INTEGER NOT NULL,
  local_timestamp INTEGER,
  -- JSON {code, rootCause: {entityId, entityType, entityName}}
  reason TEXT NOT NULL,
  text TEXT NOT NULL DEFAULT '',
  timestamp INTEGER NOT NULL,
  acknowledged_by TEXT,
  acknowledgement_timestamp INTEGER,
  clear_timestamp INTEGER,
  count INTEGER NOT NULL DEFAULT 1,
  comments_count INTEGER NOT NULL DEFAULT 0,
  updated INTEGER NOT NULL,
  history_at INTEGER
);

-- One active incident per entity and condition key; the service's index is loaded from it.
CREATE UNIQUE INDEX incidents_active_key ON incidents(entity_id, key) WHERE history_at IS NULL AND key IS NOT NULL;
-- The sorts of GET /incidents (each with id as the tie-breaker; nullable columns sort as -1 or '').
CREATE INDEX incidents_active_timestamp ON incidents(timestamp, id) WHERE history_at IS NULL;
CREATE INDEX incidents_active_state ON incidents(state, id) WHERE history_at IS NULL;
CREATE INDEX incidents_active_last_state ON incidents(last_state, id) WHERE history_at IS NULL;
CREATE INDEX incidents_active_type ON incidents(type, id) WHERE history_at IS NULL;
CREATE INDEX incidents_active_entity ON incidents(entity_id, id) WHERE history_at IS NULL;
CREATE INDEX incidents_active_count ON incidents(count, id) WHERE history_at IS NULL;
CREATE INDEX incidents_active_comments ON incidents(comments_count, id) WHERE history_at IS NULL;
CREATE INDEX incidents_active_ack_ts ON incidents(IFNULL(acknowledgement_timestamp, -1), id) WHERE history_at IS NULL;
CREATE INDEX incidents_active_clear_ts ON incidents(IFNULL(clear_timestamp, -1), id) WHERE history_at IS NULL;
CREATE INDEX incidents_active_owner ON incidents(IFNULL(acknowledged_by, ''), id) WHERE history_at IS NULL;
-- The sweep to history: the cleared active incidents, oldest clearing first.
CREATE INDEX incidents_active_cleared ON incidents(clear_timestamp) WHERE history_at IS NULL AND clear_timestamp IS NOT NULL;
-- GET /incident-history?from&to, newest or oldest first.
CREATE INDEX incidents_history_timestamp ON incidents(timestamp, id) WHERE history_at IS NOT NULL;

CREATE TABLE incident_comments (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  text TEXT NOT NULL,
  author TEXT NOT NULL,
  timestamp INTEGER NOT NULL
);
CREATE INDEX incident_comments_incident ON incident_comments(incident_id, timestamp, id);
