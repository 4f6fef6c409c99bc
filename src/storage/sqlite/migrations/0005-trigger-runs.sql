-- Every state-trigger fire (webhook call or e-mail) and how it ended. No foreign key to the
-- entity: runs outlive a deleted entity (the global listing still shows them until they age out).
CREATE TABLE trigger_runs (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_id INTEGER NOT NULL,
  entity_type INTEGER NOT NULL,
  entity_name TEXT NOT NULL,
  trigger_index INTEGER NOT NULL,
  type TEXT NOT NULL,
  target TEXT NOT NULL,
  state_id INTEGER NOT NULL,
  previous_state_id INTEGER NOT NULL,
  state_ts INTEGER NOT NULL,
  started INTEGER NOT NULL,
  finished INTEGER NOT NULL,
  attempts INTEGER NOT NULL,
  ok INTEGER NOT NULL,
  error TEXT,
  http_status INTEGER
);
-- The per-entity page, the global page (and pruning by age), and the global page of failures.
CREATE INDEX trigger_runs_entity_started ON trigger_runs(entity_id, started, id);
CREATE INDEX trigger_runs_started ON trigger_runs(started, id);
CREATE INDEX trigger_runs_ok_started ON trigger_runs(ok, started, id);
