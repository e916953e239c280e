/**
 * /config/platform/gb: the GB28181 access settings (getbaseconfig/setbaseconfig). Save stays
 * disabled until something differs from what was loaded (spec 5); only changed fields are sent.
 * Changes apply without a restart; a port change is shown as pending until the SIP service
 * listens on it.
 */
import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Card, Form, Input, InputNumber, Radio, Space, Switch, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { GbBaseConfig } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { msg } from '../../../i18n';
import { runAction } from '../../../lib/runAction';
import { fetchGbConfig, saveGbConfig } from '../api';
import { isHostOrEmpty, isRealm, isSerial } from '../rules';

/** The editable fields (the answer also carries ListenPort/PortFromEnv, read-only). */
const FIELDS = [
  'Serial',
  'Realm',
  'Host',
  'Port',
  'DevicePassword',
  'MediaIP',
  'RtpPortMin',
  'RtpPortMax',
  'MediaTransport',
  'MediaTransportMode',
  'KeepaliveTimeout',
  'KeepaliveCount',
  'RegisterExpires',
  'AckTimeout',
  'WhiteSwitch',
] as const;
type Field = (typeof FIELDS)[number];
type GbForm = Pick<GbBaseConfig, Field>;

const pick = (c: GbBaseConfig): GbForm => Object.fromEntries(FIELDS.map((k) => [k, c[k]])) as GbForm;

/** The fields whose value differs from the loaded one (strings compared trimmed). */
export function changedFields(loaded: GbForm, now: Partial<GbForm>): Partial<GbForm> {
  const out: Record<string, unknown> = {};
  for (const k of FIELDS) {
    const v = typeof now[k] === 'string' ? (now[k] as string).trim() : now[k];
    if (v !== undefined && v !== null && v !== loaded[k]) out[k] = v;
  }
  return out as Partial<GbForm>;
}

