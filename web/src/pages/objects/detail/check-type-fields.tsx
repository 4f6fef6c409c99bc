// The fields of each check type but SNMP (see README "Checks and remote agents").
import { Field } from '../../../components/field';
import type { CheckFormState } from './check-form-state';

export type SetField = <K extends keyof CheckFormState>(key: K, value: CheckFormState[K]) => void;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const RECORDS = ['A', 'AAAA', 'MX', 'TXT'];

export function CheckTypeFields({ f, set }: { f: CheckFormState; set: SetField }) {
  switch (f.type) {
    case 'http':
      return (
        <div className="obj-form-grid">
          <Field label="Method">
            <select value={f.method} onChange={(e) => set('method', e.target.value)}>
              {METHODS.map((m) => (
                <option key={m}>{m}</option>
              ))}
            </select>
          </Field>
          <Field label="Expected status" hint="codes, comma-separated; empty: any 2xx or 3xx">
            <input value={f.expectedStatus} onChange={(e) => set('expectedStatus', e.target.value)} inputMode="numeric" />
          </Field>
          <Field label="Body contains">
            <input value={f.bodyContains} onChange={(e) => set('bodyContains', e.target.value)} />
          </Field>
          <Field label="Body matches" hint="RE2 regular expression">
            <input value={f.bodyRegex} onChange={(e) => set('bodyRegex', e.target.value)} />
          </Field>
          <label className="obj-check">
            <input type="checkbox" checked={f.insecure} onChange={(e) => set('insecure', e.target.checked)} /> Accept self-signed certificates
          </label>
        </div>
      );
    case 'tcp':
      return (
        <Field label="Port" hint="when the target has no :port">
          <input value={f.port} onChange={(e) => set('port', e.target.value)} inputMode="numeric" />
        </Field>
      );
    case 'ping':
      return (
        <Field label="Echo requests per run" hint="default 3">
          <input value={f.count} onChange={(e) => set('count', e.target.value)} inputMode="numeric" />
        </Field>
      );
    case 'dns':
      return (
        <div className="obj-form-grid">
          <Field label="Record type">
            <select value={f.recordType} onChange={(e) => set('recordType', e.target.value)}>
              {RECORDS.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          </Field>
          <Field label="DNS server" hint="ip or ip:port; empty: the system's resolvers">
            <input value={f.server} onChange={(e) => set('server', e.target.value)} />
          </Field>
          <Field label="Expected answer">
            <input value={f.expected} onChange={(e) => set('expected', e.target.value)} />
          </Field>
        </div>
      );
    default:
      return null;
  }
}
