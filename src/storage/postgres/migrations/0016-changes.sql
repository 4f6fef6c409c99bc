-- The change feed (issue 19; SQLite's 0018). Short-lived rows: readers are a second behind at
-- most, and the leader's hourly purge removes what is older than a day.
CREATE TABLE changes (
  seq bigserial PRIMARY KEY,
  topic text NOT NULL,
  key text NOT NULL,
  origin text NOT NULL,
  -- What the change was, when the readers apply it rather than re-read (the catalog's writes, JSON).
  payload text,
  at bigint NOT NULL
);
CREATE INDEX changes_at ON changes (at);
