/**
 * A plan's channels in the plan form: a paged, filterable table. A plan often holds every camera of a
 * site ("record everything, always"): a tag per channel froze the page at 1,500 of them, so only a
 * page is rendered, and whether each channel's own recording switch is on comes with the plan
 * (recordplaninfo's EnableRecord) or from the picker, not from a request per device.
 */
import { useMemo, useState } from 'react';
import { Button, Input, Space, Tag, Typography } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { PlanChannel } from '../api';

/** More than this many channels get a filter box. */
const FILTER_FROM = 10;
const PAGE_SIZE = 10;

export const recordOff = (c: PlanChannel) => c.EnableRecord === 0;

interface Props {
  channels: PlanChannel[];
  onChange(channels: PlanChannel[]): void;
  onPick(): void;
}

export function PlanChannelsTable({ channels, onChange, onPick }: Props) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState('');
  const [page, setPage] = useState(1);
  const shown = useMemo(() => {
    const q = filter.trim().toLowerCase();
    if (!q) return channels;
    return channels.filter((c) => [c.Name, c.DeviceName ?? '', c.DeviceID, c.ChannelID, c.id].some((s) => s.toLowerCase().includes(q)));
  }, [channels, filter]);
  const off = useMemo(() => channels.filter(recordOff).length, [channels]);
  const remove = (gone: (c: PlanChannel) => boolean) => onChange(channels.filter((c) => !gone(c)));

  return (
    <div data-testid="plan-channels">
      <Space wrap style={{ marginBottom: channels.length ? 8 : 0 }}>
        <Button size="small" icon={<PlusOutlined />} onClick={onPick}>
          {t('recording.pickChannels')}
        </Button>
        {channels.length === 0 ? (
          <Typography.Text type="secondary">{t('recording.noChannels')}</Typography.Text>
        ) : (
          <>
            <Typography.Text data-testid="plan-channel-count">
              {t('recording.channelsPicked', { count: channels.length })}
              {off > 0 && <Typography.Text type="warning">{` · ${t('recording.channelsRecordOff', { count: off })}`}</Typography.Text>}
            </Typography.Text>
            {channels.length > FILTER_FROM && (
              <Input.Search
                size="small"
                allowClear
                placeholder={t('recording.filterChannels')}
                value={filter}
                onChange={(e) => {
                  setFilter(e.target.value);
                  setPage(1);
                }}
                style={{ width: 220 }}
              />
            )}
            <Button
              size="small"
              danger
              type="link"
              onClick={() => {
                if (!filter.trim()) return onChange([]);
                // A set: the filter may match most of 1,500 channels.
                const gone = new Set(shown);
                remove((c) => gone.has(c));
              }}
            >
              {filter.trim() ? t('recording.removeShown') : t('recording.removeAll')}
            </Button>
          </>
        )}
      </Space>
      {channels.length > 0 && (
        <ListTable<PlanChannel>
          size="small"
          rowKey="id"
          dataSource={shown}
          pagination={{ current: page, pageSize: PAGE_SIZE, onChange: setPage, hideOnSinglePage: true, showSizeChanger: false, size: 'small' }}
          columns={[
            { title: t('recording.channelName'), key: 'name', render: (_, c) => c.Name || c.ChannelID },
            { title: t('recording.channelDevice'), key: 'device', render: (_, c) => c.DeviceName || c.DeviceID },
            { title: t('recording.channelRef'), key: 'ref', render: (_, c) => `${c.DeviceID}:${c.ChannelID}` },
            {
              title: t('recording.channelRecord'),
              key: 'record',
              render: (_, c) => (recordOff(c) ? <Tag color="warning">{t('recording.recordOff')}</Tag> : c.EnableRecord === 1 ? <Tag color="success">{t('recording.recordOn')}</Tag> : null),
            },
            {
              title: t('common.actions'),
              key: 'actions',
              width: 80,
              render: (_, c) => (
                <Typography.Link type="danger" onClick={() => remove((x) => x.id === c.id)} aria-label={`${t('recording.remove')} ${c.Name || c.ChannelID}`}>
                  {t('recording.remove')}
                </Typography.Link>
              ),
            },
          ]}
        />
      )}
    </div>
  );
}
