import { lazy, Suspense, useState } from 'react';

// The detail drawer (Drawer, Descriptions, Result, the form view, the track timeline, attachments with
// Upload and Progress) is its own chunk, loaded when a row is first opened (issue 30: the list's first load).
const WorkDrawer = lazy(() => import('./WorkDrawer').then((m) => ({ default: m.WorkDrawer })));

/** WorkDrawer, mounted from the first time a work item is opened (and kept, so it can animate closed). */
export function LazyWorkDrawer({ workId, onClose }: { workId: number | null; onClose: () => void }) {
  const [wanted, setWanted] = useState(workId !== null);
  if (workId !== null && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <WorkDrawer workId={workId} onClose={onClose} />
    </Suspense>
  );
}
