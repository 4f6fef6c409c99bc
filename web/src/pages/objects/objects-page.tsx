// /objects: every object as a tree (or as a map of one object's children), a name search,
// creating and deleting objects, and creating links. The selection (a tree row or a search hit, the root by
// default) is the parent of a new object, what Delete removes, and whose children the map
// draws (and whose children a new link joins). The view (?view=map) is in the address so it survives a reload.
import { useState } from 'react';
import { useLocation, useSearch } from 'wouter';
import { api } from '../../api/client';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { useDebounced } from '../../components/use-debounced';
import { NewLinkDialog } from './links/new-link-dialog';
import { ObjectMap } from './map/object-map';
import { CreateObjectDialog } from './tree/create-object-dialog';
import { ObjectTree } from './tree/object-tree';
import { SearchResults } from './tree/search-results';
import { ROOT_ID, type Selection } from './tree/types';
import { useLiveStates } from './tree/use-live-states';
import { useTreeStore } from './tree/use-tree-store';
import './tree/objects.css';

export default function ObjectsPage() {
  const store = useTreeStore();
  const live = useLiveStates();
  const [, navigate] = useLocation();
  const view = new URLSearchParams(useSearch()).get('view') === 'map' ? 'map' : 'tree';
  const root: Selection = { id: ROOT_ID, name: store.object(ROOT_ID)?.name ?? 'Root', key: ROOT_ID };
  const [selected, setSelected] = useState<Selection>();
  const target = selected ?? root;
  const [dialog, setDialog] = useState<'create' | 'delete' | 'link'>();
  const [revision, setRevision] = useState(0);
  const [query, setQuery] = useState('');
  const applied = useDebounced(query.trim(), 300);

  const created = () => {
    setDialog(undefined);
    // Shown under the parent: its children load again (or for the first time, by expanding).
    if (target.key && !store.kids(target.id)) store.expand(target.key, target.id);
    else {
      store.refresh(target.id);
      if (target.key) store.expand(target.key, target.id);
    }
    setRevision((r) => r + 1);
  };

  const deleted = (id: string) => {
    setDialog(undefined);
    store.forget(id);
    // The selection moves up to the parent row it was under (the root for a search hit).
    const parentKey = target.key?.split('/').slice(0, -1).join('/');
    const parentId = parentKey?.split('/').pop();
    setSelected(parentKey && parentId ? { id: parentId, name: store.object(parentId)?.name ?? parentId, key: parentKey } : undefined);
    setRevision((r) => r + 1);
  };

  return (
    <>
      <h1>Objects</h1>
      <div className="row obj-toolbar">
        <div className="obj-views" role="group" aria-label="View">
          <button type="button" aria-pressed={view === 'tree'} onClick={() => navigate('/objects')}>
            Tree
          </button>
          <button type="button" aria-pressed={view === 'map'} onClick={() => navigate('/objects?view=map')}>
            Map
          </button>
        </div>
        <input
          type="search"
          className="obj-search"
          aria-label="Search objects by name"
          placeholder="Search by name…"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          onKeyDown={(e) => e.key === 'Escape' && setQuery('')}
        />
        <span className="spacer" />
        <span className="muted obj-selected" aria-live="polite">
          Selected: <strong>{target.name}</strong>
        </span>
        <button type="button" className="primary" onClick={() => setDialog('create')}>
          New object
        </button>
        <button type="button" onClick={() => setDialog('link')}>
          New link
        </button>
        <button type="button" className="danger" disabled={target.id === ROOT_ID} onClick={() => setDialog('delete')} title={target.id === ROOT_ID ? 'The root cannot be deleted' : undefined}>
          Delete
        </button>
      </div>
      {applied ? (
        <SearchResults query={applied} live={live} selected={selected} onSelect={setSelected} revision={revision} />
      ) : view === 'map' ? (
        <ObjectMap parent={target} live={live} revision={revision} onSelect={setSelected} />
      ) : (
        <ObjectTree store={store} live={live} selected={target} onSelect={setSelected} />
      )}
      <CreateObjectDialog open={dialog === 'create'} parent={target} onClose={() => setDialog(undefined)} onCreated={created} />
      {dialog === 'link' ? (
        <NewLinkDialog
          parent={target}
          onClose={() => setDialog(undefined)}
          onCreated={() => {
            setDialog(undefined);
            setRevision((r) => r + 1);
          }}
        />
      ) : null}
      {dialog === 'delete' ? (
        <ConfirmDialog
          title="Delete object"
          // The server also deletes the children this leaves without a parent: said before it is done.
          message={<>Delete <strong>{target.name}</strong> (id {target.id})? Its children that have no other parent are deleted too, with their links.</>}
          confirmLabel={`Delete ${target.name}`}
          onConfirm={async () => {
            await api.DELETE('/node/api/objects/{id}', { params: { path: { id: target.id } } });
            deleted(target.id);
          }}
          onClose={() => setDialog(undefined)}
        />
      ) : null}
    </>
  );
}
