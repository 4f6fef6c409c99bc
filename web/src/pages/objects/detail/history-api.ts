// GET /objects/{id}/history, and its series type as the typed client returns it.
import { api, data } from '../../../api/client';

export interface HistoryQuery {
  metrics: string;
  from: string;
  to: string;
  downsample?: string;
}

export function loadHistory(id: string, query: HistoryQuery) {
  return api.GET('/node/api/objects/{id}/history', { params: { path: { id }, query } }).then(data);
}

export type Series = Awaited<ReturnType<typeof loadHistory>>[number];
