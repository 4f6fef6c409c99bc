// The check scheduler's counters (GET /probes/counters) as a labelled table: one row per
// counter, with what it counts.
import type { ProbeCounters } from './operations-types';

const ROWS: Array<[keyof ProbeCounters, string, string]> = [
  ['checks', 'Checks', 'checks the server schedules'],
  ['running', 'Running', 'running now'],
  ['waiting', 'Waiting', 'waiting for a free slot'],
  ['started', 'Started', 'started since the server started'],
  ['completed', 'Completed', 'finished with a result'],
  ['failed', 'Failed', 'completed with available 0'],
  ['skipped', 'Skipped', 'due while the same check still ran'],
  ['late', 'Late', 'waited longer than their interval, dropped'],
  ['paused', 'Paused', 'due while their object was disabled'],
];

export function ProbeCountersTable({ counters }: { counters: ProbeCounters }) {
  return (
    <div className="table-wrap">
      <table aria-label="Probe counters">
        <thead>
          <tr>
            <th scope="col">Counter</th>
            <th scope="col" className="ops-num">Value</th>
            <th scope="col">Meaning</th>
          </tr>
        </thead>
        <tbody>
          {ROWS.map(([key, label, meaning]) => (
            <tr key={key}>
              <th scope="row">{label}</th>
              <td className="ops-num">{counters[key]}</td>
              <td className="muted">{meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
