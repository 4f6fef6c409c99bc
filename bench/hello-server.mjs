// The yardstick: a bare node:http server answering a small JSON body.
import { createServer } from 'node:http';

const port = Number(process.argv[2] ?? 0);
const body = JSON.stringify({ hello: 'world' });
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
});
server.listen(port, '127.0.0.1', () => {
  const addr = server.address();
  process.stdout.write(`listening ${typeof addr === 'object' && addr ? addr.port : port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
