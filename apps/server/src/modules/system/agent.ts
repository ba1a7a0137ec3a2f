/** Browser and operating system of a sign-in, from its User-Agent (bowser). */
import Bowser from 'bowser';

export function describeAgent(userAgent: string): { browser: string; os: string } {
  if (!userAgent) return { browser: '未知', os: '' };
  try {
    const p = Bowser.parse(userAgent);
    const major = p.browser.version?.split('.')[0];
    const browser = p.browser.name ? `${p.browser.name}${major ? ` ${major}` : ''}` : '未知';
    const os = [p.os.name, p.os.versionName ?? ''].filter(Boolean).join(' ');
    return { browser, os };
  } catch {
    return { browser: '未知', os: '' };
  }
}
