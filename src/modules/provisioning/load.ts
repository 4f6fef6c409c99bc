// Reads the provisioning directory: every *.yaml, *.yml and *.json file directly in it, in name
// order, each parsed and checked against file-schema.ts, then merged. Every error names the
// file and the path inside it (`site.yaml: objects[2].properties.ip: ...`); errors are collected
// across files so that one run shows them all, and the caller applies nothing when any is found.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import { parse as parseYaml } from 'yaml';
import { badRequest } from '../../errors.js';
import { type ClassSpecT, type LevelSpecT, type ObjectSpecT, ProvisioningFile, type ProvisioningFileT, type UserSpecT } from './file-schema.js';

/** A file larger than this is refused: provisioning describes a site, it is not a data import. */
export const MAX_FILE_BYTES = 1024 * 1024;
export const MAX_FILES = 200;
/** Errors shown at most (the rest are counted). */
const MAX_ERRORS = 20;
const EXTENSIONS = /\.(ya?ml|json)$/i;

/** One item of the files and where it was written, for messages: `site.yaml: objects[2]`. */
export interface Located<T> {
  spec: T;
  where: string;
}

export interface Desired {
  files: string[];
  classes: Located<ClassSpecT>[];
  levels: Located<LevelSpecT>[];
  objects: Located<ObjectSpecT>[];
  users: Located<UserSpecT>[];
}

/** `/objects/2/properties/ip` → `objects[2].properties.ip`; an empty key shows as `""`. */
export function pathOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~') || '""')
    .reduce((out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');
}

export class ErrorList {
  readonly messages: string[] = [];
  add(message: string): void {
    this.messages.push(message);
  }
  /** Throws one 400 holding every message (one per line) when there is any. */
  throwIfAny(): void {
    if (this.messages.length === 0) return;
    const shown = this.messages.slice(0, MAX_ERRORS);
    const more = this.messages.length - shown.length;
    throw badRequest(`provisioning refused, nothing applied:\n${shown.join('\n')}${more > 0 ? `\n(and ${more} more)` : ''}`);
  }
}

function parseFile(name: string, text: string, errors: ErrorList): unknown {
  try {
    // YAML is a superset of JSON, but a .json file is held to JSON's stricter rules.
    return /\.json$/i.test(name) ? JSON.parse(text) : parseYaml(text, { maxAliasCount: 100, uniqueKeys: true });
  } catch (err) {
    errors.add(`${name}: not valid ${/\.json$/i.test(name) ? 'JSON' : 'YAML'}: ${(err as Error).message.split('\n')[0]}`);
    return undefined;
  }
}

function checkShape(name: string, value: unknown, errors: ErrorList): value is ProvisioningFileT {
  // An empty file (or one of comments only) describes nothing.
  if (value === null || value === undefined) return false;
  const found = Value.Errors(ProvisioningFile, value);
  // One message per place: a union reports each of its branches (and what is wrong inside
  // them), an unknown key its `false` schema too; those say less than the one kept.
  const unions = found.filter((e) => e.keyword === 'anyOf').map((e) => pathOf(e.instancePath));
  const insideUnion = (at: string) => unions.some((u) => at !== u && (at.startsWith(`${u}.`) || at.startsWith(`${u}[`)));
  const byPath = new Map<string, string>();
  for (const e of found) {
    const at = pathOf(e.instancePath);
    // A bad key is reported at its own path too; the record's summary of them says less.
    if (e.keyword === 'boolean' || e.keyword === 'propertyNames' || insideUnion(at)) continue;
    const extra = (e.params as { additionalProperties?: string[] } | undefined)?.additionalProperties;
    if (extra && extra.length > 0) {
      for (const k of extra) byPath.set(`${at ? `${at}.` : ''}${k}`, 'unknown key');
    } else if (!byPath.has(at) || e.keyword === 'anyOf') byPath.set(at, readable(at, e.message));
  }
  for (const [at, message] of [...byPath].slice(0, MAX_ERRORS)) errors.add(`${name}: ${at || '(top level)'}: ${message}`);
  return found.length === 0;
}

/** TypeBox's words for a union say nothing of what was expected: these do. */
function readable(at: string, message: string): string {
  if (/permissions\[\d+\]$/.test(at)) return 'unknown right';
  if (!message.includes('anyOf')) return message;
  if (/properties\.[^.]+$/.test(at)) return 'expected text, a number, true or false, or {value, type_id}';
  return 'not one of the accepted forms';
}

/** Two items of one kind with the same key (across files too) are an error naming both. */
function unique<T>(items: Located<T>[], key: (t: T) => string, what: string, errors: ErrorList): void {
  const seen = new Map<string, string>();
  for (const item of items) {
    const k = key(item.spec);
    const first = seen.get(k);
    if (first !== undefined) errors.add(`${item.where}: ${what} "${k}" is also given at ${first}`);
    else seen.set(k, item.where);
  }
}

/**
 * The files' content, merged and checked in itself (references to the catalog are plan.ts's).
 * Errors go to `errors`, so that the plan's own are reported with them; the caller throws.
 */
export function loadDirectory(dir: string, errors: ErrorList): Desired {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => EXTENSIONS.test(n) && statSync(join(dir, n)).isFile()).sort();
  } catch (err) {
    throw badRequest(`provisioning refused, nothing applied: cannot read the provisioning directory ${dir}: ${(err as Error).message}`);
  }
  if (names.length > MAX_FILES) throw badRequest(`provisioning refused, nothing applied: ${names.length} files in ${dir}, at most ${MAX_FILES}`);
  const desired: Desired = { files: names, classes: [], levels: [], objects: [], users: [] };
  for (const name of names) {
    const path = join(dir, name);
    const size = statSync(path).size;
    if (size > MAX_FILE_BYTES) {
      errors.add(`${name}: ${size} bytes, at most ${MAX_FILE_BYTES}`);
      continue;
    }
    const value = parseFile(name, readFileSync(path, 'utf8'), errors);
    if (!checkShape(name, value, errors)) continue;
    const add = <T>(list: Located<T>[], items: T[] | undefined, key: string) =>
      items?.forEach((spec, i) => list.push({ spec, where: `${name}: ${key}[${i}]` }));
    add(desired.classes, value.classes, 'classes');
    add(desired.levels, value.levels, 'levels');
    add(desired.objects, value.objects, 'objects');
    add(desired.users, value.users, 'users');
  }
  unique(desired.classes, (c) => c.name, 'class', errors);
  unique(desired.levels, (l) => l.name, 'incident level', errors);
  unique(desired.objects, (o) => o.discovery_id, 'discovery_id', errors);
  unique(desired.users, (u) => u.login, 'login', errors);
  return desired;
}
