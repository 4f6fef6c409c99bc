// The property type ids and the shape of a property change: plain facts the property rules,
// the input checks and the replace planner all read, kept apart so none of them imports another.
import type { PropertyInputT } from './schemas.js';

/** Property types: 1 info, 2 read-only, 3 read-write, 6 external link, 7 document, 8 service, 101+ user-defined. */
export const PROPERTY_TYPES = new Set([1, 2, 3, 6, 7, 8]);
export const READ_ONLY_PROPERTY = 2;
export const SERVICE_PROPERTY = 8;
export const DEFAULT_PROPERTY_TYPE = 3;

/** What a client may change on one property. */
export interface PropertyChange {
  name?: string;
  value?: PropertyInputT['value'];
  type_id?: number;
}
