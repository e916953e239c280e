/**
 * /alarm/list: protocol alarms (GB28181). Filters by alarm type (spec 3 table), time range and
 * device; paging of 20 (spec 9); delete, batch delete and clear, each after a confirmation; the
 * snapshot taken at alarm time as a thumbnail. New alarms arrive on the events socket (topic
 * 'alarm') and reload the list, at most once a second during a burst.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Badge, Button, Card, DatePicker, Image, Popconfirm, Select, Space, Tag, Typography } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { ListToolbar } from '../../../components/ListToolbar';
import { usePhone } from '../../../components/usePhone';
import { phonePickerProps } from '../../../components/phonePicker';
import { ClearOutlined, DeleteOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import dayjs, { type Dayjs } from 'dayjs';
import { ALARM_METHODS, ALARM_PRIORITIES, ALARM_TYPES, PAGE_SIZE, alarmTypeLabel, type AlarmItem } from '@opencvr/shared';
import { DeviceSelect } from '../../../components/DeviceSelect';
import { PageTitle } from '../../../components/PageTitle';
import { currentLang } from '../../../i18n';
import { fetchDeviceConfigs } from '../../../lib/api/inventory';
import { runAction } from '../../../lib/runAction';
import { formatDateTime } from '../../../lib/time';
import { useSession } from '../../../lib/stores/session';
import { useWsStore, useWsTopic } from '../../../lib/ws';
import { clearAlarms, deleteAlarms, EMPTY_FILTER, fetchAlarms, snapshotSrc, type AlarmFilter } from '../api';

const STAMP = 'YYYYMMDDHHmmss';
/** Bursts of pushed alarms reload the list at most this often. */
const RELOAD_THROTTLE_MS = 1000;
const PRIORITY_COLOURS = ['default', 'red', 'orange', 'gold', 'blue'];

const labelOf = (list: readonly { value: number; zh: string; en: string }[], v: number, en: boolean) => {
  const item = list.find((x) => x.value === v);
  return item ? (en ? item.en : item.zh) : v ? String(v) : '-';
};

