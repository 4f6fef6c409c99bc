import { Type, type Static } from 'typebox';
import { MAX_FORMULA_LENGTH } from '../../core/reports/formula.js';

export const MAX_REPORT_ITEMS = 50;
const MAX_TIME = 8.64e15;

// `type`, the expressions and the downsample are plain strings here: the service checks them
// and answers a 400 that names the item and says what is wrong (a schema refusal could only
// say "must be equal to constant").
export const ChartRequestItem = Type.Object({
  type: Type.String({ maxLength: 40, description: '`line-chart` (the only chart type)' }),
  entityId: Type.Union([Type.String({ minLength: 1, maxLength: 40 }), Type.Integer({ minimum: 0 })], { description: 'object or link id (a number is taken as its decimal text)' }),
  entityType: Type.Optional(Type.Integer({ minimum: 1, maximum: 2, description: '1 object, 2 link; when given it must match the entity' })),
  metric: Type.String({ maxLength: MAX_FORMULA_LENGTH, description: 'a metric name in double braces, e.g. `{{cpu.load1}}`' }),
  formula: Type.Optional(Type.String({
    maxLength: MAX_FORMULA_LENGTH,
    description: 'arithmetic on metrics in the same form, e.g. `{{rx}}+{{tx}}`, `({{a}}-{{b}})/2`, `{{bytes}}*8` (numbers, + - * /, parentheses, unary minus); '
      + 'charted instead of `metric` when given. Each metric is downsampled first, then the formula is applied bucket by bucket where every metric it names has a point; '
      + 'a result that is not finite (division by zero) is left out.',
  })),
  from: Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'milliseconds, inclusive' }),
  to: Type.Integer({ minimum: 0, maximum: MAX_TIME, description: 'milliseconds, inclusive; after from' }),
  downsample: Type.String({
    maxLength: 40,
    description: '<interval>-<agg> as for history (e.g. 1m-avg, 1h-max, all-avg); at most 100,000 buckets per item, '
      + 'else 400 (no silent thinning: the chart shows the interval asked for)',
  }),
});
export type ChartRequestItem = Static<typeof ChartRequestItem>;

export const ReportBody = Type.Array(ChartRequestItem, {
  minItems: 1,
  maxItems: MAX_REPORT_ITEMS,
  description: `1 to ${MAX_REPORT_ITEMS} chart request items`,
});
