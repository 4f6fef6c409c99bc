-- Notification channels and policies (modules/notifications/), and the trigger-runs log
-- extended to record their sends. A channel or policy is a small document kept as JSON text
-- (data): nothing queries inside it, and the service holds the whole (short) lists in memory.
CREATE TABLE notification_channels (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  type TEXT NOT NULL,
  data TEXT NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
CREATE TABLE notification_policies (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL,
  type TEXT NOT NULL DEFAULT 'policy',
  data TEXT NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
-- A notification's run names what it was about; state-trigger runs leave these NULL. No foreign
-- keys: runs outlive a deleted channel, policy or incident.
ALTER TABLE trigger_runs ADD COLUMN incident_id INTEGER;
ALTER TABLE trigger_runs ADD COLUMN policy_id INTEGER;
ALTER TABLE trigger_runs ADD COLUMN channel_id INTEGER;
ALTER TABLE trigger_runs ADD COLUMN notification TEXT;
ALTER TABLE trigger_runs ADD COLUMN incident_count INTEGER;
-- The runs of one channel (its page in the UI).
CREATE INDEX trigger_runs_channel_started ON trigger_runs(channel_id, started, id) WHERE channel_id IS NOT NULL;
