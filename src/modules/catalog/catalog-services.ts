// The services of the catalog family as the routes receive them: a declaration only. They are
// built in src/services.ts (the assembly), so the catalog module holds the read model and
// access and builds nothing that imports it back; the families' types are named here so every
// route file can take the family as one argument without importing the assembly upward.
import type { CatalogStore } from '../../storage/catalog-types.js';
import type { BulkService } from '../bulk/service.js';
import type { ClassesService } from '../classes/service.js';
import type { ClassTemplatesService } from '../classes/templates-service.js';
import type { EntityQueries } from '../entities/entity-queries.js';
import type { LinksService } from '../entities/links-service.js';
import type { ObjectSearch } from '../entities/object-search.js';
import type { ObjectsService } from '../entities/objects-service.js';
import type { PropertiesService } from '../entities/properties-service.js';
import type { PropertyRules } from '../entities/property-rules.js';
import type { SettingsService } from '../entities/settings-service.js';
import type { StatesService } from '../states/service.js';
import type { TagsService } from '../tags/service.js';
import type { Access } from './access.js';
import type { AuditService } from './audit-service.js';
import type { Catalog } from './catalog.js';
import type { EntityFacts } from './entity-facts.js';

export interface CatalogServices {
  catalog: Catalog;
  /** When states changed, which metrics have history: what full records show beyond the rows. */
  facts: EntityFacts;
  store: CatalogStore;
  access: Access;
  queries: EntityQueries;
  objects: ObjectsService;
  links: LinksService;
  properties: PropertiesService;
  rules: PropertyRules;
  settings: SettingsService;
  search: ObjectSearch;
  tags: TagsService;
  classes: ClassesService;
  /** Class templates: the conditions and properties a class holds for its entities. */
  templates: ClassTemplatesService;
  states: StatesService;
  bulk: BulkService;
  audit: AuditService;
}
