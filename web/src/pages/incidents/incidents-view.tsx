// The body both incident pages share: filters, presets, column menu, the table with its row
// actions, paging, and the dialogs. `scope` says which list (active or history) it shows.
import { useState } from 'react';
import { api, data } from '../../api/client';
import { useSession } from '../../auth/session';
import { ErrorBanner } from '../../components/error-banner';
import { Pager, PAGE_SIZES } from '../../components/pager';
import { useUserNames } from '../../components/use-user-names';
import { ColumnMenu } from './column-menu';
import { ActionsDialog } from './actions-dialog';
import { CommentsDialog } from './comments-dialog';
import { CreateIncidentDialog } from './create-incident-dialog';
import { FilterBar, type Query } from './filter-bar';
import { IncidentTable } from './incident-table';
import { NarrowSort } from './narrow-sort';
import { PresetBar } from './preset-bar';
import { RowActions } from './row-actions';
import { defaultLayout, sortBy, type TableLayout } from './table-layout';
import { useIncidentList, type Paging } from './use-incident-list';
import { useLevels } from './use-levels';
import type { Incident, Scope } from './types';
import './incidents.css';

export function IncidentsView({ scope }: { scope: Scope }) {
  const [layout, setLayoutState] = useState<TableLayout>(defaultLayout);
  const [query, setQuery] = useState<Query>({});
  const [paging, setPaging] = useState<Paging>({ page: 0, size: PAGE_SIZES[0] });
  const [actionError, setActionError] = useState<unknown>();
  const [commentsOf, setCommentsOf] = useState<Incident>();
  const [actionsOf, setActionsOf] = useState<Incident>();
  const [creating, setCreating] = useState(false);
  const { levels, error: levelsError } = useLevels();
  const list = useIncidentList(scope, layout.sort, query, paging);
  const userName = useUserNames(list.rows.map((r) => r.acknowledgedBy));
  // Acting on incidents (raise, acknowledge, clear, ...) needs one of the rights the server names
  // for it; without them the rows keep only the comments, to read.
  const session = useSession();
  const mayAct = session.settings.incidentActionRights.some((r) => session.can(r));

  // A new sort or filter starts again at the first page.
  const setLayout = (l: TableLayout) => {
    if (l.sort.column !== layout.sort.column || l.sort.direction !== layout.sort.direction) setPaging((p) => ({ ...p, page: 0 }));
    setLayoutState(l);
  };
  const applyQuery = (q: Query) => {
    setQuery(q);
    setPaging((p) => ({ ...p, page: 0 }));
  };

  // After an action the row is read back, so it shows the server's word even before the
  // live stream says the same.
  const refreshRow = async (id: string, gone: boolean) => {
    setActionError(undefined);
    if (gone) return list.drop(id);
    try {
      list.replace(data(await api.GET('/node/api/incidents/{id}', { params: { path: { id } } })));
    } catch (e) {
      setActionError(e);
    }
  };

  const actions = (i: Incident) =>
    scope === 'active' && mayAct ? (
      <RowActions incident={i} levels={levels} onDone={(id, gone) => void refreshRow(id, gone)} onError={setActionError} onComments={setCommentsOf} onHistory={setActionsOf} />
    ) : (
      <div className="inc-buttons">
        <button type="button" aria-label={`Comments on incident ${i.id}`} onClick={() => setCommentsOf(i)}>
          Comments{i.commentsCount ? ` (${i.commentsCount})` : ''}
        </button>
        <button type="button" aria-label={`Actions on incident ${i.id}`} onClick={() => setActionsOf(i)}>
          Actions
        </button>
      </div>
    );

  return (
    <>
      <FilterBar levels={levels} range={scope === 'history'} onApply={applyQuery} />
      <div className="row inc-toolbar">
        <PresetBar scope={scope} layout={layout} onApply={setLayout} />
        <span className="spacer" />
        {scope === 'active' && mayAct ? (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New incident
          </button>
        ) : null}
        <ColumnMenu layout={layout} onChange={setLayout} />
      </div>
      <NarrowSort scope={scope} layout={layout} onChange={setLayout} />
      <ErrorBanner error={actionError ?? list.error ?? levelsError} />
      {list.loading && list.rows.length > 0 ? (
        <p className="muted inc-loading" aria-live="polite">
          Loading…
        </p>
      ) : null}
      <IncidentTable
        scope={scope}
        rows={list.rows}
        layout={layout}
        ctx={{ levels, userName }}
        onSort={(c) => setLayout(sortBy(layout, c))}
        actions={actions}
        empty={list.loading ? 'Loading…' : scope === 'active' ? 'No active incidents.' : 'No incidents in history for this range.'}
      />
      <Pager
        label="Incident pages"
        page={paging.page}
        hasNext={list.hasMore}
        onPage={(page) => setPaging((p) => ({ ...p, page }))}
        shown={list.rows.length}
        size={paging.size}
        onSize={(size) => setPaging({ page: 0, size })}
      />
      {commentsOf ? (
        <CommentsDialog scope={scope} incident={commentsOf} onClose={() => setCommentsOf(undefined)} onCommented={() => void refreshRow(commentsOf.id, false)} />
      ) : null}
      {actionsOf ? <ActionsDialog scope={scope} incident={actionsOf} levels={levels} onClose={() => setActionsOf(undefined)} /> : null}
      {creating ? (
        <CreateIncidentDialog
          levels={levels}
          onClose={() => setCreating(false)}
          onCreated={() => {
            setCreating(false);
            list.reload();
          }}
        />
      ) : null}
    </>
  );
}
