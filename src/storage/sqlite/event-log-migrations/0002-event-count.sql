-- The number of records, kept by the writer thread in the transaction of every append and
-- delete. The count limit (event log maxRecords) trims by this true count: ids have holes
-- after an age purge, so "highest id - lowest id + 1" over-counts, and count(*) would scan
-- the whole table after every batch.
CREATE TABLE event_log_count (
  only INTEGER PRIMARY KEY CHECK (only = 1),
  n INTEGER NOT NULL
);
INSERT INTO event_log_count (only, n) SELECT 1, count(*) FROM event_log;
