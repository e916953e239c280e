/** Add or edit one whitelist/blacklist entry: device ID and/or address (IP or CIDR), name, description. */
import { useEffect, useState } from 'react';
import { Alert, Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { GbListItem } from '@opencvr/shared';
import { runAction } from '../../../lib/runAction';
import { addEntry, editEntry, type ListEntryInput, type ListKind } from '../api';
import { isIpOrCidr, isListDeviceId } from '../rules';

interface Props {
  kind: ListKind;
  open: boolean;
  /** null = add. */
  entry: GbListItem | null;
  onClose(): void;
  onSaved(): void;
}

type EntryForm = Omit<ListEntryInput, 'ID'>;

export function ListEntryModal({ kind, open, entry, onClose, onSaved }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<EntryForm>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    if (entry) form.setFieldsValue({ DeviceID: entry.DeviceID, IP: entry.IP, Name: entry.Name, Description: entry.Description });
  }, [open, entry, form]);

  const submit = async (v: EntryForm) => {
    const input = { DeviceID: (v.DeviceID ?? '').trim(), IP: (v.IP ?? '').trim(), Name: (v.Name ?? '').trim(), Description: (v.Description ?? '').trim() };
    setSaving(true);
    const ok = await runAction(() => (entry ? editEntry(kind, { ...input, ID: entry.ID }) : addEntry(kind, input)));
    setSaving(false);
    if (ok) onSaved();
  };

  const title = entry ? t(kind === 'white' ? 'gbAdmin.editWhite' : 'gbAdmin.editBlack') : t(kind === 'white' ? 'gbAdmin.addWhite' : 'gbAdmin.addBlack');
  // At least one of the two: checked on both fields so the message shows wherever the user looks.
  const oneOfTwo = ({ getFieldValue }: { getFieldValue: (n: string) => unknown }) => ({
    validator: async () => {
      const d = String(getFieldValue('DeviceID') ?? '').trim();
      const ip = String(getFieldValue('IP') ?? '').trim();
      if (!d && !ip) throw new Error(t('gbAdmin.entryEmpty'));
    },
  });

  return (
    <Modal open={open} title={title} onCancel={onClose} onOk={() => form.submit()} confirmLoading={saving} destroyOnHidden forceRender>
      <Alert type="info" showIcon title={t('gbAdmin.matchHint')} style={{ marginBottom: 16 }} />
      <Form<EntryForm> form={form} labelCol={{ flex: '120px' }} onFinish={(v) => void submit(v)}>
        <Form.Item
          name="DeviceID"
          label={t('gbAdmin.deviceId')}
          dependencies={['IP']}
          rules={[oneOfTwo, { validator: async (_, v: string) => { if (!isListDeviceId(v ?? '')) throw new Error(t('gbAdmin.deviceIdRule')); } }]}
        >
          <Input maxLength={64} placeholder="34020000001320000001" />
        </Form.Item>
        <Form.Item
          name="IP"
          label={t('gbAdmin.ip')}
          dependencies={['DeviceID']}
          rules={[oneOfTwo, { validator: async (_, v: string) => { if (v && v.trim() && !isIpOrCidr(v)) throw new Error(t('gbAdmin.ipRule')); } }]}
        >
          <Input maxLength={64} placeholder="192.168.1.64 / 192.168.1.0/24" />
        </Form.Item>
        <Form.Item name="Name" label={t('gbAdmin.name')} rules={[{ max: 255 }]}>
          <Input maxLength={255} />
        </Form.Item>
        <Form.Item name="Description" label={t('gbAdmin.description')} rules={[{ max: 255 }]}>
          <Input.TextArea maxLength={255} rows={2} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
