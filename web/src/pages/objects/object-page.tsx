// The page of one object (/objects/:id): header (name, path, state, tags) and tabs for its
// overview, properties, checks, conditions and charts. The selected tab lives in ?tab= so a
// tab can be linked to and survives a reload. Live 'state' and 'stat' events of this object
// refresh the header state, last data and check results.
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, useSearchParams } from 'wouter';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ErrorBanner } from '../../components/error-banner';
import { useLiveEvents, type LiveType } from '../../live/use-live-events';
import { ChecksTab } from './detail/checks-tab';
import { ConditionsTab } from './detail/conditions-tab';
import { ObjectHeader } from './detail/object-header';
import { OverviewTab } from './detail/overview-tab';
import { PropertiesTab } from './detail/properties-tab';
import { Tabs, type TabDef } from './detail/tabs';
import { useThrottledTick } from './detail/use-throttled-tick';
import './detail/object-detail.css';

// uPlot comes with the charts tab only.
const ChartsTab = lazy(() => import('./detail/charts-tab'));

const TABS: TabDef[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'properties', label: 'Properties' },
  { id: 'checks', label: 'Checks' },
  { id: 'conditions', label: 'Conditions' },
  { id: 'charts', label: 'Charts' },
];

export default function ObjectPage({ id }: { id: string }) {
  const object = useApi(() => api.GET('/node/api/objects/{id}', { params: { path: { id } } }).then(data), [id]);
  const tags = useApi(() => api.GET('/node/api/tags').then(data), []);
  const [params, setParams] = useSearchParams();
  const tab = TABS.some((t) => t.id === params.get('tab')) ? params.get('tab')! : 'overview';
  const [statTick, bumpStat] = useThrottledTick(1000);
  const [stateTick, setStateTick] = useState(0);
  const [liveState, setLiveState] = useState<{ id: string; stateId: number } | undefined>();

  useLiveEvents(['state', 'stat'], (type: LiveType, event: { entityId?: string; stateId?: number }) => {
    if (event.entityId !== id) return;
    if (type === 'stat') bumpStat();
    if (type === 'state' && typeof event.stateId === 'number') {
      setLiveState({ id, stateId: event.stateId });
      setStateTick((t) => t + 1);
    }
  });
  // A fresh record is at least as new as the live events seen so far.
  const reloadObject = useCallback(() => {
    setLiveState(undefined);
    object.reload();
  }, [object.reload]);
  const stateChanged = useCallback(() => {
    setStateTick((t) => t + 1);
    reloadObject();
  }, [reloadObject]);

  const select = (next: string) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        p.set('tab', next);
        return p;
      },
      { replace: true },
    );

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
  const shown = liveState?.id === id ? { ...object.data, state_id: liveState.stateId } : object.data;
  return (
    <div className="obj-page">
      <p className="obj-back">
        <Link href="/objects">← Objects</Link>
      </p>
      <ObjectHeader object={shown} tags={tags.data} onSaved={reloadObject} />
      <ErrorBanner error={object.error ?? tags.error} />
      {/* keyed by id: another object starts with fresh tab state */}
      <Tabs key={id} tabs={TABS} current={tab} onSelect={select} label="Object sections">
        {tab === 'overview' ? <OverviewTab id={id} statTick={statTick} stateTick={stateTick} onStateChanged={stateChanged} /> : null}
        {tab === 'properties' ? <PropertiesTab id={id} /> : null}
        {tab === 'checks' ? <ChecksTab id={id} statTick={statTick} /> : null}
        {tab === 'conditions' ? <ConditionsTab id={id} /> : null}
        {tab === 'charts' ? (
          <Suspense fallback={<p className="loading">Loading charts…</p>}>
            <ChartsTab id={id} />
          </Suspense>
        ) : null}
      </Tabs>
    </div>
  );
}
