// A WAI-ARIA tablist: one tab in the Tab order (roving tabindex), arrows/Home/End move between
// tabs and select them, each panel labelled by its tab.
import { useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabDef {
  id: string;
  label: string;
}

export function Tabs({ tabs, current, onSelect, label, children }: { tabs: TabDef[]; current: string; onSelect: (id: string) => void; label: string; children: ReactNode }) {
  const refs = useRef(new Map<string, HTMLButtonElement>());
  const index = Math.max(0, tabs.findIndex((t) => t.id === current));

  const onKeyDown = (e: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: index + 1, ArrowLeft: index - 1, Home: 0, End: tabs.length - 1 };
    const to = moves[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length]!;
    onSelect(next.id);
    refs.current.get(next.id)?.focus();
  };

  return (
    <div className="obj-tabs">
      <div role="tablist" aria-label={label} className="obj-tablist" onKeyDown={onKeyDown}>
        {tabs.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              if (el) refs.current.set(t.id, el);
              else refs.current.delete(t.id);
            }}
            type="button"
            role="tab"
            id={`obj-tab-${t.id}`}
            aria-selected={i === index}
            aria-controls={`obj-panel-${t.id}`}
            tabIndex={i === index ? 0 : -1}
            onClick={() => onSelect(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`obj-panel-${tabs[index]!.id}`} aria-labelledby={`obj-tab-${tabs[index]!.id}`} className="obj-panel" tabIndex={0}>
        {children}
      </div>
    </div>
  );
}
