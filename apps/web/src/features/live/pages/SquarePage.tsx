/**
 * /video/square/:devid — the channels of a device (devid 0: the favourites, or every channel) as a
 * light grid of cards, 20 to a page (spec 3 "Paging"). Each card says whether its channel is online,
 * offline or not enabled; a click opens the player of an online, enabled channel and otherwise says
 * 通道已离线! or 通道未开启! (spec 2 "Video pages"): the sidebar's rule, lib/channelClick. A card shows
 * the channel's last picture, which the server keeps (components/ChannelCard).
 */
import { useEffect, useRef, useState } from 'react';
import { Col, Empty, Input, Pagination, Row, Segmented, Spin } from 'antd';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { PAGE_SIZE, type ChannelRow } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useOpenChannel } from '../../../lib/channelClick';
import { useFavouritesVersion } from '../../../lib/favourites';
import { useDebounced } from '../../../lib/useDebounced';
import { NEWS_SETTLE_MS } from '../../../lib/newsSettle';
import { useWsTopic } from '../../../lib/ws';
import { fetchAllChannels, fetchDeviceCameras, fetchFavoriteChannels } from '../api';
import { ChannelCard } from '../components/ChannelCard';

export default function SquarePage() {
  const { t } = useTranslation();
  const openChannel = useOpenChannel();
  const { devid = '0' } = useParams();
  const [source, setSource] = useState<'fav' | 'all'>('fav');
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const isDevice = devid !== '0';
  // A star in the sidebar changes the favourites: their list is read again (it said 收藏夹为空 next
  // to the star just added).
  const favVersion = useFavouritesVersion((s) => s.version);

  // Every channel of a site is thousands, an NVR's hundreds, a user's favourites can be hundreds: the
  // server pages them, cameras only whatever folder they sit under, and matches the search (the
  // favourites were read whole, limit 9999, to be paged and searched here). Page 1 again whenever what
  // is listed changes (another device, source or search).
  const fav = !isDevice && source === 'fav';
  const listing = `${devid}|${source}|${query}`;
  const [paging, setPaging] = useState({ listing, page: 1 });
  const wanted = paging.listing === listing ? paging.page : 1;
  const list = useQuery({
    queryKey: ['live', 'square', devid, isDevice ? 'device' : source, query, fav ? favVersion : 0, wanted],
    queryFn: async (): Promise<{ rows: ChannelRow[]; total: number }> => {
      const start = (wanted - 1) * PAGE_SIZE;
      const p = isDevice
        ? await fetchDeviceCameras(devid, query, start, PAGE_SIZE)
        : fav
          ? await fetchFavoriteChannels(query, start, PAGE_SIZE)
          : await fetchAllChannels(query, start, PAGE_SIZE);
      return { rows: p.Channels, total: p.ChannelCount };
    },
    placeholderData: keepPreviousData,
  });
  const listed = list.data?.rows;
  // A listed channel going off or on line (a news message on the events socket) reads the list
  // again: the cards said 在线 for a camera that had been off line for minutes.
  // Messages come in bursts (a camera server lost: one per channel, 1,500 of them): one read after
  // the burst settles, not one per message (each cancelled the last and started the whole list again).
  const settle = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const refetch = list.refetch;
  useWsTopic('news', (item) => {
    if (!listed?.some((c) => c.ParentDeviceID === item.DeviceID && c.ChannelID === item.ChannelID)) return;
    clearTimeout(settle.current);
    settle.current = setTimeout(() => void refetch(), NEWS_SETTLE_MS);
  });
  useEffect(() => () => clearTimeout(settle.current), []);
  const shown = listed ?? [];
  const total = list.data?.total ?? 0;
  const lastPage = Math.max(1, Math.ceil(total / PAGE_SIZE));
  const page = Math.min(wanted, lastPage);
  // Fewer channels than when the page was chosen (some deleted, a star taken off): the server's last page instead.
  useEffect(() => {
    if (list.data && wanted > lastPage) setPaging({ listing, page: lastPage });
  }, [list.data, wanted, lastPage, listing]);
  const title = isDevice ? (listed?.[0]?.DeviceName ?? t('route.videoSquare')) : t('route.videoSquare');

  return (
    <div style={{ padding: 16 }}>
      <PageTitle
        title={title}
        extra={
          <>
            {!isDevice && (
              <Segmented
                value={source}
                onChange={(v) => setSource(v as 'fav' | 'all')}
                options={[
                  { value: 'fav', label: t('live.square.favourites') },
                  { value: 'all', label: t('live.square.all') },
                ]}
              />
            )}
            <Input.Search
              allowClear
              style={{ width: 240 }}
              placeholder={t('live.square.search')}
              value={q}
              onChange={(e) => setQ(e.target.value)}
            />
          </>
        }
      />
      <Spin spinning={list.isLoading}>
        {shown.length ? (
          <>
            <Row gutter={[12, 12]}>
              {shown.map((c, i) => (
                <Col key={`${c.ParentDeviceID}/${c.ChannelID}`} xs={12} sm={8} md={6} xl={4}>
                  <ChannelCard
                    c={c}
                    slot={i}
                    onOpen={() =>
                      openChannel({ DeviceID: c.ParentDeviceID, ChannelID: c.ChannelID, Online: c.Online, Enable: c.Enable, DeviceEnable: c.DeviceEnable })
                    }
                  />
                </Col>
              ))}
            </Row>
            <Pagination
              style={{ marginTop: 16 }}
              align="end"
              current={page}
              pageSize={PAGE_SIZE}
              total={total}
              showSizeChanger={false}
              hideOnSinglePage
              showTotal={(n) => t('live.square.total', { n })}
              onChange={(p) => setPaging({ listing, page: p })}
            />
          </>
        ) : (
          !list.isLoading && (
            <Empty
              description={!isDevice && source === 'fav' ? t('live.square.noFavourites') : t('live.square.empty')}
            />
          )
        )}
      </Spin>
    </div>
  );
}
