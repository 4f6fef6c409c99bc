// A link's name, ends (each linking to its object), state and class, with renaming
// (PATCH /links/{id} {name}) and deleting (DELETE /links/{id}, confirmed; then back to /objects).
import { useState } from 'react';
import { Link, useLocation } from 'wouter';
import { api } from '../../../api/client';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { MaintenanceBadge } from '../../../components/maintenance-badge';
import { StateBadge } from '../../../components/states';
import { ClassName } from './class-name';
import { EditLinkDialog } from './edit-link-dialog';
import type { LinkRecord } from './types';

export function LinkHeader({ link, onSaved }: { link: LinkRecord; onSaved: () => void }) {
  const [dialog, setDialog] = useState<'edit' | 'delete'>();
  const [, navigate] = useLocation();
  const ends = `${link.source_name ?? link.source} → ${link.target_name ?? link.target}`;
  const title = link.name || ends;
  return (
    <header className="obj-header">
      <div className="obj-title">
        <h1>{title}</h1>
        {link.state_id !== undefined ? <StateBadge stateId={link.state_id} /> : null}
        <MaintenanceBadge maintenance={link.maintenance} />
        <span className="spacer" />
        <button type="button" onClick={() => setDialog('edit')}>
          Edit link
        </button>
        <button type="button" className="danger" onClick={() => setDialog('delete')}>
          Delete link
        </button>
      </div>
      <p className="obj-path" aria-label="Link ends">
        Link from <Link href={`/objects/${link.source}`}>{link.source_name ?? `object ${link.source}`}</Link> →{' '}
        <Link href={`/objects/${link.target}`}>{link.target_name ?? `object ${link.target}`}</Link>
      </p>
      <p className="muted obj-path">
        Class: <ClassName id={link.class_id ?? null} /> · id {link.id}
      </p>
      {dialog === 'edit' ? (
        <EditLinkDialog
          link={link}
          onClose={() => setDialog(undefined)}
          onSaved={() => {
            setDialog(undefined);
            onSaved();
          }}
        />
      ) : null}
      {dialog === 'delete' ? (
        <ConfirmDialog
          title="Delete link"
          message={<>Delete the link <strong>{title}</strong> (id {link.id}) with its properties, checks and conditions?</>}
          confirmLabel={`Delete link ${title}`}
          onConfirm={async () => {
            await api.DELETE('/node/api/links/{id}', { params: { path: { id: link.id } } });
            navigate('/objects');
          }}
          onClose={() => setDialog(undefined)}
        />
      ) : null}
    </header>
  );
}
