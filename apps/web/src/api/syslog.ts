/** /api/syslog/*: the client's own log calls are silent. */
import { api } from './clients';

export interface ClientErrorEntry {
  message: string;
  url?: string;
  stack?: string;
  time: string;
}

export const addOperationLog = (description: string, type: number) =>
  api.post<unknown>('/syslog/add-operation-log', { description, type }, { silent: true });

export const reportClientErrors = (entries: ClientErrorEntry[]) =>
  api.post<unknown>('/syslog/client-error', { entries }, { silent: true });
