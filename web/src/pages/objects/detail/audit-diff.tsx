// One audit record's change: the fields that differ, in a line, and the whole record before and
// after behind a disclosure (records can be long: a conditions document, a check definition).
const text = (v: unknown) => (v === undefined || v === null ? '—' : JSON.stringify(v, null, 2));

function changedKeys(before: unknown, after: unknown): string[] {
  const obj = (v: unknown) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);
  const a = obj(before);
  const b = obj(after);
  if (!a || !b) return [];
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  // Timestamps change on every update and say nothing of what changed.
  keys.delete('updated');
  return [...keys].filter((k) => JSON.stringify(a[k]) !== JSON.stringify(b[k]));
}

export function AuditDiff({ before, after, label }: { before: unknown; after: unknown; label: string }) {
  const keys = changedKeys(before, after);
  const summary = keys.length > 0 ? keys.join(', ') : before == null ? 'created' : after == null ? 'deleted' : 'details';
  return (
    <details className="obj-audit-diff">
      <summary aria-label={`Change of ${label}: ${summary}`}>{summary}</summary>
      <div className="obj-audit-sides">
        <div>
          <strong>Before</strong>
          <pre>{text(before)}</pre>
        </div>
        <div>
          <strong>After</strong>
          <pre>{text(after)}</pre>
        </div>
      </div>
    </details>
  );
}
