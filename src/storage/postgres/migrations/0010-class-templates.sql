-- Class templates: state and incident conditions and properties held by a class, which every
-- entity of the class follows unless it has its own (modules/classes/). Class property ids are
-- given out from the properties' id space (entity_props' identity sequence, moved by the
-- catalog's claims), so an inherited property never has the id of one of an entity's own.
CREATE TABLE class_settings (
  class_id bigint NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  -- Byte order (COLLATE "C"), as SQLite's BINARY: the load reads them ORDER BY class_id, kind.
  kind text COLLATE "C" NOT NULL,
  value text NOT NULL,
  updated bigint NOT NULL,
  PRIMARY KEY (class_id, kind)
);

CREATE TABLE class_props (
  id bigint PRIMARY KEY,
  class_id bigint NOT NULL REFERENCES classes(id) ON DELETE CASCADE,
  name text NOT NULL,
  value text NOT NULL,
  type_id integer NOT NULL,
  created bigint NOT NULL,
  updated bigint NOT NULL,
  UNIQUE (class_id, name)
);
