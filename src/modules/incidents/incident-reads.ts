// Reading incidents as a caller may see them: an incident is visible when its entity is (a
// deleted entity's incidents only to users who see everything). A page is one index range
// scan when nothing needs testing in JS; with a filter or a restricted caller, rows are read in
// keyset batches in the asked order until the page is full (or MAX_SCAN rows were read).
import { scanPage } from '../../core/scan-page.js';
import { notFound } from '../../errors.js';
import type { IncidentQuery, IncidentRow, IncidentsStore } from '../../storage/incidents-types.js';
import { canSee, type EntityActor } from '../catalog/access.js';
import type { Catalog } from '../catalog/catalog.js';
import { withOwners } from './incident-owner.js';
import { actionDetailsForReader, incidentForReader } from './incident-for-reader.js';

import { actionView, commentView, compileFilter, incidentView, parseSort, type IncidentView } from './incident-view.js';

/** A flag as clients spell it in a query: true, "true", "True" (Python) or "1". */
const flagOn = (flag: boolean | string | undefined): boolean => flag === true || flag === 'true' || flag === 'True' || flag === '1';

const SCAN_BATCH = 1000;
/** A filtered or restricted page reads at most this many records looking for matches. */
export const MAX_SCAN = 1_000_000;

export interface Paging {
  limit: number;
  skip: number;
}

export interface ActiveListInput extends Paging {
  sortField?: string;
  sortDirection?: string;
  filter?: string;
  /** Only incidents acknowledged by this user id. */
  acknowledgedBy?: string;
  /** Embed each incident's entity as `owner` (true, "true", "True" or "1"). */
  owner?: boolean | string;
}

export interface HistoryListInput extends Paging {
  inverse?: boolean;
  from?: number;
  to?: number;
  filter?: string;
  /** Embed each incident's entity as `owner` (true, "true", "True" or "1"). */
  owner?: boolean | string;
}

type Scope = IncidentQuery['scope'];

export function createIncidentReads({ store, catalog }: { store: IncidentsStore; catalog: Catalog }) {
  function visible(actor: EntityActor, row: IncidentRow): boolean {
    if (actor.visibility.all) return true;
    const entity = catalog.entity(row.entityId);
    return entity !== undefined && canSee(actor, entity);
  }

  /** The incident if it is in `scope` and the actor sees it; 404 otherwise. */
  async function visibleRow(actor: EntityActor, id: string, scope: Scope): Promise<IncidentRow> {
    const row = await store.get(id);
    const inScope = row && (scope === 'active' ? row.historyAt === null : row.historyAt !== null);
    if (!row || !inScope || !visible(actor, row)) throw notFound(scope === 'active' ? `incident ${id}` : `historical incident ${id}`);
    return row;
  }

  const shown = (actor: EntityActor, row: IncidentRow) => incidentForReader(actor, catalog, incidentView(row));

  async function page(actor: EntityActor, base: Omit<IncidentQuery, 'limit' | 'skip' | 'after' | 'conditions'>, filterText: string | undefined, paging: Paging): Promise<IncidentView[]> {
    const filter = compileFilter(filterText);
    if (paging.limit === 0) return [];
    const query = { ...base, conditions: filter?.conditions };
    if (!filter && actor.visibility.all) return (await store.find({ ...query, limit: paging.limit, skip: paging.skip })).map(incidentView);
    return scanPage<IncidentRow, IncidentView>({
      fetch: (after, limit) => store.find({ ...query, limit, after }),
      keep: (row) => {
        if (!visible(actor, row)) return undefined;
        // The filter sees what the reader is shown: a hidden cause is no criterion.
        const view = shown(actor, row);
        return !filter || filter.matches(view) ? view : undefined;
      },
      skip: paging.skip, limit: paging.limit, batchSize: SCAN_BATCH, maxScan: MAX_SCAN,
    });
  }

  return {
    visible,
    visibleRow,

    /** Active incidents (not yet in history), newest first unless sorted otherwise. */
    async list(actor: EntityActor, input: ActiveListInput): Promise<IncidentView[]> {
      const { sort, descending } = parseSort(input.sortField, input.sortDirection);
      // An empty acknowledgedBy is no filter given (not "unacknowledged").
      const found = await page(actor, { scope: 'active', sort, descending, owner: input.acknowledgedBy || undefined }, input.filter, input);
      return flagOn(input.owner) ? withOwners(catalog, actor, found) : found;
    },

    /** Incidents in history by `timestamp`, newest first (`inverse`: oldest first). */
    async history(actor: EntityActor, input: HistoryListInput): Promise<IncidentView[]> {
      const found = await page(actor, { scope: 'history', sort: 'timestamp', descending: !input.inverse, from: input.from, to: input.to }, input.filter, input);
      return flagOn(input.owner) ? withOwners(catalog, actor, found) : found;
    },

    get: async (actor: EntityActor, id: string) => shown(actor, await visibleRow(actor, id, 'active')),
    historyGet: async (actor: EntityActor, id: string) => shown(actor, await visibleRow(actor, id, 'history')),

    /** Comments of an active (or, with scope 'history', a historical) incident, newest first. */
    async actions(actor: EntityActor, id: string, scope: Scope, paging: Paging) {
      const row = await visibleRow(actor, id, scope);
      return (await store.actions(row.id, paging.limit, paging.skip)).map((a) => {
        const v = actionView(a);
        const details = actionDetailsForReader(actor, catalog, v.details, row.entityId);
        return details === v.details ? v : { ...v, details };
      });
    },
    async comments(actor: EntityActor, id: string, scope: Scope, paging: Paging) {
      const row = await visibleRow(actor, id, scope);
      if (paging.limit === 0) return [];
      return (await store.comments(row.id, paging.limit, paging.skip)).map(commentView);
    },
  };
}

export type IncidentReads = ReturnType<typeof createIncidentReads>;
