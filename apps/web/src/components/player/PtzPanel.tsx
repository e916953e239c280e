/**
 * A small PTZ pad: directions, zoom and stop, each one GET /api/v1/ptzcontrol, and the presets; the
 * server's error text shows below. A move lasts on the device until `stop` (ONVIF ContinuousMove, GB
 * PTZCmd), so a direction or zoom button moves while it is held (pointer or Enter/Space) and sends
 * `stop` when it is released, when the pointer leaves it, when the window loses focus or the page is
 * hidden, when the pad goes away (route change, player closed), and as the tab closes or reloads (a
 * keepalive call): a camera is never left turning.
 * The calls go out one after another, so a stop never overtakes the move it ends.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, Slider, Typography } from 'antd';
import {
  ArrowDownOutlined,
  ArrowLeftOutlined,
  ArrowRightOutlined,
  ArrowUpOutlined,
  BorderOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { ptzControl, type PtzCommand } from './api';
import { PtzPresets } from './PtzPresets';

const PAD: { cmd: PtzCommand; icon: React.ReactNode; rotate?: number }[] = [
  { cmd: 'upleft', icon: <ArrowUpOutlined />, rotate: -45 },
  { cmd: 'up', icon: <ArrowUpOutlined /> },
  { cmd: 'upright', icon: <ArrowUpOutlined />, rotate: 45 },
  { cmd: 'left', icon: <ArrowLeftOutlined /> },
  { cmd: 'stop', icon: <BorderOutlined /> },
  { cmd: 'right', icon: <ArrowRightOutlined /> },
  { cmd: 'downleft', icon: <ArrowDownOutlined />, rotate: 45 },
  { cmd: 'down', icon: <ArrowDownOutlined /> },
  { cmd: 'downright', icon: <ArrowDownOutlined />, rotate: -45 },
];

export function PtzPanel({ device, channel }: { device: string; channel: string }) {
  const { t } = useTranslation();
  // The server's ptzcontrol speed scale (EasyCVR's): 1-100, 50 by default.
  const [speed, setSpeed] = useState(50);
  const [error, setError] = useState('');
  /** The held move (shown pressed); the ref is what the release and clean-up handlers read. */
  const [moving, setMoving] = useState<PtzCommand | null>(null);
  const movingRef = useRef<PtzCommand | null>(null);
  const queue = useRef<Promise<unknown>>(Promise.resolve());
  const mounted = useRef(true);
  const target = useRef({ device, channel });
  target.current = { device, channel };

  const send = useCallback((cmd: PtzCommand, speedNow: number) => {
    const to = target.current;
    const next = queue.current.then(async () => {
      try {
        await ptzControl(to, cmd, speedNow);
        if (mounted.current) setError('');
      } catch (err) {
        if (mounted.current) setError((err as Error).message);
      }
    });
    queue.current = next;
    return next;
  }, []);

  const release = useCallback(() => {
    if (!movingRef.current) return;
    movingRef.current = null;
    if (mounted.current) setMoving(null);
    void send('stop', 50);
  }, [send]);

  const hold = (cmd: PtzCommand) => {
    if (movingRef.current === cmd) return;
    if (movingRef.current) release();
    movingRef.current = cmd;
    setMoving(cmd);
    void send(cmd, speed);
  };

  useEffect(() => {
    mounted.current = true;
    const hidden = () => document.visibilityState === 'hidden' && release();
    // The tab closed or reloaded mid-move: the queue may not run again, so the stop goes at once,
    // as a call that outlives the page.
    const leaving = () => {
      if (!movingRef.current) return;
      movingRef.current = null;
      ptzControl(target.current, 'stop', 50, true).catch(() => undefined);
    };
    window.addEventListener('blur', release);
    window.addEventListener('pagehide', leaving);
    // A button let go anywhere ends the hold: the pad can move under a held pointer (an error or the
    // preset list appears and the pad grows), and the release then lands on another button.
    window.addEventListener('pointerup', release);
    window.addEventListener('pointercancel', release);
    document.addEventListener('visibilitychange', hidden);
    return () => {
      window.removeEventListener('blur', release);
      window.removeEventListener('pagehide', leaving);
      window.removeEventListener('pointerup', release);
      window.removeEventListener('pointercancel', release);
      document.removeEventListener('visibilitychange', hidden);
      release();
      mounted.current = false;
    };
  }, [release]);

  /** Press-and-hold handlers of a move button: its own release ends its own move only (pressing
   *  another button moves the focus off this one, whose blur must not stop the new move). */
  const holdProps = (cmd: PtzCommand) => {
    const releaseMine = () => movingRef.current === cmd && release();
    return {
      'aria-label': t(`player.ptz.${cmd}`),
      title: `${t(`player.ptz.${cmd}`)} (${t('player.ptz.holdHint')})`,
      'aria-pressed': moving === cmd,
      type: moving === cmd ? ('primary' as const) : undefined,
      style: { touchAction: 'none' },
      onPointerDown: (e: React.PointerEvent) => {
        if (e.button === 0) hold(cmd);
      },
      onPointerLeave: releaseMine,
      onPointerCancel: releaseMine,
      onContextMenu: (e: React.MouseEvent) => e.preventDefault(),
      onKeyDown: (e: React.KeyboardEvent) => {
        if (e.key === 'Enter' || e.key === ' ') {
          e.preventDefault();
          if (!e.repeat) hold(cmd);
        }
      },
      onKeyUp: (e: React.KeyboardEvent) => {
        if (e.key === 'Enter' || e.key === ' ') releaseMine();
      },
      onBlur: releaseMine,
    };
  };

  return (
    <div
      data-testid="ptz-panel"
      style={{ width: 176, padding: 8, background: 'rgba(255,255,255,0.95)', borderRadius: 6 }}
    >
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 4 }}>
        {PAD.map(({ cmd, icon, rotate }) => (
          <Button
            key={cmd}
            size="small"
            icon={
              <span style={{ display: 'inline-block', transform: rotate ? `rotate(${rotate}deg)` : undefined }}>
                {icon}
              </span>
            }
            {...(cmd === 'stop'
              ? {
                  'aria-label': t('player.ptz.stop'),
                  title: t('player.ptz.stop'),
                  onClick: () => (movingRef.current ? release() : void send('stop', 50)),
                }
              : holdProps(cmd))}
          />
        ))}
      </div>
      <div style={{ display: 'flex', gap: 4, marginTop: 4 }}>
        <Button size="small" block icon={<ZoomInOutlined />} {...holdProps('zoomin')} />
        <Button size="small" block icon={<ZoomOutOutlined />} {...holdProps('zoomout')} />
      </div>
      <Typography.Text style={{ fontSize: 12 }}>{t('player.ptz.speed')}</Typography.Text>
      <Slider min={1} max={100} value={speed} onChange={setSpeed} style={{ margin: '4px 6px' }} />
      <PtzPresets device={device} channel={channel} onError={setError} padError={error} />
      {error && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="ptz-error">
          {error}
        </Typography.Text>
      )}
    </div>
  );
}
