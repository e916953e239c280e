/**
 * Download of a range of the day: start/end times (or the timeline selection), with a progress bar.
 * A range kept on a GB28181 device is first fetched from the device by the server (its progress),
 * then downloaded as any file (deviceDownload.ts).
 */
import { useEffect, useRef, useState } from 'react';
import { Button, Flex, Input, Progress, Typography } from 'antd';
import { DownloadOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { channelFileName } from '@opencvr/shared';
import { formatBytes } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { downloadUrl } from '../api';
import { clock, stampAt } from '../day';
import { fetchWithProgress, percent, saveBlob, type Progress as P } from '../download';
import { downloadFromDevice } from '../deviceDownload';
import type { RecordSource } from '../source';
import type { Range } from '../timeline';

const parseClock = (s: string): number | undefined => {
  const m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(s.trim());
  if (!m || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) return undefined;
  const v = Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3] ?? 0);
  return v <= 86400 ? v : undefined;
};

/** Seconds of [from, to) covered by the (disjoint) recorded ranges. */
export function recordedWithin(ranges: readonly Range[], from: number, to: number): number {
  let n = 0;
  for (const [a, b] of ranges) n += Math.max(0, Math.min(b, to) - Math.max(a, from));
  return n;
}

interface Props {
  device: string;
  channel: string;
  day: string;
  name: string;
  selection: Range | null;
  onSelection: (r: Range | null) => void;
  /** The day's recorded ranges (seconds): a range with none is refused here, in the page's language. */
  ranges?: Range[];
  /** Where the recordings are: the platform's (default) or the GB28181 device's. */
  source?: RecordSource;
}

