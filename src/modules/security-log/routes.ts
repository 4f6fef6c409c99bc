import { Type } from 'typebox';
import type { Api } from '../../http/api-types.js';
import { SecurityLogQuerySchema, SecurityLogRecordSchema } from './schemas.js';
import type { SecurityLogService } from './service.js';

export function securityLogRoutes(app: Api, { securityLog }: { securityLog: SecurityLogService }): void {
  app.get('/users/security/log', {
    schema: {
      tags: ['security log'],
      summary: 'Security log records, newest first',
      querystring: SecurityLogQuerySchema,
      response: { 200: Type.Array(SecurityLogRecordSchema) },
    },
    config: { right: 'read-security-log' },
  }, async (req) => {
    const q = req.query;
    // Writes still queued belong to the past the caller asks about.
    await securityLog.flush();
    return securityLog.query({ from: q.from, to: q.to, limit: q.limit ?? 100, skip: q.skip ?? 0, filter: q.filter, userId: q.userId });
  });
}
