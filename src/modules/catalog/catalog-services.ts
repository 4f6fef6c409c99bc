// The services of the catalog family (entities, properties, settings, tags, classes, states,
// bulk operations, audit), built around one catalog loaded from its store.
import type { Logger } from 'pino';
import type { CatalogStore } from '../../storage/catalog-types.js';
import { createBulkService } from '../bulk/service.js';
import { createClassesService } from '../classes/service.js';
import { createEntityQueries } from '../entities/entity-queries.js';
import { createLinksService } from '../entities/links-service.js';
import { createObjectSearch } from '../entities/object-search.js';
import { createObjectsService } from '../entities/objects-service.js';
import { createPropertiesService } from '../entities/properties-service.js';
import { createPropertyRules } from '../entities/property-rules.js';
import type { CheckLimits } from '../../core/probes/check-definition.js';
import { createSettingsService } from '../entities/settings-service.js';
import { createStatesService } from '../states/service.js';
import { createTagsService } from '../tags/service.js';
import { createAccess } from './access.js';
import { createAuditService } from './audit-service.js';
import { Catalog } from './catalog.js';
import { entityFacts, loadEntityFacts } from './entity-facts.js';

export async function createCatalogServices({ store, clock, logger, incidentLevels, checkLimits }: {
  store: CatalogStore;
  /** Bounds of service-property checks (intervals). */
  checkLimits: CheckLimits;
  clock: () => number;
  logger: Logger;
  /** The incident level ids incident conditions may name. */
  incidentLevels: () => ReadonlySet<string>;
}) {
  const catalog = await Catalog.load(store);
  await loadEntityFacts(catalog, store);
  const search = createObjectSearch({ catalog });
  const rules = createPropertyRules(checkLimits);
  const properties = createPropertiesService({ catalog, rules, clock });
  const objects = createObjectsService({ catalog, rules, properties, clock });
  const settings = createSettingsService({ catalog, clock, incidentLevels });
  const bulk = createBulkService({ catalog, store, search, objects, properties, settings, clock, logger });
  const abandoned = await bulk.recover();
  if (abandoned > 0) logger.warn({ abandoned }, 'bulk operations cut short by the last stop were marked as failed (nothing was changed)');
  return {
    catalog,
    /** When states changed, which metrics have history: what full records show beyond the rows. */
    facts: entityFacts(catalog),
    store,
    access: createAccess(catalog),
    queries: createEntityQueries({ catalog }),
    objects,
    links: createLinksService({ catalog, rules, properties, clock }),
    properties,
    rules,
    settings,
    search,
    tags: createTagsService({ catalog, clock }),
    classes: createClassesService({ catalog, clock }),
    states: createStatesService({ catalog, clock }),
    bulk,
    audit: createAuditService({ catalog, store }),
  };
}

export type CatalogServices = Awaited<ReturnType<typeof createCatalogServices>>;
