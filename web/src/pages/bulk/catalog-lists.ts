// The tags and classes the bulk builders offer by name (GET /tags, GET /classes; both are
// short lists, loaded once per page).
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';

export interface Named {
  id: string;
  name: string;
}

export function useCatalogLists() {
  return useApi(async () => {
    const [tags, classes] = await Promise.all([api.GET('/node/api/tags'), api.GET('/node/api/classes')]);
    const named = (list: Array<{ id: string; name: string }>): Named[] =>
      list.map(({ id, name }) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
    return { tags: named(data(tags)), classes: named(data(classes)) };
  }, []);
}
