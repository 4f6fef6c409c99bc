-- Why an active incident is suppressed (raised or kept without notifying): JSON text
-- {kind: 'maintenance'|'dependency'|'manual', until, windowId?, windowName?, rootCause?, userId?};
-- NULL while it is not. Rechecks read the active incidents through incidents_active_timestamp.
ALTER TABLE incidents ADD COLUMN suppression TEXT;
