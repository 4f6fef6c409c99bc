// GET /objects/{id}/history (or /links/{id}/history), and its series type as the typed client returns it.
import { api, data } from '../../../api/client';
import type { RouteOf } from './entity';

export interface HistoryQuery {
  metrics: string;
  from: string;
  to: string;
  downsample?: string;
}

export function loadHistory(r: RouteOf, id: string, query: HistoryQuery) {
  return api.GET(r('/node/api/objects/{id}/history'), { params: { path: { id }, query } }).then(data);
}

export type Series = Awaited<ReturnType<typeof loadHistory>>[number];
