// The catalog in memory: every object, link, property, setting, tag, class and state, with the
// object graph. It is the read model of the entity services (as Zabbix keeps a configuration
// cache): a lookup, a page of children or a visibility check costs no database round trip,
// and a search scans plain objects. The store keeps it durable.
//
// Every change goes through `mutate`: changes run one at a time, each validates against the
// current catalog, returns a batch of writes, and the batch is stored (one transaction) before
// the catalog in memory takes it. So what a reader sees has always been stored, and two
// changes can never both pass a check that only one of them may pass (a parent cycle, say).
// Taking writes into memory (catalog-apply.ts) serves both this node's own changes and other
// nodes' changes read from the change feed (applyRemote, modules/cluster/catalog-replication).
import { EntityGraph } from '../../core/entity-graph.js';
import { AppError } from '../../errors.js';
import { firstVisiblePath, visibilityOf, visiblePaths, type ObjectAccessList, type Visibility } from '../../core/visibility.js';
import type {
  CatalogRowVisitor, CatalogStore, CatalogWrite, ClassPropRow, ClassRow, ClassSettingKind, ClassSettingRow, IdSpace, LinkRow, ObjectRow, PropRow, SettingKind, SettingRow, StateRow, TagRow,
} from '../../storage/catalog-types.js';
import { CLASS_SETTING_KINDS, IdsTakenError } from '../../storage/catalog-types.js';
import type { FeedRow } from '../../storage/change-feed-types.js';
import { IdIssuer } from './id-issuer.js';
import { UsesIndex } from './uses-index.js';
import { ClassTemplates } from './class-templates.js';
import { applyWrites, settingsOf, type CatalogMemory } from './catalog-apply.js';
import { memLink, memObject, type MemEntity, type MemLink, type MemObject } from './mem-entity.js';
import { serialQueue } from '../../core/serial-queue.js';
import { effectiveDocument, effectiveProps, type EffectiveProp } from '../../core/classes/effective.js';

export type { MemEntity, MemLink, MemObject } from './mem-entity.js';

const TEMPLATE_KINDS: ReadonlySet<SettingKind> = new Set(CLASS_SETTING_KINDS);
/** The setting kinds a class holds for its entities (class templates). */
export const isClassSettingKind = (kind: SettingKind): kind is ClassSettingKind => TEMPLATE_KINDS.has(kind);

/** The stored row of an in-memory record: without its kind marker and properties list. */
export function rowOf(e: MemObject): ObjectRow;
export function rowOf(e: MemLink): LinkRow;
export function rowOf(e: MemEntity): ObjectRow | LinkRow {
  const { entityType: _kind, properties: _props, ...row } = e;
  return row;
}

/**
 * Runs of a change whose ids another writer took first, before the refusal reaches the caller.
 * Nodes creating at once keep meeting each other (test/cluster/rolling-restart.test.ts: four
 * clients creating through three nodes saw three refusals in a row); between runs a node waits
 * a random few ms, longer each time, so two nodes do not retry in step.
 */
const ID_ATTEMPTS = 12;
const ID_RETRY_MS = 4;

export interface Mutation<T> {
  writes: CatalogWrite[];
  result: T;
}

/**
 * One committed change as listeners hear of it: numbered in commit order (the seed of a change
 * feed other nodes will follow), and tagged with who made it so a writer need not hear its own.
 */
export interface CatalogChange {
  readonly seq: number;
  readonly writes: readonly CatalogWrite[];
  readonly origin: string | undefined;
  /** Entities whose class changed in this change (their inherited settings and properties did too). */
  readonly classMoved: readonly string[];
  /** Made by another node (stored there), taken here from the change feed. */
  readonly remote?: boolean;
}

export interface ChangeListener {
  (writes: readonly CatalogWrite[], change: CatalogChange): void;
}

