/**
 * Choose the address the platform announces (spec 6 of the brief, spec 5 "Network choice").
 * Addresses load after NETWORK_DIALOG_DELAY_MS so the dialog opens at once.
 */
import { useEffect, useState } from 'react';
import { AutoComplete, Button, Form, Space, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { NETWORK_DIALOG_DELAY_MS } from '@opencvr/shared';
import { msg } from '../../../i18n';
import { notify } from '../../../lib/notify';
import { RequestError } from '../../../lib/request';
import { fetchIpListing, setIp } from '../api';
import { networkFromChoice } from '../rules';

export interface NetworkFormProps {
  submitText?: string;
  onDone: () => void;
  onCancel?: () => void;
}

export function NetworkForm({ submitText, onDone, onCancel }: NetworkFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ address: string }>();
  const [localIPs, setLocalIPs] = useState<string[]>([]);
  const [loading, setLoading] = useState(true);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let alive = true;
    const timer = setTimeout(() => {
      fetchIpListing()
        .then((listing) => {
          if (!alive) return;
          setLocalIPs(listing.LocalIPs ?? []);
          const current = listing.Current?.sip_host;
          if (current && !form.getFieldValue('address')) form.setFieldsValue({ address: current });
        })
        .catch(() => undefined)
        .finally(() => alive && setLoading(false));
    }, NETWORK_DIALOG_DELAY_MS);
    return () => {
      alive = false;
      clearTimeout(timer);
    };
  }, [form]);

  const submit = async ({ address }: { address: string }) => {
    setSaving(true);
    try {
      const raw = await setIp(networkFromChoice(address, localIPs));
      const header = raw?.EasyDarwin?.Header;
      if (!header || String(header.ErrorNum) !== '200') {
        notify.error(typeof raw?.EasyDarwin?.Body === 'string' ? raw.EasyDarwin.Body : JSON.stringify(raw?.EasyDarwin?.Body ?? raw));
        return;
      }
      notify.success(msg('ipSet'));
      onDone();
    } catch (err) {
      notify.error(err instanceof RequestError ? err.msg : String(err));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Spin spinning={loading}>
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="address"
          label={t('network.address')}
          extra={t('network.hint')}
          rules={[{ required: true, whitespace: true, message: msg('networkRequired') }]}
        >
          <AutoComplete
            allowClear
            placeholder={t('network.placeholder')}
            options={localIPs.map((ip) => ({ value: ip, label: `${ip} (${t('network.local')})` }))}
          />
        </Form.Item>
        <Form.Item style={{ marginBottom: 0, textAlign: 'right' }}>
          <Space>
            {onCancel && <Button onClick={onCancel}>{t('common.cancel')}</Button>}
            <Button type="primary" htmlType="submit" loading={saving}>
              {submitText ?? t('common.save')}
            </Button>
          </Space>
        </Form.Item>
      </Form>
    </Spin>
  );
}