export default function AlarmListPage() {
  const { t } = useTranslation();
  const phone = usePhone();
  const en = currentLang() === 'en-US';
  const token = useSession((s) => s.token);
  const connected = useWsStore((s) => s.connected);
  const [filter, setFilter] = useState<AlarmFilter>(EMPTY_FILTER);
  const [range, setRange] = useState<[Dayjs | null, Dayjs | null] | null>(null);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<number[]>([]);

  const list = useQuery({
    queryKey: ['alarms', filter, page],
    queryFn: () => fetchAlarms(filter, (page - 1) * PAGE_SIZE, PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
  const rows = list.data?.Alarms ?? [];
  const total = list.data?.Total ?? 0;

  useEffect(() => setSelected([]), [filter, page]);
  useEffect(() => {
    if (list.data && !rows.length && page > 1) setPage(Math.max(1, Math.ceil(total / PAGE_SIZE)));
  }, [list.data, rows.length, page, total]);

  // Live pushes: reload, throttled so an alarm storm costs one request a second.
  const reloadTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const refetch = list.refetch;
  useWsTopic('alarm', () => {
    if (reloadTimer.current) return;
    reloadTimer.current = setTimeout(() => {
      reloadTimer.current = null;
      void refetch();
    }, RELOAD_THROTTLE_MS);
  });
  useEffect(() => () => {
    if (reloadTimer.current) clearTimeout(reloadTimer.current);
  }, []);

  const apply = (patch: Partial<AlarmFilter>) => {
    setFilter((f) => ({ ...f, ...patch }));
    setPage(1);
  };
  const reset = () => {
    setRange(null);
    setFilter(EMPTY_FILTER);
    setPage(1);
  };
  const filtered = filter.type !== 0 || !!filter.starttime || !!filter.endtime || !!filter.device;

  const remove = async (ids: number[]) => {
    if (await runAction(() => deleteAlarms(ids))) {
      setSelected([]);
      void list.refetch();
    }
  };
  const clear = async () => {
    if (await runAction(() => clearAlarms(filter))) void list.refetch();
  };

  const typeOptions = useMemo(() => ALARM_TYPES.map((a) => ({ value: a.value, label: en ? a.en : a.zh })), [en]);

  // The list's filters: in a card of their own on a desktop, behind the toolbar's toggle on a phone.
  const filters = [
    <Select
      key="type"
      aria-label={t('protocolAlarm.type')}
      data-testid="alarm-type"
      style={{ width: 200 }}
      value={filter.type}
      options={typeOptions}
      onChange={(type: number) => apply({ type })}
    />,
    <DatePicker.RangePicker
      key="range"
      showTime
      {...(phone ? phonePickerProps : {})}
      value={range}
      onChange={(v) => {
        setRange(v as [Dayjs | null, Dayjs | null] | null);
        apply({ starttime: v?.[0] ? v[0].format(STAMP) : '', endtime: v?.[1] ? v[1].format(STAMP) : '' });
      }}
      presets={[
        { label: t('protocolAlarm.today'), value: [dayjs().startOf('day'), dayjs().endOf('day')] },
        { label: t('protocolAlarm.last7'), value: [dayjs().subtract(6, 'day').startOf('day'), dayjs().endOf('day')] },
      ]}
    />,
    <DeviceSelect
      key="device"
      aria-label={t('protocolAlarm.device')}
      data-testid="alarm-device"
      style={{ width: 260 }}
      queryKey="alarm-devices"
      fetchPage={(q, limit) => fetchDeviceConfigs({ start: 0, limit, q })}
      emptyOption={t('protocolAlarm.allDevices')}
      value={filter.device}
      onChange={(device) => apply({ device })}
    />,
    <Button key="reset" onClick={reset} disabled={!filtered}>
      {t('protocolAlarm.reset')}
    </Button>,
  ];

  return (
    <div style={{ padding: 16 }}>
      <PageTitle
        title={t('route.alarmList')}
        extra={
          <ListToolbar
            leading={<Badge status={connected ? 'processing' : 'default'} text={t('protocolAlarm.live')} />}
            filters={phone ? filters : undefined}
            filtered={filtered}
            actions={[
              <Popconfirm key="batch-delete" title={t('protocolAlarm.batchDeleteConfirm', { n: selected.length })} onConfirm={() => void remove(selected)} disabled={!selected.length}>
                <Button danger icon={<DeleteOutlined />} disabled={!selected.length}>
                  {t('protocolAlarm.batchDelete')}
                </Button>
              </Popconfirm>,
              <Popconfirm key="clear" title={t(filtered ? 'protocolAlarm.clearFilteredConfirm' : 'protocolAlarm.clearConfirm')} onConfirm={() => void clear()} disabled={!total}>
                <Button danger type="primary" icon={<ClearOutlined />} disabled={!total} data-testid="alarm-clear">
                  {t('protocolAlarm.clear')}
                </Button>
              </Popconfirm>,
            ]}
          />
        }
      />
      {/* On a phone the filters open from the toolbar: in their own card they took four rows above the list. */}
      {!phone && (
        <Card style={{ marginBottom: 12 }} styles={{ body: { paddingBottom: 12 } }}>
          <Space wrap>{filters}</Space>
        </Card>
      )}
      <Card>
        <ListTable<AlarmItem>
          rowKey="ID"
          size="middle"
          loading={list.isFetching}
          dataSource={rows}
          scroll={{ x: 1100 }}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(Number)) }}
          pagination={{ current: page, pageSize: PAGE_SIZE, total, showSizeChanger: false, onChange: setPage }}
          columns={[
            {
              title: t('protocolAlarm.snapshot'),
              dataIndex: 'Snapshot',
              width: 96,
              render: (url: string) =>
                url ? <Image src={snapshotSrc(url, token)} width={72} height={48} style={{ objectFit: 'cover' }} alt={t('protocolAlarm.snapshot')} /> : <Typography.Text type="secondary">{t('protocolAlarm.noSnapshot')}</Typography.Text>,
            },
            { title: t('protocolAlarm.time'), dataIndex: 'AlarmTime', width: 180, render: (v: string) => formatDateTime(v) },
            { title: t('protocolAlarm.type'), dataIndex: 'AlarmType', render: (v: number) => <Tag color={v ? 'volcano' : 'default'}>{alarmTypeLabel(v, en ? 'en-US' : 'zh-CN')}</Tag> },
            { title: t('protocolAlarm.priority'), dataIndex: 'AlarmPriority', render: (v: number) => <Tag color={PRIORITY_COLOURS[v] ?? 'default'}>{labelOf(ALARM_PRIORITIES, v, en)}</Tag> },
            { title: t('protocolAlarm.method'), dataIndex: 'AlarmMethod', render: (v: number) => labelOf(ALARM_METHODS, v, en) },
            {
              title: t('protocolAlarm.device'),
              dataIndex: 'DeviceID',
              render: (v: string, row) => (
                <Space orientation="vertical" size={0}>
                  {row.DeviceName && <span>{row.DeviceName}</span>}
                  <Typography.Text type="secondary" copyable={{ text: v }}>{v}</Typography.Text>
                </Space>
              ),
            },
            {
              title: t('protocolAlarm.channel'),
              dataIndex: 'ChannelID',
              render: (v: string, row) => (
                <Space orientation="vertical" size={0}>
                  {row.ChannelName && <span>{row.ChannelName}</span>}
                  <Typography.Text type="secondary">{v || '-'}</Typography.Text>
                </Space>
              ),
            },
            { title: t('protocolAlarm.description'), dataIndex: 'AlarmDescription', ellipsis: true },
            {
              title: t('protocolAlarm.position'),
              key: 'position',
              render: (_, row) => (row.Longitude !== null && row.Latitude !== null ? `${row.Longitude.toFixed(6)}, ${row.Latitude.toFixed(6)}` : '-'),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              fixed: 'right',
              render: (_, row) => (
                <Popconfirm title={t('protocolAlarm.deleteConfirm')} onConfirm={() => void remove([row.ID])}>
                  <Button type="link" size="small" danger>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
