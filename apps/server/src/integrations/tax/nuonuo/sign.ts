/** Nuonuo open-platform request signing (X-Nuonuo-Sign) and the per-request identifiers. */
import crypto from 'node:crypto';

/** The string that is signed: path parts of /open/v1/services, appKey, senid, nonce, timestamp, body. */
export const signatureBase = (appKey: string, senid: string, nonce: string, timestamp: string, body: string) =>
  `a=services&l=v1&p=open&k=${appKey}&i=${senid}&n=${nonce}&t=${timestamp}&f=${body}`;

/** base64(HMAC-SHA1(appSecret, signatureBase)). */
export function nuonuoSign(appSecret: string, appKey: string, senid: string, nonce: string, timestamp: string, body: string): string {
  return crypto.createHmac('sha1', appSecret).update(signatureBase(appKey, senid, nonce, timestamp, body), 'utf8').digest('base64');
}

/** 32 random hex characters. */
export const newSenid = () => crypto.randomBytes(16).toString('hex');

/** An 8-digit positive integer without a leading zero. */
export const newNonce = () => String(10_000_000 + crypto.randomInt(90_000_000));
