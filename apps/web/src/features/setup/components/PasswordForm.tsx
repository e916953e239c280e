/**
 * The password form of spec 5, used by the change-password dialog, the initialisation dialog and
 * step 2 of the wizard. It validates and submits; the caller decides what happens after success.
 */
import { useMemo, useState } from 'react';
import { Button, Form, Input, Space } from 'antd';
import type { Rule } from 'antd/es/form';
import { useTranslation } from 'react-i18next';
import { isStrongPassword, FORM_LABEL_WIDTH } from '@opencvr/shared';
import { msg } from '../../../i18n';
import { StrengthMeter } from './StrengthMeter';

export interface PasswordValues {
  username: string;
  oldpassword: string;
  newpassword: string;
  newpasswordPW: string;
  sippassword: string;
  ehomepassword: string;
}

export interface PasswordFormProps {
  /** Initialisation adds the SIP and EHOME passwords. */
  initial: boolean;
  /** The wizard requires the admin login name; the plain dialog does not. */
  requireUsername: boolean;
  initialUsername?: string;
  submitting?: boolean;
  submitText?: string;
  onSubmit: (values: PasswordValues) => void;
  onCancel?: () => void;
}

const EMPTY: PasswordValues = { username: '', oldpassword: '', newpassword: '', newpasswordPW: '', sippassword: '', ehomepassword: '' };

export function PasswordForm(props: PasswordFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<PasswordValues>();
  const start = useMemo(() => ({ ...EMPTY, username: props.initialUsername ?? '' }), [props.initialUsername]);
  const [dirty, setDirty] = useState(false);
  const newPassword = Form.useWatch('newpassword', form) ?? '';

  const usernameRules: Rule[] = props.requireUsername ? [{ required: true, whitespace: true, message: msg('adminUsernameRequired') }] : [];
  const newPasswordRules: Rule[] = [
    {
      validator: (_, v: string | undefined) => {
        if (!v) return Promise.reject(new Error(msg('newPasswordRequired')));
        if (!isStrongPassword(v)) return Promise.reject(new Error(msg('passwordRule')));
        if (v === form.getFieldValue('oldpassword')) return Promise.reject(new Error(msg('passwordSameAsOld')));
        return Promise.resolve();
      },
    },
  ];
  const confirmRules: Rule[] = [
    {
      validator: (_, v: string | undefined) => {
        if (!v) return Promise.reject(new Error(msg('confirmPasswordRequired')));
        if (v !== form.getFieldValue('newpassword')) return Promise.reject(new Error(msg('passwordMismatch')));
        return Promise.resolve();
      },
    },
  ];

  return (
    <Form
      form={form}
      initialValues={start}
      labelCol={{ flex: `${Math.min(FORM_LABEL_WIDTH, 140)}px` }}
      labelWrap
      autoComplete="off"
      onValuesChange={(_, all: PasswordValues) => {
        setDirty((Object.keys(start) as (keyof PasswordValues)[]).some((k) => (all[k] ?? '') !== start[k]));
      }}
      onFinish={props.onSubmit}
    >
      <Form.Item name="username" label={t('password.username')} rules={usernameRules}>
        <Input autoComplete="username" placeholder={t('password.usernamePlaceholder')} />
      </Form.Item>
      <Form.Item name="oldpassword" label={t('password.old')} rules={[{ required: true, message: msg('oldPasswordRequired') }]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item name="newpassword" label={t('password.new')} dependencies={['oldpassword']} rules={newPasswordRules} extra={<StrengthMeter password={newPassword} />}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item name="newpasswordPW" label={t('password.confirm')} dependencies={['newpassword']} rules={confirmRules}>
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      {props.initial && (
        <>
          <Form.Item name="sippassword" label={t('password.sip')} rules={[{ required: true, message: msg('sipPasswordRequired') }]}>
            <Input.Password autoComplete="off" />
          </Form.Item>
          <Form.Item name="ehomepassword" label={t('password.ehome')} rules={[{ required: true, message: msg('ehomePasswordRequired') }]}>
            <Input.Password autoComplete="off" />
          </Form.Item>
        </>
      )}
      <Form.Item style={{ marginBottom: 0, textAlign: 'right' }}>
        <Space>
          {props.onCancel && <Button onClick={props.onCancel}>{t('common.cancel')}</Button>}
          <Button type="primary" htmlType="submit" disabled={!dirty} loading={props.submitting}>
            {props.submitText ?? t('common.save')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
}
