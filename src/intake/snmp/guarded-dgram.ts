// The UDP sockets net-snmp's receiver listens on, given to it through its `dgramModule`
// option so that every datagram passes here first. A 'message' listener that throws takes the
// whole process down, and net-snmp has paths outside its own try (answering an inform or a v3
// report re-encodes what the sender sent), so its handler runs inside a catch. Datagrams that
// cannot be an SNMP message by their outer header are turned away before net-snmp parses them,
// which also stops it from reading a cut-off message as a shorter one.
import dgram, { type RemoteInfo, type Socket, type SocketType } from 'node:dgram';

export type DatagramProblem = 'garbage' | 'truncated';

/**
 * What is wrong with a datagram judged by its outer BER header (SEQUENCE, definite length)
 * alone; undefined when it may be an SNMP message.
 */
export function datagramProblem(buf: Uint8Array): DatagramProblem | undefined {
  if (buf.length === 0 || buf[0] !== 0x30) return 'garbage';
  if (buf.length < 2) return 'truncated';
  const first = buf[1]!;
  let length = first;
  let header = 2;
  if (first >= 0x80) {
    const n = first & 0x7f;
    // Indefinite length (0x80) is not allowed in SNMP. Some agents pad the length field with
    // zero bytes, so up to 8 length bytes are read rather than refused.
    if (n === 0 || n > 8) return 'garbage';
    if (buf.length < 2 + n) return 'truncated';
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + buf[2 + i]!;
    header = 2 + n;
  }
  return header + length > buf.length ? 'truncated' : undefined;
}

export interface DatagramHooks {
  /** Every datagram, before anything else looks at it. */
  received(buf: Buffer, rinfo: RemoteInfo): void;
  /** Turned away by its header: net-snmp never sees it. */
  refused(problem: DatagramProblem, buf: Buffer, rinfo: RemoteInfo): void;
  /** net-snmp's handler threw on this datagram (or `fast` did). */
  crashed(err: unknown, buf: Buffer, rinfo: RemoteInfo): void;
  /** Handles the datagram before net-snmp when it can; true: handled, net-snmp never sees it. */
  fast?(buf: Buffer, rinfo: RemoteInfo): boolean;
}

type MessageListener = (buf: Buffer, rinfo: RemoteInfo) => void;

/**
 * Traps come in storms (a flapping link, a rebooting switch): a deep kernel buffer holds a
 * burst while the event loop is busy instead of dropping it. Linux caps it at
 * net.core.rmem_max (often 208 KiB; raise it for heavy trap loads).
 */
export const RECV_BUFFER_BYTES = 4 * 1024 * 1024;

/** A stand-in for node:dgram whose sockets guard their 'message' listeners; `sockets` are the ones made. */
export function guardedDgram(hooks: DatagramHooks) {
  const sockets: Socket[] = [];
  const guard = (listener: MessageListener): MessageListener => (buf, rinfo) => {
    try {
      hooks.received(buf, rinfo);
      const problem = datagramProblem(buf);
      if (problem) {
        hooks.refused(problem, buf, rinfo);
        return;
      }
      if (hooks.fast?.(buf, rinfo)) return;
      listener(buf, rinfo);
    } catch (err) {
      try {
        hooks.crashed(err, buf, rinfo);
      } catch {
        // Nothing may leave a socket handler.
      }
    }
  };
  return {
    sockets,
    module: {
      createSocket(type: SocketType): Socket {
        const socket = dgram.createSocket({ type, recvBufferSize: RECV_BUFFER_BYTES });
        const on = socket.on.bind(socket) as (event: string, listener: (...args: any[]) => void) => Socket;
        // 'message' listeners are guarded; every other event passes as it is.
        socket.on = ((event: string, listener: (...args: any[]) => void) =>
          on(event, event === 'message' ? guard(listener as MessageListener) : listener)) as Socket['on'];
        sockets.push(socket);
        return socket;
      },
    },
  };
}
