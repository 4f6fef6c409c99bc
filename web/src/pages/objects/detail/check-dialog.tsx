// Add a check (POST /props {name, type_id: 8, value: definition}) or change one (PATCH the
// property). The server validates the definition; its 400 (naming the field) is shown as is.
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { Dialog } from '../../../components/dialog';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { useAction } from '../../../components/use-action';
import { CHECK_TYPES, checkFromForm, emptyCheckForm, formFromCheck, type CheckFormState, type CheckType } from './check-form-state';
import { CheckTypeFields, type SetField } from './check-type-fields';
import { SnmpFields } from './snmp-fields';
import type { Check } from './types';
import { useEntityRoute } from './entity';
import { DialogButtons } from '../../../components/dialog-buttons';

const TARGET_HINT: Record<CheckType, string> = {
  http: 'http(s):// URL',
  tcp: 'host:port',
  ping: 'host',
  dns: 'DNS name',
  snmp: 'host or host:port',
};

export function CheckDialog({ id, check, onClose, onSaved }: { id: string; check?: Check; onClose: () => void; onSaved: () => void }) {
  const r = useEntityRoute();
  const [f, setF] = useState<CheckFormState>(() => (check ? formFromCheck(check.name, check.definition) : emptyCheckForm()));
  const save = useAction();
  // Agent names for the datalist; a user who may see none simply types the name.
  const agents = useApi(() => api.GET('/node/api/agents').then(data), []);
  const set: SetField = (key, value) => setF((prev) => ({ ...prev, [key]: value }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await save.run(async () => {
      const value = checkFromForm(f, check?.definition);
      if (check) {
        const body = { value, ...(f.name !== check.name ? { name: f.name } : {}) };
        await api.PATCH(r('/node/api/objects/{id}/props/{propId}'), { params: { path: { id, propId: check.propertyId } }, body });
      } else {
        await api.POST(r('/node/api/objects/{id}/props'), { params: { path: { id } }, body: { name: f.name, type_id: 8, value } });
      }
      onSaved();
    });
  };

  return (
    <Dialog title={check ? `Edit check ${check.name}` : 'Add check'} open onClose={onClose}>
      <form onSubmit={submit}>
        <div className="obj-form-grid">
          <Field label="Check name" hint="the property's name, unique on this object">
            <input value={f.name} onChange={(e) => set('name', e.target.value)} required />
          </Field>
          <Field label="Check type">
            <select value={f.type} onChange={(e) => set('type', e.target.value as CheckType)}>
              {CHECK_TYPES.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </Field>
          <Field label="Target" hint={TARGET_HINT[f.type]}>
            <input value={f.target} onChange={(e) => set('target', e.target.value)} required />
          </Field>
          <Field label="Interval" hint='ms, or "30s", "5m"'>
            <input value={f.interval} onChange={(e) => set('interval', e.target.value)} required />
          </Field>
          <Field label="Timeout" hint="default 10 s, at most the interval">
            <input value={f.timeout} onChange={(e) => set('timeout', e.target.value)} />
          </Field>
          <Field label="Metric prefix" hint="metrics become prefix.name; one per check">
            <input value={f.prefix} onChange={(e) => set('prefix', e.target.value)} />
          </Field>
          <Field label="Agent" hint="remote agent's name; empty: the server runs it">
            <input value={f.agent} onChange={(e) => set('agent', e.target.value)} list="obj-agents" />
          </Field>
          <datalist id="obj-agents">
            {(agents.data ?? []).map((a) => (
              <option key={a.id} value={a.name} />
            ))}
          </datalist>
          <label className="obj-check">
            <input type="checkbox" checked={f.enabled} onChange={(e) => set('enabled', e.target.checked)} /> Enabled
          </label>
        </div>
        {f.type === 'snmp' ? <SnmpFields f={f} set={set} /> : <CheckTypeFields f={f} set={set} />}
        <ErrorBanner error={save.error} />
        <DialogButtons label={check ? 'Save check' : 'Add check'} disabled={save.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
