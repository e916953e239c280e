/**
 * /device/channelform/{devid}/{chnid}?deviceName&deviceType&channelName: add (chnid 0) or edit a
 * channel with the Channel fields of spec 3. A channel added from a directory level (`subset`)
 * goes under that directory; whether it is itself a directory is fixed when it is created.
 */
import { useEffect, useState } from 'react';
import { Button, Card, Col, Divider, Form, Input, InputNumber, Row, Select, Space, Spin, Switch } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { CHANNEL_PROTOCOLS, FORM_LABEL_WIDTH, type ChannelRow } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { msg } from '../../../i18n';
import { notify } from '../../../lib/notify';
import { isAdminRole } from '../../../lib/session';
import { useSession } from '../../../lib/stores/session';
import { addChannel, editChannel, fetchChannel, type ChannelInput } from '../api';
import { CdnPushState } from '../components/CdnPushState';
import { TlsCertState } from '../components/TlsCertState';
import { isServerAddress, tlsCertKey } from '../tlsCertWords';
import { DeviceBreadcrumb } from '../components/DeviceBreadcrumb';
import { channelListPath } from '../paths';
import { inRange, isStreamUrl } from '../rules';
import { useSubChannels } from '../subChannelStore';

type Values = Omit<ChannelInput, 'Port'> & { Port?: number | null };

const FLAGS = ['Enable', 'OnDemand', 'EnableRecord', 'EnableAudio', 'EnableCdn', 'EnableH265ToH264'] as const;
const DEFAULTS: Values = { Enable: true, OnDemand: true, Protocol: 'RTSP', Transport: 'TCP', Parental: false };

function toValues(c: ChannelRow): Values {
  return {
    Name: c.Name,
    ChannelID: c.ChannelID,
    Parental: c.Parental === 1,
    Protocol: c.Protocol || 'RTSP',
    RtspUrl: c.RtspUrl,
    Username: c.Username,
    Password: c.Password,
    Transport: c.Transport || 'TCP',
    RecordUrl: c.RecordUrl,
    SnapUrl: c.SnapUrl,
    CdnUrl: c.CdnUrl,
    Longitude: c.Longitude,
    Latitude: c.Latitude,
    ...Object.fromEntries(FLAGS.map((k) => [k, c[k] === 1])),
  };
}

