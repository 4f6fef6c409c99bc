-- Data annotations: notes on a time (optionally on one entity) that charts show. An entity's
-- annotations go with it, in the same transaction as the entity (the foreign key's cascade).
CREATE TABLE history_annotations (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  timestamp INTEGER NOT NULL,
  content TEXT NOT NULL,
  user_id INTEGER NOT NULL,
  entity_id INTEGER REFERENCES entities(id) ON DELETE CASCADE,
  -- JSON array of strings; NULL when the annotation has no tags.
  tags TEXT,
  changed INTEGER NOT NULL
);
-- The range listing (keyset by timestamp, id) and the per-entity listing and deletion.
CREATE INDEX history_annotations_ts ON history_annotations(timestamp, id);
CREATE INDEX history_annotations_entity_ts ON history_annotations(entity_id, timestamp, id);

-- View presets: a user's saved table layouts and the like, keyed by the page that uses them.
CREATE TABLE presets (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  owner INTEGER NOT NULL,
  name TEXT NOT NULL,
  key TEXT NOT NULL,
  -- JSON text of the preset's object.
  data TEXT NOT NULL,
  shared INTEGER NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
-- A user's own presets (by key, and counting them for the per-user limit) and the shared ones.
CREATE INDEX presets_owner_key ON presets(owner, key, id);
CREATE INDEX presets_shared_key ON presets(shared, key, id);
