-- Pages of the traps of one OID (the filter {"payload.trapOid": ...}, e.g. every linkDown)
-- read this index as one range: before it, such a page read and parsed records newest first
-- until it had found its own, over a second for an OID in 1 trap in 1,000. The expression is
-- the one event-log-store.ts writes for that path, as SQLite uses an expression index only for
-- the same expression. MQTT records have no payload.trapOid: they share the NULL key, where
-- each new one goes to the end (the rowid order), as the time index's entries do.
CREATE INDEX event_log_trap_oid ON event_log(json_extract(record, '$.payload.trapOid'), ts);
