// Notifications (route /admin/notifications, right manage-configuration): channels with a
// "Send test" button showing the outcome, and policies; forms to add and edit both
// (GET|POST /notification-channels, PATCH|DELETE /notification-channels/:id, POST …/:id/test,
// the same for /notification-policies). Every send is listed on the trigger-runs page.
import { useState } from 'react';
import { api, data } from '../../api/client';
import { useApi } from '../../api/use-api';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DataTable, type Column } from '../../components/data-table';
import { ErrorBanner } from '../../components/error-banner';
import { useAction } from '../../components/use-action';
import { ChannelForm } from './channel-form';
import { PolicyForm } from './policy-form';
import { CHANNEL_TYPES, type Channel, type Policy, type TestOutcome } from './notification-types';
import './admin.css';

const typeLabel = (t: Channel['type']) => CHANNEL_TYPES.find((c) => c.type === t)?.label ?? t;

function outcomeText(o: TestOutcome): string {
  if (o.ok) return `Sent${o.httpStatus ? ` (HTTP ${o.httpStatus})` : ''}`;
  return `Failed: ${o.error ?? 'unknown error'}`;
}

export default function NotificationsPage() {
  const channels = useApi(async () => data(await api.GET('/node/api/notification-channels')), []);
  const policies = useApi(async () => data(await api.GET('/node/api/notification-policies')), []);
  const levels = useApi(async () => data(await api.GET('/node/api/incident-levels')), []);
  const tags = useApi(async () => data(await api.GET('/node/api/tags')), []);
  const [editing, setEditing] = useState<string>();
  const [editingPolicy, setEditingPolicy] = useState<string>();
  const [deleting, setDeleting] = useState<{ kind: 'channel' | 'policy'; id: string; name: string }>();
  const [outcomes, setOutcomes] = useState<Record<string, TestOutcome>>({});
  const testing = useAction();

  async function sendTest(c: Channel) {
    await testing.run(async () => {
      const outcome = data(await api.POST('/node/api/notification-channels/{id}/test', { params: { path: { id: c.id } } }));
      setOutcomes((o) => ({ ...o, [c.id]: outcome }));
    });
  }
  const channelName = (id: string) => channels.data?.find((c) => c.id === id)?.name ?? id;

  const channelColumns: Column<Channel>[] = [
    { key: 'id', header: 'Id', cell: (c) => c.id },
    { key: 'name', header: 'Name', cell: (c) => c.name },
    { key: 'type', header: 'Type', cell: (c) => typeLabel(c.type) },
    {
      key: 'test',
      header: 'Last test',
      cell: (c) => outcomes[c.id] ? <span role="status" className={outcomes[c.id]!.ok ? 'notif-ok' : 'notif-failed'}>{outcomeText(outcomes[c.id]!)}</span> : <span className="muted">—</span>,
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (c) => (
        <div className="adm-actions">
          <button type="button" aria-label={`Send test to ${c.name}`} disabled={testing.busy} onClick={() => void sendTest(c)}>Send test</button>
          <button type="button" aria-label={`Edit channel ${c.name}`} onClick={() => setEditing(c.id)}>Edit</button>
          <button type="button" className="danger" aria-label={`Delete channel ${c.name}`} onClick={() => setDeleting({ kind: 'channel', id: c.id, name: c.name })}>Delete</button>
        </div>
      ),
    },
  ];

  const policyColumns: Column<Policy>[] = [
    { key: 'id', header: 'Id', cell: (p) => p.id },
    { key: 'name', header: 'Name', cell: (p) => p.name },
    { key: 'enabled', header: 'Enabled', cell: (p) => (p.enabled ? 'yes' : 'no') },
    { key: 'channels', header: 'Channels', cell: (p) => p.channels.map(channelName).join(', ') },
    {
      key: 'follow',
      header: 'Repeat / escalation',
      cell: (p) => [p.repeatMinutes != null ? `every ${p.repeatMinutes} min` : '', ...p.escalation.map((s) => `after ${s.afterMinutes} min → ${s.channels.map(channelName).join(', ')}`)].filter(Boolean).join('; ') || '—',
    },
    {
      key: 'actions',
      header: 'Actions',
      cell: (p) => (
        <div className="adm-actions">
          <button type="button" aria-label={`Edit policy ${p.name}`} onClick={() => setEditingPolicy(p.id)}>Edit</button>
          <button type="button" className="danger" aria-label={`Delete policy ${p.name}`} onClick={() => setDeleting({ kind: 'policy', id: p.id, name: p.name })}>Delete</button>
        </div>
      ),
    },
  ];

  // Level 3 (Cleared) is never raised: nothing to route by.
  const policyForm = (initial: Policy | undefined, submitLabel: string, onSubmit: Parameters<typeof PolicyForm>[0]['onSubmit'], onCancel?: () => void) => (
    <PolicyForm initial={initial} channels={channels.data ?? []} levels={(levels.data ?? []).filter((l) => l.id !== '3')} tags={tags.data ?? []} submitLabel={submitLabel} onSubmit={onSubmit} onCancel={onCancel} />
  );

  return (
    <section aria-labelledby="adm-notif-title">
      <div className="adm-head">
        <h1 id="adm-notif-title">Notifications</h1>
      </div>

      <h2>Channels</h2>
      <div className="panel">
        <ChannelForm
          submitLabel="Add channel"
          onSubmit={async (input) => {
            data(await api.POST('/node/api/notification-channels', { body: input }));
            channels.reload();
          }}
        />
      </div>
      <ErrorBanner error={channels.error ?? testing.error} />
      {channels.data && channels.data.length === 0 ? <p className="muted">No channels.</p> : null}
      {channels.data && channels.data.length > 0 ? (
        <DataTable
          label="Notification channels"
          columns={channelColumns}
          rows={channels.data}
          rowKey={(c) => c.id}
          rowCells={(c) => editing === c.id ? (
            <td colSpan={channelColumns.length}>
              <ChannelForm
                initial={c}
                submitLabel="Save channel"
                onSubmit={async ({ name, settings, templates }) => {
                  data(await api.PATCH('/node/api/notification-channels/{id}', { params: { path: { id: c.id } }, body: { name, settings, templates } }));
                  setEditing(undefined);
                  channels.reload();
                }}
                onCancel={() => setEditing(undefined)}
              />
            </td>
          ) : undefined}
        />
      ) : null}

      <h2>Policies</h2>
      <div className="panel">
        {policyForm(undefined, 'Add policy', async (input) => {
          data(await api.POST('/node/api/notification-policies', { body: input }));
          policies.reload();
        })}
      </div>
      <ErrorBanner error={policies.error} />
      {policies.data && policies.data.length === 0 ? <p className="muted">No policies.</p> : null}
      {policies.data && policies.data.length > 0 ? (
        <DataTable
          label="Notification policies"
          columns={policyColumns}
          rows={policies.data}
          rowKey={(p) => p.id}
          rowCells={(p) => editingPolicy === p.id ? (
            <td colSpan={policyColumns.length}>
              {policyForm(p, 'Save policy', async (input) => {
                data(await api.PATCH('/node/api/notification-policies/{id}', { params: { path: { id: p.id } }, body: input }));
                setEditingPolicy(undefined);
                policies.reload();
              }, () => setEditingPolicy(undefined))}
            </td>
          ) : undefined}
        />
      ) : null}

      {deleting ? (
        <ConfirmDialog
          title={`Delete ${deleting.kind} ${deleting.name}`}
          message={deleting.kind === 'channel' ? `Delete the channel ${deleting.name}? A channel a policy uses is refused.` : `Delete the policy ${deleting.name}? Its pending repeats and escalations end.`}
          confirmLabel={`Delete ${deleting.kind}`}
          onConfirm={async () => {
            if (deleting.kind === 'channel') {
              await api.DELETE('/node/api/notification-channels/{id}', { params: { path: { id: deleting.id } } });
              channels.reload();
            } else {
              await api.DELETE('/node/api/notification-policies/{id}', { params: { path: { id: deleting.id } } });
              policies.reload();
            }
          }}
          onClose={() => setDeleting(undefined)}
        />
      ) : null}
    </section>
  );
}
