/**
 * The cold-start anchor of bench/cold-start.mjs: a Fastify hello world (the same Fastify the server
 * uses, nothing else) answering /version.json on PORT and HOST, as apps/server/dist/main.js does.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/version.json', async () => ({ version: 'hello' }));
await app.listen({ port: Number(process.env.PORT), host: process.env.HOST ?? '127.0.0.1' });
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
