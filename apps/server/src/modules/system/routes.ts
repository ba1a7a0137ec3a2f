/** System administration (issue 4): users, departments, roles and sign-in locations. */
import type { FastifyInstance } from 'fastify';
import { deptRoutes } from './depts.routes.js';
import { filingCalendarRoutes } from './filing-calendar.js';
import { geoRoutes } from './geo.routes.js';
import { roleRoutes } from './roles.routes.js';
import { platformUserRecords } from './users.repo.js';
import { userRoutes } from './users.routes.js';

export async function systemRoutes(app: FastifyInstance): Promise<void> {
  app.userRecords.register(platformUserRecords);
  await userRoutes(app);
  await deptRoutes(app);
  await roleRoutes(app);
  await geoRoutes(app);
  await filingCalendarRoutes(app);
}
