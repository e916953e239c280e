/** A small PTZ pad: directions, zoom and stop, each one GET /api/v1/ptzcontrol, and the presets; the server's error text shows below. */
import { useState } from 'react';
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
  const [busy, setBusy] = useState<PtzCommand | null>(null);

  const send = async (cmd: PtzCommand) => {
    setBusy(cmd);
    try {
      await ptzControl({ device, channel }, cmd, speed);
      setError('');
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <div data-testid="ptz-panel" style={{ width: 176, padding: 8, background: 'rgba(255,255,255,0.95)', borderRadius: 6 }}>
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(3, 1fr)', gap: 4 }}>
        {PAD.map(({ cmd, icon, rotate }) => (
          <Button
            key={cmd}
            size="small"
            aria-label={t(`player.ptz.${cmd}`)}
            title={t(`player.ptz.${cmd}`)}
            loading={busy === cmd}
            icon={<span style={{ display: 'inline-block', transform: rotate ? `rotate(${rotate}deg)` : undefined }}>{icon}</span>}
            onClick={() => void send(cmd)}
          />
        ))}
      </div>
      <div style={{ display: 'flex', gap: 4, marginTop: 4 }}>
        <Button size="small" block icon={<ZoomInOutlined />} aria-label={t('player.ptz.zoomin')} title={t('player.ptz.zoomin')} onClick={() => void send('zoomin')} />
        <Button size="small" block icon={<ZoomOutOutlined />} aria-label={t('player.ptz.zoomout')} title={t('player.ptz.zoomout')} onClick={() => void send('zoomout')} />
      </div>
      <Typography.Text style={{ fontSize: 12 }}>{t('player.ptz.speed')}</Typography.Text>
      <Slider min={1} max={100} value={speed} onChange={setSpeed} style={{ margin: '4px 6px' }} />
      <PtzPresets device={device} channel={channel} onError={setError} />
      {error && (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="ptz-error">
          {error}
        </Typography.Text>
      )}
    </div>
  );
}
