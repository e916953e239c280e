/**
 * /video/backlist/:devid: pick a device (devid 0: the list of devices) and one of its channels; a
 * channel opens /video/backchannel/{devid}/{chnid}/{today}. Channels with recordings today are
 * tagged; a GB28181 channel also opens its recordings kept on the device. The device's cameras are
 * searched by name or ID on the server (an NVR's 500 are 25 pages). A channel's name and a recorded
 * channel's tag are links to its recordings: a keyboard reaches them (a row and a tag took only a
 * click), and a middle click opens one in a tab of its own. A device from the address the server
 * does not list to the user (gone, mistyped, or not the user's) says so, not 暂无数据 under its ID.
 * Both paged lists say their total as the square does (共 N 个通道; the issue 5 walk, session 26).
 */
import { useState } from 'react';
import { Button, Card, Empty, Flex, Input, Pagination, Tag, Typography } from 'antd';
import { ACTIONS_KEY, ListTable } from '../../../components/ListTable';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import type { ChannelRow } from '@opencvr/shared';
import { DeviceSelect } from '../../../components/DeviceSelect';
import { PageTitle } from '../../../components/PageTitle';
import { useDebounced } from '../../../lib/useDebounced';
import { fetchCameras, fetchDeviceById, fetchDevices, fetchRecordedChannels } from '../api';
import { today } from '../day';
import { backchannelPath, backlistPath, withSource } from '../paths';
import { deviceSourceAvailable } from '../source';

/** The channels recorded today, as tags: a page of them (a site records all its cameras: 1,500 tags). */
const RECORDED_PAGE = 50;
/** The device's channels, a page at a time. */
const CHANNEL_PAGE = 20;

