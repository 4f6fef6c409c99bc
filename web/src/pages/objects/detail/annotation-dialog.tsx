// Create an annotation of this object at a moment (POST /history-annotations {timestamp,
// content, entityId}) or change one (PATCH {content, timestamp}).
import { useState, type FormEvent } from 'react';
import { api } from '../../../api/client';
import { Dialog } from '../../../components/dialog';
import { ErrorBanner } from '../../../components/error-banner';
import { Field } from '../../../components/field';
import { fromLocalInput, toLocalInput } from '../../../components/time-input';
import { useAction } from '../../../components/use-action';
import type { Annotation } from './types';
import { DialogButtons } from '../../../components/dialog-buttons';

export function AnnotationDialog({ entityId, at, annotation, onClose, onSaved }: { entityId: string; at: number; annotation?: Annotation; onClose: () => void; onSaved: () => void }) {
  // Kept in ms so a clicked moment is stored exactly unless the operator edits the time.
  const [timestamp, setTimestamp] = useState(annotation?.timestamp ?? at);
  const [content, setContent] = useState(annotation?.content ?? '');
  const save = useAction();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    await save.run(async () => {
      if (annotation) {
        await api.PATCH('/node/api/history-annotations/{id}', { params: { path: { id: annotation.id } }, body: { content, timestamp } });
      } else {
        await api.POST('/node/api/history-annotations', { body: { timestamp, content, entityId } });
      }
      onSaved();
    });
  };

  return (
    <Dialog title={annotation ? 'Edit annotation' : 'New annotation'} open onClose={onClose}>
      <form onSubmit={submit}>
        <Field label="Annotation time">
          <input
            type="datetime-local"
            step={1}
            required
            value={toLocalInput(timestamp)}
            onChange={(e) => {
              const ms = fromLocalInput(e.target.value);
              if (ms !== undefined) setTimestamp(ms);
            }}
          />
        </Field>
        <Field label="Annotation text">
          <textarea rows={3} maxLength={10000} required value={content} onChange={(e) => setContent(e.target.value)} />
        </Field>
        <ErrorBanner error={save.error} />
        <DialogButtons label={annotation ? 'Save annotation' : 'Create annotation'} disabled={save.busy} onCancel={onClose} />
      </form>
    </Dialog>
  );
}
