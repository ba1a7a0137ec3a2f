/**
 * Offline IP geolocation: the ip2region database shipped inside its npm package (Chinese names, no
 * network). Private, loopback and link-local addresses read 内网.
 */
import net from 'node:net';
import { createRequire } from 'node:module';

export interface IpLocation {
  country: string;
  province: string;
  city: string;
  isp: string;
  /** What the screens show: 广东省 深圳市, 美国, 内网, or 未知. */
  location: string;
}

export const INTRANET = '内网';
export const UNKNOWN = '未知';

interface Ip2RegionResult {
  country: string;
  province: string;
  city: string;
  isp: string;
}
interface Ip2Region {
  search(ip: string): Ip2RegionResult | null;
}

const require = createRequire(import.meta.url);
let searcher: Ip2Region | null = null;

/** Loaded on first use (about 11 MB read into memory once). */
function db(): Ip2Region {
  if (!searcher) {
    const mod = require('ip2region') as { default: new (opts?: { disableIpv6?: boolean }) => Ip2Region };
    searcher = new mod.default();
  }
  return searcher;
}

/** Strips the IPv4-mapped IPv6 prefix and any zone id. */
export function normaliseIp(raw: string): string {
  const ip = raw.trim().replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}

export function isPrivateIp(ip: string): boolean {
  const v = net.isIP(ip);
  if (v === 4) {
    const [a, b] = ip.split('.').map(Number) as [number, number];
    return a === 10 || a === 127 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (v === 6) {
    const low = ip.toLowerCase();
    return low === '::1' || low === '::' || low.startsWith('fc') || low.startsWith('fd') || low.startsWith('fe80');
  }
  return false;
}

const MUNICIPALITIES = new Set(['北京', '上海', '天津', '重庆']);
const clean = (s: string | undefined) => (s && s !== '0' ? s.trim() : '');

export function locateIp(raw: string): IpLocation {
  const ip = normaliseIp(raw);
  if (!net.isIP(ip)) return { country: '', province: '', city: '', isp: '', location: UNKNOWN };
  if (isPrivateIp(ip)) return { country: '', province: '', city: '', isp: '', location: INTRANET };
  let hit: Ip2RegionResult | null = null;
  try {
    hit = db().search(ip);
  } catch {
    hit = null;
  }
  const country = clean(hit?.country);
  let province = clean(hit?.province);
  let city = clean(hit?.city);
  const isp = clean(hit?.isp);
  if (city.includes('内网')) return { country: '', province: '', city: '', isp: '', location: INTRANET };
  // Municipalities come as 北京 / 北京市: one spelling, shown once.
  if (MUNICIPALITIES.has(province.replace(/市$/, ''))) {
    province = `${province.replace(/市$/, '')}市`;
    city = province;
  }
  let location = country || UNKNOWN;
  if (country === '中国' && province) location = province === city || !city ? province : `${province} ${city}`;
  return { country, province, city, isp, location };
}