export default function GbConfigPage() {
  const { t } = useTranslation();
  const [form] = Form.useForm<GbForm>();
  const [saving, setSaving] = useState(false);
  const config = useQuery({ queryKey: ['gb-config'], queryFn: fetchGbConfig });
  const loaded = useMemo(() => (config.data ? pick(config.data) : undefined), [config.data]);
  const values = Form.useWatch([], form) as Partial<GbForm> | undefined;
  const dirty = !!loaded && !!values && Object.keys(changedFields(loaded, values)).length > 0;

  useEffect(() => {
    if (loaded) form.setFieldsValue(loaded);
  }, [loaded, form]);

  const save = async () => {
    if (!loaded) return;
    const patch = changedFields(loaded, form.getFieldsValue(true) as GbForm);
    if (!Object.keys(patch).length) return;
    setSaving(true);
    if (await runAction(() => saveGbConfig(patch), msg('saved'))) await config.refetch();
    setSaving(false);
  };

  const serial = (values?.Serial ?? '').trim();
  const realm = (values?.Realm ?? '').trim();
  const realmWarning = isSerial(serial) && isRealm(realm) && !serial.startsWith(realm) ? t('gbAdmin.realmMismatch', { prefix: serial.slice(0, 10) }) : undefined;
  const data = config.data;
  const portNote = !data
    ? undefined
    : data.ListenPort === 0
      ? t('gbAdmin.notListening')
      : data.PortFromEnv
        ? t('gbAdmin.portFromEnv', { port: data.ListenPort })
        : data.ListenPort !== undefined && data.ListenPort !== data.Port
          ? t('gbAdmin.portPending', { listen: data.ListenPort, port: data.Port })
          : undefined;

  const num = (name: Field, label: string, min: number, max: number, extra?: string) => (
    <Form.Item name={name} label={label} extra={extra} rules={[{ required: true, type: 'integer', min, max, message: `${min} - ${max}` }]}>
      <InputNumber min={min} max={max} precision={0} style={{ width: 160 }} />
    </Form.Item>
  );

  return (
    <div style={{ padding: 16 }}>
      <PageTitle
        title={t('route.configPlatformGb')}
        extra={
          <Space>
            {dirty && <Typography.Text type="warning">{t('gbAdmin.unsaved')}</Typography.Text>}
            <Button disabled={!dirty} onClick={() => loaded && form.setFieldsValue(loaded)}>
              {t('gbAdmin.reset')}
            </Button>
            <Button type="primary" disabled={!dirty} loading={saving} onClick={() => form.submit()} data-testid="gb-save">
              {t('common.save')}
            </Button>
          </Space>
        }
      />
      <Alert type="info" showIcon title={t('gbAdmin.applyNote')} style={{ marginBottom: 12 }} />
      <Form<GbForm> form={form} labelCol={{ flex: '165px' }} onFinish={() => void save()} disabled={config.isLoading}>
        <Card title={t('gbAdmin.sip')} loading={config.isLoading} style={{ marginBottom: 12 }}>
          <Form.Item name="Serial" label={t('gbAdmin.serial')} extra={t('gbAdmin.serialHint')} rules={[{ required: true, validator: async (_, v: string) => { if (!isSerial(v ?? '')) throw new Error(t('gbAdmin.serialRule')); } }]}>
            <Input maxLength={20} style={{ maxWidth: 320 }} />
          </Form.Item>
          <Form.Item
            name="Realm"
            label={t('gbAdmin.realm')}
            extra={realmWarning ? <Typography.Text type="warning">{realmWarning}</Typography.Text> : t('gbAdmin.realmHint')}
            rules={[{ required: true, validator: async (_, v: string) => { if (!isRealm(v ?? '')) throw new Error(t('gbAdmin.realmRule')); } }]}
          >
            <Input maxLength={10} style={{ maxWidth: 320 }} />
          </Form.Item>
          <Form.Item name="Host" label={t('gbAdmin.host')} extra={t('gbAdmin.hostHint')} rules={[{ validator: async (_, v: string) => { if (!isHostOrEmpty(v ?? '')) throw new Error(t('gbAdmin.hostRule')); } }]}>
            <Input maxLength={255} style={{ maxWidth: 320 }} />
          </Form.Item>
          <Form.Item
            label={t('gbAdmin.port')}
            required
            extra={
              <>
                {data?.ListenPort ? <div>{t('gbAdmin.listening', { port: data.ListenPort })}</div> : null}
                {portNote ? <Typography.Text type="warning">{portNote}</Typography.Text> : null}
              </>
            }
          >
            <Form.Item name="Port" noStyle rules={[{ required: true, type: 'integer', min: 1, max: 65535, message: t('gbAdmin.portRule') }]}>
              <InputNumber min={1} max={65535} precision={0} style={{ width: 160 }} />
            </Form.Item>
          </Form.Item>
          <Form.Item name="DevicePassword" label={t('gbAdmin.password')} extra={t('gbAdmin.passwordHint')} rules={[{ max: 64 }]}>
            <Input.Password maxLength={64} style={{ maxWidth: 320 }} autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="WhiteSwitch" label={t('gbAdmin.whiteSwitch')} valuePropName="checked" extra={t('gbAdmin.whiteHint')}>
            <Switch />
          </Form.Item>
        </Card>
        <Card title={t('gbAdmin.media')} loading={config.isLoading} style={{ marginBottom: 12 }}>
          <Form.Item name="MediaIP" label={t('gbAdmin.mediaIp')} extra={t('gbAdmin.mediaIpHint')} rules={[{ validator: async (_, v: string) => { if (!isHostOrEmpty(v ?? '')) throw new Error(t('gbAdmin.hostRule')); } }]}>
            <Input maxLength={255} style={{ maxWidth: 320 }} />
          </Form.Item>
          <Form.Item label={t('gbAdmin.rtpPorts')} required>
            <Space>
              <Form.Item name="RtpPortMin" noStyle rules={[{ required: true, type: 'integer', min: 1024, max: 65535, message: '1024 - 65535' }]}>
                <InputNumber min={1024} max={65535} precision={0} style={{ width: 120 }} aria-label="RtpPortMin" />
              </Form.Item>
              <span>-</span>
              <Form.Item
                name="RtpPortMax"
                noStyle
                dependencies={['RtpPortMin']}
                rules={[
                  { required: true, type: 'integer', min: 1024, max: 65535, message: '1024 - 65535' },
                  ({ getFieldValue }) => ({
                    validator: async (_, v: number) => {
                      if (typeof v === 'number' && v <= Number(getFieldValue('RtpPortMin'))) throw new Error(t('gbAdmin.rtpRange'));
                    },
                  }),
                ]}
              >
                <InputNumber min={1024} max={65535} precision={0} style={{ width: 120 }} aria-label="RtpPortMax" />
              </Form.Item>
            </Space>
          </Form.Item>
          <Form.Item name="MediaTransport" label={t('gbAdmin.transport')}>
            <Radio.Group options={[{ value: 'UDP', label: 'UDP' }, { value: 'TCP', label: 'TCP' }]} />
          </Form.Item>
          {values?.MediaTransport === 'TCP' && (
            <Form.Item name="MediaTransportMode" label={t('gbAdmin.transportMode')}>
              <Radio.Group options={[{ value: 'passive', label: t('gbAdmin.passive') }, { value: 'active', label: t('gbAdmin.active') }]} />
            </Form.Item>
          )}
        </Card>
        <Card title={t('gbAdmin.timers')} loading={config.isLoading}>
          {num('KeepaliveTimeout', t('gbAdmin.keepalive'), 5, 3600)}
          {num('KeepaliveCount', t('gbAdmin.keepaliveCount'), 1, 10, t('gbAdmin.keepaliveHint', { count: values?.KeepaliveCount ?? 3 }))}
          {num('RegisterExpires', t('gbAdmin.registerExpires'), 60, 86400)}
          {num('AckTimeout', t('gbAdmin.ackTimeout'), 1, 120, t('gbAdmin.ackTimeoutHint'))}
        </Card>
      </Form>
    </div>
  );
}
