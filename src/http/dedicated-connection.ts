import type { IncomingMessage, ServerResponse } from 'node:http';
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';

// A long answer that keeps its connection to itself (an event stream): the connection's HTTP parser, ~6 kB
// of native memory that Node keeps until the connection closes, freed as the answer starts
// (docs/performance.md, Memory per subscription).

type Parser = object;
type Listener = (...args: unknown[]) => void;

/**
 * Node's own helper behind node:http, with which its server frees a connection's parser at an upgrade; no
 * public API frees it before the connection closes. Should a later Node lack it, streams keep their parsers.
 */
const { freeParser } = createRequire(import.meta.url)('_http_common') as {
  freeParser?: (parser: Parser, request: IncomingMessage | null, socket: Socket | null) => void;
};

/** The listeners with which Node's HTTP server reads a connection (Node 22 and 24): what they parse must stop. */
const NODE_READERS = { data: 'bound socketOnData', end: 'bound socketOnEnd' } as const;

/**
 * Gives `response`'s connection to it alone: no request after `request` is read on it (what the client sends
 * next is dropped), the client's half-close ends it, and it closes with the response, which must say
 * `connection: close`. Only once `request` has been read whole, and only when Node reads the connection as
 * it is known to: else false, and the connection keeps its parser (it still closes with the response).
 */
export function dedicateConnection(request: IncomingMessage, response: ServerResponse): boolean {
  const socket: (Socket & { parser?: Parser | null }) | null = response.socket;
  const parser = socket?.parser;
  if (!socket || !parser || socket.destroyed || !request.complete || typeof freeParser !== 'function') return false;
  const readers = nodeReaders(socket);
  if (!readers) return false;
  socket.removeListener('data', readers.data);
  socket.removeListener('end', readers.end);
  freeParser(parser, request, socket);
  socket.on('end', destroyAtEnd);
  socket.resume();
  return true;
}

/** A client that half-closes a dedicated connection is gone (one function for every connection, not one each). */
function destroyAtEnd(this: Socket): void {
  this.destroy();
}

/** Node's 'data' and 'end' listeners on the connection, when they are exactly those expected. */
function nodeReaders(socket: Socket): { data: Listener; end: Listener } | undefined {
  const data = socket.listeners('data') as Listener[];
  const end = (socket.listeners('end') as Listener[]).filter((listener) => listener.name === NODE_READERS.end);
  if (data.length !== 1 || data[0]!.name !== NODE_READERS.data || end.length !== 1) return undefined;
  return { data: data[0]!, end: end[0]! };
}
