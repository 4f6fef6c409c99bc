-- The engine's memory that outlives a restart (storage/engine-memory-types.ts): duration
-- starts, pending re-evaluations and state triggers waiting out a duration. No foreign key to
-- the entity: the engine forgets a deleted entity's memory itself, and rows of an entity gone
-- meanwhile are ignored at load.
CREATE TABLE engine_memory (
  kind TEXT NOT NULL,
  entity_id TEXT NOT NULL,
  key TEXT NOT NULL,
  at INTEGER NOT NULL,
  data TEXT,
  PRIMARY KEY (kind, entity_id, key)
) WITHOUT ROWID;
-- Forgetting a deleted entity's memory of every kind.
CREATE INDEX engine_memory_entity ON engine_memory(entity_id);
