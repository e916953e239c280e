/** /device/list: devices with search, type filter, paging of 20, delete and batch delete; GB28181 rows add catalog refresh, device info and reboot. */
import { useEffect, useState } from 'react';
import { Badge, Button, Card, Input, Popconfirm, Select, Space, Tag } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { ListToolbar } from '../../../components/ListToolbar';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { DEVICE_TYPES, PAGE_SIZE, type DeviceRow } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useDebounced } from '../../../lib/useDebounced';
import { deleteDevice, deleteDevices, fetchDeviceConfigs } from '../api';
import { DeviceBreadcrumb } from '../components/DeviceBreadcrumb';
import { GbDeviceActions, useCatalogEnded } from '../components/GbDeviceActions';
import { channelListPath } from '../paths';
import { runAction } from '../../../lib/runAction';

export default function DeviceListPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const [q, setQ] = useState('');
  const [type, setType] = useState<string>('');
  const [selected, setSelected] = useState<string[]>([]);
  const query = useDebounced(q.trim());

  const list = useQuery({
    queryKey: ['devicesconfig', page, query, type],
    queryFn: () => fetchDeviceConfigs({ start: (page - 1) * PAGE_SIZE, limit: PAGE_SIZE, q: query, type }),
    placeholderData: keepPreviousData,
  });

  useEffect(() => setPage(1), [query, type]);
  // A GB catalog stored (after a registration or a refresh elsewhere) changes the channel counts.
  useCatalogEnded(() => void list.refetch());

  const done = (ok: boolean) => {
    if (!ok) return;
    setSelected([]);
    void list.refetch();
  };
  const remove = async (row: DeviceRow) => done(await runAction(() => deleteDevice(row.DeviceID)));
  const removeSelected = async () => done(await runAction(() => deleteDevices(selected)));

  return (
    <div style={{ padding: 16 }}>
      <DeviceBreadcrumb />
      <PageTitle
        title={t('route.deviceList')}
        extra={
          <ListToolbar
            filters={[
              <Select
                key="type"
                value={type}
                onChange={setType}
                style={{ width: 140 }}
                aria-label={t('devices.type')}
                options={[{ value: '', label: t('devices.allTypes') }, ...DEVICE_TYPES.map((d) => ({ value: d, label: d }))]}
              />,
            ]}
            filtered={type !== ''}
            search={<Input.Search allowClear placeholder={t('devices.search')} value={q} onChange={(e) => setQ(e.target.value)} style={{ width: 220 }} />}
            actions={[
              <Popconfirm key="batch-delete" title={t('devices.batchDeleteConfirm', { count: selected.length })} onConfirm={removeSelected} disabled={!selected.length}>
                <Button danger icon={<DeleteOutlined />} disabled={!selected.length}>
                  {t('devices.batchDelete')}
                </Button>
              </Popconfirm>,
            ]}
            primary={{ label: t('devices.add'), icon: <PlusOutlined />, onClick: () => navigate('/device/form/0') }}
          />
        }
      />
      <Card>
        <ListTable<DeviceRow>
          rowKey="DeviceID"
          size="middle"
          loading={list.isFetching}
          dataSource={list.data?.Devices ?? []}
          scroll={{ x: 1000 }}
          // Ticks survive paging: removing 200 of a site's cameras is ticking ten pages and one
          // delete (each page's ticks replaced the last page's, so it was ten rounds of delete).
          rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: (keys) => setSelected(keys as string[]) }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total: list.data?.TotalCount ?? 0, showSizeChanger: false, onChange: setPage }}
          columns={[
            // A GB28181 ID's 20 digits on one line (in the table's share of 1440 px they broke in two).
            { title: t('devices.id'), dataIndex: 'DeviceID', width: 200 },
            { title: t('devices.name'), dataIndex: 'DeviceName' },
            { title: t('devices.type'), dataIndex: 'DeviceType' },
            {
              title: t('devices.address'),
              key: 'address',
              render: (_, d) => (d.DeviceIp ? `${d.DeviceIp}:${d.DevicePort}` : '-'),
            },
            { title: t('devices.manufacturer'), dataIndex: 'Manufacturer' },
            {
              title: t('devices.online'),
              dataIndex: 'Online',
              render: (v: number) => <Badge status={v === 1 ? 'success' : 'default'} text={v === 1 ? t('devices.onlineYes') : t('devices.onlineNo')} />,
            },
            {
              title: t('devices.channels'),
              key: 'channels',
              render: (_, d) => (
                <Tag color={d.onlineChannelNums > 0 ? 'green' : undefined} data-testid="channel-count">
                  {d.onlineChannelNums}/{d.ChannelNum}
                </Tag>
              ),
            },
            {
              title: t('devices.enable'),
              dataIndex: 'Enable',
              render: (v: number) => (v === 1 ? <Tag color="green">{t('common.enabled')}</Tag> : <Tag>{t('common.disabled')}</Tag>),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              fixed: 'right',
              // One line: 通道, 编辑, 删除 and a GB28181 device's "…" (GbDeviceActions). Kept on one
              // line (no wrap): on a phone the pinned column takes their width.
              width: 180,
              render: (_, d) => (
                <Space size={0}>
                  <Button type="link" size="small" onClick={() => navigate(channelListPath(d.DeviceID, d.DeviceName, d.DeviceType))}>
                    {t('devices.channelAction')}
                  </Button>
                  <Button type="link" size="small" onClick={() => navigate(`/device/form/${encodeURIComponent(d.DeviceID)}?deviceName=${encodeURIComponent(d.DeviceName)}`)}>
                    {t('common.edit')}
                  </Button>
                  <Popconfirm title={t('devices.deleteConfirm', { name: d.DeviceName })} onConfirm={() => remove(d)}>
                    <Button type="link" size="small" danger>
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                  {d.DeviceType === 'GB28181' && <GbDeviceActions device={d} onChanged={() => void list.refetch()} />}
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
