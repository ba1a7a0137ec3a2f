/**
 * Issue 29 #10: the order of the travel classes (财行〔2013〕531号 第十条) and the ceiling check — a class at or
 * below the standard's highest class of its vehicle passes; the lowest class of each vehicle is for everyone.
 */
import { describe, expect, it } from 'vitest';
import { REIMB_SEAT_CLASSES } from '../src/api/reimbursement-settings.js';
import { TRAVEL_CLASSES, TRAVEL_CLASS_LEVELS, travelClassAllowed, travelClassRank } from '../src/travel-classes.js';

describe('the order of the travel classes', () => {
  it('ranks each vehicle from the lowest up: 硬席 < 软席, 二等座 < 一等座 < 商务座, 经济舱 < 公务舱 < 头等舱, 三等舱 < 二等舱 < 一等舱', () => {
    expect(travelClassRank('硬座')).toEqual({ vehicle: 'train', level: 0 });
    expect(travelClassRank('硬卧')).toEqual({ vehicle: 'train', level: 0 });
    expect(travelClassRank('软座')).toEqual({ vehicle: 'train', level: 1 });
    expect(travelClassRank('软卧')).toEqual({ vehicle: 'train', level: 1 });
    expect(['二等座', '一等座', '商务座'].map((c) => travelClassRank(c))).toEqual([0, 1, 2].map((level) => ({ vehicle: 'highSpeed', level })));
    expect(['经济舱', '公务舱', '头等舱'].map((c) => travelClassRank(c))).toEqual([0, 1, 2].map((level) => ({ vehicle: 'plane', level })));
    expect(['三等舱', '二等舱', '一等舱'].map((c) => travelClassRank(c))).toEqual([0, 1, 2].map((level) => ({ vehicle: 'ship', level })));
    expect(travelClassRank('普通客车')).toEqual({ vehicle: 'other', level: 0 });
    expect(travelClassRank('火箭')).toBeNull();
  });

  it('is the one list: every class once, and the settings accept exactly these', () => {
    expect(new Set(TRAVEL_CLASSES).size).toBe(TRAVEL_CLASSES.length);
    expect(TRAVEL_CLASSES.length).toBe(Object.values(TRAVEL_CLASS_LEVELS).flat(2).length);
    expect([...REIMB_SEAT_CLASSES]).toEqual([...TRAVEL_CLASSES]);
  });
});

describe('a class against a standard (a ceiling)', () => {
  const staff = ['二等座', '经济舱'];
  const manager = ['一等座', '二等座', '经济舱', '软卧', '硬卧', '普通客车'];
  const leader = ['商务座', '一等座', '二等座', '公务舱', '经济舱', '软卧', '硬卧', '普通客车'];

  it('lets the lowest class of every vehicle pass, also when the standard names none of that vehicle', () => {
    for (const c of ['硬座', '硬卧', '二等座', '经济舱', '三等舱', '普通客车']) expect(travelClassAllowed(c, staff), c).toBe(true);
  });

  it('flags a class above the highest class the standard names for its vehicle', () => {
    for (const c of ['软座', '软卧', '一等座', '商务座', '公务舱', '头等舱', '二等舱', '一等舱']) expect(travelClassAllowed(c, staff), c).toBe(false);
    expect(travelClassAllowed('商务座', manager)).toBe(false);
    expect(travelClassAllowed('公务舱', manager)).toBe(false);
    expect(travelClassAllowed('头等舱', leader)).toBe(false);
  });

  it('lets every class at or below the ceiling pass', () => {
    for (const c of ['硬座', '硬卧', '软座', '软卧', '二等座', '一等座', '经济舱']) expect(travelClassAllowed(c, manager), c).toBe(true);
    for (const c of ['二等座', '一等座', '商务座', '经济舱', '公务舱', '软座']) expect(travelClassAllowed(c, leader), c).toBe(true);
    // A ceiling of one vehicle says nothing of another: 商务座 does not open 头等舱 or 一等舱.
    expect(travelClassAllowed('一等舱', leader)).toBe(false);
  });

  it('lets a class the order does not know pass only when the standard names it', () => {
    expect(travelClassAllowed('动卧', staff)).toBe(false);
    expect(travelClassAllowed('动卧', [...staff, '动卧'])).toBe(true);
  });
});
