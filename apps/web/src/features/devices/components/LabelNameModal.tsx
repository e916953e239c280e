/** Asks for a group (label) name: adding a group, or renaming one. */
import { useEffect } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

interface Props {
  open: boolean;
  title: string;
  initial?: string;
  saving: boolean;
  onCancel: () => void;
  onOk: (name: string) => void;
}

export function LabelNameModal({ open, title, initial, saving, onCancel, onOk }: Props) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  useEffect(() => {
    if (open) form.setFieldsValue({ name: initial ?? '' });
  }, [open, initial, form]);
  return (
    <Modal open={open} title={title} onCancel={onCancel} onOk={() => form.submit()} confirmLoading={saving} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" onFinish={(v) => onOk(v.name.trim())}>
        <Form.Item name="name" label={t('devices.group.name')} rules={[{ required: true, whitespace: true, message: t('devices.group.nameRequired') }]}>
          <Input maxLength={128} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  );
}
