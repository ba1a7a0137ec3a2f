/**
 * What the simulated suppliers sell: the lines of their invoices, by category, with exact money
 * (分; amount excluding tax + tax = line total). Prices excluding tax on goods and services; tickets
 * and tolls are priced including tax and the tax is taken out (rounded half up).
 */
import { Decimal } from 'decimal.js';
import type { IncomeInvoiceLine } from '../income-types.js';
import { lineAmount, taxOf } from '../money.js';
import { between, pick, type Rng, type SupplyCategory } from './income-supply.js';

interface Goods {
  name: string;
  spec: readonly string[];
  unit: string;
  /** Quantity range and decimals; absent: a service line of quantity 1 priced in 元 between min and max. */
  qty?: readonly [number, number, number];
  price: readonly [number, number];
}

const CATALOG: Record<'subcontract' | 'materials' | 'design' | 'simplified', readonly Goods[]> = {
  subcontract: [
    { name: '*建筑服务*劳务分包', spec: [''], unit: '项', price: [30_000, 600_000] },
    { name: '*建筑服务*工程服务', spec: [''], unit: '项', price: [50_000, 900_000] },
    { name: '*建筑服务*机电设备安装', spec: [''], unit: '项', price: [20_000, 300_000] },
    { name: '*建筑服务*防水工程', spec: [''], unit: '平方米', qty: [200, 4000, 2], price: [38, 95] },
  ],
  materials: [
    { name: '*黑色金属冶炼压延品*螺纹钢', spec: ['HRB400E Φ12', 'HRB400E Φ20', 'HRB400E Φ25'], unit: '吨', qty: [3, 80, 3], price: [3600, 4300] },
    { name: '*水泥*普通硅酸盐水泥', spec: ['P.O42.5', 'P.O52.5'], unit: '吨', qty: [10, 200, 2], price: [380, 520] },
    { name: '*混凝土*商品混凝土', spec: ['C30', 'C35', 'C40'], unit: '立方米', qty: [20, 600, 1], price: [420, 560] },
    { name: '*电线电缆*电力电缆', spec: ['YJV-4×95+1×50', 'YJV-3×185'], unit: '米', qty: [50, 2000, 0], price: [150, 385] },
    { name: '*建筑用木料及木制品*建筑模板', spec: ['1830×915×15'], unit: '张', qty: [100, 3000, 0], price: [38, 65] },
    { name: '*五金*钢管扣件', spec: ['48型直角', '48型旋转'], unit: '个', qty: [500, 20_000, 0], price: [4, 7] },
  ],
  design: [
    { name: '*设计服务*工程设计费', spec: [''], unit: '项', price: [20_000, 400_000] },
    { name: '*鉴证咨询服务*工程造价咨询', spec: [''], unit: '项', price: [8_000, 120_000] },
    { name: '*研发和技术服务*工程勘察', spec: [''], unit: '项', price: [10_000, 200_000] },
  ],
  simplified: [
    { name: '*非金属矿物制品*机制砂', spec: ['中砂'], unit: '吨', qty: [20, 600, 2], price: [60, 110] },
    { name: '*非金属矿物制品*碎石', spec: ['1-3cm'], unit: '吨', qty: [20, 600, 2], price: [70, 120] },
    { name: '*纺织产品*劳保用品', spec: ['夏季', '冬季'], unit: '套', qty: [20, 300, 0], price: [45, 160] },
    { name: '*运输服务*货物运输服务', spec: [''], unit: '次', qty: [1, 12, 0], price: [300, 2500] },
    { name: '*建筑服务*零星维修', spec: [''], unit: '项', price: [500, 30_000] },
  ],
};

export const RATES: Record<SupplyCategory, string> = {
  subcontract: '0.09',
  materials: '0.13',
  design: '0.06',
  simplified: '0.03',
  rail: '0.09',
  air: '0.09',
  toll: '0.03',
  road: '0',
};

const decimalBetween = (rng: Rng, lo: number, hi: number, places: number) => new Decimal(lo + rng() * (hi - lo)).toFixed(places);
const trim = (s: string) => (s.includes('.') ? s.replace(/0+$/, '').replace(/\.$/, '') : s);

