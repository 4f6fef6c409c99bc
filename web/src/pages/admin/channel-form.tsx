// A notification channel's name, type, settings (by type) and templates, for adding one and
// for changing one (its type then stays). Secrets come back as ******** to users without
// manage-service-properties; saved unchanged they keep the stored value.
import { useState, type FormEvent } from 'react';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { useAction } from '../../components/use-action';
import { CHANNEL_TYPES, SETTINGS_FIELDS, type Channel, type ChannelInput, type ChannelType } from './notification-types';

type Texts = Record<string, string>;

function textsOf(settings: Record<string, unknown>): Texts {
  const out: Texts = {};
  for (const [k, v] of Object.entries(settings)) {
    if (Array.isArray(v)) out[k] = v.join('\n');
    else if (typeof v === 'object' && v !== null) out[k] = Object.entries(v).map(([n, x]) => `${n}: ${String(x)}`).join('\n');
    else out[k] = String(v ?? '');
  }
  return out;
}

function settingsOf(type: ChannelType, texts: Texts): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of SETTINGS_FIELDS[type]) {
    const text = (texts[f.key] ?? '').trim();
    if (f.kind === 'lines') out[f.key] = text.split('\n').map((l) => l.trim()).filter(Boolean);
    else if (f.kind === 'headers') {
      if (!text) continue;
      out[f.key] = Object.fromEntries(text.split('\n').filter((l) => l.includes(':')).map((l) => [l.slice(0, l.indexOf(':')).trim(), l.slice(l.indexOf(':') + 1).trim()]));
    } else if (text || f.kind === 'method') out[f.key] = text || 'POST';
  }
  return out;
}

export function ChannelForm({ initial, submitLabel, onSubmit, onCancel }: {
  initial?: Channel;
  submitLabel: string;
  onSubmit: (input: ChannelInput) => Promise<void>;
  onCancel?: () => void;
}) {
  const [name, setName] = useState(initial?.name ?? '');
  const [type, setType] = useState<ChannelType>(initial?.type ?? 'slack');
  const [texts, setTexts] = useState<Texts>(textsOf(initial?.settings ?? {}));
  const [subject, setSubject] = useState(initial?.templates.subject ?? '');
  const [body, setBody] = useState(initial?.templates.body ?? '');
  const save = useAction();
  const label = initial ? `Edit channel ${initial.name}` : 'Add a channel';

  async function submit(e: FormEvent) {
    e.preventDefault();
    const templates = { ...(subject ? { subject } : {}), ...(body ? { body } : {}) };
    const ok = await save.run(() => onSubmit({ name: name.trim(), type, settings: settingsOf(type, texts), templates }));
    if (ok && !initial) {
      setName('');
      setTexts({});
      setSubject('');
      setBody('');
    }
  }

  return (
    <form onSubmit={submit} aria-label={label} className="notif-form">
      <ErrorBanner error={save.error} />
      <div className="adm-inline-form">
        <Field label="Channel name">
          <input value={name} onChange={(e) => setName(e.target.value)} required maxLength={200} />
        </Field>
        <Field label="Channel type">
          <select value={type} disabled={initial !== undefined} onChange={(e) => setType(e.target.value as ChannelType)}>
            {CHANNEL_TYPES.map((t) => <option key={t.type} value={t.type}>{t.label}</option>)}
          </select>
        </Field>
        {SETTINGS_FIELDS[type].map((f) => (
          <Field key={`${type}-${f.key}`} label={f.label}>
            {f.kind === 'method' ? (
              <select value={texts[f.key] || 'POST'} onChange={(e) => setTexts({ ...texts, [f.key]: e.target.value })}>
                {['POST', 'PUT', 'PATCH', 'GET', 'DELETE'].map((m) => <option key={m}>{m}</option>)}
              </select>
            ) : f.kind ? (
              <textarea rows={2} value={texts[f.key] ?? ''} onChange={(e) => setTexts({ ...texts, [f.key]: e.target.value })} />
            ) : (
              <input value={texts[f.key] ?? ''} onChange={(e) => setTexts({ ...texts, [f.key]: e.target.value })} required />
            )}
          </Field>
        ))}
      </div>
      <div className="adm-inline-form">
        <Field label="Subject template" hint="{{title}}, {{summary}}, {{count}}, {{names}}, {{entity.name}}, {{entity.path}}, {{incident.text}}, {{incident.level}}… Empty: the default.">
          <input value={subject} onChange={(e) => setSubject(e.target.value)} maxLength={4000} />
        </Field>
        <Field label="Body template">
          <textarea rows={2} value={body} onChange={(e) => setBody(e.target.value)} maxLength={4000} />
        </Field>
        <button type="submit" className="primary" disabled={save.busy}>{submitLabel}</button>
        {onCancel ? <button type="button" onClick={onCancel}>Cancel</button> : null}
      </div>
    </form>
  );
}
