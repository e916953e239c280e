/** Add or edit a user. On add the password is required; on edit a password resets it. */
import { useEffect, useState } from 'react';
import { Checkbox, Form, Input, Modal, Select, Switch } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { UserRow } from '@opencvr/shared';
import { msg } from '../../../i18n';
import { notify } from '../../../lib/notify';
import { addUser, fetchRoles, updateUser, type UserInput } from '../api';


interface FormValues {
  username: string;
  name: string;
  nick_name: string;
  password: string;
  roleid: number;
  enable: boolean;
  mustchange: boolean;
}

export function UserFormModal({ open, user, onClose, onSaved }: { open: boolean; user: UserRow | null; onClose: () => void; onSaved: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const roles = useQuery({ queryKey: ['roles', 'all'], queryFn: () => fetchRoles(1, 1000), enabled: open });
  const editing = !!user;

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    form.setFieldsValue(
      user
        ? { username: user.Username, name: user.Name, nick_name: user.NickName, password: '', roleid: user.RoleID, enable: user.Enable === 1, mustchange: user.MustChangePassword === 1 }
        : { username: '', name: '', nick_name: '', password: '', roleid: undefined, enable: true, mustchange: true },
    );
  }, [open, user, form]);

  const submit = async (v: FormValues) => {
    setSaving(true);
    const input: UserInput = { ...v, id: user?.ID, username: v.username.trim() };
    try {
      if (editing) await updateUser(input);
      else await addUser(input);
      notify.success(editing ? msg('saved') : msg('success'));
      onSaved();
    } catch {
      // The request layer has shown why.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal open={open} title={editing ? t('users.edit') : t('users.add')} onCancel={onClose} onOk={() => form.submit()} confirmLoading={saving} destroyOnHidden forceRender>
      <Form form={form} layout="vertical" onFinish={submit} autoComplete="off">
        <Form.Item name="username" label={t('users.username')} rules={[{ required: true, whitespace: true, message: t('users.usernameRequired') }]}>
          <Input disabled={editing} />
        </Form.Item>
        <Form.Item name="name" label={t('users.name')}>
          <Input />
        </Form.Item>
        <Form.Item name="nick_name" label={t('users.nickName')}>
          <Input />
        </Form.Item>
        <Form.Item
          name="password"
          label={editing ? t('users.resetPassword') : t('users.password')}
          extra={editing ? t('users.resetPasswordHint') : undefined}
          rules={editing ? [] : [{ required: true, message: t('users.passwordRequired') }]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item name="roleid" label={t('users.role')} rules={[{ required: true, message: t('users.roleRequired') }]}>
          <Select loading={roles.isPending} options={(roles.data?.data ?? []).map((r) => ({ value: r.ID, label: r.Name }))} />
        </Form.Item>
        <Form.Item name="enable" label={t('users.enable')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="mustchange" valuePropName="checked">
          <Checkbox>{t('users.mustChange')}</Checkbox>
        </Form.Item>
      </Form>
    </Modal>
  );
}
