/**
 * 投标管理 files and settings (docs/tender.md "Files and settings"): the attachments of any tender record
 * (upload with progress, list, delete, the signed link for /file/view) and 投标设置.
 *
 * The upload sends the raw file as application/octet-stream through XMLHttpRequest (fetch has no upload
 * progress), with the session's X-Token, and reads the answer like every other call (interpretAnswer):
 * refusals are thrown as ApiError with the server's Chinese message, 50008 resets the session.
 */
import { ERROR_TOAST_MS, TOKEN_HEADER, type Envelope, type TenderAttachment, type TenderAttachmentLink, type TenderSettingsInput, type TenderSettingsView } from '@zhyy/shared';
import { api, hooks } from './clients';
import { ApiError, NETWORK_ERROR_TEXT } from './errors';
import { interpretAnswer } from './interpret';

const A = '/tender/attachment';

export interface UploadTarget {
  ownerKind: string;
  ownerId: string;
  kind: number;
}

export interface UploadOptions {
  onProgress?(percent: number): void;
  signal?: AbortSignal;
  /** No toast on failure (the caller shows it in place). */
  silent?: boolean;
}

/** POST /api/tender/attachment/upload with the file itself as the body. */
export function uploadAttachment(target: UploadTarget, file: Blob & { name: string }, opts: UploadOptions = {}): Promise<TenderAttachment> {
  const qs = new URLSearchParams({ ownerKind: target.ownerKind, ownerId: target.ownerId, kind: String(target.kind), name: file.name }).toString();
  return new Promise<TenderAttachment>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api${A}/upload?${qs}`);
    xhr.setRequestHeader('content-type', 'application/octet-stream');
    const token = hooks.getToken();
    if (token) xhr.setRequestHeader(TOKEN_HEADER, token);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) opts.onProgress?.(Math.min(100, Math.round((e.loaded / e.total) * 100)));
    };
    const fail = (error: ApiError, toast?: string) => {
      if (toast && !opts.silent) hooks.showError(toast, ERROR_TOAST_MS);
      reject(error);
    };
    xhr.onerror = () => fail(new ApiError('network', NETWORK_ERROR_TEXT), NETWORK_ERROR_TEXT);
    xhr.onabort = () => reject(new ApiError('network', '上传已取消'));
    xhr.onload = () => {
      let body: unknown = xhr.responseText;
      try {
        body = JSON.parse(xhr.responseText) as unknown;
      } catch {
        /* not JSON */
      }
      const outcome = interpretAnswer({ status: xhr.status, body, workflow: false });
      if (outcome.ok) {
        hooks.onChanged?.(`${A}/upload`);
        return resolve((outcome.envelope as Envelope<TenderAttachment>).r as TenderAttachment);
      }
      if (outcome.action === 'resetToken') hooks.onTokenInvalid(outcome.error.message);
      if (outcome.action === 'needChangePassword') hooks.onNeedChangePassword();
      fail(outcome.error, outcome.toast);
    };
    opts.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

export const tenderFilesApi = {
  upload: uploadAttachment,
  list: (ownerKind: string, ownerIds: string[]) => api.post<TenderAttachment[]>(`${A}/list`, { ownerKind, ownerIds }),
  remove: (id: string) => api.request<null>(`${A}/delete`, { id }),
  fileLink: (id: string) => api.post<TenderAttachmentLink>(`${A}/file-link`, { id }),
};

export const tenderSettingApi = {
  get: () => api.post<TenderSettingsView>('/tender/setting/get', {}),
  save: (body: TenderSettingsInput) => api.request<TenderSettingsView>('/tender/setting/save', body),
};
