/** Keeps the device mode in step with the window width (mobile under 992px). */
import { useEffect } from 'react';
import { deviceForWidth, useAppStore } from '../stores/app';

export function useDevice(): void {
  const setDevice = useAppStore((s) => s.setDevice);
  useEffect(() => {
    const onResize = () => setDevice(deviceForWidth(window.innerWidth));
    onResize();
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [setDevice]);
}