/** Goods and service lines, priced excluding tax. */
export function goodsLines(rng: Rng, category: keyof typeof CATALOG, count: number): IncomeInvoiceLine[] {
  const rate = RATES[category];
  return Array.from({ length: count }, () => {
    const g = pick(rng, CATALOG[category]);
    let quantity: string;
    let unitPrice: string;
    if (g.qty) {
      quantity = trim(decimalBetween(rng, g.qty[0], g.qty[1], g.qty[2]));
      unitPrice = trim(decimalBetween(rng, g.price[0], g.price[1], 2));
    } else {
      quantity = '1';
      unitPrice = (between(rng, g.price[0], g.price[1]) + between(rng, 0, 99) / 100).toFixed(2);
    }
    const amount = lineAmount(quantity, unitPrice);
    return { name: g.name, spec: pick(rng, g.spec), unit: g.unit, quantity, unitPrice, amountExcludingTax: amount, taxRate: rate, tax: taxOf(amount, rate) };
  });
}

/** A line priced including tax: the tax taken out at the rate (rounded half up), the rest excluding tax. */
export function includedLine(name: string, spec: string, unit: string, totalFen: number, rate: string): IncomeInvoiceLine {
  const tax = new Decimal(totalFen).mul(rate).div(new Decimal(1).plus(rate)).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toNumber();
  return { name, spec, unit, quantity: '', unitPrice: '', amountExcludingTax: totalFen - tax, taxRate: rate, tax };
}

const STATIONS = ['北京南', '上海虹桥', '天津西', '石家庄', '郑州东', '武汉', '杭州东', '南京南', '济南西', '西安北', '长沙南', '成都东'];
const AIRPORTS = ['PEK', 'PKX', 'SHA', 'PVG', 'CAN', 'CTU', 'XIY', 'WUH', 'HGH', 'NKG', 'CSX', 'TSN'];
const PLATE_PREFIX = ['京A', '京N', '冀A', '冀F', '津C', '鲁A', '豫A', '鄂A'];
const PLATE_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZ0123456789';

/** Ticket lines and the passenger's trip. */
export function ticketLines(rng: Rng, category: 'rail' | 'air' | 'road' | 'toll'): IncomeInvoiceLine[] {
  switch (category) {
    case 'rail': {
      const [a, b] = [pick(rng, STATIONS), pick(rng, STATIONS)];
      const train = `${pick(rng, ['G', 'D', 'G', 'K'])}${between(rng, 1, 2999)}`;
      return [includedLine('*运输服务*铁路旅客运输', `${train} ${a}-${b === a ? '上海虹桥' : b} ${pick(rng, ['二等座', '一等座', '二等座'])}`, '张', between(rng, 109, 1866) * 50, '0.09')];
    }
    case 'air': {
      const route = `${pick(rng, AIRPORTS)}-${pick(rng, AIRPORTS)}`;
      const fare = between(rng, 28, 260) * 1000;
      const fuel = pick(rng, [2000, 4000, 6000, 12000]);
      return [
        includedLine('*运输服务*国内航空旅客运输服务', `${route} 票价`, '张', fare, '0.09'),
        includedLine('*运输服务*燃油附加费', route, '张', fuel, '0.09'),
        { name: '民航发展基金', spec: route, unit: '张', quantity: '', unitPrice: '', amountExcludingTax: 5000, taxRate: '0', tax: 0 },
      ];
    }
    case 'road': {
      const water = rng() < 0.2;
      const total = between(rng, 50, 520) * 50;
      return [{ name: water ? '*运输服务*水路旅客运输' : '*运输服务*公路旅客运输', spec: '', unit: '张', quantity: '', unitPrice: '', amountExcludingTax: total, taxRate: '0', tax: 0 }];
    }
    case 'toll': {
      const plate = `${pick(rng, PLATE_PREFIX)}·${Array.from({ length: 5 }, () => pick(rng, PLATE_CHARS.split(''))).join('')}`;
      return [includedLine('*经营租赁*通行费', plate, '次', between(rng, 1500, 38_000), '0.03')];
    }
  }
}
