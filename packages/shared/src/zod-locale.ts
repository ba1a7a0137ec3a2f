/**
 * Zod with our own messages, in Chinese, on both sides. Every module of this package takes `z` from
 * here, so the error map is set wherever a schema is built, even when a bundler loads only some
 * modules (package.json lists this file as the one with side effects).
 *
 * A rule without a message of ours gets one plain sentence naming the field (请填写用户名,
 * 电话不能超过20个字符): never zod's "期望 string，实际接收 undefined", never an English type name.
 * The field's name is the label the caller gives (a web form item), else the FIELD_LABELS entry of
 * the last key of the issue's path. Where a key means something else in one body (name is 用户名 at
 * sign-in), that schema gives its own message: text({ error: '请输入用户名' }).
 */
import { z } from 'zod';

/** The Chinese name of every field the API takes (the last key of an issue's path). */
export const FIELD_LABELS: Record<string, string> = {
  account: '账号', address: '地址', allocationId: '分摊记录', amountExcl: '不含税金额', amountIncl: '含税金额',
  fare: '票价', fuelSurcharge: '燃油附加费', developmentFund: '民航发展基金',
  amountMax: '最大金额', amountMin: '最小金额', appKey: 'AppKey', appSecret: 'AppSecret', bank: '开户行',
  blueInvoiceId: '蓝字发票', buyerAccount: '购买方账号', buyerAddress: '购买方地址', buyerBank: '购买方开户行',
  buyerEmail: '交付邮箱', buyerId: '购买方', buyerMobile: '交付手机', buyerName: '购买方名称', buyerPhone: '购买方电话',
  buyerTaxNo: '购买方税号', category: '类别', checker: '复核人', clerk: '开票人', code: '编码', colour: '颜色',
  confirmPassword: '确认密码', constructionProject: '建筑项目名称', constructionSite: '建筑服务发生地', content: '内容',
  contractId: '合同', contractType: '合同类型', correction: '更正内容', creator: '创建人', customer: '客户', days: '天数',
  defaultKind: '默认发票种类', defaultOpinion: '默认意见', deptId: '部门', description: '描述', dim: '统计维度',
  direction: '方向', domain: '域名', email: '邮箱', entries: '条目', field: '字段', fileId: '文件', fileName: '文件名',
  flowNo: '流程编号', form: '表单', from: '开始时间', fromMonth: '开始月份', fromUserId: '原处理人', gatewayMode: '接口模式',
  gatewayTaxNo: '接口税号', goodsName: '商品名称', groupBy: '分组方式', id: 'ID', ids: 'ID', keys: '差异发票', numbers: '发票号码', infoColumnName: '信息列名称',
  interfaceCode: '接口编码', invoiceId: '发票', invoiceNo: '发票号码', issueFrom: '开票开始日期', issueTo: '开票结束日期',
  items: '明细', keyword: '关键字', kind: '种类', level: '级别', limit: '条数', lineNo: '行号', lineProperty: '行性质',
  lines: '明细行', loginName: '登录名', managerId: '负责人', memo: '备注', message: '消息', method: '方法', mobile: '手机',
  name: '名称', newCityOnly: '仅新城市', newPublic: '新公开', note: '备注', number: '编号', nuonuoUrl: '诺诺地址',
  oldPassword: '原密码', opinion: '意见', order: '排序方向', orderNo: '订单号', overOnly: '仅超额', pageIndex: '页码',
  pageSize: '每页条数', parentId: '上级部门', password: '密码', payee: '收款人', phone: '电话', policy: '优惠政策',
  position: '职务', priceIncludesTax: '单价含税', projectId: '项目', province: '省份', quantity: '数量',
  realOnly: '仅真实', reason: '原因', redReason: '红冲原因', remark: '备注', request: '请求', response: '响应',
  role: '角色', roles: '角色', scope: '范围', sellerAccount: '销方账号', sellerAddress: '销方地址',
  sellerBank: '销方开户行', sellerName: '销方名称', sellerPhone: '销方电话', sellerTaxNo: '销方税号', sessionId: '会话',
  shortName: '简称', simulatorDelayMs: '模拟延迟', simulatorFailureRate: '模拟失败率', sort: '排序', source: '来源',
  spec: '规格型号', specialFactor: '特殊要素', stack: '堆栈', starter: '发起人', state: '状态', status: '状态',
  system: '系统', target: '目标', targetId: '目标', tax: '税额', taxCode: '税收分类编码', taxCodes: '税收分类编码',
  taxNo: '税号', taxRate: '税率', tempOnly: '仅临时', text: '文本', time: '时间', title: '标题', to: '结束时间',
  toMonth: '结束月份', toNodeId: '目标节点', toTargetId: '目标', toUserId: '接收人', toUserIds: '接收人', token: '令牌',
  type: '类型', unit: '单位', unitPrice: '单价', url: '地址', user: '用户', userId: '用户', userIds: '用户',
  vatUsage: '增值税用途', workId: '流程编号', startDate: '开始日期', endDate: '结束日期', leaveType: '请假类型',
  amount: '金额', userNo: '工号',
  invoiceCode: '发票代码', digitalNo: '数电发票号码', issueDate: '开票日期', invoiceState: '发票状态', riskLevel: '风险等级',
  verifyState: '查验状态', signState: '签收状态', bookingState: '入账状态', usage: '使用状态', archiveNo: '档案号', docNo: '单据号',
  checkCode: '校验码', blueInvoiceNo: '对应蓝字发票号码', abnormalFlag: '异常类型', files: '文件',
  invoiceIds: '发票', docType: '单据类型', toProjectId: '目标项目', taskId: '采集任务',
  period: '所属期', fromPeriod: '开始所属期', toPeriod: '结束所属期', transportKind: '票据种类', passengerName: '旅客姓名',
  deductible: '是否可抵扣',
  // 报销入账 (issue 15, accounting)
  billIds: '报销单', billId: '报销单', billNo: '报销单号', applicant: '申请人', costCentreCode: '成本中心编码', costCentreName: '成本中心名称',
  summary: '摘要', subjectCode: '会计科目编码', subjectName: '会计科目名称', voucherNo: '凭证号',
  deductReason: '不抵扣原因', effectiveTax: '有效税额', confirmed: '确认', filter: '筛选条件', tickState: '勾选状态', file: '文件',
  action: '操作', result: '结果', tickBookedOnly: '先入账后勾选', userName: '操作人', tickPeriod: '税款所属期', batchId: '批次',
  flag: '异常类型', ownerId: '负责人', mine: '只看本人', ageMin: '最少天数', ageMax: '最多天数', caseId: '异常记录', value: '更正后的值',
  idempotencyKey: '请求标识', unreadOnly: '只看未读',
  // 投标管理：人员与证书 (tender-people.ts)
  idCard: '身份证号', gender: '性别', birthDate: '出生日期', education: '学历', school: '毕业院校', major: '专业',
  graduationDate: '毕业日期', hireDate: '入职日期', includeDisabled: '含停用人员', kindId: '证书种类', titleName: '职称名称',
  speciality: '专业', certNo: '证书编号', issuer: '发证机关',
  permanent: '长期有效', company: '注册单位', expiringWithin: '到期天数', levels: '级别', hasSpeciality: '区分专业',
  validYears: '有效年限', renewMonths: '延期办理期',
  // 费用报销台账报表 (reimbursement-ledger.ts)
  project: '项目', flowState: '审批状态', reimbState: '报销状态', categoryCode: '费用类别',
  submittedFrom: '提交开始日期', submittedTo: '提交结束日期', approvedFrom: '审批通过开始日期', approvedTo: '审批通过结束日期',
  voucherFrom: '凭证开始日期', voucherTo: '凭证结束日期', withLines: '导出明细', deptIds: '部门', month: '月份', by: '汇总方式',
  travelKind: '差旅标准类型', defaultTaxRate: '默认税率', enabled: '是否启用',
  centreCode: '成本中心编码', centreName: '成本中心名称', grade: '职级', cityTier: '城市分类', hotelPerNight: '住宿标准',
  seatClasses: '席别', allowancePerDay: '补助标准', city: '城市', tier: '城市分类', invoiceAgeDays: '发票期限', mode: '接口模式',
  timeoutMs: '超时',
  monthFrom: '开始月份', monthTo: '结束月份', itemCode: '成本项编码', itemName: '成本项名称', validFrom: '生效日期', validTo: '失效日期', on: '生效于',
  expenseDate: '发生日期', nights: '天数', seatClass: '座席', projectName: '项目名称',
  contractNo: '合同编号', periodFrom: '费用期间开始', periodTo: '费用期间结束', payeeName: '收款人', payeeBank: '收款银行',
  payeeAccount: '收款账号', saveAsDefault: '保存为默认收款信息',
  lineId: '费用明细', approvedAmount: '核定金额', otherLineId: '对方费用明细', peerId: '对方报销单',
  // 投标管理: files and settings (api/tender-files.ts)
  ownerKind: '附件所属类型', ownerIds: '附件所属记录', watermark: '默认水印文字', windowYears: '业绩年限', thresholdFen: '业绩金额门槛',
  remindDays: '提醒天数',
  // 项目经理例外 (api/tender-manager-exceptions.ts)
  otherProjectId: '同时担任的项目', ground: '例外依据', stopDate: '停工日期',
  // 投标管理 › 合同与项目 (tender-contracts.ts)
  frameId: '框架合同', signedOn: '签订日期', workFrom: '工期开始日期', workTo: '工期结束日期', acceptedOn: '竣工验收日期',
  signedFrom: '签订开始日期', signedTo: '签订结束日期', acceptedFrom: '验收开始日期', acceptedTo: '验收结束日期', complete: '完整性',
  location: '项目地点', managerRegistered: '注册建造师', startFrom: '开工开始日期', startTo: '开工结束日期',
  dimension: '统计维度', key: '统计项', top: '前N名', all: '全部', contractIds: '合同', deadline: '投标截止日', years: '年限',
  format: '导出格式', force: '重新生成', certificateIds: '证书', titleIds: '职称',
  // 系统管理 › 申报日历 (system.ts)
  year: '年度', deadlines: '申报期限',
};

