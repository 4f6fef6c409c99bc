// POST /objects/search and the matching of bulk operations: MongoDB-style criteria over the
// objects in memory (fields, `properties` as an array of {name, value, type_id}, `tags` and
// `parent_id` as arrays of ids). Criteria are checked by the safe-query module (no code-running
// operators, bounded size, RE2 regular expressions). Criteria on `id` or `parent_id` narrow the
// scan to those objects or those parents' children; otherwise the scan walks every object and
// yields to other requests between slices: every SLICE objects, and whenever it has worked
// SLICE_MS since it last did (a costly $regex over long values spends its whole cost budget,
// ~0.5-2 s, within far fewer objects than a slice).
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { necessaryConditions } from '../../core/filter-conditions.js';
import { MAYBE, YES, prefilterOf } from '../../core/literal-prefilter.js';
import { QueryError, assertSafeQuery, compileQuery } from '../../core/safe-query.js';
import { SLICE_MS } from '../../core/scan-page.js';
import { redactProperties } from '../../core/secrets/check-secrets.js';
import { readsSecrets } from '../../core/secrets/mask.js';
import { badRequest } from '../../errors.js';
import { type EntityActor, canChange, canSee } from '../catalog/access.js';
import type { Catalog, MemObject } from '../catalog/catalog.js';
import { idOf } from './entity-input.js';
import { objectView } from './views.js';

const SLICE = 10_000;
const PARENTS: ReadonlySet<string> = new Set(['parent_id']);
const PATH_AND_PARENTS: ReadonlySet<string> = new Set(['parent_id', 'path']);

export interface MatchOptions {
  /** Only objects the actor may change (bulk), not merely see (search). */
  changeable?: boolean;
  /** Stop after this many matches. */
  stopAfter?: number;
  /** Called after each slice with the number matched so far. */
  progress?: (matched: number) => void;
}

