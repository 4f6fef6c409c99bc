// The secrets inside a stored record of a configuration change (the audit log's before and
// after): a property row (an entity's or a class's), an entity record with its properties, a
// state-triggers document.
// The audit log shows these to readers without manage-service-properties through here, so a
// secret masked by /props is masked in its history too.
import { redactProperties, redactProperty, type PropertyLike } from './check-secrets.js';
import { redactTriggers } from './trigger-secrets.js';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isProperty = (v: unknown): v is PropertyLike => isObject(v) && typeof v.value === 'string' && typeof v.type_id === 'number';

/** `value` (a record of kind `resource`, as stored) with its secrets masked. */
export function redactRecordSecrets(resource: string, value: unknown): unknown {
  if (value === null || value === undefined) return value;
  switch (resource) {
    case 'property':
    case 'class.property':
      return isProperty(value) ? redactProperty(value) : value;
    case 'object':
    case 'link':
      if (!isObject(value) || !Array.isArray(value.properties)) return value;
      return { ...value, properties: redactProperties(value.properties.filter(isProperty)) };
    case 'stateTriggers':
      return redactTriggers(value);
    default:
      return value;
  }
}
