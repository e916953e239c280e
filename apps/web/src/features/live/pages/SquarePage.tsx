/**
 * /video/square/:devid — the channels of a device (devid 0: the favourites, or every channel) as a
 * light grid of cards; a click opens the player page of an online channel.
 */
import { useState } from 'react';
import { Badge, Card, Col, Empty, Input, Row, Segmented, Spin, Typography } from 'antd';
import { PlayCircleOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { ChannelRow } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { useDebounced } from '../../../lib/useDebounced';
import { fetchAllChannels, fetchDeviceChannels, fetchFavoriteChannels } from '../api';

const PAGE = 60;

function ChannelCard({ c, onOpen }: { c: ChannelRow; onOpen: () => void }) {
  const { t } = useTranslation();
  const online = c.Online === 1 && c.Enable === 1;
  return (
    <Card
      hoverable={online}
      size="small"
      onClick={online ? onOpen : undefined}
      data-testid="square-channel"
      cover={
        <div
          style={{
            aspectRatio: '16 / 9',
            background: online ? '#1f1f1f' : '#8c8c8c',
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            color: '#fff',
            fontSize: 32,
            cursor: online ? 'pointer' : 'default',
          }}
        >
          <PlayCircleOutlined style={{ opacity: online ? 0.9 : 0.4 }} />
        </div>
      }
    >
      <Card.Meta
        title={<Typography.Text ellipsis={{ tooltip: c.Name }}>{c.Name}</Typography.Text>}
        description={
          <Badge status={c.Online === 1 ? 'success' : 'default'} text={`${c.Online === 1 ? t('live.online') : t('live.offline')} · ${c.DeviceName}`} />
        }
      />
    </Card>
  );
}

export default function SquarePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { devid = '0' } = useParams();
  const [source, setSource] = useState<'fav' | 'all'>('fav');
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const isDevice = devid !== '0';

  const list = useQuery({
    queryKey: ['live', 'square', devid, source, query],
    queryFn: async () => {
      if (isDevice) return (await fetchDeviceChannels(devid)).Channels.filter((c) => c.Parental !== 1);
      if (source === 'fav') return (await fetchFavoriteChannels(0, 9999)).Channels;
      return (await fetchAllChannels(query, 0, PAGE)).Channels.filter((c) => c.Parental !== 1);
    },
  });
  const rows = (list.data ?? []).filter((c) => !query || source === 'all' || c.Name.toLowerCase().includes(query.toLowerCase()));
  const title = isDevice ? (list.data?.[0]?.DeviceName ?? t('route.videoSquare')) : t('route.videoSquare');

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
            <Input.Search allowClear style={{ width: 240 }} placeholder={t('live.square.search')} value={q} onChange={(e) => setQ(e.target.value)} />
          </>
        }
      />
      <Spin spinning={list.isLoading}>
        {rows.length ? (
          <Row gutter={[12, 12]}>
            {rows.map((c) => (
              <Col key={`${c.ParentDeviceID}/${c.ChannelID}`} xs={12} sm={8} md={6} xl={4}>
                <ChannelCard
                  c={c}
                  onOpen={() => navigate(`/video/player/${encodeURIComponent(c.ParentDeviceID)}/${encodeURIComponent(c.ChannelID)}/0`)}
                />
              </Col>
            ))}
          </Row>
        ) : (
          !list.isLoading && (
            <Empty description={!isDevice && source === 'fav' ? t('live.square.noFavourites') : t('live.square.empty')} />
          )
        )}
      </Spin>
    </div>
  );
}
