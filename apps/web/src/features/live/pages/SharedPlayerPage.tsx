/**
 * /players/:devid/:chnid/:flow and /share/:devid/:chnid/:flow — public live pages (no login, no
 * console frame). The play_token of the query opens the stream through share/channelstream; an
 * expired or bad token shows the server's message instead of a player.
 */
import { useCallback, useEffect } from 'react';
import { Result, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import { LivePlayer } from '../../../components/player/LivePlayer';
import { openSharedStream } from '../api';

export function SharedPlayerView({ device, channel, flow, token }: { device: string; channel: string; flow: number; token: string }) {
  const { t } = useTranslation();
  const first = useQuery({
    queryKey: ['live', 'shared', device, channel, flow, token],
    queryFn: () => openSharedStream(device, channel, flow, token),
    enabled: !!token,
    retry: false,
  });
  const open = useCallback(() => openSharedStream(device, channel, flow, token), [device, channel, flow, token]);
  const name = first.data?.Name ?? '';
  useEffect(() => {
    if (name) document.title = name;
  }, [name]);

  if (!token) return <Result status="warning" title={t('live.publicPage.noToken')} data-testid="share-error" />;
  if (first.isLoading) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  if (first.isError) {
    return (
      <Result
        status="error"
        title={<span data-testid="share-error">{(first.error as Error).message}</span>}
        subTitle={t('live.publicPage.failed')}
      />
    );
  }
  return (
    <div style={{ height: '100vh', display: 'flex', flexDirection: 'column', background: '#000' }}>
      {name && (
        <Typography.Text style={{ color: '#fff', padding: '6px 12px' }} data-testid="share-name">
          {name}
        </Typography.Text>
      )}
      <div style={{ flex: 1, minHeight: 0 }}>
        <LivePlayer device={device} channel={channel} flow={flow} name={name || channel} open={open} ptz={false} />
      </div>
    </div>
  );
}

export default function SharedPlayerPage() {
  const { devid = '', chnid = '', flow = '0' } = useParams();
  const [search] = useSearchParams();
  return <SharedPlayerView device={devid} channel={chnid} flow={flow === '1' ? 1 : 0} token={search.get('play_token') ?? ''} />;
}
