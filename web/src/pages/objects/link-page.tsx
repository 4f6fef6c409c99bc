// The page of one link (/links/:id): header (name, source → target, state, class) and the same
// detail tabs as an object's, on the /links/{id}/... routes. Live events of this link refresh
// the header state, last data and check results.
import { Link } from 'wouter';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ErrorBanner } from '../../components/error-banner';
import { DetailTabs } from './detail/detail-tabs';
import { EntityProvider } from './detail/entity';
import { LinkHeader } from './detail/link-header';
import { useEntityLive } from './detail/use-entity-live';
import './detail/object-detail.css';

export default function LinkPage({ id }: { id: string }) {
  const link = useApi(() => api.GET('/node/api/links/{id}', { params: { path: { id } } }).then(data), [id]);
  const live = useEntityLive(id, link.reload);

  if (link.data === undefined) {
    return (
      <div>
        <p>
          <Link href="/objects">← Objects</Link>
        </p>
        <ErrorBanner error={link.error} />
        {link.loading ? <p className="loading">Loading…</p> : null}
      </div>
    );
  }
  const shown = live.liveStateId !== undefined ? { ...link.data, state_id: live.liveStateId } : link.data;
  return (
    <EntityProvider entity="links">
      <div className="obj-page">
        <p className="obj-back">
          <Link href="/objects">← Objects</Link>
        </p>
        <LinkHeader link={shown} onSaved={live.reloadRecord} />
        <ErrorBanner error={link.error} />
        <DetailTabs id={id} label="Link sections" statTick={live.statTick} stateTick={live.stateTick} onStateChanged={live.stateChanged} />
      </div>
    </EntityProvider>
  );
}
