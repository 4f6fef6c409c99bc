// The class of an object or link: a select of GET /classes, with "No class" for null.
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';

export function ClassSelect({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const classes = useApi(() => api.GET('/node/api/classes').then(data), []);
  const known = (classes.data ?? []).some((c) => c.id === value);
  return (
    <>
      <Field label="Class">
        <select value={value ?? ''} onChange={(e) => onChange(e.target.value === '' ? null : e.target.value)} disabled={classes.loading && !classes.data}>
          <option value="">No class</option>
          {/* A class this user cannot list still shows as itself rather than vanishing. */}
          {value !== null && !known ? <option value={value}>class {value}</option> : null}
          {(classes.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
      </Field>
      <ErrorBanner error={classes.error} />
    </>
  );
}
