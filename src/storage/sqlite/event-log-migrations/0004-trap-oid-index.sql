-- Pages of the traps of one OID (the filter {"payload.trapOid": ...}, e.g. every linkDown)
-- read this index as one range: before it, such a page read and parsed records newest first
-- until it had found its own, over a second for an OID in 1 trap in 1,000. The expression is
-- the one event-log-store.ts writes for that path, as SQLite uses an expression index only for
-- the same expression; the query also says `type = 1` (only traps carry payload.trapOid), as
-- the index is partial. Partial so that an MQTT record's JSON (up to 64 KiB, nested as deep as
-- the publisher's) is never parsed to index it, on insert or on delete.
CREATE INDEX event_log_trap_oid ON event_log(json_extract(record, '$.payload.trapOid'), ts) WHERE type = 1;
