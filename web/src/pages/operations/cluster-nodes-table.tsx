// The nodes sharing the database (GET /cluster): one row per node, the leader first marked,
// dead nodes (no heartbeat for three beats) marked too. Heartbeat ages are taken against
// the database's clock in the same answer, so a browser's own clock does not matter.
import { DataTable, type Column } from '../../components/data-table';
import type { ClusterView } from './operations-types';

type Node = ClusterView['nodes'][number];

const megabytes = (bytes: number) => `${Math.round(bytes / 1_048_576)} MB`;
const percent = (share: number) => `${Math.round(share * 100)} %`;
const ago = (ms: number) => (ms < 1000 ? 'just now' : ms < 120_000 ? `${Math.round(ms / 1000)} s ago` : `${Math.round(ms / 60_000)} min ago`);

export function ClusterNodesTable({ view }: { view: ClusterView }) {
  const columns: Column<Node>[] = [
    { key: 'id', header: 'Node', cell: (n) => (n.id === view.self ? `${n.id} (this one)` : n.id), rowHeader: true },
    { key: 'address', header: 'Address', cell: (n) => n.address },
    {
      key: 'role', header: 'Role',
      cell: (n) => (!n.live ? <span className="badge ops-bad">dead</span> : n.role === 'leader' ? <span className="badge ops-ok">leader</span> : 'follower'),
    },
    { key: 'heartbeat', header: 'Heartbeat', cell: (n) => ago(Math.max(0, view.now - n.heartbeat)) },
    { key: 'load', header: 'CPU', className: 'ops-num', cell: (n) => percent(n.load) },
    { key: 'memory', header: 'Memory', className: 'ops-num', cell: (n) => megabytes(n.memory) },
    { key: 'version', header: 'Version', cell: (n) => n.version },
  ];
  return (
    <>
      <p className="muted">
        {view.leader ? `Leader: ${view.leader.id} (epoch ${view.leader.epoch}).` : 'No leader at the moment: the lease is free or expiring.'}
      </p>
      <DataTable label="Cluster nodes" columns={columns} rows={view.nodes} rowKey={(n) => n.id} />
    </>
  );
}
