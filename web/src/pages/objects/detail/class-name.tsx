// A class id shown as its name (GET /classes, once per mount).
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';

export function ClassName({ id }: { id: string | null }) {
  const classes = useApi(() => (id === null ? Promise.resolve([]) : api.GET('/node/api/classes').then(data)), [id]);
  if (id === null) return <span>none</span>;
  return <span>{classes.data?.find((c) => c.id === id)?.name ?? `class ${id}`}</span>;
}
