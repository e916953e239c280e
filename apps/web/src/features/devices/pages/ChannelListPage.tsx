/**
 * /device/channel/{devid}?deviceName&deviceType&subset: one level of a device's channels. A
 * directory row (Parental 1) opens its sub-channels: the level is pushed onto the sub-channel
 * trail the breadcrumb shows.
 */
import { useEffect, useState } from 'react';
import { Badge, Button, Card, Input, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { ListToolbar } from '../../../components/ListToolbar';
import { FolderOutlined, PlusOutlined, VideoCameraOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PAGE_SIZE, type ChannelRow } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useDebounced } from '../../../lib/useDebounced';
import { deleteChannel, fetchChannelConfigs } from '../api';
import { CdnPushCell, useCdnPushes } from '../components/CdnPushCell';
import { DeviceBreadcrumb } from '../components/DeviceBreadcrumb';
import { channelFormPath, channelListPath } from '../paths';
import { useSubChannels } from '../subChannelStore';
import { runAction } from '../../../lib/runAction';

export default function ChannelListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { devid = '' } = useParams();
  const [params] = useSearchParams();
  const deviceName = params.get('deviceName') ?? undefined;
  const deviceType = params.get('deviceType') ?? undefined;
  const subset = params.get('subset') ?? '';
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const push = useSubChannels((s) => s.push);
  const syncSubset = useSubChannels((s) => s.syncSubset);

  useEffect(() => syncSubset(subset), [subset, syncSubset]);
  useEffect(() => setPage(1), [query, subset, devid]);

  const readPage = () => fetchChannelConfigs({ device: devid, subset, start: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE, q: query });
  const list = useQuery({
    queryKey: ['channelsconfig', devid, subset, page, query],
    queryFn: readPage,
    placeholderData: keepPreviousData,
  });
  const cdnPushOf = useCdnPushes(list.data?.Channels ?? [], [devid, subset, page, query], readPage);

  const open = (c: ChannelRow) => {
    push({ uuid: `${c.ParentDeviceID}:${c.ChannelID}`, Name: c.Name, subset: c.GBID });
    setQ('');
    navigate(channelListPath(devid, deviceName, deviceType, c.GBID));
  };
  const remove = async (c: ChannelRow) => {
    if (await runAction(() => deleteChannel(devid, c.ChannelID))) void list.refetch();
  };
  const addPath = () => {
    const base = channelFormPath(devid, '0', deviceName, deviceType);
    // A channel added inside a directory goes under it.
    return subset ? `${base}${base.includes('?') ? '&' : '?'}subset=${encodeURIComponent(subset)}` : base;
  };

  return (
    <div style={{ padding: 16 }}>
      <DeviceBreadcrumb />
      <PageTitle
        title={deviceName ? `${t('route.deviceChannel')} - ${deviceName}` : t('route.deviceChannel')}
        extra={
          <ListToolbar
            search={<Input.Search allowClear placeholder={t('devices.channel.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ width: 220 }} />}
            primary={{ label: t('devices.channel.add'), icon: <PlusOutlined />, onClick: () => navigate(addPath()) }}
          />
        }
      />
      <Card>
        <ListTable<ChannelRow>
          rowKey="ChannelID"
          size="middle"
          loading={list.isFetching}
          dataSource={list.data?.Channels ?? []}
          scroll={{ x: 1000 }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.ChannelCount ?? 0, showSizeChanger: false, onChange: setPage }}
          columns={[
            // A GB28181 ID's 20 digits on one line (as the device list's): in an equal share of the
            // English table at 1440 px they broke in two.
            { title: t('devices.channel.id'), dataIndex: 'ChannelID', width: 200 },
            {
              title: t('devices.channel.name'),
              dataIndex: 'Name',
              render: (name: string, c) =>
                c.Parental === 1 ? (
                  <Button type="link" size="small" icon={<FolderOutlined />} onClick={() => open(c)} style={{ padding: 0 }}>
                    {name}
                  </Button>
                ) : (
                  <Space size={4}>
                    <VideoCameraOutlined />
                    {name}
                  </Space>
                ),
            },
            {
              title: t('devices.channel.online'),
              dataIndex: 'Online',
              render: (v: number, c) => {
                const badge = <Badge status={v === 1 ? 'success' : 'default'} text={v === 1 ? t('devices.onlineYes') : t('devices.onlineNo')} />;
                return v !== 1 && c.StatusReason ? <Tooltip title={`${t('devices.channel.reason')}: ${c.StatusReason}`}>{badge}</Tooltip> : badge;
              },
            },
            {
              title: t('devices.channel.enable'),
              dataIndex: 'Enable',
              render: (v: number) => (v === 1 ? <Tag color="green">{t('common.enabled')}</Tag> : <Tag>{t('common.disabled')}</Tag>),
            },
            { title: t('devices.channelForm.enableCdn'), key: 'cdn', render: (_, c) => <CdnPushCell status={cdnPushOf(c)} /> },
            { title: t('devices.channel.protocol'), dataIndex: 'Protocol' },
            {
              title: t('devices.channel.rtspUrl'),
              dataIndex: 'RtspUrl',
              ellipsis: true,
              render: (v: string) => (v ? <Typography.Text copyable={{ text: v }}>{v}</Typography.Text> : '-'),
            },
            {
              title: t('devices.channel.directory'),
              key: 'dir',
              render: (_, c) => (c.Parental === 1 ? <Tag color="blue">{t('devices.channel.subCount', { count: c.SubChannelNum })}</Tag> : null),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              fixed: 'right',
              render: (_, c) => (
                <Space size={0}>
                  {c.Parental === 1 && (
                    <Button type="link" size="small" onClick={() => open(c)}>
                      {t('devices.channel.open')}
                    </Button>
                  )}
                  <Button type="link" size="small" onClick={() => navigate(channelFormPath(devid, c.ChannelID, deviceName, deviceType, c.Name))}>
                    {t('common.edit')}
                  </Button>
                  <Popconfirm title={t('devices.channel.deleteConfirm', { name: c.Name })} onConfirm={() => remove(c)}>
                    <Button type="link" size="small" danger>
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
