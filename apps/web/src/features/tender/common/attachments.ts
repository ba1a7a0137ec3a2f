/** Tender attachments on the web side: the query of some owners' files, and the checks made before an upload is sent. */
import { useQuery } from '@tanstack/react-query';
import { TENDER_ATTACHMENT_MAX_BYTES, type TenderAttachment } from '@zhyy/shared';
import { tenderFilesApi } from '../../../api/tender-files';

export const TENDER_KEY = ['tender'] as const;
export const attachmentsKey = (ownerKind: string, ownerIds: readonly string[]) => [...TENDER_KEY, 'attachments', ownerKind, [...ownerIds].sort().join(',')] as const;

/** The attachments of some records of one kind (none asked for: an empty list, no call). */
export function useAttachments(ownerKind: string, ownerIds: readonly string[]) {
  const ids = [...new Set(ownerIds.filter(Boolean))];
  return useQuery<TenderAttachment[]>({
    queryKey: attachmentsKey(ownerKind, ids),
    queryFn: () => tenderFilesApi.list(ownerKind, ids),
    enabled: ids.length > 0,
  });
}

export const ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';
const EXT = /\.(pdf|jpe?g|png)$/i;
const TYPES = ['application/pdf', 'image/jpeg', 'image/png'];

/** Why a file cannot be uploaded (the server checks the content again), or null. */
export function uploadProblem(file: { name: string; size: number; type?: string }): string | null {
  if (!EXT.test(file.name) && !(file.type && TYPES.includes(file.type))) return `${file.name}：只能上传PDF、JPG或PNG文件`;
  if (file.size === 0) return `${file.name}：文件内容为空`;
  if (file.size > TENDER_ATTACHMENT_MAX_BYTES) return `${file.name}：文件不能超过50MB`;
  return null;
}

export const fileSize = (n: number) => (n < 1024 ? `${n} B` : n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KB` : `${(n / 1024 / 1024).toFixed(1)} MB`);
