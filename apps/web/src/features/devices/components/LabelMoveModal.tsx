/**
 * Picks a new parent for a group: any group outside its own branch, or the top level. The OK button shows this
 * opening's own move (what onOk returns); the parent gives every opening a new dialog (key), so none starts
 * with an earlier move.
 */
import { useEffect, useMemo, useState } from 'react';
import { Modal, TreeSelect } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { LabelRow } from '@opencvr/shared';
import { fetchAllLabels } from '../../../lib/api/inventory';
import { labelTreeData } from '../../../components/labelTree';

interface Props {
  label: LabelRow | null;
  onCancel: () => void;
  onOk: (parentid: number) => Promise<unknown>;
}

export function LabelMoveModal({ label, onCancel, onOk }: Props) {
  const { t } = useTranslation();
  const [parent, setParent] = useState<number>(0);
  const [saving, setSaving] = useState(false);
  const submit = async () => {
    setSaving(true);
    try {
      await onOk(parent);
    } finally {
      setSaving(false);
    }
  };
  const all = useQuery({ queryKey: ['alllabel', label?.ID], queryFn: fetchAllLabels, enabled: !!label });
  useEffect(() => setParent(label?.ParentID ?? 0), [label]);
  const options = useMemo(
    () => [{ value: 0, title: t('devices.group.top'), children: labelTreeData(all.data?.Labels ?? [], label?.ID) }],
    [all.data, label, t],
  );
  return (
    <Modal open={!!label} title={t('devices.group.moveTo')} onCancel={onCancel} onOk={() => void submit()} confirmLoading={saving} destroyOnHidden>
      <TreeSelect style={{ width: '100%' }} treeDefaultExpandAll value={parent} onChange={setParent} treeData={options} loading={all.isLoading} />
    </Modal>
  );
}
