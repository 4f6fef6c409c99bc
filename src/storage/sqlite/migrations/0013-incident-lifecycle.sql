-- Issue 20's acknowledgement lifecycle, level order and action history.
-- An acknowledgement may carry a message, an expiry and stickiness (NULL while none: a sticky
-- acknowledgement without message or expiry, as the base spec's acknowledge makes).
ALTER TABLE incidents ADD COLUMN ack_message TEXT;
ALTER TABLE incidents ADD COLUMN ack_until INTEGER;
ALTER TABLE incidents ADD COLUMN ack_sticky INTEGER;
-- The expiry timer looks for the next acknowledgement due to lapse.
CREATE INDEX incidents_active_ack_until ON incidents(ack_until) WHERE history_at IS NULL AND ack_until IS NOT NULL;

-- How serious a level is (higher is worse): "a worse level" drops a non-sticky acknowledgement,
-- and dependencies count a cause's incident from a level up. Custom levels default to Alarm's.
ALTER TABLE incident_levels ADD COLUMN priority INTEGER NOT NULL DEFAULT 20;
UPDATE incident_levels SET priority = CASE id WHEN 3 THEN 0 WHEN 2 THEN 10 WHEN 1 THEN 20 WHEN 4 THEN 30 ELSE priority END WHERE built_in = 1;

-- Every action on an incident, who (NULL: the engine or the server itself) and when; details JSON.
CREATE TABLE incident_actions (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  incident_id INTEGER NOT NULL REFERENCES incidents(id) ON DELETE CASCADE,
  action TEXT NOT NULL,
  user_id TEXT,
  timestamp INTEGER NOT NULL,
  details TEXT NOT NULL DEFAULT '{}'
);
CREATE INDEX incident_actions_incident ON incident_actions(incident_id, timestamp, id);
