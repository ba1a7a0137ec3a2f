/**
 * A contract's pages (SPEC section 3: CONTRACT_PAGES of its type) in the attachment panel: a slot per
 * page type with 必需 and 已上传/缺失 for the required ones, uploads on the edit page (roles 1, 4, 6, 7, 8),
 * read-only on the detail page. After an upload or a deletion the contract is read again, so 完整/缺N页
 * (counted by the server from the stored pages) follows at once.
 */
import { useQueryClient } from '@tanstack/react-query';
import { Card } from 'antd';
import { AttachmentType, contractPages, requiredPages, type TenderContractDetail } from '@zhyy/shared';
import { AttachmentPanel } from '../common/AttachmentPanel';
import { PagesTag, TENDER_CONTRACT_KEY } from './common';

/** The attachment slots of a contract type, required ones marked (the AttachmentPanel's `slots`). */
export const slotsOf = (type: number) => {
  const required = new Set(requiredPages(type));
  return contractPages(type).map((kind) => ({ kind, label: AttachmentType.label(kind), required: required.has(kind) }));
};

export function ContractPages({ contract, editable }: { contract: TenderContractDetail; editable: boolean }) {
  const client = useQueryClient();
  const known = [...contract.presentPages].sort().join(',');
  return (
    <Card size="small" title="合同附件页" extra={<PagesTag missing={contract.missingPages} />} data-testid="contract-pages" data-editable={editable ? '1' : '0'}>
      <AttachmentPanel
        ownerKind="contract"
        ownerId={contract.id}
        slots={slotsOf(contract.contractType)}
        editable={editable}
        onChange={(files) => {
          const now = [...new Set(files.map((f) => f.kind))].sort().join(',');
          if (now !== known) void client.invalidateQueries({ queryKey: TENDER_CONTRACT_KEY });
        }}
      />
    </Card>
  );
}
