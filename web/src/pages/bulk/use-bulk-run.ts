// Running a bulk: POST /bulk/objects answers at once or after a second with finished: false;
// then GET /bulk/{bulkId} is polled until finished, the matched count growing meanwhile.
import { useEffect, useRef, useState } from 'react';
import { api, ApiError, data } from '../../api/client';

export type BulkStatus = { bulkId: string; finished: boolean; matched: number; changed: number; errors: string[] };

const POLL_MS = 500;

/** The server names a bad operation `bulk[i]…`; this adds which operation of the page it is. */
function nameTheOperation(err: unknown, labels: string[]): unknown {
  if (!(err instanceof ApiError)) return err;
  const m = /^bulk\[(\d+)\]/.exec(err.message);
  const label = m ? labels[Number(m[1])] : undefined;
  return label ? new ApiError(err.status, err.code, `${err.message} (operation ${Number(m![1]) + 1}: ${label})`) : err;
}

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
      if (alive.current) setError(nameTheOperation(err, labels));
    } finally {
      if (alive.current) setRunning(false);
    }
  }

  return { status, error, running, run };
}
