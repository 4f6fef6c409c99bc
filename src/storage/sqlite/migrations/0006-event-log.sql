-- The event log: SNMP traps and MQTT messages. Written in batches on the hot path; read by
-- time range, by type, by receiver, and (at start-up) the latest record of each entity.
-- `record` holds {"payload": ...} so that filter paths like payload.trapOid reach it as is.
CREATE TABLE event_log (
  id INTEGER PRIMARY KEY,
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
CREATE INDEX event_log_entity ON event_log(entity_id) WHERE entity_id IS NOT NULL;
