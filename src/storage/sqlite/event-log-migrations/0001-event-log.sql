-- In its own database file (events.db), written by its own thread: see event-log-store.ts.
-- The event log: SNMP traps and MQTT messages. Written in batches on the hot path; read by
-- time range, by type, by receiver. `record` holds {"payload": ...} so that filter paths like
-- payload.trapOid reach it as is.
CREATE TABLE event_log (
  -- AUTOINCREMENT: an _id is never given out again, even after retention emptied the table.
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ts INTEGER NOT NULL,
  type INTEGER NOT NULL,
  agent_id TEXT NOT NULL,
  entity_id INTEGER,
  entity_type INTEGER,
  entity_name TEXT,
  record TEXT NOT NULL
);
-- Each index ends in the rowid implicitly: (ts, id), (type, ts, id), (agent_id, ts, id).
CREATE INDEX event_log_ts ON event_log(ts);
CREATE INDEX event_log_type_ts ON event_log(type, ts);
CREATE INDEX event_log_agent_ts ON event_log(agent_id, ts);
-- The latest record of each entity (read at start-up: what conditions on event.* see). A table
-- updated once per entity per batch, not an index on entity_id: rows of many entities arrive
-- interleaved, and such an index costs more per insert than the rest of the row.
CREATE TABLE event_latest (
  entity_id INTEGER PRIMARY KEY,
  event_id INTEGER NOT NULL
);
