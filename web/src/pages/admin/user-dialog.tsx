// Create a user (POST /users) or change one (PATCH /users/{id}): login, password, email,
// language, expiry, rights, and object access as include / exclude subtrees.
import { useState, type FormEvent } from 'react';
import { api } from '../../api/client';
import { useApi } from '../../api/use-api';
import { Dialog } from '../../components/dialog';
import { ErrorBanner } from '../../components/error-banner';
import { Field } from '../../components/field';
import { useAction } from '../../components/use-action';
import { useSession } from '../../auth/session';
import type { User } from './admin-types';
import { ObjectPicker, objectsByIds } from './object-picker';
import { RightsChecklist } from './rights-checklist';
import { createBody, emptyValues, idsOf, patchBody, valuesOf, type UserFormValues } from './user-form-model';
import { DialogButtons } from '../../components/dialog-buttons';

export function UserDialog({ user, onClose, onSaved }: { user?: User; onClose: () => void; onSaved: () => void }) {
  // The chosen objects' names are looked up first: saving before they are known would read as
  // "no object access" and clear it.
  const names = useApi(async () => {
    const { include, exclude } = idsOf(user?.objectPermissions);
    const [inc, exc] = await Promise.all([objectsByIds(include), objectsByIds(exclude)]);
    return { include: inc, exclude: exc };
  }, [user?.id]);
  const title = user ? `Edit user ${user.login}` : 'New user';
  return (
    <Dialog title={title} open onClose={onClose}>
      <ErrorBanner error={names.error} />
      {names.data ? (
        <UserForm user={user} initial={{ ...(user ? valuesOf(user) : emptyValues()), ...names.data }} onClose={onClose} onSaved={onSaved} />
      ) : names.loading ? (
        <p className="loading">Loading…</p>
      ) : null}
    </Dialog>
  );
}

function UserForm({ user, initial, onClose, onSaved }: { user?: User; initial: UserFormValues; onClose: () => void; onSaved: () => void }) {
  const [v, setV] = useState(initial);
  // Changing your own password takes your current one (the server asks for it).
  const [currentPassword, setCurrentPassword] = useState('');
  const self = user !== undefined && user.id === useSession().user?.id;
  const save = useAction();
  const set = <K extends keyof UserFormValues>(key: K, value: UserFormValues[K]) => setV((old) => ({ ...old, [key]: value }));

  async function submit(e: FormEvent) {
    e.preventDefault();
    await save.run(async () => {
      if (user) {
        const body = patchBody(user, v);
        if (self && body.password !== undefined) body.currentPassword = currentPassword;
        if (Object.keys(body).length > 0) await api.PATCH('/node/api/users/{id}', { params: { path: { id: user.id } }, body });
      } else {
        await api.POST('/node/api/users', { body: createBody(v) });
      }
      onSaved();
      onClose();
    });
  }

  return (
    <form onSubmit={submit} aria-label={user ? 'Edit user' : 'New user'}>
      <ErrorBanner error={save.error} />
      <div className="adm-form-grid">
        <Field label="Login" hint="no spaces or colons">
          <input value={v.login} onChange={(e) => set('login', e.target.value)} required pattern="[^\s:]+" autoComplete="off" />
        </Field>
        <Field label={user ? 'New password' : 'Password'} hint={user ? 'leave empty to keep' : undefined}>
          <input type="password" value={v.password} onChange={(e) => set('password', e.target.value)} required={!user} autoComplete="new-password" />
        </Field>
        {self && v.password !== '' ? (
          <Field label="Current password" hint="needed to change your own">
            <input type="password" value={currentPassword} onChange={(e) => setCurrentPassword(e.target.value)} required autoComplete="current-password" />
          </Field>
        ) : null}
        <Field label="Email">
          <input type="email" value={v.email} onChange={(e) => set('email', e.target.value)} autoComplete="off" />
        </Field>
        <Field label="Language">
          <input value={v.language} onChange={(e) => set('language', e.target.value)} placeholder="en" maxLength={16} />
        </Field>
        <Field label="Active until" hint="empty: never expires">
          <input type="datetime-local" step={1} value={v.activeTo} onChange={(e) => set('activeTo', e.target.value)} />
        </Field>
      </div>
      <RightsChecklist value={v.permissions} onChange={(p) => set('permissions', p)} />
      <p className="muted">Object access: with nothing chosen the user sees every object their rights allow.</p>
      <ObjectPicker label="Include subtrees" value={v.include} onChange={(p) => set('include', p)} />
      <ObjectPicker label="Exclude subtrees" value={v.exclude} onChange={(p) => set('exclude', p)} />
      <DialogButtons label={user ? 'Save user' : 'Create user'} disabled={save.busy} onCancel={onClose} />
    </form>
  );
}
