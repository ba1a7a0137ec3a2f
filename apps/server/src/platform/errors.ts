/**
 * Every failure becomes an envelope: validation -> 30000 naming the field; AppError -> its code;
 * anything unexpected -> 500 with a request id, logged, never a stack trace.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { Messages, ResponseCode } from '@zhyy/shared';
import { AppError } from './envelope.js';

function fieldOf(instancePath: string): string {
  const p = instancePath.replace(/^\//, '').replace(/\//g, '.');
  return p || '请求体';
}

function validationMessage(err: FastifyError): string {
  if (hasZodFastifySchemaValidationErrors(err)) {
    const first = err.validation[0]!;
    return `参数错误：${fieldOf(first.instancePath)} ${first.message}`;
  }
  const first = err.validation?.[0];
  return `参数错误：${first ? `${fieldOf(first.instancePath)} ${first.message ?? ''}` : err.message}`;
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      return reply.code(err.status).send({ code: err.code, message: err.message });
    }
    if (err.validation) {
      return reply.code(400).send({ code: ResponseCode.businessError, message: validationMessage(err) });
    }
    if (err.statusCode === 429) {
      return reply.code(429).send({ code: ResponseCode.businessError, message: Messages.tooManyRequests });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return reply.code(400).send({ code: ResponseCode.businessError, message: '参数错误：请求体不是有效的JSON' });
    }
    if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.code(415).send({ code: ResponseCode.businessError, message: '参数错误：不支持的请求格式' });
    }
    if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.code(413).send({ code: ResponseCode.businessError, message: '请求内容过大' });
    }
    if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      return reply.code(err.statusCode).send({ code: ResponseCode.businessError, message: `请求无效：${err.message}` });
    }
    req.log.error({ err }, 'unexpected error');
    return reply.code(500).send({
      code: ResponseCode.businessError,
      message: `${Messages.internalError}（请求号 ${req.id}）`,
      requestId: req.id,
    });
  });
}
