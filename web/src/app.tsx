// The shell: sign-in gate, navigation, and the routes of every page. Pages are loaded lazily
// so the first screen stays small.
import { lazy, Suspense, useState } from 'react';
import { Link, Redirect, Route, Switch, useLocation } from 'wouter';
import { AccountDialog } from './auth/account-dialog';
import { LoginPage } from './auth/login-page';
import { useSession } from './auth/session';
import { StatesProvider } from './components/states';

const ObjectsPage = lazy(() => import('./pages/objects/objects-page'));
const ObjectPage = lazy(() => import('./pages/objects/object-page'));
const LinkPage = lazy(() => import('./pages/objects/link-page'));
const IncidentsPage = lazy(() => import('./pages/incidents/incidents-page'));
const IncidentHistoryPage = lazy(() => import('./pages/incidents/incident-history-page'));
const EventLogPage = lazy(() => import('./pages/logs/event-log-page'));
const SecurityLogPage = lazy(() => import('./pages/logs/security-log-page'));
const BulkPage = lazy(() => import('./pages/bulk/bulk-page'));
const ReportsPage = lazy(() => import('./pages/reports/reports-page'));
const UsersPage = lazy(() => import('./pages/admin/users-page'));
const LevelsPage = lazy(() => import('./pages/admin/levels-page'));
const CatalogAdminPage = lazy(() => import('./pages/admin/catalog-admin-page'));
const AgentsPage = lazy(() => import('./pages/admin/agents-page'));
const OperationsPage = lazy(() => import('./pages/operations/operations-page'));
const TriggerRunsPage = lazy(() => import('./pages/operations/trigger-runs-page'));
const MaintenancePage = lazy(() => import('./pages/maintenance/maintenance-page'));
const NotificationsPage = lazy(() => import('./pages/admin/notifications-page'));

const NAV: Array<{ href: string; label: string }> = [
  { href: '/objects', label: 'Objects' },
  { href: '/incidents', label: 'Incidents' },
  { href: '/incidents/history', label: 'Incident history' },
  { href: '/maintenance', label: 'Maintenance' },
  { href: '/event-log', label: 'Event log' },
  { href: '/security-log', label: 'Security log' },
  { href: '/bulk', label: 'Bulk operations' },
  { href: '/reports', label: 'Reports' },
  { href: '/admin/users', label: 'Users' },
  { href: '/admin/levels', label: 'Incident levels' },
  { href: '/admin/catalog', label: 'Tags, classes, states' },
  { href: '/admin/agents', label: 'Remote agents' },
  { href: '/admin/operations', label: 'Operations' },
  { href: '/admin/trigger-runs', label: 'Trigger runs' },
  { href: '/admin/notifications', label: 'Notifications' },
];

/**
 * Entries whose page would only answer 403 without a right (the `config: { right }` of its GET
 * routes, or of its one action), hidden from those who lack it. Pages whose lists anyone may
 * read (incident levels, tags/classes/states, agents) stay, read-only for them.
 */
const NAV_RIGHT: Record<string, string> = {
  '/security-log': 'read-security-log',
  '/bulk': 'run-bulks',
  '/admin/users': 'manage-users',
  '/admin/operations': 'manage-configuration',
  '/admin/trigger-runs': 'manage-configuration',
  '/admin/notifications': 'manage-configuration',
};

export function App() {
  const session = useSession();
  const [location] = useLocation();
  const [account, setAccount] = useState(false);
  const [menu, setMenu] = useState(false);
  if (session.checking) return <p className="loading">Loading…</p>;
  if (!session.user) return <LoginPage />;
  return (
    <StatesProvider>
      <div className={`shell${menu ? ' menu-open' : ''}`}>
        <header className="top">
          <button type="button" className="icon menu-toggle" aria-label="Menu" aria-expanded={menu} onClick={() => setMenu(!menu)}>☰</button>
          <strong className="brand">Vigil</strong>
          <span className="spacer" />
          <button type="button" onClick={() => setAccount(true)}>{session.user.login}</button>
          <button type="button" onClick={() => void session.signOut()}>Sign out</button>
        </header>
        <nav aria-label="Main" onClick={() => setMenu(false)}>
          {NAV.filter((n) => !NAV_RIGHT[n.href] || session.can(NAV_RIGHT[n.href]!)).map((n) => (
            <Link key={n.href} href={n.href} className={location === n.href ? 'active' : ''} aria-current={location === n.href ? 'page' : undefined}>
              {n.label}
            </Link>
          ))}
        </nav>
        <main className="content">
          <Suspense fallback={<p className="loading">Loading…</p>}>
            <Switch>
              <Route path="/objects"><ObjectsPage /></Route>
              <Route path="/objects/:id">{(p) => <ObjectPage id={p.id} />}</Route>
              <Route path="/links/:id">{(p) => <LinkPage id={p.id} />}</Route>
              <Route path="/incidents"><IncidentsPage /></Route>
              <Route path="/incidents/history"><IncidentHistoryPage /></Route>
              <Route path="/maintenance"><MaintenancePage /></Route>
              <Route path="/event-log"><EventLogPage /></Route>
              <Route path="/security-log"><SecurityLogPage /></Route>
              <Route path="/bulk"><BulkPage /></Route>
              <Route path="/reports"><ReportsPage /></Route>
              <Route path="/admin/users"><UsersPage /></Route>
              <Route path="/admin/levels"><LevelsPage /></Route>
              <Route path="/admin/catalog"><CatalogAdminPage /></Route>
              <Route path="/admin/agents"><AgentsPage /></Route>
              <Route path="/admin/operations"><OperationsPage /></Route>
              <Route path="/admin/trigger-runs"><TriggerRunsPage /></Route>
              <Route path="/admin/notifications"><NotificationsPage /></Route>
              <Route>
                <Redirect to="/objects" />
              </Route>
            </Switch>
          </Suspense>
        </main>
      </div>
      {account ? <AccountDialog open={account} onClose={() => setAccount(false)} /> : null}
    </StatesProvider>
  );
}
