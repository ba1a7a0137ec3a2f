/**
 * The scans of a title or a certificate: the tender attachment panel (features/tender/common, the
 * tender-files part) for owner kind 'title' or 'certificate', one slot of attachment type 0 (扫描件,
 * several pages allowed). The one place the people pages meet the attachment area.
 */
import { Card } from 'antd';
import { AttachmentPanel } from '../common/AttachmentPanel';

export function PeopleScans({ ownerKind, ownerId, editable = true }: { ownerKind: 'title' | 'certificate'; ownerId: string; editable?: boolean }) {
  return (
    <Card size="small" title="扫描件" style={{ marginTop: 16, maxWidth: 720 }} data-testid="people-scans">
      <AttachmentPanel ownerKind={ownerKind} ownerId={ownerId} slots={[{ kind: 0, label: ownerKind === 'title' ? '职称证书扫描件' : '资格证书扫描件' }]} editable={editable} />
    </Card>
  );
}
