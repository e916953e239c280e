/**
 * The one live player (ARCHITECTURE habit 12): given a channel and a flow it asks the server for the
 * stream, plays it over the best transport this browser and server share (WS fMP4 → HLS → WebRTC/FLV),
 * reconnects with bounded back-off, and shows its state, codec, size and bitrate. Fullscreen,
 * snapshot, mute, manual recording (with a REC mark while the channel records) and a PTZ pad
 * (hidden on every route change) sit in its toolbar.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { Button, ConfigProvider, Dropdown, Spin, Tooltip, Typography } from 'antd';
import {
  AimOutlined,
  CameraOutlined,
  FullscreenExitOutlined,
  FullscreenOutlined,
  ReloadOutlined,
  SoundOutlined,
  MutedOutlined,
  SwapOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { NOTIFY_DURATION_MS } from '@opencvr/shared';
import { channelGone } from '../../lib/channelsGone';
import { formatBitrate } from '../../lib/format';
import { useSharedStreamState } from '../../lib/sharedStreamState';
import { recordVersionOf, useConfig } from '../../lib/stores/config';
import { useStreamStat } from '../../lib/streamStat';
import { keepChannelStream, openChannelStream, realtimeRecord, type StreamAnswer } from './api';
import { codecName } from './codecName';
import { useFreshStat } from './freshStat';
import { PtzPanel } from './PtzPanel';
import { reasonText } from './reasonText';
import { downloadSnapshot } from './snapshot';
import { isHevc, TRANSPORT_CHOICES, type TransportChoice } from './transport';
import { transportFrom, useStoredTransport } from './transportChoice';
import { FROZEN_AFTER_S, useLiveStream, type PlayerStats } from './useLiveStream';

export type { PlayerStats } from './useLiveStream';

export interface LivePlayerProps {
  device: string;
  channel: string;
  /** 0 main stream, 1 sub-stream. */
  flow: number;
  muted?: boolean;
  onStats?: (s: PlayerStats) => void;
  /** The channel's name: snapshot file names and the toolbar. */
  name?: string;
  /** Failures of the stream calls pass on without a notice (the browse page). */
  quiet?: boolean;
  /** Another way to get the stream (the public share pages); no keep-alive then. */
  open?: () => Promise<StreamAnswer>;
  /** Small tiles: toolbar on hover, no PTZ. */
  compact?: boolean;
  /** Offer the PTZ pad (not on the public pages: a visitor may not steer the camera). */
  ptz?: boolean;
  /** What to offer instead of Retry when the server says the channel does not exist (404: deleted,
   *  or never there): retrying cannot bring it back, leaving can (the page's back, a wall's remove). */
  leave?: { label: string; onClick: () => void };
  /**
   * A public page's shared-link play token (with `open`): the camera's state then comes over the
   * link's own status socket, there being no login for the console's.
   */
  shareToken?: string;
  /** Offer manual recording (default true; never on the public pages; not for a channel the user may not see). */
  record?: boolean;
  /** Extra toolbar content (e.g. a close button of a wall cell). */
  extra?: ReactNode;
  /** Play over this transport whatever the user chose (default: `?transport=`, else the stored choice). */
  transport?: TransportChoice;
  style?: CSSProperties;
}

