-- Why an active incident is suppressed (raised or kept without notifying): JSON text
-- {kind: 'maintenance'|'dependency'|'manual', until, windowId?, windowName?, rootCause?, userId?};
-- NULL while it is not (SQLite's 0011). Text, not jsonb: no query looks inside it.
ALTER TABLE incidents ADD COLUMN suppression text;
