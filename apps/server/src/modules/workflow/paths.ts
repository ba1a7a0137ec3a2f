/** The workflow service's path prefix and the access rule its calls share. */
import { SIGNED_IN } from '../../platform/access.js';

export const WF = '/api/miswf/workflow';
export const wfTags = ['工作流'];
export const signedIn = { access: SIGNED_IN };
