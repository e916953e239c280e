/**
 * /video/player/:devid/:chnid/:flow — one large live player with the channel's name, state, a share
 * link and the way to the channel's recordings (today's backchannel page; hidden with RecordVersion false).
 * A channel the user may not see (or that is gone, also one deleted while the page is open) gets the
 * route's name and none of these.
 */
import { useCallback, useEffect, useState } from 'react';
import { Button, Flex, Segmented, Space, Tag } from 'antd';
import { HistoryOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { hasPtz } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { LivePlayer, type PlayerStats } from '../../../components/player/LivePlayer';
import { todayYmd } from '../../../lib/channelClick';
import { recordVersionOf, useConfig } from '../../../lib/stores/config';
import { useWsTopic } from '../../../lib/ws';
import { fetchOneChannel } from '../../../lib/api/inventory';
import { ShareButton } from '../components/ShareButton';

export default function PlayerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { devid = '', chnid = '', flow: flowParam = '0' } = useParams();
  const flow = flowParam === '1' ? 1 : 0;
  const channel = useQuery({ queryKey: ['live', 'channel', devid, chnid], queryFn: () => fetchOneChannel(devid, chnid), enabled: !!devid && !!chnid });
  // The channel going off or on line arrives as a news message on the events socket (the bell's):
  // the tag follows it instead of keeping the state of the moment the page opened.
  useWsTopic('news', (item) => {
    if (item.DeviceID === devid && item.ChannelID === chnid) void channel.refetch();
  });
  // The channel as the server lists it to this user: absent while it loads, and for a channel outside
  // the user's role (or gone), where the player says 通道 x/y不存在. Until it is there the page is not
  // titled by the bare id and offers nothing that acts on the channel (share, main/sub, recordings,
  // manual recording, PTZ).
  // A channel deleted while the page is open: the player's stream call is refused (404) and the page
  // asks for the channel again, so it stops offering what acts on it.
  const key = `${devid}/${chnid}`;
  const [refusedKey, setRefusedKey] = useState('');
  const listed = !!channel.data;
  const onStats = useCallback(
    (s: PlayerStats) => {
      if (listed && s.phase === 'error' && s.refused === 404) setRefusedKey(key);
    },
    [key, listed],
  );
  const { refetch } = channel;
  useEffect(() => {
    if (refusedKey) void refetch();
  }, [refusedKey, refetch]);
  const info = channel.data ?? undefined;
  const name = info ? info.Name || chnid : undefined;
  const recordVersion = useConfig(recordVersionOf);

  return (
    <div style={{ padding: 16 }}>
      <PageTitle
        title={name ?? t('route.videoPlayer')}
        extra={
          info && (
            <Space wrap>
              <Tag color={info.Online === 1 ? 'success' : 'default'} data-testid="channel-online">
                {info.Online === 1 ? t('live.online') : t('live.offline')}
              </Tag>
              <Segmented
                value={flow}
                onChange={(v) => navigate(`/video/player/${encodeURIComponent(devid)}/${encodeURIComponent(chnid)}/${v}`)}
                options={[
                  { value: 0, label: t('live.mainStream') },
                  { value: 1, label: t('live.subStream') },
                ]}
              />
              {/* What an operator looks at next: this camera's recordings (it was the menu, the device list, then the channel). */}
              {recordVersion && (
                <Button icon={<HistoryOutlined />} data-testid="player-playback" onClick={() => navigate(`/video/backchannel/${encodeURIComponent(devid)}/${encodeURIComponent(chnid)}/${todayYmd()}`)}>
                  {t('route.videoBacklist')}
                </Button>
              )}
              <ShareButton device={devid} channel={chnid} flow={flow} />
            </Space>
          )
        }
      />
      <Flex justify="center">
        <div style={{ width: '100%', maxWidth: 'calc((100vh - 180px) * 16 / 9)', aspectRatio: '16 / 9' }}>
          <LivePlayer
            device={devid}
            channel={chnid}
            flow={flow}
            name={name}
            ptz={!!info && hasPtz(info)}
            record={!!info}
            onStats={onStats}
            // A channel that does not exist: back where the operator came from (the device list, a
            // tree), or to the wall when the page was opened by its address.
            leave={{ label: t('player.back'), onClick: () => (location.key !== 'default' ? navigate(-1) : navigate('/video/browse')) }}
          />
        </div>
      </Flex>
    </div>
  );
}
