// Which entity an MQTT topic is about: `objects/<id>/...` names an object and `links/<id>/...`
// a link; `<prefix>/<id>/stat` carries measurements, as POST /<prefix>/:id/stat does.

export interface EntityTopic {
  entityType: 1 | 2;
  id: string;
  /** The topic is exactly `<prefix>/<id>/stat`. */
  isStat: boolean;
}

const PREFIXES = new Map<string, 1 | 2>([['objects', 1], ['links', 2]]);

/** Entity ids are decimal strings; anything else (a wildcard, an empty level) names none. */
const ID = /^[0-9]{1,32}$/;

export function entityTopic(topic: string): EntityTopic | undefined {
  const first = topic.indexOf('/');
  if (first < 0) return undefined;
  const entityType = PREFIXES.get(topic.slice(0, first));
  if (entityType === undefined) return undefined;
  const second = topic.indexOf('/', first + 1);
  const id = second < 0 ? topic.slice(first + 1) : topic.slice(first + 1, second);
  if (!ID.test(id)) return undefined;
  return { entityType, id, isStat: second >= 0 && topic.slice(second + 1) === 'stat' };
}
