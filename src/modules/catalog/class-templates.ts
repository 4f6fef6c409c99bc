// The class templates in memory: each class's condition documents and properties, which the
// entities of the class follow where they have none of their own (core/classes/effective.ts).
// Kept by the catalog with its other maps and written only through its `take`.
import type { ClassPropRow, ClassSettingKind, ClassSettingRow } from '../../storage/catalog-types.js';

export class ClassTemplates {
  private readonly settings = new Map<string, Map<ClassSettingKind, ClassSettingRow>>();
  /** Per class, in id order. */
  private readonly props = new Map<string, ClassPropRow[]>();

  setting(classId: string, kind: ClassSettingKind): ClassSettingRow | undefined {
    return this.settings.get(classId)?.get(kind);
  }

  *settingsOfKind(kind: ClassSettingKind): IterableIterator<ClassSettingRow> {
    for (const kinds of this.settings.values()) {
      const row = kinds.get(kind);
      if (row) yield row;
    }
  }

  /** The class's properties (undefined: none). */
  propsOf(classId: string): readonly ClassPropRow[] | undefined {
    const list = this.props.get(classId);
    return list && list.length > 0 ? list : undefined;
  }

  putSetting(row: ClassSettingRow): void {
    let map = this.settings.get(row.class_id);
    if (!map) this.settings.set(row.class_id, (map = new Map()));
    map.set(row.kind, row);
  }

  deleteSetting(classId: string, kind: ClassSettingKind): void {
    this.settings.get(classId)?.delete(kind);
  }

  putProp(row: ClassPropRow): void {
    const list = (this.props.get(row.class_id) ?? []).filter((p) => p.id !== row.id);
    list.push(row);
    list.sort((a, b) => Number(a.id) - Number(b.id));
    this.props.set(row.class_id, list);
  }

  deleteProp(classId: string, id: string): void {
    const list = this.props.get(classId);
    if (list) this.props.set(classId, list.filter((p) => p.id !== id));
  }

  /** A deleted class's templates (the store cascades). */
  dropClass(classId: string): void {
    this.settings.delete(classId);
    this.props.delete(classId);
  }
}