export function createObjectSearch({ catalog }: { catalog: Catalog }) {
  function compile(criteria: Record<string, unknown>) {
    try {
      assertSafeQuery(criteria);
      return compileQuery<MemObject>(criteria as never);
    } catch (err) {
      if (err instanceof QueryError) throw badRequest(`search: ${err.message}`);
      throw err;
    }
  }

  /** The objects worth testing: narrowed by id or parent criteria when the search has them. */
  function candidates(criteria: Record<string, unknown>): Iterable<MemObject> {
    for (const c of necessaryConditions(criteria)) {
      if (c.path.length !== 1 || (c.op !== 'eq' && c.op !== 'in')) continue;
      const values = (Array.isArray(c.value) ? c.value : [c.value]).map((v) => idOf(String(v)));
      if (c.path[0] === 'id') {
        return values.flatMap((v) => (v !== undefined && catalog.hasObject(v) ? [catalog.object(v)!] : []));
      }
      if (c.path[0] === 'parent_id') {
        const ids = new Set<string>();
        for (const v of values) if (v !== undefined) for (const k of catalog.childrenOf(v)) ids.add(k);
        return [...ids].sort((a, b) => Number(a) - Number(b)).map((k) => catalog.object(k)!);
      }
    }
    return catalog.allObjects();
  }

  /**
   * What the criteria are tested against: the object as the actor sees it. Only when needed
   * (a restricted actor, or criteria naming `path`) is a copy made: with hidden parents left
   * out, so a search cannot reveal them, and with its `path`.
   */
  function documentFor(actor: EntityActor, criteria: Record<string, unknown>): (o: MemObject) => MemObject {
    const wantsPath = JSON.stringify(criteria).includes('"path"');
    if (actor.visibility.all && !wantsPath) return (o) => o;
    return (o) => {
      const record = objectView(catalog, actor, o, wantsPath ? PATH_AND_PARENTS : PARENTS);
      return { ...o, ...record } as MemObject;
    };
  }

  /**
   * The object with its properties as the actor is shown them: a reader without
   * manage-service-properties is matched against masked check secrets, so a search is never
   * an oracle on a secret (a regex on its first letters). Both the prefilter and the filter
   * read this. Redacted rows are kept per stored row (core/secrets), so this costs a list per
   * object, and nothing for readers who hold the right or criteria that name no properties.
   */
  function secretsFor(actor: EntityActor, criteria: Record<string, unknown>): ((o: MemObject) => MemObject) | undefined {
    if (readsSecrets(actor.rights) || !JSON.stringify(criteria).includes('"properties')) return undefined;
    return (o) => ({ ...o, properties: redactProperties(o.properties) });
  }

  /**
   * The object with the properties it has in effect: its own and those its class gives it
   * (core/classes/effective.ts), as its record shows them. Only for criteria naming properties;
   * an object of a class without properties is itself.
   */
  function inheritedFor(criteria: Record<string, unknown>): ((o: MemObject) => MemObject) | undefined {
    if (!JSON.stringify(criteria).includes('"properties')) return undefined;
    return (o) => {
      const props = catalog.effectiveProps(o);
      return props === o.properties ? o : ({ ...o, properties: props } as MemObject);
    };
  }

  /** Every object matching `criteria` that the actor may see (or change), in id order. */
  async function match(actor: EntityActor, criteria: Record<string, unknown>, options: MatchOptions = {}): Promise<MemObject[]> {
    const compiled = compile(criteria);
    const doc = documentFor(actor, criteria);
    const masked = secretsFor(actor, criteria);
    const inherited = inheritedFor(criteria);
    // Fields a prefilter reads (name, properties) are the same in the caller's view of an
    // object once its secrets are masked.
    const pre = prefilterOf<MemObject>(criteria);
    const full = (o: MemObject) => compiled(doc(o));
    const fast = pre ? (o: MemObject) => { const v = pre.test(o); return v === MAYBE ? full(o) : v === YES; } : full;
    const shown = masked && inherited ? (o: MemObject) => masked(inherited(o)) : masked ?? inherited;
    const test = shown ? (o: MemObject) => fast(shown(o)) : fast;
    const allowed = options.changeable ? canChange : canSee;
    const out: MemObject[] = [];
    let n = 0;
    let sliceStart = performance.now();
    for (const o of candidates(criteria)) {
      if (allowed(actor, o)) {
        let hit: boolean;
        try {
          hit = test(o);
        } catch (err) {
          if (err instanceof QueryError) throw badRequest(`search: ${err.message}`);
          throw err;
        }
        if (hit) {
          out.push(o);
          if (options.stopAfter !== undefined && out.length >= options.stopAfter) break;
        }
      }
      if (++n % SLICE === 0 || performance.now() - sliceStart >= SLICE_MS) {
        options.progress?.(out.length);
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
    }
    options.progress?.(out.length);
    return out;
  }

  return {
    match,
    /** Validates criteria without running them (bulk checks everything before it starts). */
    check(criteria: Record<string, unknown>): void {
      compile(criteria);
    },
  };
}

export type ObjectSearch = ReturnType<typeof createObjectSearch>;

type SortSpec = Record<string, 1 | -1 | 'asc' | 'desc'>;

/** Orders objects by top-level fields; text compares case-insensitively, numbers numerically. */
export function sortObjects(objects: MemObject[], sort: SortSpec, actor: EntityActor, catalog: Catalog): MemObject[] {
  const keys = Object.entries(sort).map(([field, dir]) => ({ field, dir: dir === -1 || dir === 'desc' ? -1 : 1 }));
  const collator = new Intl.Collator(undefined, { sensitivity: 'base', numeric: true });
  // Sorted by what the actor is shown (hidden parents left out, path as it sees it), made once
  // per object: ordering by the stored parent_id told a restricted user which objects have a
  // hidden parent, and how its id compares with visible ones.
  const fields = new Set(keys.map((k) => k.field));
  const shown = new Map<MemObject, Record<string, unknown>>();
  for (const o of objects) shown.set(o, actor.visibility.all ? (o as unknown as Record<string, unknown>) : { ...o, ...objectView(catalog, actor, o, fields) });
  return objects.sort((a, b) => {
    for (const { field, dir } of keys) {
      const x = shown.get(a)![field];
      const y = shown.get(b)![field];
      const c = typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x ?? ''), String(y ?? ''));
      if (c !== 0) return c * dir;
    }
    return Number(a.id) - Number(b.id);
  });
}