/**
 * The name of the field a path points at: its last key with a name, skipping indexes and the keys
 * of free-form objects (form.note.deep.1 is 备注). '' when none is known.
 */
export function fieldLabel(path: readonly PropertyKey[] | undefined): string {
  for (let i = (path?.length ?? 0) - 1; i >= 0; i--) {
    const k = path![i];
    if (typeof k === 'string' && Object.hasOwn(FIELD_LABELS, k)) return FIELD_LABELS[k]!;
  }
  return '';
}

type Issue = z.core.$ZodRawIssue;

function labelOf(iss: Issue, given?: string): string {
  if (given) return given;
  return fieldLabel(iss.path) || '此项';
}

/** A field picked from a list (deptId, roles) rather than typed. */
const choose = (iss: Issue) => {
  const key = [...(iss.path ?? [])].reverse().find((k) => typeof k === 'string' && !/^\d+$/.test(k));
  return typeof key === 'string' && /(Id|Ids|role|roles|kind|type|status)$/.test(key);
};

const UNIT: Record<string, string> = { string: '个字符', array: '项', set: '项', file: '字节' };

/** One plain Chinese sentence for an issue, naming the field. */
export function issueMessage(iss: Issue, label?: string): string {
  const f = labelOf(iss, label);
  const i = iss as Issue & { origin?: string; minimum?: number | bigint; maximum?: number | bigint; inclusive?: boolean; format?: string; keys?: string[] };
  switch (iss.code) {
    case 'invalid_type':
      if (iss.input === undefined || iss.input === null || iss.input === '') return `${choose(iss) ? '请选择' : '请填写'}${f}`;
      return `${f}格式不正确`;
    case 'too_small': {
      const unit = UNIT[i.origin ?? ''];
      if (unit) return Number(i.minimum) <= 1 ? `请填写${f}` : `${f}至少${i.minimum}${unit}`;
      return i.inclusive === false ? `${f}必须大于${i.minimum}` : `${f}不能小于${i.minimum}`;
    }
    case 'too_big': {
      const unit = UNIT[i.origin ?? ''];
      if (unit) return `${f}不能超过${i.maximum}${unit}`;
      return i.inclusive === false ? `${f}必须小于${i.maximum}` : `${f}不能大于${i.maximum}`;
    }
    case 'invalid_format':
      return `${f}格式不正确`;
    case 'not_multiple_of':
      return `${f}的精度不正确`;
    case 'unrecognized_keys':
      return `含有不支持的字段：${(i.keys ?? []).join('、')}`;
    case 'invalid_value':
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
      return `${f}不在允许的范围内`;
    default:
      return `${f}不正确`;
  }
}

z.config({ customError: (iss) => issueMessage(iss) });

/**
 * The server's sentence for a failed field: the message as it is when it already names the field
 * (请输入用户名, ID格式不正确), otherwise the field's name before it (关键字不能超过100个字符,
 * 项目ID格式不正确, 每页条数：每页最多500条).
 */
export function fieldSentence(path: readonly PropertyKey[], message: string): string {
  const label = fieldLabel(path);
  if (!label) return message;
  if (message.includes(label) || message.startsWith('请')) return message;
  // 开始时间 + 时间格式不正确 = 开始时间格式不正确
  for (let k = Math.min(label.length, message.length); k > 0; k--) {
    if (label.endsWith(message.slice(0, k))) return label + message.slice(k);
  }
  // A sentence with its own subject (手机号须为11位手机号码, 两次密码不一致) stands; 不是有效的日期 needs one.
  if (/^\p{Script=Han}{2,}?(格式|须|不|应|只能|至少|最多)/u.test(message)) return message;
  return `${label}${/^([A-Za-z]|不|必须|须|应|只能|至少|格式|长度)/.test(message) ? '' : '：'}${message}`;
}

export { z };
