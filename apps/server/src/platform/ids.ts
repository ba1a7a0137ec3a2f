/** Business ids are UUID v7 (time-ordered); the empty id is the all-zero UUID. */
import { v5 as uuidv5, v7 as uuidv7 } from 'uuid';

export const newId = () => uuidv7();

const DEMO_NAMESPACE = '6f1c4a52-58a3-4f0e-9a44-3b8a1f3c2d10';
/** A stable id for a demo record, so the demo company is the same on every machine. */
export const demoId = (key: string) => uuidv5(key, DEMO_NAMESPACE);
