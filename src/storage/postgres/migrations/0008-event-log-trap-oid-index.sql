-- Pages of the traps of one OID (the filter {"payload.trapOid": ...}, e.g. every linkDown)
-- read this index as one range in each partition: before it, such a page read records newest
-- first until it had found its own, over a second for an OID in 1 trap in 1,000. The expression
-- is the one event-log-store.ts writes for that path (an expression index serves only the same
-- expression), and the query says `type = 1` (only traps carry payload.trapOid): the index is
-- partial, so MQTT records add nothing to it. Made on every partition; see 0007 for what
-- building it costs on an upgrade.
CREATE INDEX event_log_trap_oid ON event_log ((record #>> '{payload,trapOid}'), ts, id) WHERE type = 1;
