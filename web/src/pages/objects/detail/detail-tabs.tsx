// The tabs of an object's or a link's page (the entity comes from EntityProvider): overview,
// properties, checks, conditions (with trigger runs), charts and audit log. The selected tab
// lives in ?tab= so a tab can be linked to and survives a reload.
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'wouter';
import { AuditTab } from './audit-tab';
import { ChecksTab } from './checks-tab';
import { ConditionsTab } from './conditions-tab';
import { DocsTab } from './docs-tab';
import { OverviewTab } from './overview-tab';
import { PropertiesTab } from './properties-tab';
import { Tabs, type TabDef } from './tabs';

// uPlot comes with the charts tab only.
const ChartsTab = lazy(() => import('./charts-tab'));

const TABS: TabDef[] = [
  { id: 'overview', label: 'Overview' },
  { id: 'properties', label: 'Properties' },
  { id: 'checks', label: 'Checks' },
  { id: 'conditions', label: 'Conditions' },
  { id: 'charts', label: 'Charts' },
  { id: 'docs', label: 'Documents' },
  { id: 'audit', label: 'Audit log' },
];

export function DetailTabs({ id, label, statTick, stateTick, onStateChanged }: { id: string; label: string; statTick: number; stateTick: number; onStateChanged: () => void }) {
  const [params, setParams] = useSearchParams();
  const tab = TABS.some((t) => t.id === params.get('tab')) ? params.get('tab')! : 'overview';
  const select = (next: string) =>
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        p.set('tab', next);
        return p;
      },
      { replace: true },
    );
  return (
    // keyed by id: another entity starts with fresh tab state
    <Tabs key={id} tabs={TABS} current={tab} onSelect={select} label={label}>
      {tab === 'overview' ? <OverviewTab id={id} statTick={statTick} stateTick={stateTick} onStateChanged={onStateChanged} /> : null}
      {tab === 'properties' ? <PropertiesTab id={id} /> : null}
      {tab === 'checks' ? <ChecksTab id={id} statTick={statTick} /> : null}
      {tab === 'conditions' ? <ConditionsTab id={id} /> : null}
      {tab === 'charts' ? (
        <Suspense fallback={<p className="loading">Loading charts…</p>}>
          <ChartsTab id={id} />
        </Suspense>
      ) : null}
      {tab === 'docs' ? <DocsTab id={id} /> : null}
      {tab === 'audit' ? <AuditTab id={id} /> : null}
    </Tabs>
  );
}