export class Catalog {
  // The read model's own maps: services read them through the narrow readers below, so the
  // catalog alone decides how it keeps them (and, later, how it follows other nodes' changes).
  private readonly graph = new EntityGraph();
  private readonly objects = new Map<string, MemObject>();
  private readonly links = new Map<string, MemLink>();
  private readonly settings = new Map<string, Map<SettingKind, SettingRow>>();
  private readonly tags = new Map<string, TagRow>();
  private readonly classes = new Map<string, ClassRow>();
  private readonly states = new Map<number, StateRow>();
  /** Class templates: each class's documents and properties. */
  private readonly templates = new ClassTemplates();
  /** discovery_id → object id. */
  private readonly discovery = new Map<string, string>();
  /** Entities by class and by tag (kept with the maps above). */
  private readonly uses = new UsesIndex();
  private ids = new IdIssuer({ entities: 0, props: 0, tags: 0, classes: 0 });
  private readonly serial = serialQueue();
  private readonly deletedListeners: Array<(ids: string[]) => void> = [];
  private readonly changeListeners: Array<{ listener: ChangeListener; ignoreOrigin: string | undefined }> = [];
  /** The change-feed rows of a change, stored in its transaction (set by the cluster's replication). */
  private outbox: ((writes: readonly CatalogWrite[], seq: number, origin: string | undefined) => FeedRow[]) | undefined;
  /** Sequence number of the last committed change. */
  private seq = 0;
  /** What catalog-apply.ts changes when stored writes are taken into memory. */
  private readonly memory: CatalogMemory = {
    graph: this.graph, objects: this.objects, links: this.links, settings: this.settings, tags: this.tags, classes: this.classes,
    states: this.states, templates: this.templates, discovery: this.discovery, uses: this.uses,
    entity: (id) => this.entity(id), usesOfTag: (tagId) => this.usesOfTag(tagId),
  };

  private constructor(private readonly store: CatalogStore) {}

  static async load(store: CatalogStore): Promise<Catalog> {
    const catalog = new Catalog(store);
    const links: MemLink[] = [];
    // Property names repeat across entities ("ip", "role"): one string each is enough.
    const names = new Map<string, string>();
    const visitor: CatalogRowVisitor = {
      object: (row) => {
        const o = memObject(row, []);
        catalog.objects.set(o.id, o);
        catalog.uses.update(undefined, o);
        // A parent may come later in id order; the graph takes edges in any order.
        catalog.graph.addObject(o.id, o.parent_id);
        if (o.discovery_id !== null) catalog.discovery.set(o.discovery_id, o.id);
      },
      link: (row) => {
        const l = memLink(row, []);
        catalog.links.set(l.id, l);
        catalog.uses.update(undefined, l);
        links.push(l);
      },
      prop: (row) => {
        const owner = catalog.entity(row.entity_id);
        if (!owner) return;
        let name = names.get(row.name);
        if (name === undefined) names.set(row.name, (name = row.name));
        // The row is this loader's own: it is kept, with the shared strings in it.
        row.entity_id = owner.id;
        row.name = name;
        owner.properties.push(row);
      },
    };
    const snap = await store.load(visitor);
    catalog.ids = new IdIssuer(snap.lastIds);
    for (const c of snap.classes) catalog.classes.set(c.id, c);
    for (const s of snap.states) catalog.states.set(s.id, s);
    for (const t of snap.tags) catalog.tags.set(t.id, t);
    // Into the graph after every object, so each link is filed under its ends' common parents.
    for (const l of links) catalog.graph.addLink(l.id, l.source, l.target);
    for (const s of snap.settings) settingsOf(catalog.settings, s.entity_id, true)!.set(s.kind, s);
    for (const s of snap.classSettings) catalog.templates.putSetting(s);
    for (const p of snap.classProps) catalog.templates.putProp(p);
    return catalog;
  }

  entity(id: string): MemEntity | undefined {
    return this.objects.get(id) ?? this.links.get(id);
  }

  /** The entity's own document of a kind (what its settings routes read and write). */
  setting(entityId: string, kind: SettingKind): SettingRow | undefined {
    return this.settings.get(entityId)?.get(kind);
  }

  /**
   * The document that applies to the entity: its own, else (for the kinds a class holds) its
   * class's. What behaviour reads (the engine, the incident level guard); the settings routes
   * read the own one.
   */
  effectiveSetting(entityId: string, kind: SettingKind): { value: unknown[] } | undefined {
    const own = this.settings.get(entityId)?.get(kind);
    if (!isClassSettingKind(kind)) return own;
    const classId = this.entity(entityId)?.class_id;
    return effectiveDocument(own, classId == null ? undefined : this.templates.setting(classId, kind));
  }

