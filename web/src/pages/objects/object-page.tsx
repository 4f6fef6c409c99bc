// The page of one object (/objects/:id): header (name, paths, state, class, tags) and the
// detail tabs. Live 'state' and 'stat' events of this object refresh the header state, last
// data and check results.
import { Link } from 'wouter';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ErrorBanner } from '../../components/error-banner';
import { DetailTabs } from './detail/detail-tabs';
import { EntityProvider } from './detail/entity';
import { ObjectHeader } from './detail/object-header';
import { useEntityLive } from './detail/use-entity-live';
import './detail/object-detail.css';

export default function ObjectPage({ id }: { id: string }) {
  const object = useApi(() => api.GET('/node/api/objects/{id}', { params: { path: { id } } }).then(data), [id]);
  const tags = useApi(() => api.GET('/node/api/tags').then(data), []);
  const live = useEntityLive(id, object.reload);

  if (object.data === undefined) {
    return (
      <div>
        <p>
          <Link href="/objects">← Objects</Link>
        </p>
        <ErrorBanner error={object.error} />
        {object.loading ? <p className="loading">Loading…</p> : null}
      </div>
    );
  }
  // A live state change is newer than the record loaded with the page.
  const shown = live.liveStateId !== undefined ? { ...object.data, state_id: live.liveStateId } : object.data;
  return (
    <EntityProvider entity="objects">
      <div className="obj-page">
        <p className="obj-back">
          <Link href="/objects">← Objects</Link>
        </p>
        <ObjectHeader object={shown} tags={tags.data} onSaved={live.reloadRecord} />
        <ErrorBanner error={object.error ?? tags.error} />
        <DetailTabs id={id} label="Object sections" statTick={live.statTick} stateTick={live.stateTick} onStateChanged={live.stateChanged} />
      </div>
    </EntityProvider>
  );
}
