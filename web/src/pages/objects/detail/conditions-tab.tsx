// Conditions: editors for the state conditions, incident conditions, state triggers and
// dependencies, and the runs of those triggers.
import { DependenciesEditor } from './dependencies-editor';
import { JsonDocEditor } from './json-doc-editor';
import { TriggerRuns } from './trigger-runs';

export const OPERATORS = 'Operators: _eq _neq _gt _gte _lt _lte _ct (contains) _nct (does not contain) _m (RE2 match) _exists, combined with _and / _or; _duration (ms, beside the clauses) requires them to hold that long. Metrics by dotted name; events under event.* (event.trapOid, event.topic, ...).';

export const STATE_EXAMPLE = JSON.stringify(
  [
    { condition: { 'cpu.load1': { _gt: 4 } }, state: 5, description: 'load over 4' },
    { condition: { _or: [{ status: { _neq: 'ok' } }, { 'disk.free': { _lt: 10 } }], _duration: 60000 }, state: 4, description: 'unwell for a minute' },
    { condition: { status: { _exists: true } }, state: 3 },
  ],
  null,
  2,
);
export const INCIDENT_EXAMPLE = JSON.stringify(
  [{ id: 'hot', condition: { temperature: { _gte: 70 } }, clearCondition: { temperature: { _lt: 60 } }, text: 'too hot', state: 4 }],
  null,
  2,
);
const TRIGGER_EXAMPLE = JSON.stringify(
  [
    { type: 'webhook', payload: { url: 'https://hooks.example.com/vigil' }, states: [5, 8], duration: 0 },
    { type: 'e-mail', payload: { to: 'ops@example.com', subject: 'Vigil alert' }, states: [8], duration: 60000 },
  ],
  null,
  2,
);

export function ConditionsTab({ id }: { id: string }) {
  return (
    <div>
      <JsonDocEditor
        id={id}
        kind="state-conditions"
        title="State conditions"
        help={`Ordered [{condition, state, description}]; the first that holds sets the state. ${OPERATORS}`}
        example={STATE_EXAMPLE}
      />
      <JsonDocEditor
        id={id}
        kind="incident-conditions"
        title="Incident conditions"
        help={`[{id, condition, clearCondition, text, state (incident level id)}]: an incident is raised while condition holds and cleared by clearCondition. ${OPERATORS}`}
        example={INCIDENT_EXAMPLE}
      />
      <JsonDocEditor
        id={id}
        kind="state-triggers"
        title="State triggers"
        help="[{type (webhook | e-mail), payload, states, duration}]: fires when it enters one of states and stays there duration ms. webhook payload {url, method?, headers?, timeoutMs?}; e-mail payload {to, subject?}."
        example={TRIGGER_EXAMPLE}
      />
      <DependenciesEditor id={id} />
      <TriggerRuns id={id} />
    </div>
  );
}
