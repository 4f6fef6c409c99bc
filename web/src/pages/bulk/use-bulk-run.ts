// Running a bulk: POST /bulk/objects answers at once or after a second with finished: false;
// then GET /bulk/{bulkId} is polled until finished, the matched count growing meanwhile.
import { useEffect, useRef, useState } from 'react';
import { api, data } from '../../api/client';
import { nameTheItem } from '../../components/item-error';

export type BulkStatus = { bulkId: string; finished: boolean; matched: number; changed: number; errors: string[] };

const POLL_MS = 500;

export function useBulkRun() {
  const [status, setStatus] = useState<BulkStatus>();
  const [error, setError] = useState<unknown>();
  const [running, setRunning] = useState(false);
  const alive = useRef(true);
  useEffect(() => {
    alive.current = true;
    return () => void (alive.current = false);
  }, []);

  async function run(search: Record<string, unknown>, bulk: Array<Record<string, unknown>>, labels: string[]) {
    setRunning(true);
    setError(undefined);
    setStatus(undefined);
    try {
      const started = data(await api.POST('/node/api/bulk/objects', { body: { search, bulk } }));
      let current = data(await api.GET('/node/api/bulk/{bulkId}', { params: { path: { bulkId: started.bulkId } } }));
      while (alive.current && !current.finished) {
        setStatus(current);
        await new Promise((r) => setTimeout(r, POLL_MS));
        current = data(await api.GET('/node/api/bulk/{bulkId}', { params: { path: { bulkId: started.bulkId } } }));
      }
      if (alive.current) setStatus(current);
    } catch (err) {
      if (alive.current) setError(nameTheItem(err, 'bulk', labels, 'operation'));
    } finally {
      if (alive.current) setRunning(false);
    }
  }

  return { status, error, running, run };
}
