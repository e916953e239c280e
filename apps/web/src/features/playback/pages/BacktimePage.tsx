/**
 * /video/backtime/:devid/:chnid/:day: the day's recordings as a list (time, duration, size when
 * known, important flag) with play (opens the backchannel page at that range) and download per row.
 * A GB28181 channel also lists the files kept on the device (?source=Device, as the backchannel
 * page): each file with its record type, played from the device and downloaded through the server.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { Button, Card, Progress, Space, Tag, Typography } from 'antd';
import { ListTable } from '../../../components/ListTable';
import { CaretRightOutlined, DownloadOutlined, FieldTimeOutlined, StarFilled, StarOutlined, StopOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { channelFileName } from '@opencvr/shared';
import { PageTitle } from '../../../components/PageTitle';
import { formatBytes } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { fetchOneChannel } from '../../../lib/api/inventory';
import { downloadUrl, fetchDeviceFiles, setImportant, type DailyRange } from '../api';
import { clock, parseDay, stampAt, today } from '../day';
import { fetchWithProgress, percent, saveBlob } from '../download';
import { backchannelPath, backtimePath, withSource } from '../paths';
import { downloadFromDevice } from '../deviceDownload';
import { deviceSourceAvailable, sourceFromQuery, type RecordSource } from '../source';
import { RecordSourceSwitch } from '../components/RecordSourceSwitch';
import { RecordingBreadcrumb } from '../components/RecordingBreadcrumb';
import { channelCrumbs } from '../breadcrumb';
import { dayRanges, useDayRecords, type DayRange } from '../useDayRecords';

/** A row: a range of the platform's recordings, or one file on the device (with its record type). */
type Row = DayRange & { type?: string };

/** A cell kept on one line. */
const oneLine = () => ({ style: { whiteSpace: 'nowrap' as const } });

export default function BacktimePage() {
  const { devid = '', chnid = '', day = '' } = useParams();
  if (!parseDay(day)) return <Navigate to={backtimePath(devid, chnid, today())} replace />;
  return <Backtime device={devid} channel={chnid} day={day} />;
}

