/** /file/view/:viewData: viewData is a base64-encoded JSON {name, url, type} (SPEC section 2). */
import { PLATFORM_FILE_PATH_PREFIXES } from '@zhyy/shared';

export type FileKind = 'image' | 'pdf' | 'other';

export interface ViewFile {
  name: string;
  url: string;
  kind: FileKind;
}

const IMAGE_EXT = ['jpg', 'jpeg', 'png', 'gif', 'bmp', 'webp', 'svg'];

function decodeBase64Utf8(data: string): string {
  let b64 = data.trim().replace(/-/g, '+').replace(/_/g, '/').replace(/\s/g, '');
  while (b64.length % 4) b64 += '=';
  const binary = atob(b64);
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/** Only links to this site or to http(s) are followed; javascript:, data: and the like are refused. */
export function isSafeUrl(url: string): boolean {
  if (url.startsWith('/')) return !url.startsWith('//') && !url.startsWith('/\\');
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function extension(s: string): string {
  const clean = s.split(/[?#]/)[0] ?? '';
  const dot = clean.lastIndexOf('.');
  return dot >= 0 ? clean.slice(dot + 1).toLowerCase() : '';
}

export function fileKind(type: string, name: string, url: string): FileKind {
  const t = type.toLowerCase();
  if (t === 'image' || t.startsWith('image/') || IMAGE_EXT.includes(t)) return 'image';
  if (t.includes('pdf')) return 'pdf';
  // An explicit other MIME type wins over the extension.
  if (t.includes('/')) return 'other';
  const ext = extension(name) || extension(url);
  if (IMAGE_EXT.includes(ext)) return 'image';
  return ext === 'pdf' ? 'pdf' : 'other';
}

/** The file to show, or null for a malformed link. */
export function decodeViewData(viewData: string | undefined): ViewFile | null {
  if (!viewData) return null;
  try {
    const raw = JSON.parse(decodeBase64Utf8(viewData)) as unknown;
    if (typeof raw !== 'object' || raw === null) return null;
    const { name, url, type } = raw as Record<string, unknown>;
    if (typeof url !== 'string' || !url || !isSafeUrl(url)) return null;
    const fileName = typeof name === 'string' && name ? name : (url.split(/[?#]/)[0]?.split('/').pop() ?? '文件');
    return { name: fileName, url, kind: fileKind(type == null ? '' : String(type), fileName, url) };
  } catch {
    return null;
  }
}

/**
 * True for the platform's own file links only: same origin and one of the file paths (the signed
 * invoice-file link). The viewer shows and offers for download nothing else, so a crafted link
 * cannot put an outside address on its 下载 button.
 */
export function isPlatformFileUrl(url: string, origin: string = window.location.origin): boolean {
  if (!isSafeUrl(url) || /[\\\s]/.test(url)) return false;
  try {
    const u = new URL(url, origin);
    return u.origin === origin && PLATFORM_FILE_PATH_PREFIXES.some((p) => u.pathname.startsWith(p) && u.pathname.length > p.length);
  } catch {
    return false;
  }
}

/** What the viewer shows: the file, or why not (a malformed link, or one to a file outside the platform). */
export function viewerFile(viewData: string | undefined, origin?: string): ViewFile | 'invalid' | 'outside' {
  const file = decodeViewData(viewData);
  if (!file) return 'invalid';
  return isPlatformFileUrl(file.url, origin) ? file : 'outside';
}

/** The inverse, for links other pages build (UTF-8 JSON, standard base64). */
export function encodeViewData(file: { name: string; url: string; type?: string }): string {
  const bytes = new TextEncoder().encode(JSON.stringify(file));
  return btoa(String.fromCharCode(...bytes));
}

/** A short-lived signed link to one of the platform's files, as the file-link calls answer it. */
export interface SignedFileLink {
  url: string;
  name: string;
  type: string;
}

/** Opens a platform file in the public viewer (a new tab) through a signed link; a refusal is shown by the request layer. */
export async function openSignedFile(link: () => Promise<SignedFileLink>): Promise<void> {
  try {
    const l = await link();
    window.open(`/file/view/${encodeViewData({ name: l.name, url: l.url, type: l.type })}`, '_blank', 'noopener');
  } catch {
    // The request layer shows the refusal.
  }
}
