/** Add (no id) or edit (with id) a role. */
import { useEffect, useState } from 'react';
import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { RoleRow } from '@opencvr/shared';
import { msg } from '../../../i18n';
import { notify } from '../../../lib/notify';
import { addRole, updateRole } from '../api';

export function RoleFormModal({ open, role, onClose, onSaved }: { open: boolean; role: RoleRow | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string; describe: string }>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open) form.setFieldsValue({ name: role?.Name ?? '', describe: role?.Describe ?? '' });
  }, [open, role, form]);

  const submit = async (v: { name: string; describe: string }) => {
    setSaving(true);
    try {
      if (role) await updateRole(role.ID, v.name.trim(), v.describe ?? '');
      else await addRole(v.name.trim(), v.describe ?? '');
      notify.success(role ? msg('saved') : msg('success'));
      onSaved();
    } catch {
      // shown by the request layer
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title={role ? t('roles.edit') : t('roles.add')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={saving} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="name" label={t('roles.name')} rules={[{ required: true, whitespace: true, message: t('roles.nameRequired') }]}>
          <Input />
        </Form.Item>
        <Form.Item name="describe" label={t('roles.describe')}>
          <Input.TextArea rows={3} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