  /** A class's own document of a kind. */
  classSetting = (classId: string, kind: ClassSettingKind): ClassSettingRow | undefined => this.templates.setting(classId, kind);
  /** Every class document of one kind. */
  classSettingsOfKind = (kind: ClassSettingKind): IterableIterator<ClassSettingRow> => this.templates.settingsOfKind(kind);
  /** A class's properties, in id order. */
  classPropsOf = (classId: string): readonly ClassPropRow[] => this.templates.propsOf(classId) ?? [];
  /**
   * The properties that apply to an entity: its own, and its class's whose name it does not
   * have (marked inherited). The entity's own list itself when its class has none.
   */
  effectiveProps = (e: MemEntity): readonly EffectiveProp[] => effectiveProps(e.id, e.properties, e.class_id === null ? undefined : this.templates.propsOf(e.class_id));

  // Narrow readers: entities.
  object = (id: string): MemObject | undefined => this.objects.get(id);
  hasObject = (id: string): boolean => this.objects.has(id);
  link = (id: string): MemLink | undefined => this.links.get(id);
  allObjects = (): IterableIterator<MemObject> => this.objects.values();
  allLinks = (): IterableIterator<MemLink> => this.links.values();
  /** Entities of a class: objects, then links, each in id order. */
  usesOfClass = (classId: string): MemEntity[] => this.entitiesIn(this.uses.ofClass(classId));
  /** Entities carrying a tag: objects, then links, each in id order. */
  usesOfTag = (tagId: string): MemEntity[] => this.entitiesIn(this.uses.ofTag(tagId));
  /** The object a discovery id names. */
  discovered = (discoveryId: string): string | undefined => this.discovery.get(discoveryId);
  /** Every setting of one kind, whatever entity holds it. */
  *settingsOfKind(kind: SettingKind): IterableIterator<SettingRow> {
    for (const kinds of this.settings.values()) {
      const row = kinds.get(kind);
      if (row) yield row;
    }
  }

  // Narrow readers: the small named catalogs.
  tag = (id: string): TagRow | undefined => this.tags.get(id);
  tagList = (): TagRow[] => [...this.tags.values()];
  classById = (id: string): ClassRow | undefined => this.classes.get(id);
  classList = (): ClassRow[] => [...this.classes.values()];
  state = (id: number): StateRow | undefined => this.states.get(id);
  stateList = (): StateRow[] => [...this.states.values()];
  stateIds = (): Set<number> => new Set(this.states.keys());

  // Narrow readers: the object tree.
  childrenOf = (id: string): ReadonlySet<string> => this.graph.childrenOf(id);
  /** Links whose ends are both children of the object. */
  linksAmongChildren = (id: string): ReadonlySet<string> => this.graph.linksAmongChildren(id);
  /** The objects a link is filed under (its ends' common parents). */
  ownersOf = (linkId: string): string[] => this.graph.ownersOf(linkId);
  /** What deleting the objects would remove with them. */
  cascade = (ids: readonly string[]): { objects: string[]; links: string[] } => this.graph.cascade(ids);
  wouldCreateCycle = (id: string, parents: readonly string[]): boolean => this.graph.wouldCreateCycle(id, parents);
  /** Moves whenever the tree changes: caches of what a reader sees compare it. */
  get treeVersion(): number {
    return this.graph.version;
  }
  /** What an object access list lets a reader see (core/visibility.ts). */
  visibilityOf = (list: ObjectAccessList | null | undefined): Visibility => visibilityOf(this.graph, list);
  visiblePaths = (visibility: Visibility, id: string): string[][] => visiblePaths(this.graph, visibility, id);
  firstVisiblePath = (visibility: Visibility, id: string): string[] => firstVisiblePath(this.graph, visibility, id);

  /**
   * A fresh id in one id space (never one given out before, even if since deleted), for the
   * change under way: the store confirms it with the change's writes (id-issuer.ts).
   */
  nextId(space: IdSpace): string {
    return this.ids.next(space);
  }

  /** Called after entities are deleted (with every id the cascade removed). */
  onDeleted(listener: (ids: string[]) => void): void {
    this.deletedListeners.push(listener);
  }