export function LivePlayer({ device, channel, flow, muted = true, onStats, name, quiet, open, compact, ptz: ptzAllowed = true, leave, shareToken, record: recordAllowed = true, extra, transport, style }: LivePlayerProps) {
  const { t } = useTranslation();
  // A server without recording (RecordVersion false) hides playback and plans (spec 6): a recording
  // started here could be neither played nor planned, so the player offers none.
  const recordVersion = useConfig(recordVersionOf);
  const videoRef = useRef<HTMLVideoElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [isMuted, setMuted] = useState(muted);
  const [ptz, setPtz] = useState(false);
  const [fullscreen, setFullscreen] = useState(false);
  const [hover, setHover] = useState(false);
  /** The transport menu is open: its button's tooltip would cover the menu's first items. */
  const [transportMenu, setTransportMenu] = useState(false);
  const [notice, setNotice] = useState('');
  const { pathname, search } = useLocation();
  const [storedChoice, storeChoice] = useStoredTransport();
  const choice = transport ?? transportFrom(search, storedChoice);

  useEffect(() => setMuted(muted), [muted]);
  useEffect(() => {
    if (videoRef.current) videoRef.current.muted = isMuted;
  }, [isMuted]);
  // Spec 4: a route change hides the PTZ panel.
  useEffect(() => setPtz(false), [pathname]);
  // "No frame yet" stays for a notice's time (spec 9), not beside the playing video until the next snapshot.
  useEffect(() => {
    if (!notice) return;
    const timer = setTimeout(() => setNotice(''), NOTIFY_DURATION_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  useEffect(() => {
    const onChange = () => setFullscreen(document.fullscreenElement === boxRef.current);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);

  const target = useMemo(() => ({ device, channel, flow }), [device, channel, flow]);
  const opener = useCallback(() => (open ? open() : openChannelStream(target, quiet)), [open, target, quiet]);
  const keepalive = useMemo(() => (open ? undefined : () => keepChannelStream(target)), [open, target]);
  // The server's view of the stream (viewers, bitrate, state) over the streamstat socket; the public
  // pages have no session to open it with, and get the camera's state alone over their link's socket.
  const server = useStreamStat(open ? null : target)?.stat;
  const shared = useSharedStreamState(open && shareToken ? { device, channel, flow, token: shareToken } : null);
  const { stats, retry } = useLiveStream(videoRef, {
    key: `${device}/${channel}/${flow}`,
    transport: choice === 'auto' ? undefined : choice,
    open: opener,
    keepalive,
    onStats,
  });
  // A stream refused as gone (404: the channel or its device deleted elsewhere): the sidebar's trees
  // read their rows again, so the channel does not stay there until a reload.
  const gone = stats.phase === 'error' && stats.refused === 404;
  useEffect(() => {
    if (gone) channelGone();
  }, [gone]);
  // The figures beside the picture: the server's only while playing, from a message newer than the picture.
  const figures = useFreshStat(server, stats.phase === 'playing');
  // The camera's state, likewise from a message newer than the picture: the streamstat socket's, or
  // on a public page its link's.
  const camera = useFreshStat(server ?? shared, stats.phase === 'playing');
  // HLS and WebRTC carry no camera state (the WS-fMP4 and WS-FLV sockets do): while such a player
  // still shows its picture, the server's word that the camera is away is shown as the others show
  // theirs (正在重新连接 and the reason over the frozen picture), until it says live again.
  const away = (stats.transport === 'hls' || stats.transport === 'webrtc') && stats.phase === 'playing' && camera?.state === 'retrying';
  const phase = away ? 'reconnecting' : stats.phase;

  // Manual recording: the server's word (streamstat), or the answer of the last click until the
  // server's next status says the same.
  const [manualClick, setManualClick] = useState<boolean>();
  const manual = manualClick ?? server?.manualRecording ?? false;
  const recording = manual || !!server?.recording;
  useEffect(() => {
    if (manualClick !== undefined && server?.manualRecording === manualClick) setManualClick(undefined);
  }, [server?.manualRecording, manualClick]);
  useEffect(() => setManualClick(undefined), [device, channel]);
  const toggleRecording = async () => {
    try {
      const answer = await realtimeRecord(target, !manual);
      setManualClick(answer.Manual === 1);
    } catch {
      /* the request layer has shown why */
    }
  };

  const snapshot = async () => {
    const video = videoRef.current;
    if (!video) return;
    const ok = await downloadSnapshot(video, name || `${device}_${channel}`);
    setNotice(ok ? '' : t('player.noFrame'));
  };
  // In fullscreen only the player's element is drawn: the transport menu, the tooltips and the PTZ
  // pad's popups (antd puts them under document.body) go inside it then, or 播放协议 opened a menu
  // nobody saw.
  const popupContainer = useCallback(() => (fullscreen && boxRef.current) || document.body, [fullscreen]);
  const toggleFullscreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void boxRef.current?.requestFullscreen?.();
  };

  let overlay: ReactNode = null;
  if (stats.phase === 'loading') overlay = <Spin description={t('player.loading')} />;
  else if (phase === 'reconnecting') {
    overlay = (
      <>
        <Spin />
        <div>{t('player.reconnecting')}</div>
        {away ? (
          camera.reason && <div style={{ fontSize: 12, opacity: 0.8 }}>{camera.reason}</div>
        ) : (
          stats.reason && <div style={{ fontSize: 12, opacity: 0.8 }}>{reasonText(stats.reason, t, stats.why)}</div>
        )}
      </>
    );
  } else if (stats.phase === 'playing' && (stats.silentSeconds ?? 0) >= FROZEN_AFTER_S) {
    overlay = (
      <div data-testid="player-frozen" style={{ background: 'rgba(0,0,0,0.55)', padding: '4px 10px', borderRadius: 4 }}>
        {t('player.frozen', { seconds: stats.silentSeconds })}
      </div>
    );
  } else if (stats.phase === 'unsupported') {
    overlay = <div>{isHevc(stats.reason) ? t('player.hevcUnsupported', { mime: stats.reason }) : t('player.unsupported', { mime: stats.reason })}</div>;
  } else if (stats.phase === 'error') {
    overlay = (
      <>
        <div>{stats.reason === 'no MediaSource' ? t('player.noMse') : stats.reason === 'no transport' ? t('player.noTransport') : stats.reason}</div>
        {gone ? (
          leave && (
            <Button size="small" onClick={leave.onClick} style={{ marginTop: 8 }}>
              {leave.label}
            </Button>
          )
        ) : (
          <Button size="small" icon={<ReloadOutlined />} onClick={retry} style={{ marginTop: 8 }}>
            {t('player.retry')}
          </Button>
        )}
      </>
    );
  }

  // The codec, size and bit rate are the picture's: shown while it plays, not beside an error or a
  // reconnect (the camera away: its stream is gone), and again when it plays on.
  const media = phase === 'playing';
  const info = [
    // One name whatever the transport (each engine reports the codec in its own form).
    media ? codecName(stats.codec) : '',
    stats.transcoded ? t('player.transcoded') : '',
    media && stats.width && stats.height ? `${stats.width}×${stats.height}` : '',
    // One bit rate, the one measured here (the server's figure beside it was in other units and of another moment).
    media ? formatBitrate(stats.bytesPerSecond) : '',
    stats.transport ? t(`player.transport.${stats.transport}`) : '',
  ].filter(Boolean);
  const showBar = !compact || hover || fullscreen;
  const iconBtn = { type: 'text' as const, size: 'small' as const, style: { color: '#fff' } };

  const box = (
    <div
      ref={boxRef}
      data-testid="live-player"
      data-phase={phase}
      data-transport={stats.transport ?? ''}
      onMouseEnter={() => setHover(true)}
      // A player mounted under a still pointer (a wall cell a channel was just dropped on) gets no
      // mouseenter: Chromium counts the pointer as already over it and sends none, even when it
      // moves inside. Any move over the player shows the toolbar.
      onMouseMove={() => setHover(true)}
      onMouseLeave={() => setHover(false)}
      // A small tile's toolbar shows on hover only: the keyboard reaches it too, the tile taking the
      // focus (Tab) and keeping the bar while the focus is in it, so its buttons follow in the tab order.
      tabIndex={compact ? 0 : undefined}
      role={compact ? 'group' : undefined}
      aria-label={compact ? name || `${device}/${channel}` : undefined}
      onFocus={() => setHover(true)}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setHover(false);
      }}
      style={{ position: 'relative', background: '#000', overflow: 'hidden', width: '100%', height: '100%', minHeight: 120, ...style }}
    >
      <video
        ref={videoRef}
        muted={isMuted}
        autoPlay
        playsInline
        disablePictureInPicture
        style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
      />
      {overlay && (
        <div
          data-testid="player-status"
          style={{
            position: 'absolute',
            inset: 0,
            display: 'flex',
            flexDirection: 'column',
            alignItems: 'center',
            justifyContent: 'center',
            gap: 4,
            color: '#fff',
            textAlign: 'center',
            padding: 12,
            background: phase === 'playing' ? undefined : 'rgba(0,0,0,0.35)',
            pointerEvents: stats.phase === 'error' ? 'auto' : 'none',
          }}
        >
          {overlay}
        </div>
      )}
      {phase === 'playing' && stats.note && (
        <div
          data-testid="player-note"
          title={reasonText(stats.note.reason, t, stats.note.why)}
          style={{
            position: 'absolute',
            left: 8,
            right: 8,
            top: 6,
            color: '#fff',
            fontSize: 12,
            textShadow: '0 0 3px #000',
            whiteSpace: 'nowrap',
            overflow: 'hidden',
            textOverflow: 'ellipsis',
            pointerEvents: 'none',
          }}
        >
          {reasonText(stats.note.reason, t, stats.note.why)}
        </div>
      )}
      {ptz && ptzAllowed && !compact && (
        <div style={{ position: 'absolute', right: 8, bottom: 40, maxHeight: 'calc(100% - 48px)', overflowY: 'auto', borderRadius: 6 }}>
          <PtzPanel device={device} channel={channel} />
        </div>
      )}
      {showBar && (
        <div
          style={{
            position: 'absolute',
            left: 0,
            right: 0,
            bottom: 0,
            display: 'flex',
            alignItems: 'center',
            gap: 4,
            padding: '2px 8px',
            background: 'linear-gradient(transparent, rgba(0,0,0,0.7))',
            color: '#fff',
            fontSize: 12,
          }}
        >
          {/*
            Both texts shrink in proportion to their length (flex-basis auto): with a basis of 0 the
            server's figures kept their width and a narrow player (phone, 16-cell wall) showed one
            character of the channel's name.
          */}
          <Typography.Text ellipsis style={{ color: '#fff', fontSize: 12, flex: '1 1 auto', minWidth: 0 }} data-testid="player-stats">
            {recording && (
              <span data-testid="player-rec" style={{ color: '#ff4d4f', fontWeight: 600, marginRight: 6 }}>
                ● {t('player.recordingNow')}
              </span>
            )}
            {/* One separator between all of them: the two spaces after the name collapsed to one, and
                "Cam 1 H.264 · 320×240" read as a channel named "Cam 1 H.264" (session 26 audit). */}
            {[name, ...info, notice].filter(Boolean).join(' · ')}
          </Typography.Text>
          {figures && (
            <span
              data-testid="player-server-stats"
              data-state={figures.state}
              style={{ flex: '0 1 auto', minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', opacity: 0.85 }}
            >
              {t('player.server', {
                // A state this console does not know yet shows as the server said it.
                state: t(`player.serverState.${figures.state}`, { defaultValue: figures.state }),
                viewers: t('player.viewers', { count: figures.totalViewers }),
              })}
            </span>
          )}
          {extra}
          {/* A channel that does not exist has no picture to hear, snapshot, switch or enlarge: only
              its message and the way out stay (session 26 walk). */}
          {!gone && (
            <>
          <Tooltip title={isMuted ? t('player.unmute') : t('player.mute')}>
            <Button {...iconBtn} aria-label={isMuted ? t('player.unmute') : t('player.mute')} icon={isMuted ? <MutedOutlined /> : <SoundOutlined />} onClick={() => setMuted(!isMuted)} />
          </Tooltip>
          <Dropdown
            trigger={['click']}
            open={transportMenu}
            onOpenChange={setTransportMenu}
            menu={{
              selectable: true,
              selectedKeys: [choice],
              items: TRANSPORT_CHOICES.map((c) => ({ key: c, label: t(`player.transport.${c}`), 'data-testid': `transport-${c}` })),
              onClick: ({ key }) => storeChoice(key as TransportChoice),
            }}
          >
            <Tooltip title={t('player.transportChoice')} open={transportMenu ? false : undefined}>
              <Button {...iconBtn} aria-label={t('player.transportChoice')} data-testid="transport-choice" icon={<SwapOutlined />} />
            </Tooltip>
          </Dropdown>
          <Tooltip title={t('player.snapshot')}>
            <Button {...iconBtn} aria-label={t('player.snapshot')} icon={<CameraOutlined />} onClick={() => void snapshot()} />
          </Tooltip>
          {!open && recordAllowed && recordVersion && (
            <Tooltip title={manual ? t('player.stopRecording') : t('player.startRecording')}>
              <Button
                {...iconBtn}
                aria-label={manual ? t('player.stopRecording') : t('player.startRecording')}
                aria-pressed={manual}
                data-testid="player-record"
                icon={<span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: manual ? 2 : '50%', background: manual ? '#fff' : '#ff4d4f' }} />}
                onClick={() => void toggleRecording()}
              />
            </Tooltip>
          )}
          {ptzAllowed && !compact && (
            <Tooltip title={t('player.ptz.title')}>
              <Button {...iconBtn} aria-label={t('player.ptz.title')} aria-pressed={ptz} icon={<AimOutlined />} onClick={() => setPtz(!ptz)} />
            </Tooltip>
          )}
          <Tooltip title={fullscreen ? t('player.exitFullscreen') : t('player.fullscreen')}>
            <Button
              {...iconBtn}
              aria-label={fullscreen ? t('player.exitFullscreen') : t('player.fullscreen')}
              icon={fullscreen ? <FullscreenExitOutlined /> : <FullscreenOutlined />}
              onClick={toggleFullscreen}
            />
          </Tooltip>
            </>
          )}
        </div>
      )}
    </div>
  );
  return <ConfigProvider getPopupContainer={popupContainer}>{box}</ConfigProvider>;
}

export default LivePlayer;
