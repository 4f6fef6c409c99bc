-- Class templates: state and incident conditions and properties held by a class, which every
-- entity of the class follows unless it has its own (modules/classes/). Class property ids are
-- given out from the properties' id space (entity_props' sequence), so an inherited property
-- shown in an entity's record never has the id of one of its own.
CREATE TABLE class_settings (
  class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,
  value TEXT NOT NULL,
  updated INTEGER NOT NULL,
  PRIMARY KEY (class_id, kind)
) WITHOUT ROWID;

CREATE TABLE class_props (
  id INTEGER PRIMARY KEY,
  class_id INTEGER NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  type_id INTEGER NOT NULL,
  created INTEGER NOT NULL,
  updated INTEGER NOT NULL,
  UNIQUE (class_id, name)
);