function Backtime({ device, channel, day }: { device: string; channel: string; day: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const source = sourceFromQuery(params.get('source'));
  const onDevice = source === 'Device';
  const cloud = useDayRecords(device, channel, onDevice ? '' : day);
  const files = useQuery({ queryKey: ['playback', 'deviceFiles', device, channel, day], queryFn: () => fetchDeviceFiles(device, channel, day), enabled: onDevice });
  const deviceRows = useMemo<Row[]>(
    () =>
      dayRanges(
        (files.data?.RecordList ?? []).map((f, i) => ({ name: `${f.startAt}-${f.endAt}-${i}`, startAt: f.startAt, endAt: f.endAt, duration: f.duration, size: f.FileSize || undefined, important: 0, type: f.Type }) as DailyRange),
        day,
      ),
    [files.data, day],
  );
  const query = onDevice ? files : cloud.query;
  const list: Row[] = onDevice ? deviceRows : cloud.list;
  const [progress, setProgress] = useState<Record<string, number>>({});
  // The channel's and device's names and type, as the backchannel page reads them (same query, so
  // going between the two asks once): the one camera, not every channel of the device.
  const chan = useQuery({ queryKey: ['playback', 'channel', device, channel], queryFn: () => fetchOneChannel(device, channel) }).data ?? undefined;
  const deviceOk = deviceSourceAvailable(chan?.DeviceType);
  const setSource = (v: RecordSource) => {
    const next = new URLSearchParams(params);
    if (v === 'Device') next.set('source', 'Device');
    else next.delete('source');
    setParams(next, { replace: true });
  };
  const name = chan?.Name || `${device}_${channel}`;
  const date = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`;

  // A row's download is cancelled by its button or by leaving the page (a device transfer is stopped on the server too).
  const running = useRef(new Map<string, AbortController>());
  useEffect(() => {
    const all = running.current;
    return () => all.forEach((ac) => ac.abort());
  }, []);

  const download = async (r: Row) => {
    const ac = new AbortController();
    running.current.set(r.name, ac);
    const signal = ac.signal;
    const a = stampAt(day, r.start);
    const b = stampAt(day, r.end);
    const fallbackName = channelFileName(name, [a, b], 'mp4');
    const show = (n: number) => setProgress((m) => ({ ...m, [r.name]: n }));
    // At once: the row's button is its cancel from the first request on.
    show(0);
    try {
      const got = onDevice
        ? await downloadFromDevice(
            { device, channel, start: a, seconds: Math.max(1, Math.round(r.end - r.start)), fallbackName },
            // The device's transfer is the first half of the bar, the file the second.
            (p) => show(p.phase === 'device' ? Math.floor(p.percent / 2) : 50 + Math.floor(percent(p) / 2)),
            signal,
          )
        : await fetchWithProgress(downloadUrl(device, channel, a, b), (p) => show(percent(p)), fallbackName, signal, true);
      if ('handedOff' in got) notify.success(t('playback.downloadHandedOff', { name: got.name, bytes: formatBytes(got.total) }));
      else saveBlob(got.blob, got.name);
      setProgress((m) => ({ ...m, [r.name]: 100 }));
    } catch (err) {
      if ((err as Error).name === 'AbortError') {
        setProgress(({ [r.name]: _, ...rest }) => rest);
        return;
      }
      notify.error(t('playback.downloadFailed', { reason: (err as Error).message }));
      setProgress((m) => ({ ...m, [r.name]: -1 }));
    } finally {
      running.current.delete(r.name);
    }
  };
  const mark = async (r: Row) => {
    if (!r.ids?.length) return;
    try {
      await setImportant(r.ids, r.important !== 1);
      notify.success(r.important === 1 ? t('playback.unmarked') : t('playback.marked'));
      void query.refetch();
    } catch {
      /* the request layer said why */
    }
  };

  return (
    <div style={{ padding: 16 }}>
      {/* The backchannel page's trail (same keys and names) with the list after the day. */}
      <RecordingBreadcrumb
        parents={[...channelCrumbs(t, device, channel, chan), { key: `day:${day}`, label: date, to: withSource(backchannelPath(device, channel, day), source) }]}
        node={{ key: `list:${day}`, label: t('playback.segmentList') }}
        stime={day}
      />
      <PageTitle
        // As the timeline page: not titled by the bare id of a channel the server does not list to the user.
        title={chan ? `${t('route.videoBacktime')} · ${name} · ${date}` : `${t('route.videoBacktime')} · ${date}`}
        extra={
          chan && (
            <Space>
              {deviceOk && <RecordSourceSwitch value={source} onChange={setSource} />}
              <Button icon={<FieldTimeOutlined />} onClick={() => navigate(withSource(backchannelPath(device, channel, day), source))}>
                {t('playback.timelineView')}
              </Button>
            </Space>
          )
        }
      />
      <Card>
        {onDevice && files.data?.Complete === 0 && (
          <Typography.Text type="warning" data-testid="device-partial" style={{ display: 'block', marginBottom: 8 }}>
            {t('playback.devicePartial', { received: files.data.Received, sumNum: files.data.SumNum })}
          </Typography.Text>
        )}
        <ListTable<Row>
          rowKey="name"
          size="small"
          loading={query.isFetching && !query.data}
          locale={
            query.isError && !query.isFetching
              ? { emptyText: <Typography.Text type="danger" data-testid="day-error">{(query.error as Error).message}</Typography.Text> }
              : deviceOk && !onDevice && !query.isFetching && !list.length
                ? { emptyText: <Button size="small" data-testid="try-device-source" onClick={() => setSource('Device')}>{t('gbDevice.recordsOnDevice')}</Button> }
                : undefined
          }
          dataSource={list}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          scroll={{ x: 760 }}
          // The time, duration and size keep to one line each: beside the actions' 500 px, the English
          // page broke "3.86 MB" under itself and put the 录像中 tag under its range (session 27 walk).
          columns={[
            {
              title: t('playback.time'),
              onCell: oneLine,
              render: (_, r) => (
                <Space size={4}>
                  {`${clock(r.start)} – ${clock(r.end)}`}
                  {r.recording === 1 && <Tag color="red">{t('playback.recording')}</Tag>}
                </Space>
              ),
            },
            { title: t('playback.duration'), onCell: oneLine, render: (_, r) => clock(r.duration ?? r.end - r.start) },
            { title: t('playback.size'), onCell: oneLine, render: (_, r) => (r.size !== undefined ? formatBytes(r.size) : '—') },
            onDevice
              ? { title: t('gbDevice.recordType'), render: (_, r) => (r.type ? <Tag>{t(`gbDevice.recordTypes.${r.type}`, { defaultValue: r.type })}</Tag> : '—') }
              : {
                  title: t('playback.important'),
                  render: (_, r) => (r.important === 1 ? <Tag color="gold">{t('common.yes')}</Tag> : <Tag>{t('common.no')}</Tag>),
                },
            {
              title: t('common.actions'),
              key: 'actions',
              // A width, so that on a phone ListTable pins it at PHONE_PINNED_WIDTH with its buttons
              // wrapping: sized by its buttons (three and the progress) it covered the whole table
              // there, and no row showed its time. A desktop has room for them on one line.
              width: 500,
              render: (_, r) => (
                <Space wrap>
                  <Button size="small" icon={<CaretRightOutlined />} onClick={() => navigate(withSource(`${backchannelPath(device, channel, day)}?t=${r.start}`, source))}>
                    {t('playback.play')}
                  </Button>
                  {(progress[r.name] ?? -1) >= 0 && progress[r.name] < 100 ? (
                    <Button size="small" icon={<StopOutlined />} onClick={() => running.current.get(r.name)?.abort()}>
                      {t('playback.downloadCancel')}
                    </Button>
                  ) : (
                    <Button size="small" icon={<DownloadOutlined />} onClick={() => void download(r)}>
                      {t('playback.download')}
                    </Button>
                  )}
                  {!onDevice && (
                    <Button size="small" icon={r.important === 1 ? <StarFilled /> : <StarOutlined />} disabled={!r.ids?.length} onClick={() => void mark(r)}>
                      {r.important === 1 ? t('playback.unmarkImportant') : t('playback.markImportant')}
                    </Button>
                  )}
                  {progress[r.name] !== undefined && progress[r.name] >= 0 && <Progress percent={progress[r.name]} size="small" style={{ width: 120 }} />}
                </Space>
              ),
            },
          ]}
        />
      </Card>
    </div>
  );
}
