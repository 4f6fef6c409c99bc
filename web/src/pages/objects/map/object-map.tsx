// The map: the children of one object (GET /objects/{id}/children, a page at a time) as nodes
// and the links between them (GET /objects/{id}/children/links) as lines, in an SVG. Nodes and
// lines take the colours of their states from /states, and live state events recolour them.
// A node is a link: clicking it (or Enter on it) opens the object's page; its "Show children"
// button maps that object's children (a breadcrumb leads back up). A line opens the link's page.
import { useState, type MouseEvent } from 'react';
import { Link, useLocation } from 'wouter';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { Pager } from '../../../components/pager';
import { pageQuery, splitPage } from '../../../components/paging';
import { useStates } from '../../../components/states';
import type { LiveStates } from '../tree/use-live-states';
import type { Selection } from '../tree/types';
import { layout } from './layout';
import { MapNode } from './map-node';
import { maintenanceText } from '../../../components/maintenance-badge';
import { MapTrail } from './map-trail';
import './map.css';

const PAGE = 100;
/** Links among one page of children: past this many the map says it shows only part of them. */
const LINK_LIMIT = 2000;

interface Props {
  parent: Selection;
  live: LiveStates;
  /** Bumped by the page after a create or delete: load again. */
  revision: number;
  /** "Show children" or the breadcrumb chose another object to map: it becomes the selection. */
  onSelect: (s: Selection) => void;
}

export function ObjectMap({ parent, live, revision, onSelect }: Props) {
  const [page, setPage] = useState(0);
  const [trail, setTrail] = useState<Selection[]>([parent]);
  if (trail[trail.length - 1]!.id !== parent.id) {
    // Chosen elsewhere (the tree, a search hit): a new trail starts there.
    setTrail([parent]);
  }
  const go = (next: Selection[]) => {
    setTrail(next);
    onSelect(next[next.length - 1]!);
  };
  const [forParent, setForParent] = useState(parent.id);
  if (forParent !== parent.id) {
    // Another parent starts at its first page.
    setForParent(parent.id);
    setPage(0);
  }
  const states = useStates();
  const [, navigate] = useLocation();
  const { data: found, error, loading } = useApi(async () => {
    const path = { id: parent.id };
    const [nodes, links] = await Promise.all([
      api.GET('/node/api/objects/{id}/children', { params: { path, query: { ...pageQuery(page, PAGE), fields: 'name,state_id,maintenance' } } }).then(data),
      api.GET('/node/api/objects/{id}/children/links', { params: { path, query: { limit: LINK_LIMIT, fields: 'name,source,target,source_name,target_name,state_id' } } }).then(data),
    ]);
    return { nodes, links };
  }, [parent.id, page, revision]);

  const { rows: nodes, hasNext } = splitPage(found?.nodes, PAGE);
  const place = layout(nodes.length);
  const index = new Map(nodes.map((n, i) => [n.id, i]));
  const links = (found?.links ?? []).filter((l) => index.has(l.source ?? '') && index.has(l.target ?? ''));
  const stateOf = (id: string, fallback?: number) => {
    const s = live.get(id) ?? fallback ?? 0;
    return { id: s, color: states.get(s)?.color ?? '#888888', name: states.get(s)?.name ?? `state ${s}` };
  };
  const open = (e: MouseEvent, href: string) => {
    e.preventDefault();
    navigate(href);
  };

  return (
    <section className="panel obj-map-panel" aria-label="Map" aria-busy={loading}>
      <MapTrail trail={trail} onUp={(i) => go(trail.slice(0, i + 1))} />
      <p className="obj-map-head">
        Children of <Link href={`/objects/${parent.id}`}>{parent.name}</Link>
        {found ? <span className="muted"> — {nodes.length} shown, {links.length} links</span> : null}
      </p>
      <ErrorBanner error={error} />
      {loading && !found ? <p className="loading">Loading the map…</p> : null}
      {found && nodes.length === 0 ? <p className="muted">{parent.name} has no children to show. Select another object in the tree.</p> : null}
      {found && found.links.length >= LINK_LIMIT ? <p className="muted">Only the first {LINK_LIMIT} links are drawn.</p> : null}
      {nodes.length > 0 ? (
        <div className="obj-map-scroll">
          <svg className="obj-map" viewBox={`0 0 ${place.width} ${place.height}`}
            // Scaled down to fit, but never below a readable size: a narrow screen scrolls it.
            style={{ maxWidth: place.width, minWidth: Math.min(place.width, 560) }}
            role="group" aria-label={`Map of the children of ${parent.name}`}>
            {links.map((l) => {
              const a = place.at[index.get(l.source!)!]!;
              const b = place.at[index.get(l.target!)!]!;
              const s = stateOf(l.id, l.state_id);
              const label = `Link ${l.name ? `${l.name} ` : ''}${l.source_name} — ${l.target_name}: ${s.name}`;
              return (
                <a key={l.id} href={`/links/${l.id}`} onClick={(e) => open(e, `/links/${l.id}`)} aria-label={label} className="obj-map-link" data-link-id={l.id}>
                  <title>{label}</title>
                  <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} className="obj-map-hit" />
                  <line x1={a.x} y1={a.y} x2={b.x} y2={b.y} stroke={s.color} strokeWidth={4} className="obj-map-line" />
                </a>
              );
            })}
            {nodes.map((o, i) => {
              const p = place.at[i]!;
              const s = stateOf(o.id, o.state_id);
              const name = o.name ?? o.id;
              return (
                <MapNode key={o.id} id={o.id} name={name} stateName={s.name} color={s.color} at={p} maintenance={o.maintenance ? maintenanceText(o.maintenance) : undefined} onOpen={(e) => open(e, `/objects/${o.id}`)} onShowChildren={() => go([...trail, { id: o.id, name }])} />
              );
            })}
          </svg>
        </div>
      ) : null}
      <Pager label="Map pages" page={page} hasNext={hasNext} onPage={setPage} shown={nodes.length} size={PAGE} busy={loading} />
    </section>
  );
}
