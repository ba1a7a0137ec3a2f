/** /api/geolocation/*: where sign-ins come from (role 1). */
import type { FastifyInstance } from 'fastify';
import { GeoListQuery, GeoStatQuery } from '@zhyy/shared';
import { pages } from '../../platform/access.js';
import { ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { listSignIns, signInStatistic } from './geo.service.js';

const GEO_PAGE = pages('/system/geolocation');

export async function geoRoutes(app: FastifyInstance): Promise<void> {
  const r = typed(app);
  const tags = ['登录地分布'];

  r.post('/api/geolocation/list', { schema: { body: GeoListQuery, summary: '登录记录及其所在地（离线IP库）；newCity 为首次出现的登录城市', tags }, config: { access: GEO_PAGE } }, async (req) =>
    ok(await listSignIns(app.db.kysely, req.body)),
  );

  r.post('/api/geolocation/statistic', { schema: { body: GeoStatQuery, summary: '按省或市统计登录次数、人数、新城市登录次数', tags }, config: { access: GEO_PAGE } }, async (req) =>
    ok(await signInStatistic(app.db.kysely, req.body)),
  );
}
