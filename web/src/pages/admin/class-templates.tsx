// A class's templates (README "Class templates"): its state conditions, incident conditions
// and properties, which every object of the class follows where it has none of its own. The
// object page's document editor on the class routes; read-only without manage-classes.
import { api, data } from '../../api/client';
import { DocEditor } from '../objects/detail/json-doc-editor';
import { INCIDENT_EXAMPLE, OPERATORS, STATE_EXAMPLE } from '../objects/detail/conditions-tab';
import type { ObjectClass } from './admin-types';

const PROPS_EXAMPLE = JSON.stringify([{ name: 'team', value: 'network', type_id: 3 }, { name: 'site', value: 'north', type_id: 1 }], null, 2);
const OVERRIDE = 'Applies to every object of the class without one of its own (its own wins).';

/** What the props editor shows of each property: what a PUT takes (matched by name). */
const propItems = (list: unknown) => (list as Array<{ name: string; value: string; type_id: number }>).map(({ name, value, type_id }) => ({ name, value, type_id }));

export function ClassTemplates({ cls, readOnly }: { cls: ObjectClass; readOnly: boolean }) {
  const id = cls.id;
  const params = { params: { path: { id } } };
  return (
    <section aria-label={`Templates of class ${cls.name}`} className="adm-class-templates">
      <h3>Templates of class {cls.name}</h3>
      {readOnly ? <p className="muted">Changing a class's templates needs the right manage-classes.</p> : null}
      <DocEditor
        headingId={`cls-${id}-state-conditions`}
        title={`State conditions of ${cls.name}`}
        help={`Ordered [{condition, state, description}]; the first that holds sets the state. ${OVERRIDE} ${OPERATORS}`}
        example={STATE_EXAMPLE}
        deps={[id]}
        readOnly={readOnly}
        load={() => api.GET('/node/api/classes/{id}/state-conditions', params).then(data)}
        put={(body) => api.PUT('/node/api/classes/{id}/state-conditions', { ...params, body })}
        remove={() => api.DELETE('/node/api/classes/{id}/state-conditions', params)}
      />
      <DocEditor
        headingId={`cls-${id}-incident-conditions`}
        title={`Incident conditions of ${cls.name}`}
        help={`[{id, condition, clearCondition, text, state (incident level id)}]. ${OVERRIDE} ${OPERATORS}`}
        example={INCIDENT_EXAMPLE}
        deps={[id]}
        readOnly={readOnly}
        load={() => api.GET('/node/api/classes/{id}/incident-conditions', params).then(data)}
        put={(body) => api.PUT('/node/api/classes/{id}/incident-conditions', { ...params, body })}
        remove={() => api.DELETE('/node/api/classes/{id}/incident-conditions', params)}
      />
      <DocEditor
        headingId={`cls-${id}-props`}
        title={`Properties of ${cls.name}`}
        help="[{name, value, type_id}] (type_id 1 info, 2 read-only, 3 read-write, 6 link, 7 document, 8 service). Objects of the class show them unless they have a property of the same name. Save [] to remove them all."
        example={PROPS_EXAMPLE}
        deps={[id]}
        readOnly={readOnly}
        shownAs={propItems}
        load={() => api.GET('/node/api/classes/{id}/props', params).then(data)}
        put={(body) => api.PUT('/node/api/classes/{id}/props', { ...params, body: body as Array<{ name: string; value: string }> })}
      />
    </section>
  );
}
