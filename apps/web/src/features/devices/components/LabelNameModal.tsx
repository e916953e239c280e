/**
 * Asks for a group (label) name: adding a group, or renaming one. The OK button shows this opening's own save
 * (what onOk returns); the parent gives every opening a new dialog (key), so none starts with an earlier save.
 */
import { useEffect, useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

interface Props {
  open: boolean;
  title: string;
  initial?: string;
  onCancel: () => void;
  onOk: (name: string) => Promise<unknown>;
}

export function LabelNameModal({ open, title, initial, onCancel, onOk }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  const [saving, setSaving] = useState(false);
  const submit = async (name: string) => {
    setSaving(true);
    try {
      await onOk(name);
    } finally {
      setSaving(false);
    }
  };
  useEffect(() => {
    if (open) form.setFieldsValue({ name: initial ?? '' });
  }, [open, initial, form]);
  return (
    <Modal open={open} title={title} onCancel={onCancel} onOk={() => form.submit()} confirmLoading={saving} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" onFinish={(v) => void submit(v.name.trim())}>
        <Form.Item name="name" label={t('devices.group.name')} rules={[{ required: true, whitespace: true, message: t('devices.group.nameRequired') }]}>
          <Input maxLength={128} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
