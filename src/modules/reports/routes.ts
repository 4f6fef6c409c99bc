// XLSX chart reports (monitoring-api.md "Reports").
import type { Api } from '../../http/api-types.js';
import { principalOf } from '../auth/authenticate.js';
import type { createAccess } from '../catalog/access.js';
import { ReportBody } from './schemas.js';
import type { ReportService } from './service.js';

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function reportsRoutes(api: Api, deps: { reports: ReportService; access: ReturnType<typeof createAccess>; clock: () => number }): void {
  api.post('/reports/prop-inventory/excel', {
    schema: {
      tags: ['reports'],
      summary: 'An XLSX file of line charts: sheet "Charts" holds one native chart per item, sheet "Data" the numbers behind them',
      description: 'Any signed-in user may ask, for the entities they can see (an unknown or hidden entity answers 404 naming the item). '
        + 'Chart titles are "<entity name> — <metric or formula>". "Data" has the times in column A (spreadsheet date-times, UTC) shared by all '
        + 'series, one column per item (header = the chart title), blank where an item has no point at that time; each chart references its '
        + 'range there. A bad item answers 400 with a message starting [index].field. Bounds: 100,000 downsample buckets per item, '
        + '1,000,000 points per report, 2,000,000 raw points read per metric (whole-hour downsamples read hourly rollups instead).',
      body: ReportBody,
      response: {
        200: {
          description: 'the XLSX file, as an attachment named vigil-report-<YYYYMMDD-HHmm>.xlsx (UTC); write the bytes as they are',
          content: { [XLSX_TYPE]: { schema: { type: 'string', format: 'binary' } } },
        },
      },
    },
  }, async (req, reply) => {
    const { file, fileName } = await deps.reports.excel(deps.access.actorOf(principalOf(req)), req.body, deps.clock());
    return reply
      .code(200)
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'no-store')
      // The schema types the 200 body as the string of the OpenAPI `binary` format; a Buffer is
      // what is sent (Fastify writes Buffers as they are, without serialising).
      .send(file as unknown as string);
  });
}
