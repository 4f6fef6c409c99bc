// SNMP check fields: version, community (v1/v2c) or user (v3), and the OIDs one per line.
import { Field } from '../../../components/field';
import type { CheckFormState } from './check-form-state';
import type { SetField } from './check-type-fields';

const LEVELS = ['noAuthNoPriv', 'authNoPriv', 'authPriv'];
const AUTH = ['md5', 'sha', 'sha224', 'sha256', 'sha384', 'sha512'];
const PRIV = ['aes', 'aes256b', 'aes256r'];

function Choice({ label, value, options, onChange }: { label: string; value: string; options: string[]; onChange: (v: string) => void }) {
  return (
    <Field label={label}>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {options.map((o) => (
          <option key={o}>{o}</option>
        ))}
      </select>
    </Field>
  );
}

export function SnmpFields({ f, set }: { f: CheckFormState; set: SetField }) {
  return (
    <div>
      <div className="obj-form-grid">
        <Choice label="SNMP version" value={f.version} options={['1', '2c', '3']} onChange={(v) => set('version', v)} />
        <Field label="SNMP port" hint="default 161">
          <input value={f.port} onChange={(e) => set('port', e.target.value)} inputMode="numeric" />
        </Field>
        {f.version === '3' ? (
          <>
            <Field label="SNMP user">
              <input value={f.userName} onChange={(e) => set('userName', e.target.value)} required />
            </Field>
            <Choice label="Security level" value={f.level} options={LEVELS} onChange={(v) => set('level', v)} />
            {f.level !== 'noAuthNoPriv' ? (
              <>
                <Choice label="Auth protocol" value={f.authProtocol} options={AUTH} onChange={(v) => set('authProtocol', v)} />
                <Field label="Auth key">
                  <input type="password" autoComplete="off" value={f.authKey} onChange={(e) => set('authKey', e.target.value)} />
                </Field>
              </>
            ) : null}
            {f.level === 'authPriv' ? (
              <>
                <Choice label="Privacy protocol" value={f.privProtocol} options={PRIV} onChange={(v) => set('privProtocol', v)} />
                <Field label="Privacy key">
                  <input type="password" autoComplete="off" value={f.privKey} onChange={(e) => set('privKey', e.target.value)} />
                </Field>
              </>
            ) : null}
          </>
        ) : (
          <Field label="Community" hint="default public">
            <input value={f.community} onChange={(e) => set('community', e.target.value)} autoComplete="off" />
          </Field>
        )}
      </div>
      <Field label="OIDs" hint="one per line: oid [name] [rate] [scale], e.g. 1.3.6.1.2.1.2.2.1.10.1 if1.inBits rate 8">
        <textarea rows={4} value={f.oids} onChange={(e) => set('oids', e.target.value)} required />
      </Field>
    </div>
  );
}
