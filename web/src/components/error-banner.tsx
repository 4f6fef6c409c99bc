// An API error as the API says it: `code: message`, in a live region screen readers announce.
import { ApiError } from '../api/client';

export function errorText(error: unknown): string {
  // Some server messages already start with their code ("Forbidden: ..."): not twice.
  if (error instanceof ApiError) return error.message.startsWith(`${error.code}:`) ? error.message : `${error.code}: ${error.message}`;
  if (error instanceof Error) return error.message;
  return String(error);
}

export function ErrorBanner({ error }: { error: unknown }) {
  if (error === undefined || error === null) return null;
  return (
    <div className="error" role="alert">
      {errorText(error)}
    </div>
  );
}
