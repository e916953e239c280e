/**
 * /device/form/{devid}: add (devid 0) or edit a device. GB28181 devices need their 20-digit ID and
 * have subscriptions; RTSP/ONVIF devices get their first channel from the stream address on add.
 * ID and name are checked for duplicates (checkdeviceinfo) when the field is left.
 */
import { useEffect, useState } from 'react';
import { Button, Card, Checkbox, Form, Input, InputNumber, Select, Space, Spin, Switch } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import { DEVICE_TYPES, FORM_LABEL_WIDTH, type DeviceType } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { msg } from '../../../i18n';
import { notify } from '../../../lib/notify';
import { addDevice, checkDeviceInfo, editDevice, fetchDeviceInfo, type DeviceInput } from '../api';
import { DeviceBreadcrumb } from '../components/DeviceBreadcrumb';
import { GB_ID, isGb, isPulledType, isStreamUrl } from '../rules';

interface Values extends Omit<DeviceInput, 'DevicePort'> {
  DevicePort?: number | null;
}

const DEFAULTS: Partial<Values> = { DeviceType: 'RTSP', Enable: true, Transport: 'TCP', TransportMode: 'passive', CatalogSubscribe: true };

export default function DeviceFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { devid = '0' } = useParams();
  const adding = devid === '0';
  const [form] = Form.useForm<Values>();
  const type = Form.useWatch('DeviceType', form) as DeviceType | undefined;
  const [saving, setSaving] = useState(false);

  const info = useQuery({ queryKey: ['deviceinfo', devid], queryFn: () => fetchDeviceInfo(devid), enabled: !adding });
  useEffect(() => {
    const d = info.data;
    if (!d) return;
    form.setFieldsValue({
      ...d,
      Enable: d.Enable === 1,
      AlarmSubscribe: d.AlarmSubscribe === 1,
      CatalogSubscribe: d.CatalogSubscribe === 1,
      PositionSubscribe: d.PositionSubscribe === 1,
      Transport: (d.Transport || 'TCP') as Values['Transport'],
      TransportMode: (d.TransportMode || 'passive') as Values['TransportMode'],
    });
  }, [info.data, form]);

  // Duplicate checks run on blur (and again on submit); the server still refuses duplicates.
  const idUnique = async (_: unknown, v: string) => {
    if (!adding || !v || (isGb(type) && !GB_ID.test(v))) return;
    if ((await checkDeviceInfo({ device: v })).IDExists) throw new Error(t('devices.form.idExists'));
  };
  const nameUnique = async (_: unknown, v: string) => {
    if (!v?.trim() || (!adding && v.trim() === info.data?.DeviceName)) return;
    if ((await checkDeviceInfo({ name: v.trim() })).NameExists) throw new Error(t('devices.form.nameExists'));
  };

  const save = async (v: Values) => {
    setSaving(true);
    const input: DeviceInput = {
      ...v,
      DeviceID: v.DeviceID?.trim() || undefined,
      DeviceName: v.DeviceName.trim(),
      DevicePort: v.DevicePort ?? undefined,
      RtspUrl: adding && isPulledType(v.DeviceType) ? v.RtspUrl?.trim() || undefined : undefined,
      // Only GB devices have a transport mode and subscriptions.
      ...(isGb(v.DeviceType) ? {} : { TransportMode: undefined, AlarmSubscribe: undefined, CatalogSubscribe: undefined, PositionSubscribe: undefined }),
    };
    try {
      if (adding) {
        await addDevice(input);
        notify.success(msg('success'));
      } else {
        await editDevice({ ...input, DeviceID: devid });
        notify.success(msg('saved'));
      }
      navigate('/device/list');
    } catch {
      // the request layer shows the server's text
    } finally {
      setSaving(false);
    }
  };

  return (
    <div style={{ padding: 16 }}>
      <DeviceBreadcrumb />
      <PageTitle title={adding ? t('devices.form.addTitle') : t('devices.form.editTitle')} />
      <Card>
        <Spin spinning={!adding && info.isLoading}>
          <Form<Values>
            form={form}
            initialValues={DEFAULTS}
            labelCol={{ flex: `${FORM_LABEL_WIDTH}px` }}
            wrapperCol={{ style: { maxWidth: 480 } }}
            onFinish={save}
            autoComplete="off"
          >
            <Form.Item name="DeviceType" label={t('devices.form.type')} rules={[{ required: true }]}>
              <Select disabled={!adding} options={DEVICE_TYPES.map((d) => ({ value: d, label: d }))} />
            </Form.Item>
            <Form.Item
              name="DeviceID"
              label={t('devices.form.id')}
              validateTrigger={['onChange', 'onBlur']}
              rules={[
                { required: isGb(type), message: t('devices.form.idRequired') },
                { pattern: isGb(type) ? GB_ID : /^[A-Za-z0-9_.-]*$/, message: isGb(type) ? t('devices.form.idFormat') : undefined },
                { validator: idUnique, validateTrigger: 'onBlur' },
              ]}
            >
              <Input disabled={!adding} maxLength={64} />
            </Form.Item>
            <Form.Item
              name="DeviceName"
              label={t('devices.form.name')}
              validateTrigger={['onChange', 'onBlur']}
              rules={[
                { required: true, whitespace: true, message: t('devices.form.nameRequired') },
                { validator: nameUnique, validateTrigger: 'onBlur' },
              ]}
            >
              <Input maxLength={128} />
            </Form.Item>
            {adding && isPulledType(type) && (
              <Form.Item
                name="RtspUrl"
                label={t('devices.form.rtspUrl')}
                extra={t('devices.form.rtspUrlHint')}
                rules={[{ validator: async (_, v: string) => { if (v && !isStreamUrl(v)) throw new Error(t('devices.form.rtspUrlFormat')); } }]}
              >
                <Input placeholder="rtsp://" />
              </Form.Item>
            )}
            <Form.Item name="DeviceIp" label={t('devices.form.ip')}>
              <Input maxLength={255} />
            </Form.Item>
            <Form.Item name="DevicePort" label={t('devices.form.port')} rules={[{ type: 'number', min: 0, max: 65535, message: t('devices.form.portRange') }]}>
              <InputNumber style={{ width: '100%' }} precision={0} />
            </Form.Item>
            <Form.Item name="DeviceUserName" label={t('devices.form.user')}>
              <Input maxLength={64} autoComplete="off" />
            </Form.Item>
            <Form.Item name="DeviceUserPW" label={t('devices.form.password')}>
              <Input.Password maxLength={128} autoComplete="new-password" />
            </Form.Item>
            <Form.Item name="Manufacturer" label={t('devices.form.manufacturer')}>
              <Input maxLength={64} />
            </Form.Item>
            <Form.Item name="Transport" label={t('devices.form.transport')}>
              <Select options={[{ value: 'TCP' }, { value: 'UDP' }]} />
            </Form.Item>
            {isGb(type) && (
              <>
                <Form.Item name="TransportMode" label={t('devices.form.transportMode')}>
                  <Select
                    options={[
                      { value: 'passive', label: t('devices.form.passive') },
                      { value: 'active', label: t('devices.form.active') },
                    ]}
                  />
                </Form.Item>
                <Form.Item label={t('devices.form.subscriptions')}>
                  <Space>
                    <Form.Item name="CatalogSubscribe" valuePropName="checked" noStyle>
                      <Checkbox>{t('devices.form.catalogSubscribe')}</Checkbox>
                    </Form.Item>
                    <Form.Item name="AlarmSubscribe" valuePropName="checked" noStyle>
                      <Checkbox>{t('devices.form.alarmSubscribe')}</Checkbox>
                    </Form.Item>
                    <Form.Item name="PositionSubscribe" valuePropName="checked" noStyle>
                      <Checkbox>{t('devices.form.positionSubscribe')}</Checkbox>
                    </Form.Item>
                  </Space>
                </Form.Item>
              </>
            )}
            <Form.Item name="Enable" label={t('devices.form.enable')} valuePropName="checked">
              <Switch />
            </Form.Item>
            <Form.Item label=" " colon={false}>
              <Space>
                <Button type="primary" htmlType="submit" loading={saving}>
                  {t('common.save')}
                </Button>
                <Button onClick={() => navigate('/device/list')}>{t('devices.form.back')}</Button>
              </Space>
            </Form.Item>
          </Form>
        </Spin>
      </Card>
    </div>
  );
}
