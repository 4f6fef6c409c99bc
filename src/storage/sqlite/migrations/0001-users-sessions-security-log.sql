-- Users, sign-in sessions and the security log.
CREATE TABLE users (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  login TEXT NOT NULL UNIQUE,
  email TEXT NOT NULL DEFAULT '',
  status INTEGER NOT NULL DEFAULT 2,
  language TEXT NOT NULL DEFAULT 'en',
  contacts TEXT NOT NULL DEFAULT '[]',
  event_filter TEXT NOT NULL DEFAULT '[]',
  permissions TEXT NOT NULL DEFAULT '[]',
  object_permissions TEXT,
  active_to INTEGER,
  is_admin INTEGER NOT NULL DEFAULT 0,
  password_hash TEXT NOT NULL,
  token_hash TEXT UNIQUE,
  auth_version INTEGER NOT NULL DEFAULT 1,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);

CREATE TABLE sessions (
  id_hash TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  csrf_token TEXT NOT NULL,
  created INTEGER NOT NULL,
  last_seen INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_user ON sessions(user_id);
CREATE INDEX sessions_last_seen ON sessions(last_seen);

-- The record body is kept as JSON; time, user and the fields operators filter by most are
-- columns too, so pages and common filters are index range scans.
CREATE TABLE security_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  ts INTEGER NOT NULL,
  user_id INTEGER,
  level TEXT NOT NULL,
  event_class TEXT NOT NULL,
  login TEXT NOT NULL,
  remote_address TEXT NOT NULL,
  record TEXT NOT NULL
);
CREATE INDEX security_log_ts ON security_log(ts, id);
CREATE INDEX security_log_user_ts ON security_log(user_id, ts, id);
CREATE INDEX security_log_class_ts ON security_log(event_class, ts, id);
CREATE INDEX security_log_login_ts ON security_log(login, ts, id);