export function DownloadPanel({ device, channel, day, name, selection, onSelection, ranges, source = 'Cloud' }: Props) {
  const { t } = useTranslation();
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [progress, setProgress] = useState<P | null>(null);
  /** The device's transfer to the server (0-100), before the file comes; null otherwise. */
  const [onDevice, setOnDevice] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState('');
  /**
   * Why the last download failed, under the range until the next one: a 2-second notice was all
   * there was, easily missed over a download of minutes.
   */
  const [failed, setFailed] = useState('');
  /** A file too large to gather in the page, handed to the browser's own download. */
  const [handed, setHanded] = useState<{ name: string; total: number } | null>(null);
  const abortRef = useRef<AbortController | null>(null);

  useEffect(() => {
    if (selection) {
      setFrom(clock(selection[0]));
      setTo(clock(selection[1]));
    }
  }, [selection]);
  useEffect(() => () => abortRef.current?.abort(), []);

  const s = parseClock(from);
  const e = parseClock(to);
  const valid = s !== undefined && e !== undefined && e > s;
  /**
   * Seconds of the range that hold recordings: the server joins them into one file and leaves the
   * gaps out (a 100 s range over a 70 s gap is a 30 s file), so a range with gaps says so.
   */
  const recorded = valid && ranges ? recordedWithin(ranges, s!, e!) : undefined;
  /** Two good times in the wrong order: said, not only a greyed-out button. */
  const reversed = s !== undefined && e !== undefined && e <= s;

  const start = async () => {
    if (!valid) return;
    // The server's 404 names the range in its own words (half English); say it plainly instead.
    if (ranges && !ranges.some(([a, b]) => a < e! && b > s!)) {
      notify.warning(t('playback.nothingInRange'));
      return;
    }
    const ac = new AbortController();
    abortRef.current = ac;
    setBusy(true);
    setSaved('');
    setFailed('');
    setHanded(null);
    setProgress({ loaded: 0, total: 0 });
    const a = stampAt(day, s!);
    const b = stampAt(day, e!);
    const fallbackName = channelFileName(name, [a, b], 'mp4');
    try {
      const got =
        source === 'Device'
          ? await downloadFromDevice(
              { device, channel, start: a, seconds: e! - s!, fallbackName },
              (p) => {
                if (p.phase === 'device') setOnDevice(p.percent);
                else {
                  setOnDevice(null);
                  setProgress({ loaded: p.loaded, total: p.total });
                }
              },
              ac.signal,
            )
          : await fetchWithProgress(downloadUrl(device, channel, a, b), setProgress, fallbackName, ac.signal, true);
      if ('handedOff' in got) {
        setHanded({ name: got.name, total: got.total });
        setProgress(null);
        return;
      }
      saveBlob(got.blob, got.name);
      setSaved(got.name);
    } catch (err) {
      if ((err as Error).name !== 'AbortError') setFailed((err as Error).message);
      setProgress(null);
    } finally {
      setOnDevice(null);
      setBusy(false);
      abortRef.current = null;
    }
  };

  return (
    <div data-testid="download-panel">
      <Flex gap={8} align="center" wrap>
        <Typography.Text>{t('playback.downloadRange')}</Typography.Text>
        <Input
          aria-label={t('playback.downloadFrom')}
          data-testid="download-from"
          style={{ width: 110 }}
          placeholder="HH:mm:ss"
          value={from}
          status={from && s === undefined ? 'error' : undefined}
          onChange={(ev) => {
            setFrom(ev.target.value);
            const v = parseClock(ev.target.value);
            if (v !== undefined && e !== undefined && e > v) onSelection([v, e]);
          }}
        />
        <span>–</span>
        <Input
          aria-label={t('playback.downloadTo')}
          data-testid="download-to"
          style={{ width: 110 }}
          placeholder="HH:mm:ss"
          value={to}
          status={(to && e === undefined) || reversed ? 'error' : undefined}
          onChange={(ev) => {
            setTo(ev.target.value);
            const v = parseClock(ev.target.value);
            if (v !== undefined && s !== undefined && v > s) onSelection([s, v]);
          }}
        />
        {busy ? (
          <Button icon={<StopOutlined />} onClick={() => abortRef.current?.abort()}>
            {t('playback.downloadCancel')}
          </Button>
        ) : (
          <Button
            type="primary"
            icon={<DownloadOutlined />}
            disabled={!valid}
            onClick={() => void start()}
            data-testid="download-start"
          >
            {t('playback.download')}
          </Button>
        )}
        {valid && (
          <Typography.Text type="secondary" data-testid="download-length">
            {source === 'Cloud' && recorded !== undefined && recorded > 0 && recorded < e! - s!
              ? t('playback.secondsRecorded', { n: e! - s!, recorded })
              : t('playback.seconds', { n: e! - s! })}
          </Typography.Text>
        )}
        {reversed && (
          <Typography.Text type="danger" data-testid="download-range-error">
            {t('playback.endBeforeStart')}
          </Typography.Text>
        )}
      </Flex>
      {failed && (
        <Typography.Text type="danger" role="alert" style={{ display: 'block', marginTop: 6, fontSize: 12 }} data-testid="download-error">
          {t('playback.downloadFailed', { reason: failed })}
        </Typography.Text>
      )}
      {handed && (
        <Typography.Text type="secondary" style={{ display: 'block', marginTop: 6, fontSize: 12 }} data-testid="download-handed-off">
          {t('playback.downloadHandedOff', { name: handed.name, bytes: formatBytes(handed.total) })}
        </Typography.Text>
      )}
      {progress && (
        <div style={{ marginTop: 6 }}>
          <Progress
            data-testid="download-progress"
            percent={saved ? 100 : onDevice ?? percent(progress)}
            status={busy ? 'active' : saved ? 'success' : 'normal'}
            size="small"
          />
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="download-bytes">
            {saved
              ? t('playback.downloadSaved', { name: saved, bytes: formatBytes(progress.loaded) })
              : onDevice !== null
                ? t('gbDevice.recordFromDevice', { percent: onDevice })
                : t('playback.downloadBytes', {
                  loaded: formatBytes(progress.loaded),
                  total: progress.total ? formatBytes(progress.total) : '?',
                })}
          </Typography.Text>
        </div>
      )}
    </div>
  );
}
