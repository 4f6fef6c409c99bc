// What the web UI needs to know before and after sign-in that is the server's configuration,
// not anyone's data: whether to offer the authorization link (token sign-in), and the names of
// the rights (so the user editor lists exactly the server's).
import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { INCIDENT_ACTION_RIGHTS, RIGHTS } from '../users/rights.js';

export const UiSettingsSchema = Type.Object({
  authTokenEnabled: Type.Boolean({ description: 'the UI shows the {base_url}/?auth-token=<API_TOKEN> link: web.authTokenEnabled and token sign-in (server.user.auth_token_enabled) both on' }),
  version: Type.String(),
  baseUrl: Type.Union([Type.String(), Type.Null()], { description: 'the configured public URL (BASE_URL) for links; null: the UI uses the address it was opened at' }),
  tokenSignIn: Type.Boolean({ description: 'API-token sign-in is on (server.user.auth_token_enabled)' }),
  rights: Type.Array(Type.String(), { description: 'every right a user can be given, in the order of the API documents' }),
  incidentActionRights: Type.Array(Type.String(), { description: 'any one of these lets a user act on incidents (raise, acknowledge, comment, clear)' }),
});

export function uiSettingsRoutes(api: Api, deps: { webAuthToken: boolean; tokenSignIn: boolean; version: string; baseUrl: string | undefined }): void {
  api.get('/web/settings', {
    schema: { tags: ['operations'], summary: 'Settings of the web UI (no sign-in needed)', response: { 200: UiSettingsSchema }, security: [] },
    config: { public: true },
  }, async () => ({ authTokenEnabled: deps.webAuthToken && deps.tokenSignIn, version: deps.version, baseUrl: deps.baseUrl ?? null, tokenSignIn: deps.tokenSignIn, rights: [...RIGHTS], incidentActionRights: [...INCIDENT_ACTION_RIGHTS] }));
}
