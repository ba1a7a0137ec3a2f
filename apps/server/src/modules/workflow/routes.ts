/**
 * The workflow service under /api/miswf/workflow/ (SPEC section 7). Every workflow page is open to
 * every signed-in user, so the calls are SIGNED_IN and the service checks each action's actor
 * (only the current handler sends, only roles 1 and 3 manage every instance or publish notices).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { z } from 'zod';
import {
  ConsumeTimeBody,
  EmpListBody,
  FlowDataBody,
  FlowTemplateBody,
  ListBody,
  TodoBody,
  WorkBody,
  WorkId,
  type TodoAnswer,
  text,
} from '@zhyy/shared';
import { currentUser } from '../../platform/context.js';
import { ok } from '../../platform/envelope.js';
import { typed } from '../../platform/route.js';
import { createFacade } from './facade.js';
import { OutcomeRegistry } from './outcomes.js';
import { actionRoutes } from './routes-actions.js';
import { noticeAndPersonalRoutes } from './routes-misc.js';
import { signedIn, WF, wfTags } from './paths.js';
import { WorkflowService } from './service.js';
import { workflowUserRecords } from './user-records.js';


async function workflowModule(app: FastifyInstance): Promise<void> {
  const outcomes = new OutcomeRegistry();
  const svc = new WorkflowService(app, outcomes);
  app.decorate('workflow', createFacade(app.db.kysely, svc.engine, outcomes));
  app.userRecords.register(workflowUserRecords);
  const r = typed(app);
  const tags = wfTags;

  r.post(`${WF}/todo`, { schema: { body: TodoBody, summary: '待办数量与待办列表；{newPublic:true} 返回公告 r.items', tags }, config: signedIn }, async (req) => {
    const user = currentUser(req);
    if (req.body.newPublic) return ok({ items: await svc.notices.published() });
    const [counts, items] = await Promise.all([svc.queries.counts(user.id), svc.queries.todoItems(user.id)]);
    const r: TodoAnswer = { ...counts, items };
    return ok(r);
  });

  r.post(`${WF}/list`, { schema: { body: ListBody, summary: '流程实例查询（待办、在途、草稿、我发起的、我参与的、抄送我的、全部）', tags }, config: signedIn }, async (req) =>
    ok(await svc.queries.list(currentUser(req), req.body)),
  );

  r.post(`${WF}/startflows`, { schema: { body: z.object({}), summary: '可发起的流程（按类别分组，含常用流程）', tags }, config: signedIn }, async (req) =>
    ok(await svc.catalog.startFlows(currentUser(req).id)),
  );

  r.post(`${WF}/flowtemplate`, { schema: { body: FlowTemplateBody, summary: '流程模板：表单定义与节点', tags }, config: signedIn }, async (req) =>
    ok(await svc.catalog.template(req.body.flowNo)),
  );

  r.post(`${WF}/flowdata`, { schema: { body: FlowDataBody, summary: '流程清单（按业务域）', tags }, config: signedIn }, async (req) =>
    ok(await svc.catalog.flowData(req.body.domain ?? 'OA')),
  );

  r.post(`${WF}/dept/list`, { schema: { body: z.object({}), summary: '部门列表（选择部门、筛选）', tags }, config: signedIn }, async () => ok(await svc.catalog.departments()));

  r.post(`${WF}/emp/list`, { schema: { body: EmpListBody, summary: '人员列表（选择处理人、抄送人、移交对象）', tags }, config: signedIn }, async (req) =>
    ok(await svc.catalog.people(req.body)),
  );

  r.post(`${WF}/generfrmurl`, { schema: { body: WorkBody, summary: '工作项表单的页面地址，或字符串 err@原因', tags }, config: signedIn }, async (req) =>
    ok(await svc.formUrl(currentUser(req), req.body.workId)),
  );

  r.post(`${WF}/workdetail`, { schema: { body: WorkBody, summary: '流程详情：表单、当前处理人、可执行的操作、轨迹', tags }, config: signedIn }, async (req) =>
    ok(await svc.details.detail(req.body.workId, currentUser(req))),
  );

  r.post(`${WF}/workchecklist`, { schema: { body: WorkBody, summary: '各节点审批意见', tags }, config: signedIn }, async (req) => {
    await svc.details.visible(req.body.workId, currentUser(req));
    return ok(await svc.details.checklist(req.body.workId));
  });

  r.post(`${WF}/workflow-record`, { schema: { body: WorkBody, summary: '流程轨迹', tags }, config: signedIn }, async (req) => {
    await svc.details.visible(req.body.workId, currentUser(req));
    return ok(await svc.details.track(req.body.workId));
  });

  r.post(`${WF}/consumetime/list`, { schema: { body: ConsumeTimeBody, summary: '各节点、处理人耗时（单个流程，或角色1、3查看全部）', tags }, config: signedIn }, async (req) =>
    ok(await svc.details.consumeTime(req.body, currentUser(req))),
  );

  r.post(
    `${WF}/nextstep`,
    {
      schema: {
        body: z.object({ workId: WorkId.optional(), flowNo: text().max(32).optional(), form: z.record(text(), z.unknown()).optional() }),
        summary: '下一步：将到达的节点与处理人（发送人选择时返回 choose）',
        tags,
      },
      config: signedIn,
    },
    async (req) => ok(await svc.nextStep(currentUser(req), req.body)),
  );

  await actionRoutes(app, svc);
  await noticeAndPersonalRoutes(app, svc);
}

/** Registered with fastify-plugin so that `app.workflow` is visible to every other area. */
export const workflowRoutes = fp(workflowModule, { name: 'workflow' });
