-- Series ids are issued by the store and never given out again: a node that still holds a
-- forgotten series' id (its entity deleted elsewhere) must not write into a new series that got
-- it. Without AUTOINCREMENT SQLite gives max(id) + 1, a forgotten id whenever the newest series
-- was forgotten; with it, the table's sequence (sqlite_sequence) never goes down.
CREATE TABLE series_new (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_id INTEGER NOT NULL,
  metric TEXT NOT NULL,
  UNIQUE (entity_id, metric)
);
INSERT INTO series_new (id, entity_id, metric) SELECT id, entity_id, metric FROM series ORDER BY id;
DROP TABLE series;
ALTER TABLE series_new RENAME TO series;
-- Above every id rows still name, too (points of a series whose row is gone are not taken over).
INSERT INTO sqlite_sequence (name, seq) SELECT 'series', 0 WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'series');
UPDATE sqlite_sequence SET seq = max(seq,
  coalesce((SELECT max(series_id) FROM chunks), 0),
  coalesce((SELECT max(series_id) FROM open_chunks), 0),
  coalesce((SELECT max(series_id) FROM rollups), 0))
WHERE name = 'series';