export default function BacklistPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { devid = '0' } = useParams();
  const device = devid === '0' ? '' : devid;
  const day = today();

  // An NVR has hundreds of channels: the server pages them (limit 9999 read 500 channels, 350 KB,
  // for a table of 20), cameras only whatever folder they sit under (a GB NVR's folders), matching the
  // search. Page 1 again for another device or search.
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const listing = `${device}|${query}`;
  const [paging, setPaging] = useState({ listing, page: 1 });
  const chPage = paging.listing === listing ? paging.page : 1;
  const channels = useQuery({
    queryKey: ['playback', 'cameras', device, query, chPage],
    queryFn: () => fetchCameras(device, query, (chPage - 1) * CHANNEL_PAGE, CHANNEL_PAGE),
    enabled: !!device,
    placeholderData: keepPreviousData,
  });
  // A device's recorded channels mark its rows; without a device, the site's are tags, a page of them
  // from the server (a site recording every camera answered all 1,500 for 50 tags).
  const [tagPage, setTagPage] = useState(1);
  const recorded = useQuery({
    queryKey: ['playback', 'recorded', device, day, device ? 0 : tagPage],
    queryFn: () => (device ? fetchRecordedChannels(day, device) : fetchRecordedChannels(day, undefined, (tagPage - 1) * RECORDED_PAGE, RECORDED_PAGE)),
    // The last page's tags while the next comes, never another device's channels.
    placeholderData: (prev, prevQuery) => (prevQuery?.queryKey[2] === device ? prev : undefined),
  });
  const has = new Set((recorded.data?.Channels ?? []).map((c) => c.id));
  // The device of the address the picker could not find: said so when its channel list (which answers
  // any ID) is empty too, instead of 暂无数据 under its ID.
  const [missing, setMissing] = useState<string | undefined>(undefined);
  const deviceMissing = !!device && missing === device && channels.isSuccess && !channels.isPlaceholderData && channels.data.ChannelCount === 0;

  return (
    <div style={{ padding: 16 }}>
      <PageTitle title={t('route.videoBacklist')} />
      <Card>
        <Flex gap={12} align="center" wrap style={{ marginBottom: 12 }}>
          <Typography.Text>{t('playback.device')}</Typography.Text>
          <DeviceSelect
            data-testid="backlist-device"
            style={{ minWidth: 280 }}
            placeholder={t('playback.pickDevice')}
            queryKey="playback"
            fetchPage={(q, limit) => fetchDevices(0, limit, q)}
            fetchOne={fetchDeviceById}
            value={device || undefined}
            onChange={(v) => navigate(backlistPath(v))}
            onResolve={(found) => setMissing(found ? undefined : device)}
          />
          {device && !deviceMissing && (
            <Input.Search
              data-testid="backlist-search"
              allowClear
              style={{ width: 260 }}
              placeholder={t('playback.searchCamera')}
              value={q}
              onChange={(e) => setQ(e.target.value)}
            />
          )}
        </Flex>
        {!device ? (
          <>
            <Empty description={t('playback.pickDeviceHint')} />
            {(recorded.data?.Channels.length ?? 0) > 0 && (
              <>
                <Typography.Title level={5}>{t('playback.recordedToday')}</Typography.Title>
                <Flex gap={8} wrap>
                  {recorded.data!.Channels.map((c) => (
                    <Tag key={c.id} color="blue">
                      <Link to={backchannelPath(c.DeviceID, c.ChannelID, day)}>{c.Name || c.id}</Link>
                    </Tag>
                  ))}
                </Flex>
                <Pagination
                  size="small"
                  align="end"
                  style={{ marginTop: 12 }}
                  current={tagPage}
                  pageSize={RECORDED_PAGE}
                  total={recorded.data!.Total}
                  hideOnSinglePage
                  showSizeChanger={false}
                  showTotal={(n) => t('playback.channelTotal', { n })}
                  onChange={setTagPage}
                />
              </>
            )}
          </>
        ) : deviceMissing ? (
          <Empty data-testid="backlist-device-missing" description={t('playback.deviceMissing', { id: device })} />
        ) : (
          <ListTable<ChannelRow>
            rowKey={(c) => `${c.ParentDeviceID}:${c.ChannelID}`}
            size="small"
            loading={channels.isFetching}
            dataSource={channels.data?.Channels}
            pagination={{
              current: chPage,
              pageSize: CHANNEL_PAGE,
              total: channels.data?.ChannelCount ?? 0,
              hideOnSinglePage: true,
              showSizeChanger: false,
              showTotal: (n) => t('playback.channelTotal', { n }),
              onChange: (page) => setPaging({ listing, page }),
            }}
            onRow={(c) => ({ onClick: () => navigate(backchannelPath(c.ParentDeviceID, c.ChannelID, day)), style: { cursor: 'pointer' } })}
            columns={[
              { title: t('playback.channelId'), dataIndex: 'ChannelID' },
              {
                title: t('playback.channelName'),
                dataIndex: 'Name',
                // The row's click, for the keyboard too (the link, not the row, takes the click here).
                render: (_, c) => (
                  <Link to={backchannelPath(c.ParentDeviceID, c.ChannelID, day)} onClick={(e) => e.stopPropagation()}>
                    {c.Name || c.ChannelID}
                  </Link>
                ),
              },
              {
                title: t('playback.recordToday'),
                render: (_, c) => (has.has(`${c.ParentDeviceID}:${c.ChannelID}`) ? <Tag color="green">{t('playback.hasRecord')}</Tag> : <Tag>{t('playback.noRecord')}</Tag>),
              },
              {
                title: t('playback.recordEnabled'),
                render: (_, c) => (c.EnableRecord === 1 ? t('common.yes') : t('common.no')),
              },
              {
                // "Today" is the platform's own recordings: an NVR's channel often has none there and
                // its recordings on the device, one click away. Only where a channel of the page can
                // have them: else the column stood blank beside every RTSP camera. The row's action:
                // keyed ACTIONS_KEY, pinned by ListTable on a phone as every list's actions are.
                title: t('common.actions'),
                key: ACTIONS_KEY,
                hidden: !channels.data?.Channels?.some((c) => deviceSourceAvailable(c.DeviceType)),
                render: (_, c) =>
                  deviceSourceAvailable(c.DeviceType) && (
                    <Button
                      size="small"
                      data-testid="backlist-device-records"
                      onClick={(e) => {
                        e.stopPropagation();
                        navigate(withSource(backchannelPath(c.ParentDeviceID, c.ChannelID, day), 'Device'));
                      }}
                    >
                      {t('gbDevice.recordsOnDevice')}
                    </Button>
                  ),
              },
            ]}
          />
        )}
      </Card>
    </div>
  );
}
