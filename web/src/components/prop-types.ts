// Property type ids as the API knows them (1 info, 2 read-only, 3 read-write, 6 external link,
// 7 document, 8 service, 101+ user-defined), named for the object page and the bulk editor.
export const PROP_TYPES: Array<{ id: number; name: string }> = [
  { id: 1, name: 'Info' },
  { id: 2, name: 'Read-only' },
  { id: 3, name: 'Read-write' },
  { id: 6, name: 'External link' },
  { id: 7, name: 'Document' },
  { id: 8, name: 'Service' },
];

export function propTypeName(id: number): string {
  return PROP_TYPES.find((t) => t.id === id)?.name ?? (id >= 101 ? `Custom ${id}` : `Type ${id}`);
}
