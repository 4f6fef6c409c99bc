-- Documents of objects and links: an uploaded file (kept here, in the database, so every node
-- and every storage backend has it; no file system of one machine holds it) or a URL. A
-- document goes with its entity, in the same transaction (the foreign key's cascade).
CREATE TABLE entity_docs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  -- A file has content, content_type and size; a URL document has url and none of those.
  url TEXT,
  content_type TEXT,
  size INTEGER,
  content BLOB,
  user_id TEXT NOT NULL,
  created INTEGER NOT NULL,
  CHECK ((url IS NULL) <> (content IS NULL))
);
-- An entity's documents in order (the list, the per-entity count) without reading the blobs.
CREATE INDEX entity_docs_entity ON entity_docs(entity_id, id);
