// A bound on the size of one MQTT packet. aedes buffers a whole packet before it calls any
// hook, and a packet may announce up to 256 MB, so without this a client (even before it has
// signed in) could make the server hold that much per connection. The length is known from
// the fixed header; a packet announced larger than the limit closes the connection at once.
//
// aedes has no option for it, so this wraps the length step of the client's mqtt-packet
// parser (aedes 1.x, mqtt-packet 9.x). If their internals change, `limitPacketSize` returns
// false and the caller logs that the limit is not applied (the test of the limit then fails).
import type { Client } from 'aedes';

interface ParserInternals {
  packet: { length: number };
  _parseLength(): boolean;
  _emitError(err: Error): void;
}

export function limitPacketSize(client: Client, maxBytes: number, onTooLarge: (length: number) => void): boolean {
  const parser = (client as unknown as { _parser?: Partial<ParserInternals> })._parser;
  if (!parser || typeof parser._parseLength !== 'function' || typeof parser._emitError !== 'function' || typeof parser.packet !== 'object') return false;
  const parseLength = parser._parseLength;
  parser._parseLength = function limitedParseLength(this: ParserInternals): boolean {
    const done = parseLength.call(this);
    if (done && this.packet.length > maxBytes) {
      onTooLarge(this.packet.length);
      // The parser's own error path: aedes closes the connection on it.
      this._emitError(new Error(`MQTT packet of ${this.packet.length} bytes is over the limit of ${maxBytes}`));
      return false;
    }
    return done;
  };
  return true;
}
