/**
 * /players/:devid/:chnid/:flow and /share/:devid/:chnid/:flow — public live pages (no login, no
 * console frame). The play_token of the query opens the stream through share/channelstream; an
 * expired or bad token shows the server's message instead of a player, and a page left open stops
 * playing when its link expires (the stream answer's ExpiresAt). The same token lets its player hear
 * the camera's state (ws/share/streamstat), which HLS and WebRTC media do not carry. A stream the
 * server refuses while the page is open (the channel or its device deleted: 通道 x/y不存在) ends the
 * page as a refused link does: the server's words instead of the player, and nothing asked again.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Result, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router-dom';
import type { StreamAnswer } from '../../../components/player/api';
import { LivePlayer, type PlayerStats } from '../../../components/player/LivePlayer';
import { msg } from '../../../i18n';
import { openSharedStream } from '../api';

/** setTimeout's longest delay (about 24.8 days); a later expiry is waited for in such steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** True from `expiresAt` (epoch seconds) on; false while it is unknown. */
function useExpired(expiresAt: number | undefined): boolean {
  const [expired, setExpired] = useState(false);
  const [recheck, setRecheck] = useState(0);
  useEffect(() => {
    setExpired(false);
    if (!expiresAt) return;
    const left = expiresAt * 1000 - Date.now();
    if (left <= 0) {
      setExpired(true);
      return;
    }
    const timer = setTimeout(() => setRecheck((n) => n + 1), Math.min(left, MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }, [expiresAt, recheck]);
  return expired;
}

export function SharedPlayerView({ device, channel, flow, token }: { device: string; channel: string; flow: number; token: string }) {
  const { t } = useTranslation();
  /**
   * The page's own answer, handed to its player for its first connect: the player asked for the same
   * again, and every public page opened the stream twice (share/channelstream, two play tokens).
   * Reconnects and the player's 重试 ask anew.
   */
  const handed = useRef<StreamAnswer | undefined>(undefined);
  const first = useQuery({
    queryKey: ['live', 'shared', device, channel, flow, token],
    queryFn: async () => (handed.current = await openSharedStream(device, channel, flow, token)),
    enabled: !!token,
    retry: false,
    // Asked once for the page's life (no refetch to hand over late); a page opened again asks afresh.
    staleTime: Infinity,
    gcTime: 0,
  });
  const open = useCallback(() => {
    const answer = handed.current;
    handed.current = undefined;
    return answer ? Promise.resolve(answer) : openSharedStream(device, channel, flow, token);
  }, [device, channel, flow, token]);
  /** Why the server refused the stream after the page opened (its player gave up). */
  const [refused, setRefused] = useState('');
  const onStats = useCallback((s: PlayerStats) => {
    if (s.phase === 'error' && s.refused) setRefused(s.reason);
  }, []);
  const name = first.data?.Name ?? '';
  // The link's validity covers watching too: without this a page opened in time played on for ever.
  const expired = useExpired(first.data?.ExpiresAt);
  useEffect(() => {
    if (name) document.title = name;
  }, [name]);

  if (!token) return <Result status="warning" title={t('live.publicPage.noToken')} data-testid="share-error" />;
  if (first.isLoading) return <Spin style={{ display: 'block', margin: '20vh auto' }} />;
  if (expired) {
    return <Result status="error" title={<span data-testid="share-error">{msg('shareExpired')}</span>} subTitle={t('live.publicPage.failed')} />;
  }
  if (first.isError || refused) {
    return (
      <Result
        status="error"
        title={<span data-testid="share-error">{refused || (first.error as Error).message}</span>}
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
        <LivePlayer device={device} channel={channel} flow={flow} name={name || channel} open={open} shareToken={token} ptz={false} onStats={onStats} />
      </div>
    </div>
  );
}

export default function SharedPlayerPage() {
  const { devid = '', chnid = '', flow = '0' } = useParams();
  const [search] = useSearchParams();
  return <SharedPlayerView device={devid} channel={chnid} flow={flow === '1' ? 1 : 0} token={search.get('play_token') ?? ''} />;
}
