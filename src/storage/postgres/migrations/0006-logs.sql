-- The security log and the event log: append-heavy, read newest first in pages, and aged out
-- by time. Both are partitioned by `ts` (one partition a day, made on demand by partitions.ts;
-- a DEFAULT partition takes timestamps outside the horizon), so retention drops whole
-- partitions instead of deleting rows. A partitioned table's primary key must hold the
-- partition key, so it is (id, ts); ids come from an owned sequence (identity columns cannot
-- be declared on partitioned tables the way the other tables have them).

-- Text columns that are sorted, paged or compared by range are COLLATE "C" (byte order, as
-- SQLite's BINARY), not the database's collation: a database created with a real locale
-- (en_US.UTF-8, ICU) would put 'Zeta' after 'alpha'; SQLite puts it first.

-- Security log: the record body as jsonb (filters look into it with ->, ->> and @>); time,
-- user and the fields operators filter by most are columns too, as in SQLite. Those columns are
-- compared by range by filters (lt/gt on level, eventClassId, login, remoteAddress): byte order.
CREATE SEQUENCE security_log_id_seq;
CREATE TABLE security_log (
  id bigint NOT NULL DEFAULT nextval('security_log_id_seq'),
  ts bigint NOT NULL,
  user_id bigint,
  level text COLLATE "C" NOT NULL,
  event_class text COLLATE "C" NOT NULL,
  login text COLLATE "C" NOT NULL,
  remote_address text COLLATE "C" NOT NULL,
  record jsonb NOT NULL,
  -- The exact record text, only when it holds a NUL character, which text and jsonb cannot
  -- (record and text columns then have U+FFFD in its place): see nul-safe.ts.
  record_exact text,
  PRIMARY KEY (id, ts)
) PARTITION BY RANGE (ts);
ALTER SEQUENCE security_log_id_seq OWNED BY security_log.id;
CREATE TABLE security_log_default PARTITION OF security_log DEFAULT;
CREATE INDEX security_log_ts ON security_log (ts, id);
CREATE INDEX security_log_user_ts ON security_log (user_id, ts, id);
CREATE INDEX security_log_class_ts ON security_log (event_class, ts, id);
CREATE INDEX security_log_login_ts ON security_log (login, ts, id);
-- Equality conditions on other record fields (record @> '{"host":"x"}'). The security log is
-- written a few records a second at most, so the GIN index costs little there.
CREATE INDEX security_log_record ON security_log USING gin (record jsonb_path_ops);

-- Event log: SNMP traps and MQTT messages. `record` holds {"payload": ...} so that filter paths
-- like payload.trapOid reach it as is. No GIN index on it: thousands of records a second are
-- appended, and the SQLite store has no index on its payloads either (filters on payloads are
-- read within a time range and checked by the caller's full filter).
CREATE SEQUENCE event_log_id_seq;
CREATE TABLE event_log (
  id bigint NOT NULL DEFAULT nextval('event_log_id_seq'),
  ts bigint NOT NULL,
  type integer NOT NULL,
  -- Sorted and keyset-paged by (agent_id, ts, id): byte order.
  agent_id text COLLATE "C" NOT NULL,
  entity_id bigint,
  entity_type integer,
  entity_name text,
  record jsonb NOT NULL,
  -- As in security_log: the exact text of a record holding a NUL character, else null.
  record_exact text,
  -- (id, ts): pages by id and the count trim (oldest ids first) read this index.
  PRIMARY KEY (id, ts)
) PARTITION BY RANGE (ts);
ALTER SEQUENCE event_log_id_seq OWNED BY event_log.id;
CREATE TABLE event_log_default PARTITION OF event_log DEFAULT;
-- Each index ends in the id, as SQLite's end in the rowid: (ts, id), (type, ts, id), (agent_id, ts, id).
CREATE INDEX event_log_ts ON event_log (ts, id);
CREATE INDEX event_log_type_ts ON event_log (type, ts, id);
CREATE INDEX event_log_agent_ts ON event_log (agent_id, ts, id);

-- The latest record of each entity (read at start-up: what conditions on event.* see), one row
-- per entity updated by each append, not an index on entity_id (rows of many entities arrive
-- interleaved). `ts` too: with it the record is found by its primary key in its partition.
CREATE TABLE event_latest (
  entity_id bigint PRIMARY KEY,
  event_id bigint NOT NULL,
  ts bigint NOT NULL
);
-- No index but the key: every append moves pointers, and with no other index those updates
-- stay on their page (HOT): appends of records on 10,000 entities ran 23% faster without an
-- index on ts. Retention removes pointers to deleted rows by their ids, and only after it has
-- dropped a partition does it look through all pointers (once a day).

-- The number of records, changed in the transaction of every append and delete (ids have holes
-- and count(*) would scan the log after every batch). Striped: each append adds to one of
-- eight rows, so concurrent appenders (several per node, several nodes) do not all queue on
-- one row lock; the count is their sum.
CREATE TABLE event_log_count (
  stripe integer PRIMARY KEY CHECK (stripe >= 0 AND stripe < 8),
  n bigint NOT NULL
);
INSERT INTO event_log_count (stripe, n) SELECT s, 0 FROM generate_series(0, 7) AS s;
