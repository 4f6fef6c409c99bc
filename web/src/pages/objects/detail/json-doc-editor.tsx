// One JSON document of an object (state conditions, incident conditions, state triggers):
// shown in a textarea, replaced with PUT, removed with DELETE. The server validates it and
// answers 400 naming the element at fault; that message is shown as is. `DocEditor` is the
// editor without the object's routes: the class templates (admin page) use it on theirs.
import { useState, type FormEvent } from 'react';
import { api, data } from '../../../api/client';
import { useApi } from '../../../api/use-api';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { useAction } from '../../../components/use-action';
import { ConfirmButton } from './confirm-button';
import { useEntityRoute } from './entity';

export type DocKind = 'state-conditions' | 'incident-conditions' | 'state-triggers';

// The three routes share one shape; a literal per kind keeps openapi-fetch's types exact.
const PATHS = {
  'state-conditions': '/node/api/objects/{id}/state-conditions',
  'incident-conditions': '/node/api/objects/{id}/incident-conditions',
  'state-triggers': '/node/api/objects/{id}/state-triggers',
} as const;

export function JsonDocEditor({ id, kind, title, help, example }: { id: string; kind: DocKind; title: string; help: string; example: string }) {
  const r = useEntityRoute();
  const path = r(PATHS[kind]);
  return (
    <DocEditor
      headingId={`obj-doc-${kind}`}
      title={title}
      help={help}
      example={example}
      deps={[id, path]}
      load={() => api.GET(path, { params: { path: { id } } }).then(data)}
      put={(body) => api.PUT(path, { params: { path: { id } }, body })}
      remove={() => api.DELETE(path, { params: { path: { id } } })}
    />
  );
}

export interface DocEditorProps {
  /** Unique on the page: names the form. */
  headingId: string;
  title: string;
  help: string;
  example: string;
  /** What `load` depends on (it is fetched again when they change). */
  deps: readonly unknown[];
  load: () => Promise<unknown>;
  put: (body: unknown[]) => Promise<unknown>;
  /** Without it there is no Delete button (the document is emptied by saving []). */
  remove?: () => Promise<unknown>;
  /** Shown, not changed: no Save or Delete (a reader without the right to change it). */
  readOnly?: boolean;
  /** The document as shown (the stored one by default). */
  shownAs?: (doc: unknown) => unknown;
}

export function DocEditor({ headingId, title, help, example, deps, load, put, remove: removeDoc, readOnly = false, shownAs = (d) => d }: DocEditorProps) {
  const doc = useApi(load, [...deps]);
  const [textValue, setText] = useState('');
  const action = useAction();
  const [saved, setSaved] = useState('');

  // The text follows a newly loaded document in the same render (not in an effect after paint,
  // where typing that came between the two would be overwritten).
  const [shown, setShown] = useState<unknown>();
  if (doc.data !== undefined && doc.data !== shown) {
    setShown(doc.data);
    setText(JSON.stringify(shownAs(doc.data), null, 2));
  }

  const run = async (change: () => Promise<unknown>, done: string) => {
    setSaved('');
    if (await action.run(change)) {
      setSaved(done);
      doc.reload();
    }
  };
  const save = (e: FormEvent) => {
    e.preventDefault();
    if (readOnly) return;
    let body: unknown[];
    try {
      const parsed: unknown = JSON.parse(textValue.trim() || '[]');
      if (!Array.isArray(parsed)) throw new Error('the document must be a JSON array');
      body = parsed;
    } catch (err) {
      action.fail(new Error(`Not valid JSON: ${(err as Error).message}`));
      return;
    }
    void run(() => put(body), 'Saved.');
  };
  const remove = removeDoc ? () => void run(removeDoc, 'Deleted.') : undefined;

  return (
    <form className="panel" onSubmit={save} aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <p className="muted obj-help">{help}</p>
      <details>
        <summary>Example</summary>
        <pre className="obj-example">{example}</pre>
        {readOnly ? null : (
          <button type="button" className="link" onClick={() => setText(example)}>
            Use the example
          </button>
        )}
      </details>
      <Field label={`${title} (JSON)`}>
        <textarea
          rows={Math.min(20, Math.max(4, textValue.split('\n').length + 1))}
          spellCheck={false}
          value={textValue}
          onChange={(e) => setText(e.target.value)}
          readOnly={readOnly}
          disabled={doc.data === undefined && !doc.error}
        />
      </Field>
      <ErrorBanner error={action.error ?? doc.error} />
      {saved ? (
        <p className="muted" role="status">
          {saved}
        </p>
      ) : null}
      {readOnly ? null : (
        <div className="row">
          <button type="submit" className="primary" disabled={action.busy}>
            Save {title.toLowerCase()}
          </button>
          {remove ? <ConfirmButton label="Delete" subject={title.toLowerCase()} onConfirm={remove} disabled={action.busy} /> : null}
        </div>
      )}
    </form>
  );
}
