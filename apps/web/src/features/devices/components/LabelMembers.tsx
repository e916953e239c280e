/**
 * The selected group's channels and devices (label/channelsconfig, label/devicesconfig), with add and
 * remove. Administrators see each channel's CDN push as on the channel list (operators get no
 * CdnPush from the server, and no column).
 */
import { useEffect, useState } from 'react';
import { Badge, Button, Grid, Input, Popconfirm, Space, Tabs } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { PAGE_SIZE, type ChannelRow, type DeviceRow, type LabelRow } from '@opencvr/shared';
import { ChannelPicker } from '../../../components/ChannelPicker';
import { ListTable } from '../../../components/ListTable';
import { msg } from '../../../i18n';
import { notify } from '../../../lib/notify';
import { useDebounced } from '../../../lib/useDebounced';
import { isAdminRole } from '../../../lib/session';
import { useSession } from '../../../lib/stores/session';
import { fetchLabelChannels, fetchLabelDevices, updateLabelChannels, updateLabelDevices } from '../api';
import { CdnPushCell, useCdnPushes } from './CdnPushCell';

export function LabelMembers({ label }: { label: LabelRow }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'channels' | 'devices'>('channels');
  const [chPage, setChPage] = useState(1);
  const [devPage, setDevPage] = useState(1);
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const [picking, setPicking] = useState(false);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    setChPage(1);
    setDevPage(1);
  }, [label.ID, query]);

  const readChannels = () => fetchLabelChannels(label.ID, (chPage - 1) * PAGE_SIZE, PAGE_SIZE, query);
  const channels = useQuery({
    queryKey: ['label/channelsconfig', label.ID, chPage, query],
    queryFn: readChannels,
    placeholderData: keepPreviousData,
  });
  const admin = isAdminRole(useSession((s) => s.userinfo?.role));
  const cdnPushOf = useCdnPushes(admin ? (channels.data?.Channels ?? []) : [], ['label', label.ID, chPage, query], readChannels);
  const devices = useQuery({
    queryKey: ['label/devicesconfig', label.ID, devPage],
    queryFn: () => fetchLabelDevices(label.ID, (devPage - 1) * PAGE_SIZE, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });

  const change = async (work: () => Promise<unknown>) => {
    setSaving(true);
    try {
      await work();
      notify.success(msg('success'));
      setPicking(false);
      void channels.refetch();
      void devices.refetch();
    } catch {
      // shown by the request layer
    } finally {
      setSaving(false);
    }
  };

  // Search and add sit in the tab bar; on a phone there they pushed both tabs into antd's "…"
  // overflow menu (the devices tab out of sight) and the add button past the card's edge, so
  // there they go above the list instead.
  const phone = Grid.useBreakpoint().md === false;
  const toolbar = (
    <Space wrap={phone} style={phone ? { marginBottom: 12 } : undefined}>
      {tab === 'channels' && <Input.Search allowClear size="small" placeholder={t('devices.channel.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ width: 200 }} />}
      <Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => setPicking(true)}>
        {tab === 'channels' ? t('devices.group.addChannels') : t('devices.group.addDevices')}
      </Button>
    </Space>
  );

  const online = (v: number) => <Badge status={v === 1 ? 'success' : 'default'} text={v === 1 ? t('devices.onlineYes') : t('devices.onlineNo')} />;

  return (
    <>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as 'channels' | 'devices')}
        tabBarExtraContent={phone ? undefined : toolbar}
        items={[
          {
            key: 'channels',
            label: `${t('devices.group.channels')} (${channels.data?.ChannelCount ?? 0})`,
            children: (
              <>
                {phone && toolbar}
                  <ListTable<ChannelRow>
                  rowKey={(c) => `${c.ParentDeviceID}:${c.ChannelID}`}
                  size="small"
                  loading={channels.isFetching}
                  dataSource={channels.data?.Channels ?? []}
                  pagination={{ current: chPage, pageSize: PAGE_SIZE, total: channels.data?.ChannelCount ?? 0, showSizeChanger: false, onChange: setChPage }}
                  columns={[
                    { title: t('devices.channel.name'), dataIndex: 'Name' },
                    { title: t('devices.channel.id'), dataIndex: 'ChannelID' },
                    { title: t('devices.name'), dataIndex: 'DeviceName' },
                    { title: t('devices.channel.online'), dataIndex: 'Online', render: online },
                    ...(admin ? [{ title: t('devices.channelForm.enableCdn'), key: 'cdn', render: (_: unknown, c: ChannelRow) => <CdnPushCell status={cdnPushOf(c)} /> }] : []),
                    {
                      title: t('common.actions'),
                      key: 'actions',
                      render: (_, c) => (
                        <Popconfirm
                          title={t('devices.group.removeConfirm')}
                          onConfirm={() => change(() => updateLabelChannels(label.ID, [{ DeviceID: c.ParentDeviceID, ChannelID: c.ChannelID }], 'remove'))}
                        >
                          <Button type="link" size="small" danger>
                            {t('devices.group.remove')}
                          </Button>
                        </Popconfirm>
                      ),
                    },
                  ]}
                />
              </>
            ),
          },
          {
            key: 'devices',
            label: `${t('devices.group.devices')} (${devices.data?.TotalCount ?? 0})`,
            children: (
              <>
                {phone && toolbar}
                  <ListTable<DeviceRow>
                  rowKey="DeviceID"
                  size="small"
                  loading={devices.isFetching}
                  dataSource={devices.data?.Devices ?? []}
                  pagination={{ current: devPage, pageSize: PAGE_SIZE, total: devices.data?.TotalCount ?? 0, showSizeChanger: false, onChange: setDevPage }}
                  columns={[
                    { title: t('devices.name'), dataIndex: 'DeviceName' },
                    { title: t('devices.id'), dataIndex: 'DeviceID' },
                    { title: t('devices.type'), dataIndex: 'DeviceType' },
                    { title: t('devices.online'), dataIndex: 'Online', render: online },
                    {
                      title: t('common.actions'),
                      key: 'actions',
                      render: (_, d) => (
                        <Popconfirm title={t('devices.group.removeConfirm')} onConfirm={() => change(() => updateLabelDevices(label.ID, [d.DeviceID], 'remove'))}>
                          <Button type="link" size="small" danger>
                            {t('devices.group.remove')}
                          </Button>
                        </Popconfirm>
                      ),
                    },
                  ]}
                />
              </>
            ),
          },
        ]}
      />
      <ChannelPicker
        open={picking}
        mode={tab}
        title={tab === 'channels' ? t('devices.picker.title') : t('devices.picker.devicesTitle')}
        saving={saving}
        onCancel={() => setPicking(false)}
        onOk={({ channels: picked, devices: pickedDevices }) =>
          change(() => (tab === 'channels' ? updateLabelChannels(label.ID, picked, 'add') : updateLabelDevices(label.ID, pickedDevices, 'add')))
        }
      />
    </>
  );
}
