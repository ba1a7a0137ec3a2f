/**
 * JSON bodies: an empty body is {} (the spec's calls with an empty payload), and prototype-poisoning
 * keys are refused.
 */
import type { FastifyInstance } from 'fastify';
import sjson from 'secure-json-parse';

export function installBodyParsing(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, {});
    try {
      done(null, sjson.parse(text, undefined, { protoAction: 'error', constructorAction: 'error' }));
    } catch {
      const err = new Error('invalid JSON') as Error & { statusCode: number; code: string };
      err.statusCode = 400;
      err.code = 'FST_ERR_CTP_INVALID_JSON_BODY';
      done(err, undefined);
    }
  });
  app.addHook('preValidation', async (req) => {
    if (req.method === 'POST' && req.body === undefined) req.body = {};
  });
}