  /**
   * Called with every committed change, once memory has taken it, in sequence order, before the
   * mutation's caller resumes (read models built on the catalog are current when it does).
   * `ignoreOrigin`: changes made with that origin are not told (the engine does not hear its
   * own state writes, so the catalog never calls back into an engine pass).
   */
  onChange(listener: ChangeListener, options: { ignoreOrigin?: string } = {}): void {
    this.changeListeners.push({ listener, ignoreOrigin: options.ignoreOrigin });
  }

  /**
   * Makes every change also store `rows(writes, seq, origin)` on the change feed, in the same
   * transaction: the other nodes then hear of exactly the changes that committed.
   */
  sendChangesWith(rows: (writes: readonly CatalogWrite[], seq: number, origin: string | undefined) => FeedRow[]): void {
    this.outbox = rows;
  }

  /** Sequence number of the last committed change (0: none since the catalog was loaded). */
  get lastSeq(): number {
    return this.seq;
  }

  /**
   * Runs `change` alone: validate against the catalog, store its writes, take them, then tell
   * the listeners. `origin` names the writer (see `onChange`).
   */
  mutate<T>(change: () => Mutation<T> | Promise<Mutation<T>>, options: { origin?: string } = {}): Promise<T> {
    const run = async () => {
      const mutation = await change();
      if (mutation.writes.length > 0) {
        await this.store.apply(mutation.writes, this.ids.claims(), this.outbox?.(mutation.writes, this.seq + 1, options.origin));
        this.ids.stored();
        const { deleted, classMoved } = applyWrites(this.memory, mutation.writes);
        this.publish({ seq: ++this.seq, writes: mutation.writes, origin: options.origin, classMoved }, deleted);
      }
      // Read only now: a result may be a getter that looks at the catalog after the change.
      return mutation.result;
    };
    return this.serial(() => this.retryingIds(run));
  }

  /**
   * Takes a change another node stored (its writes, from the change feed) into memory, in turn
   * with this node's own changes, and tells the listeners as of a change made here. Ids it gave
   * out are above this node's counters: the next change here finds them taken and re-reads them.
   */
  applyRemote(writes: readonly CatalogWrite[], origin: string | undefined): Promise<void> {
    return this.serial(async () => {
      const { deleted, classMoved } = applyWrites(this.memory, writes);
      this.publish({ seq: ++this.seq, writes, origin, classMoved, remote: true }, deleted);
    });
  }

  /**
   * Runs a change; when another writer took its ids first, again with the store's counters
   * (changes only read the catalog and build writes, so running one again is safe).
   */
  private async retryingIds<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await run();
      } catch (err) {
        if (!(err instanceof IdsTakenError)) throw err;
        // Still meeting other writers: nothing was stored, the client may send it again.
        if (attempt >= ID_ATTEMPTS) throw new AppError('ServiceUnavailable', 'other nodes were creating at the same moment; nothing was stored: send again', { 'retry-after': '1' });
        await new Promise((r) => setTimeout(r, Math.random() * ID_RETRY_MS * attempt));
        await this.ids.refresh(this.store);
      } finally {
        // Ids a failed change took were never given out.
        this.ids.dropped();
      }
    }
  }

  /**
   * Tells the listeners of a committed change. Every listener hears it even when one throws
   * (the change is stored either way); the first failure then reaches the mutation's caller.
   */
  private publish(change: CatalogChange, deleted: string[]): void {
    let failure: { err: unknown } | undefined;
    const tell = (f: () => void) => {
      try {
        f();
      } catch (err) {
        failure ??= { err };
      }
    };
    if (deleted.length > 0) for (const listener of this.deletedListeners) tell(() => listener(deleted));
    for (const { listener, ignoreOrigin } of this.changeListeners) {
      if (ignoreOrigin === undefined || ignoreOrigin !== change.origin) tell(() => listener(change.writes, change));
    }
    if (failure) throw failure.err;
  }

  /** The entities of a set of ids: objects, then links, each in id order (as a walk of the maps). */
  private entitiesIn(ids: ReadonlySet<string>): MemEntity[] {
    const found = [...ids].map((id) => this.entity(id)).filter((e): e is MemEntity => e !== undefined);
    return found.sort((a, b) => a.entityType - b.entityType || Number(a.id) - Number(b.id) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }
}
