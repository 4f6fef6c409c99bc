// What an MQTT payload says, as the event log keeps it: the JSON value when the payload is
// JSON, else its text, else (bytes that are not UTF-8) base64 with a flag, so a record never
// holds a mangled string and the original bytes can always be recovered.
import { isUtf8 } from 'node:buffer';
import { parseJsonText } from '../../core/input/json-text.js';

export type MessageBody =
  | { kind: 'json'; message: unknown }
  | { kind: 'text'; message: string; reason?: string }
  | { kind: 'binary'; message: string; encoding: 'base64' };

/** `maxDepth` bounds JSON nesting as HTTP bodies are bounded: deeper JSON stays text. */
export function decodeMessage(payload: Uint8Array, maxDepth: number): MessageBody {
  const bytes = Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength);
  if (!isUtf8(bytes)) return { kind: 'binary', message: bytes.toString('base64'), encoding: 'base64' };
  const text = bytes.toString('utf8');
  // Not even a start of JSON: skip the parser (most plain-text messages end here).
  if (!looksLikeJson(text)) return { kind: 'text', message: text };
  try {
    return { kind: 'json', message: parseJsonText(text, maxDepth) };
  } catch (err) {
    return { kind: 'text', message: text, reason: (err as Error).message };
  }
}

/** Whether the text starts (after white space) with something JSON can start with. */
function looksLikeJson(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    // { [ " - 0-9 t f n
    return c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39) || c === 0x74 || c === 0x66 || c === 0x6e;
  }
  return false;
}