export default function ChannelFormPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { devid = '', chnid = '0' } = useParams();
  const [params] = useSearchParams();
  const adding = chnid === '0';
  const deviceName = params.get('deviceName') ?? undefined;
  const deviceType = params.get('deviceType') ?? undefined;
  const trail = useSubChannels((s) => s.trail);
  // Where to go back to: the level the user came from.
  const level = params.get('subset') ?? trail[trail.length - 1]?.subset ?? '';
  const [form] = Form.useForm<Values>();
  const cdn = Form.useWatch('EnableCdn', form);
  const [saving, setSaving] = useState(false);
  const admin = isAdminRole(useSession((s) => s.userinfo?.role));

  const channel = useQuery({ queryKey: ['channel', devid, chnid], queryFn: () => fetchChannel(devid, chnid), enabled: !adding });
  useEffect(() => {
    if (channel.data) form.setFieldsValue(toValues(channel.data));
  }, [channel.data, form]);

  const back = () => navigate(channelListPath(devid, deviceName, deviceType, level || undefined));

  const save = async (v: Values) => {
    setSaving(true);
    const input: ChannelInput = {
      ...v,
      Name: v.Name?.trim(),
      ChannelID: v.ChannelID?.trim() || undefined,
      Port: v.Port ?? undefined,
      Longitude: v.Longitude ?? null,
      Latitude: v.Latitude ?? null,
    };
    try {
      if (adding) {
        await addChannel(devid, { ...input, ParentID: level || undefined });
        notify.success(msg('success'));
      } else {
        // Identity and place in the tree are fixed after creation.
        const { ChannelID: _id, Parental: _p, ParentID: _pid, ...change } = input;
        await editChannel(devid, chnid, change);
        notify.success(msg('saved'));
      }
      back();
    } catch {
      // the request layer shows the server's text
    } finally {
      setSaving(false);
    }
  };

  const url = (key: string) => ({
    validator: async (_: unknown, v: string) => {
      if (v && !isStreamUrl(v)) throw new Error(t(key));
    },
  });
  const range = (min: number, max: number, key: string) => ({
    validator: async (_: unknown, v: unknown) => {
      if (!inRange(v, min, max)) throw new Error(t(key));
    },
  });

  return (
    <div style={{ padding: 16 }}>
      <DeviceBreadcrumb />
      <PageTitle title={adding ? t('devices.channelForm.addTitle') : t('devices.channelForm.editTitle')} />
      <Card>
        <Spin spinning={!adding && channel.isLoading}>
          <Form<Values>
            form={form}
            initialValues={DEFAULTS}
            labelCol={{ flex: `${FORM_LABEL_WIDTH}px` }}
            wrapperCol={{ style: { maxWidth: 520 } }}
            onFinish={save}
            autoComplete="off"
          >
            <Form.Item name="Name" label={t('devices.channelForm.name')} rules={[{ required: true, whitespace: true, message: t('devices.channelForm.nameRequired') }]}>
              <Input maxLength={128} />
            </Form.Item>
            <Form.Item
              name="ChannelID"
              label={t('devices.channelForm.channelId')}
              extra={adding ? t('devices.channelForm.channelIdHint') : undefined}
              rules={[{ pattern: /^[A-Za-z0-9_.-]*$/ }]}
            >
              <Input disabled={!adding} maxLength={64} />
            </Form.Item>
            <Form.Item name="Parental" label={t('devices.channelForm.parental')} valuePropName="checked">
              <Switch disabled={!adding} />
            </Form.Item>
            <Form.Item name="Protocol" label={t('devices.channelForm.protocol')}>
              <Select options={CHANNEL_PROTOCOLS.map((p) => ({ value: p, label: p }))} />
            </Form.Item>
            <Form.Item name="RtspUrl" label={t('devices.channelForm.rtspUrl')} rules={[url('devices.channelForm.urlFormat')]}>
              <Input placeholder="rtsp://" />
            </Form.Item>
            {/* The saved channel's certificate (rtsps:// and https:// only: the server gives TlsCert to administrators for those). */}
            {!adding && admin && channel.data?.TlsCert && (
              <Form.Item label={t(tlsCertKey(isServerAddress(channel.data.RtspUrl), 'title'))}>
                <TlsCertState device={devid} channel={chnid} server={isServerAddress(channel.data.RtspUrl)} />
              </Form.Item>
            )}
            <Form.Item name="Username" label={t('devices.channelForm.username')}>
              <Input maxLength={64} autoComplete="off" />
            </Form.Item>
            <Form.Item name="Password" label={t('devices.channelForm.password')}>
              <Input.Password maxLength={128} autoComplete="new-password" />
            </Form.Item>
            <Form.Item name="Transport" label={t('devices.channelForm.transport')}>
              <Select options={[{ value: 'TCP' }, { value: 'UDP' }]} />
            </Form.Item>
            <Form.Item name="RecordUrl" label={t('devices.channelForm.recordUrl')} rules={[url('devices.channelForm.urlFormat')]}>
              <Input />
            </Form.Item>
            <Form.Item name="SnapUrl" label={t('devices.channelForm.snapUrl')}>
              <Input maxLength={1024} />
            </Form.Item>
            <Divider />
            <Row gutter={16} style={{ maxWidth: FORM_LABEL_WIDTH + 520 }}>
              {(
                [
                  ['Enable', 'enable'],
                  ['OnDemand', 'onDemand'],
                  ['EnableRecord', 'enableRecord'],
                  ['EnableAudio', 'enableAudio'],
                  ['EnableH265ToH264', 'h265'],
                  ['EnableCdn', 'enableCdn'],
                ] as const
              ).map(([name, key]) => (
                <Col span={12} key={name}>
                  <Form.Item name={name} label={t(`devices.channelForm.${key}`)} valuePropName="checked" labelCol={{ flex: `${FORM_LABEL_WIDTH}px` }}>
                    <Switch />
                  </Form.Item>
                </Col>
              ))}
            </Row>
            {cdn && (
              <Form.Item name="CdnUrl" label={t('devices.channelForm.cdnUrl')}>
                <Input maxLength={1024} placeholder="rtmp://" />
              </Form.Item>
            )}
            {cdn && !adding && (
              <Form.Item label={t('devices.cdnPush.title')}>
                <CdnPushState device={devid} channel={chnid} />
              </Form.Item>
            )}
            <Form.Item name="Longitude" label={t('devices.channelForm.longitude')} rules={[range(-180, 180, 'devices.channelForm.longitudeRange')]}>
              <InputNumber style={{ width: '100%' }} step={0.000001} />
            </Form.Item>
            <Form.Item name="Latitude" label={t('devices.channelForm.latitude')} rules={[range(-90, 90, 'devices.channelForm.latitudeRange')]}>
              <InputNumber style={{ width: '100%' }} step={0.000001} />
            </Form.Item>
            <Form.Item label=" " colon={false}>
              <Space>
                <Button type="primary" htmlType="submit" loading={saving}>
                  {t('common.save')}
                </Button>
                <Button onClick={back}>{t('devices.form.back')}</Button>
              </Space>
            </Form.Item>
          </Form>
        </Spin>
      </Card>
    </div>
  );
}
