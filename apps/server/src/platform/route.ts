/** Typed routes: one zod schema gives validation, types and the OpenAPI entry. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';

export const typed = (app: FastifyInstance) => app.withTypeProvider<ZodTypeProvider>();
