// What Fastify itself costs: the same JSON hello as hello-server.mjs, answered by a bare Fastify
// instance (no hooks, no logger), so bench:auth can show Fastify next to node:http in one run.
import Fastify from 'fastify';

const port = Number(process.argv[2] ?? 0);
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
const address = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`listening ${new URL(address).port}\n`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
