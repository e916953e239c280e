/** Picks a new parent for a group: any group outside its own branch, or the top level. */
import { useEffect, useMemo, useState } from 'react';
import { Modal, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LabelRow } from '@opencvr/shared';
import { fetchAllLabels } from '../../../lib/api/inventory';
import { labelTreeData } from '../../../components/labelTree';

interface Props {
  label: LabelRow | null;
  saving: boolean;
  onCancel: () => void;
  onOk: (parentid: number) => void;
}

export function LabelMoveModal({ label, saving, onCancel, onOk }: Props) {
  const { t } = useTranslation();
  const [parent, setParent] = useState<number>(0);
  const all = useQuery({ queryKey: ['alllabel', label?.ID], queryFn: fetchAllLabels, enabled: !!label });
  useEffect(() => setParent(label?.ParentID ?? 0), [label]);
  const options = useMemo(
    () => [{ value: 0, title: t('devices.group.top'), children: labelTreeData(all.data?.Labels ?? [], label?.ID) }],
    [all.data, label, t],
  );
  return (
    <Modal open={!!label} title={t('devices.group.moveTo')} onCancel={onCancel} onOk={() => onOk(parent)} confirmLoading={saving} destroyOnHidden>
      <TreeSelect style={{ width: '100%' }} treeDefaultExpandAll value={parent} onChange={setParent} treeData={options} loading={all.isLoading} />
    </Modal>
  );
}
