/**
 * A channel's card in the video square: its last picture, name, state and device. The picture is the
 * thumbnail the server keeps (it never opens a stream for it), loaded only when the card scrolls into
 * view; an offline channel shows its last picture dimmed and marked offline, a channel that is not
 * enabled (itself or its device: the server would refuse both play and picture, so neither is
 * asked) or has no picture yet keeps the grey placeholder with a play icon. The server makes pictures
 * only for cards that ask (services/media/thumbnails.ts): an online channel's first ask is a 404 that
 * puts it in line, so the card asks again a few times, 2, 4 and 8 s later. After that an online card
 * keeps asking every 2 min while the page is visible (useThumbRefresh), so a square left open shows
 * new pictures, and a channel whose stream started later gets one.
 */
import { useCallback, useEffect, useState } from 'react';
import { Badge, Card, Tag, Typography } from 'antd';
import { PlayCircleOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { ChannelRow } from '@opencvr/shared';
import { isEnabled } from '../../../lib/channelClick';
import { useSession } from '../../../lib/stores/session';
import { channelThumbUrl } from '../thumbnail';
import { useThumbRefresh } from '../useThumbRefresh';

type CardState = 'online' | 'offline' | 'disabled';

/** Asks again after a 404 of an online channel: its picture is being made from its running stream. */
const RETRY_MS = [2000, 4000, 8000];

function Thumbnail({ c, state, slot }: { c: ChannelRow; state: CardState; slot: number }) {
  const token = useSession((s) => s.token);
  const { t } = useTranslation();
  // 'none': no picture (404, not allowed, not an image): the placeholder stays, no broken-image icon.
  const [picture, setPicture] = useState<'loading' | 'shown' | 'none' | 'waiting'>('loading');
  const [attempt, setAttempt] = useState(0);
  const playable = state === 'online';
  const wanted = state !== 'disabled' && (picture === 'loading' || picture === 'shown');
  const url = channelThumbUrl(c.ParentDeviceID, c.ChannelID, token) + (attempt ? `&try=${attempt}` : '');
  // A newer picture than the one the <img> first loaded (an object URL, let go when replaced).
  const [fresh, setFresh] = useState<string>();
  useEffect(() => (fresh ? () => URL.revokeObjectURL(fresh) : undefined), [fresh]);
  const newer = useCallback((objectUrl: string) => {
    setFresh(objectUrl);
    setPicture((p) => (p === 'shown' ? p : 'loading'));
  }, []);
  useThumbRefresh(playable && (picture === 'shown' || picture === 'none') ? url : undefined, slot, newer);
  useEffect(() => {
    if (picture !== 'waiting') return;
    const timer = setTimeout(() => {
      setAttempt((a) => a + 1);
      setPicture('loading');
    }, RETRY_MS[attempt]);
    return () => clearTimeout(timer);
  }, [picture, attempt]);
  return (
    <div
      style={{
        position: 'relative',
        aspectRatio: '16 / 9',
        overflow: 'hidden',
        background: playable ? '#1f1f1f' : '#8c8c8c',
        display: 'flex',
        alignItems: 'center',
        justifyContent: 'center',
        color: '#fff',
        fontSize: 32,
      }}
    >
      {picture !== 'shown' && <PlayCircleOutlined style={{ opacity: playable ? 0.9 : 0.4 }} />}
      {wanted && (
        <img
          data-testid="square-thumb"
          data-picture={picture}
          src={fresh ?? url}
          alt=""
          // Only the cards in view ask for their picture; hidden (not removed) until it has loaded so
          // the browser still sees where it is.
          loading="lazy"
          decoding="async"
          onLoad={() => setPicture('shown')}
          onError={() => setPicture(playable && attempt < RETRY_MS.length ? 'waiting' : 'none')}
          style={{
            position: 'absolute',
            inset: 0,
            width: '100%',
            height: '100%',
            objectFit: 'cover',
            opacity: picture !== 'shown' ? 0 : playable ? 1 : 0.55,
            filter: playable ? undefined : 'grayscale(1)',
          }}
        />
      )}
      {picture === 'shown' && !playable && (
        <Tag style={{ position: 'absolute', top: 6, left: 6, margin: 0 }}>{t('live.offline')}</Tag>
      )}
    </div>
  );
}

/** `slot`: the card's place on the page, which spreads the cards' picture refreshes over time. */
export function ChannelCard({ c, slot = 0, onOpen }: { c: ChannelRow; slot?: number; onOpen: () => void }) {
  const { t } = useTranslation();
  const state: CardState = !isEnabled(c) ? 'disabled' : c.Online === 1 ? 'online' : 'offline';
  const [status, label] =
    state === 'disabled'
      ? (['warning', t(c.Enable === 1 ? 'live.square.deviceDisabled' : 'live.square.disabled')] as const)
      : state === 'online'
        ? (['success', t('live.online')] as const)
        : (['default', t('live.offline')] as const);
  return (
    <Card
      hoverable={state === 'online'}
      size="small"
      onClick={onOpen}
      onKeyDown={(e) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          onOpen();
        }
      }}
      role="button"
      tabIndex={0}
      aria-label={`${c.Name} · ${label}`}
      data-testid="square-channel"
      data-state={state}
      style={{ cursor: 'pointer' }}
      // A new state starts the picture again: a channel back on line may have one by now.
      cover={<Thumbnail key={state} c={c} state={state} slot={slot} />}
    >
      <Card.Meta
        title={<Typography.Text ellipsis={{ tooltip: c.Name }}>{c.Name}</Typography.Text>}
        description={<Badge status={status} text={`${label} · ${c.DeviceName}`} />}
      />
    </Card>
  );
}
