// The object's name, path(s), state, class and tags, with the dialog that edits them. An object
// with several parents has several paths: each is shown, its steps linking to those objects.
import { useState } from 'react';
import { Link } from 'wouter';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { MaintenanceBadge } from '../../../components/maintenance-badge';
import { StateBadge } from '../../../components/states';
import type { Picked } from '../pickers/object-picker';
import { ClassName } from './class-name';
import { EditObjectDialog } from './edit-object-dialog';
import type { ObjectRecord, Tag } from './types';

/** Each path of GET /objects/{id}/paths (ids from the object up) as named steps from the root down. */
function stepsOf(answer: { paths: string[][]; objects: Array<{ id: string; name: string }> }): Picked[][] {
  const names = new Map(answer.objects.map((o) => [o.id, o.name]));
  return answer.paths.map((path) => [...path].reverse().map((id) => ({ id, name: names.get(id) ?? `object ${id}` })));
}

export function ObjectHeader({ object, tags, onSaved }: { object: ObjectRecord; tags: Tag[] | undefined; onSaved: () => void }) {
  const [editing, setEditing] = useState(false);
  const names = new Map((tags ?? []).map((t) => [t.id, t.name]));
  const answer = useApi(() => api.GET('/node/api/objects/{id}/paths', { params: { path: { id: object.id } } }).then(data), [object.id, (object.parent_id ?? []).join(','), object.name]);
  const paths = answer.data ? stepsOf(answer.data) : undefined;
  // The parents' names, from the step before the object on each path.
  const parents = new Map<string, Picked>();
  for (const p of paths ?? []) {
    const step = p[p.length - 2];
    if (step) parents.set(step.id, step);
  }
  const parentList = (object.parent_id ?? []).map((id) => parents.get(id) ?? { id, name: `object ${id}` });
  const many = (paths?.length ?? 0) > 1;
  return (
    <header className="obj-header">
      <div className="obj-title">
        <h1>{object.name}</h1>
        {object.state_id !== undefined ? <StateBadge stateId={object.state_id} /> : null}
        <MaintenanceBadge maintenance={object.maintenance} />
        <span className="spacer" />
        <button type="button" onClick={() => setEditing(true)}>
          Edit name and tags
        </button>
      </div>
      {many ? (
        <ul className="obj-paths" aria-label="Paths">
          {paths!.map((p) => (
            <li key={p.map((s) => s.id).join('/')} className="obj-path">
              {p.slice(0, -1).map((s) => (
                <span key={s.id}>
                  <Link href={`/objects/${s.id}`}>{s.name}</Link> /{' '}
                </span>
              ))}
              {object.name}
            </li>
          ))}
        </ul>
      ) : (
        <p className="muted obj-path">
          {object.path || '/'} · id {object.id}
        </p>
      )}
      <ErrorBanner error={answer.error} />
      <p className="muted obj-path">
        Class: <ClassName id={object.class_id ?? null} />
        {many ? <> · id {object.id}</> : null}
      </p>
      <ul className="obj-tags" aria-label="Tags">
        {(object.tags ?? []).map((id) => (
          <li key={id} className="obj-tag">
            {names.get(id) ?? `tag ${id}`}
          </li>
        ))}
        {(object.tags ?? []).length === 0 ? <li className="muted">no tags</li> : null}
      </ul>
      {editing ? (
        <EditObjectDialog
          object={object}
          tags={tags ?? []}
          parents={parentList}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setEditing(false);
            onSaved();
          }}
        />
      ) : null}
    </header>
  );
}
