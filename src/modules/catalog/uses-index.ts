// Which entities use each class and carry each tag, kept beside the catalog's entity maps, so
// "is this class in use", "who carries this tag" cost the users of it, not a walk of every
// entity (deleting a class, renaming a tag, deleting a tag).
interface Uses {
  readonly id: string;
  readonly class_id: string | null;
  readonly tags: readonly string[];
}

export class UsesIndex {
  private readonly byClass = new Map<string, Set<string>>();
  private readonly byTag = new Map<string, Set<string>>();

  /** An entity changed from `before` to `after` (undefined: it did not exist / no longer does). */
  update(before: Uses | undefined, after: Uses | undefined): void {
    if (before?.class_id !== after?.class_id) {
      if (before?.class_id != null) remove(this.byClass, before.class_id, before.id);
      if (after?.class_id != null) add(this.byClass, after.class_id, after.id);
    }
    if (before?.tags === after?.tags) return;
    for (const t of before?.tags ?? []) if (!after?.tags.includes(t)) remove(this.byTag, t, before!.id);
    for (const t of after?.tags ?? []) add(this.byTag, t, after!.id);
  }

  /** Ids of the entities of a class. */
  ofClass(classId: string): ReadonlySet<string> {
    return this.byClass.get(classId) ?? EMPTY;
  }

  /** Ids of the entities carrying a tag. */
  ofTag(tagId: string): ReadonlySet<string> {
    return this.byTag.get(tagId) ?? EMPTY;
  }

  /** The tag is gone (its entities lose it). */
  dropTag(tagId: string): void {
    this.byTag.delete(tagId);
  }
}

const EMPTY: ReadonlySet<string> = new Set();

function add(index: Map<string, Set<string>>, key: string, id: string): void {
  let set = index.get(key);
  if (!set) index.set(key, (set = new Set()));
  set.add(id);
}

function remove(index: Map<string, Set<string>>, key: string, id: string): void {
  const set = index.get(key);
  if (!set) return;
  set.delete(id);
  if (set.size === 0) index.delete(key);
}
