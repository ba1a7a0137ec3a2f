/**
 * 差旅交通工具等级 (issue 29 #10): the order of the seat and cabin classes, defined once, per vehicle, and the
 * check of a line's class against a travel standard's classes. The source is 《中央和国家机关差旅费管理办法》
 * (财行〔2013〕531号) 第十条/第十一条: 部级 火车软席（软座、软卧）、高铁/动车商务座、轮船一等舱、飞机头等舱; 司局级
 * 火车软席、高铁/动车一等座、轮船二等舱、飞机经济舱; 其余人员 火车硬席（硬座、硬卧）、高铁/动车二等座、轮船三等舱、
 * 飞机经济舱; 其他交通工具凭据报销; 未按规定等级乘坐的超支部分由个人自理 (docs/reimbursement.md).
 *
 * A standard is a ceiling: a class passes when, within its vehicle, its level is at or below the highest level
 * the standard names for that vehicle. The lowest level of each vehicle is for everyone (其余人员), so it
 * passes even when the standard names no class of that vehicle.
 */

/** Per vehicle, the levels from the lowest up; the classes of one level rank alike (硬席 = 硬座 and 硬卧). */
export const TRAVEL_CLASS_LEVELS = {
  /** 火车 (普速): 硬席, then 软席. */
  train: [['硬座', '硬卧'], ['软座', '软卧']],
  /** 高铁/动车. */
  highSpeed: [['二等座'], ['一等座'], ['商务座']],
  /** 飞机. */
  plane: [['经济舱'], ['公务舱'], ['头等舱']],
  /** 轮船 (不包括旅游船). */
  ship: [['三等舱'], ['二等舱'], ['一等舱']],
  /** 其他交通工具 (长途客车等, 不包括出租小汽车): 凭据报销, one level. */
  other: [['普通客车']],
} as const satisfies Record<string, readonly (readonly string[])[]>;

export type TravelVehicle = keyof typeof TRAVEL_CLASS_LEVELS;
export type TravelClass = (typeof TRAVEL_CLASS_LEVELS)[TravelVehicle][number][number];

/** Every class, vehicle by vehicle, lowest first (the options of the screens). */
export const TRAVEL_CLASSES = Object.values(TRAVEL_CLASS_LEVELS).flatMap((levels) => levels.flat()) as readonly TravelClass[];

const RANKS = new Map<string, { vehicle: TravelVehicle; level: number }>(
  (Object.entries(TRAVEL_CLASS_LEVELS) as [TravelVehicle, readonly (readonly string[])[]][]).flatMap(([vehicle, levels]) => levels.flatMap((cls, level) => cls.map((c) => [c, { vehicle, level }] as const))),
);

/** A class's vehicle and level (0 = the lowest), or null for a class the order does not know. */
export const travelClassRank = (cls: string): { vehicle: TravelVehicle; level: number } | null => RANKS.get(cls) ?? null;

/**
 * Whether a class is within a standard's classes: at or below the highest level the standard names for the
 * class's vehicle (the lowest level always); a class the order does not know only when the standard names it.
 */
export function travelClassAllowed(cls: string, allowed: readonly string[]): boolean {
  if (allowed.includes(cls)) return true;
  const r = RANKS.get(cls);
  if (!r) return false;
  let ceiling = 0;
  for (const a of allowed) {
    const x = RANKS.get(a);
    if (x && x.vehicle === r.vehicle && x.level > ceiling) ceiling = x.level;
  }
  return r.level <= ceiling;
}
