-- The entity model: objects and links (one id space, told apart by kind), the parent edges of
-- the object tree, tags, properties, per-entity settings (conditions, triggers), classes,
-- states, the configuration audit log and bulk operation jobs.
CREATE TABLE classes (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  description TEXT NOT NULL DEFAULT '',
  icon TEXT NOT NULL DEFAULT '',
  built_in INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);

CREATE TABLE states (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  priority INTEGER NOT NULL,
  color TEXT NOT NULL,
  built_in INTEGER NOT NULL DEFAULT 0,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);

CREATE TABLE entities (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  -- 1 object, 2 link (the API's entityType)
  kind INTEGER NOT NULL CHECK (kind IN (1, 2)),
  name TEXT NOT NULL,
  class_id INTEGER REFERENCES classes(id),
  state_id INTEGER NOT NULL DEFAULT 1,
  owner_id TEXT,
  client_data TEXT NOT NULL DEFAULT '',
  discovery_id TEXT,
  source INTEGER REFERENCES entities(id),
  target INTEGER REFERENCES entities(id),
  operations TEXT NOT NULL DEFAULT '[]',
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);
CREATE UNIQUE INDEX entities_discovery_id ON entities(discovery_id) WHERE discovery_id IS NOT NULL;
CREATE INDEX entities_link_source ON entities(source) WHERE source IS NOT NULL;
CREATE INDEX entities_link_target ON entities(target) WHERE target IS NOT NULL;

CREATE TABLE object_parents (
  child_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  parent_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  -- the order of parent_id as the client gave it
  position INTEGER NOT NULL,
  PRIMARY KEY (child_id, parent_id)
) WITHOUT ROWID;
CREATE INDEX object_parents_parent ON object_parents(parent_id);

CREATE TABLE tags (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL
);

CREATE TABLE entity_tags (
  entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  tag_id INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  position INTEGER NOT NULL,
  PRIMARY KEY (entity_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX entity_tags_tag ON entity_tags(tag_id);

CREATE TABLE entity_props (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  type_id INTEGER NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  UNIQUE (entity_id, name)
);

-- stateConditions, incidentConditions, stateTriggers: validated JSON documents.
CREATE TABLE entity_settings (
  entity_id INTEGER NOT NULL REFERENCES entities(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  updated INTEGER NOT NULL,
  PRIMARY KEY (entity_id, kind)
) WITHOUT ROWID;

-- Who changed what configuration, and how it looked before and after.
CREATE TABLE audit_log (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  timestamp INTEGER NOT NULL,
  user_id TEXT,
  action TEXT NOT NULL,
  resource TEXT NOT NULL,
  resource_id TEXT NOT NULL,
  -- the entity the change concerns (an entity itself, or the owner of a property/setting)
  entity_id INTEGER,
  before TEXT,
  after TEXT
);
CREATE INDEX audit_log_entity ON audit_log(entity_id, timestamp) WHERE entity_id IS NOT NULL;
CREATE INDEX audit_log_user ON audit_log(user_id, timestamp);

CREATE TABLE bulk_jobs (
  id TEXT PRIMARY KEY,
  user_id TEXT NOT NULL,
  created INTEGER NOT NULL,
  finished INTEGER NOT NULL DEFAULT 0,
  matched INTEGER NOT NULL DEFAULT 0,
  changed INTEGER NOT NULL DEFAULT 0,
  errors TEXT NOT NULL DEFAULT '[]'
);

INSERT INTO states (id, name, priority, color, built_in, created, updated) VALUES
  (1, 'Created', 10, '#9E9E9E', 1, 0, 0),
  (3, 'Working', 20, '#4CAF50', 1, 0, 0),
  (4, 'Overloaded', 40, '#FFC107', 1, 0, 0),
  (5, 'Alarm', 60, '#F44336', 1, 0, 0),
  (6, 'Stopped', 5, '#607D8B', 1, 0, 0),
  (7, 'NoData', 30, '#9C27B0', 1, 0, 0),
  (8, 'Down', 70, '#B71C1C', 1, 0, 0),
  (9, 'Disable', 1, '#BDBDBD', 1, 0, 0);

INSERT INTO classes (id, name, description, icon, built_in, created, updated) VALUES
  (1, 'group', 'A folder of other objects', 'folder', 1, 0, 0),
  (2, 'host', 'A machine reachable on the network', 'server', 1, 0, 0),
  (3, 'service', 'Something a host runs (a web site, a database, a queue)', 'gear', 1, 0, 0),
  (4, 'network device', 'A switch, router, firewall or access point', 'router', 1, 0, 0),
  (5, 'sensor', 'A device that reports measurements (temperature, power, ...)', 'gauge', 1, 0, 0),
  (6, 'location', 'A site, building or rack', 'map-pin', 1, 0, 0);

INSERT INTO entities (id, kind, name, class_id, state_id, created, updated) VALUES (1, 1, 'root', 1, 1, 0, 0);
