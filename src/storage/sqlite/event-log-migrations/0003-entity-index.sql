-- Pages of one entity's records (the filter {"entity.entityId": ...}, newest first) read this
-- index as one range, however large the log: before it, such a page walked the whole time index
-- and took 100+ ms at 1,000,000 records. Rows of many entities arrive interleaved, so each
-- insert lands on the tail page of its entity's range; the writer's page cache keeps those
-- pages (event-log-writer.ts). Unattributed records (traps from unknown senders) are not in it.
CREATE INDEX event_log_entity_ts ON event_log(entity_id, ts) WHERE entity_id IS NOT NULL;
