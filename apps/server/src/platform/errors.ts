/**
 * Every failure becomes an envelope: validation -> 30000 naming the field; AppError -> its code;
 * anything unexpected -> 500 with a request id, logged, never a stack trace.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Messages, ResponseCode, fieldSentence } from '@zhyy/shared';
import { AppError } from './envelope.js';

function segments(instancePath: string): string[] {
  return instancePath.replace(/^\//, '').split('/').filter(Boolean);
}

/** 参数错误： and one Chinese sentence naming the field (参数错误：请输入用户名, 参数错误：关键字不能超过100个字符). */
function validationMessage(err: FastifyError): string {
  const first = err.validation?.[0];
  if (!first) return `参数错误：${err.message}`;
  return `参数错误：${fieldSentence(segments(first.instancePath), first.message ?? '')}`;
}

/** Errors the router meets before any route or hook (bad URL encoding, an over-long path parameter). */
const FRAMEWORK_MESSAGES: Record<string, { status: number; message: string }> = {
  FST_ERR_BAD_URL: { status: 400, message: '请求地址无效：含有不正确的URL编码' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, message: '请求地址过长' },
};

/**
 * Fastify's `frameworkErrors` option: the envelope, the security headers and the request id, which
 * these answers would otherwise lack (no hook runs for them).
 */
export function answerFrameworkError(err: FastifyError, req: FastifyRequest, reply: FastifyReply): void {
  const known = Object.hasOwn(FRAMEWORK_MESSAGES, err.code) ? FRAMEWORK_MESSAGES[err.code]! : { status: 400, message: '请求无效' };
  req.server.securityHeaders(req.raw, reply.raw);
  reply.header('X-Request-Id', req.id);
  void reply.code(known.status).send({ code: ResponseCode.businessError, message: known.message });
}

export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof AppError) {
      return reply.code(err.status).send(err.r === undefined ? { code: err.code, message: err.message } : { code: err.code, message: err.message, r: err.r });
    }
    if (err.validation) {
      return reply.code(400).send({ code: ResponseCode.businessError, message: validationMessage(err) });
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
