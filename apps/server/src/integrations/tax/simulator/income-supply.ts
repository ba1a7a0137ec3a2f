/**
 * The simulated suppliers of the company (who sends it invoices) and the seeded random numbers the
 * incoming-invoice simulator draws from: everything follows from the company's tax number and the
 * day, so the same window gives the same invoices every time, across restarts, with nothing stored.
 */
import crypto from 'node:crypto';
import { creditCodeCheckChar } from '@zhyy/shared';

/** A deterministic uniform [0, 1) stream (mulberry32) from a text seed. */
export function seeded(seed: string): () => number {
  let a = crypto.createHash('sha256').update(seed).digest().readUInt32LE(0);
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Rng = () => number;
export const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!;
export const between = (rng: Rng, lo: number, hi: number) => lo + Math.floor(rng() * (hi - lo + 1));
export const digits = (rng: Rng, n: number) => Array.from({ length: n }, () => Math.floor(rng() * 10)).join('');

/** Picks a key by weight. */
export function weighted<K extends string>(rng: Rng, weights: Readonly<Record<K, number>>): K {
  const entries = Object.entries(weights) as Array<[K, number]>;
  let r = rng() * entries.reduce((s, [, w]) => s + w, 0);
  for (const [k, w] of entries) {
    r -= w;
    if (r < 0) return k;
  }
  return entries[entries.length - 1]![0];
}

const CODE_CHARS = '0123456789ABCDEFGHJKLMNPQRTUWXY';

/** A 统一社会信用代码 that passes the GB 32100 checksum: kind (91 company, 92 individual business), region, organisation code. */
export function creditCode(rng: Rng, region: string, prefix: '91' | '92' = '91'): string {
  const org = Array.from({ length: 9 }, (_, i) => (i < 8 && rng() < 0.7 ? String(Math.floor(rng() * 10)) : CODE_CHARS[Math.floor(rng() * CODE_CHARS.length)]!)).join('');
  const first17 = `${prefix}${region}${org}`;
  return `${first17}${creditCodeCheckChar(first17)!}`;
}

/** Where suppliers are: city, its 6-digit division code, the province part of invoice codes. */
export const CITIES = [
  { city: '北京', region: '110105', prov: '1100' },
  { city: '天津', region: '120104', prov: '1200' },
  { city: '石家庄', region: '130102', prov: '1300' },
  { city: '保定', region: '130602', prov: '1300' },
  { city: '廊坊', region: '131002', prov: '1300' },
  { city: '济南', region: '370102', prov: '3700' },
  { city: '郑州', region: '410102', prov: '4100' },
  { city: '武汉', region: '420102', prov: '4200' },
  { city: '杭州', region: '330102', prov: '3300' },
  { city: '南京', region: '320102', prov: '3200' },
  { city: '合肥', region: '340102', prov: '3400' },
  { city: '成都', region: '510104', prov: '5100' },
  { city: '西安', region: '610102', prov: '6100' },
  { city: '长沙', region: '430102', prov: '4300' },
] as const;

const WORDS = ['鑫盛', '宏达', '恒泰', '华鼎', '永昌', '瑞丰', '中联', '金桥', '远航', '正信', '博远', '广厦', '立德', '安和', '盛世', '新元', '天成', '兴业', '诚达', '汇通', '德润', '嘉禾', '坤元', '融创'];

/** What a supplier sells, and so its rate and kinds. */
export type SupplyCategory = 'subcontract' | 'materials' | 'design' | 'simplified' | 'rail' | 'air' | 'road' | 'toll';

const SUFFIXES: Record<'subcontract' | 'materials' | 'design' | 'simplified', readonly string[]> = {
  subcontract: ['建筑劳务有限公司', '建设工程有限公司', '机电安装工程有限公司', '钢结构工程有限公司', '防水工程有限公司'],
  materials: ['建材有限公司', '商贸有限公司', '钢铁贸易有限公司', '混凝土有限公司', '电线电缆有限公司', '五金机电有限公司'],
  design: ['建筑设计院有限公司', '工程咨询有限公司', '勘察设计有限公司'],
  simplified: ['砂石料经营部', '建材经营部', '五金店', '物流有限公司', '劳务服务部', '装饰材料商行'],
};

const FIXED: Record<'rail' | 'air' | 'road' | 'toll', readonly string[]> = {
  rail: ['中国铁路北京局集团有限公司', '中国铁路上海局集团有限公司', '中国铁路广州局集团有限公司', '中国铁路武汉局集团有限公司'],
  air: ['中国国际航空股份有限公司', '中国东方航空股份有限公司', '中国南方航空股份有限公司', '海南航空控股股份有限公司', '四川航空股份有限公司'],
  road: ['北京六里桥长途汽车客运站有限公司', '石家庄运河桥客运站有限公司', '武汉港客运有限公司', '杭州汽车客运中心有限公司', '济南长途汽车总站有限公司'],
  toll: ['北京首都公路发展集团有限公司', '河北高速公路集团有限公司', '山东高速股份有限公司', '湖北省交通投资集团有限公司', '浙江沪杭甬高速公路股份有限公司', '江苏交通控股有限公司'],
};

export interface Supplier {
  name: string;
  taxNumber: string;
  category: SupplyCategory;
  city: (typeof CITIES)[number];
}

const COUNTS = { subcontract: 24, materials: 40, design: 8, simplified: 30 } as const;

const pools = new Map<string, Record<SupplyCategory, Supplier[]>>();

/** The company's suppliers by category (the same for the same company, always). */
export function suppliersOf(companyTaxNumber: string): Record<SupplyCategory, Supplier[]> {
  const cached = pools.get(companyTaxNumber);
  if (cached) return cached;
  const rng = seeded(`suppliers|${companyTaxNumber}`);
  const out = {} as Record<SupplyCategory, Supplier[]>;
  const names = new Set<string>();
  for (const category of Object.keys(COUNTS) as Array<keyof typeof COUNTS>) {
    out[category] = [];
    while (out[category].length < COUNTS[category]) {
      const city = pick(rng, CITIES);
      const name = `${city.city}${pick(rng, WORDS)}${pick(rng, SUFFIXES[category])}`;
      if (names.has(name)) continue;
      names.add(name);
      const individual = category === 'simplified' && !name.endsWith('有限公司');
      out[category].push({ name, taxNumber: creditCode(rng, city.region, individual ? '92' : '91'), category, city });
    }
  }
  for (const category of Object.keys(FIXED) as Array<keyof typeof FIXED>) {
    out[category] = FIXED[category].map((name) => {
      const city = pick(rng, CITIES);
      return { name, taxNumber: creditCode(rng, city.region), category, city };
    });
  }
  pools.set(companyTaxNumber, out);
  return out;
}
