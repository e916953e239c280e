/**
 * /video/backtime/:devid/:chnid/:day: the day's recordings as a list (time, duration, size when
 * known, important flag) with play (opens the backchannel page at that range) and download per row.
 */
import { useState } from 'react';
import { Button, Card, Progress, Space, Table, Tag } from 'antd';
import { CaretRightOutlined, DownloadOutlined, FieldTimeOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import { PageTitle } from '../../../components/PageTitle';
import { formatBytes } from '../../../lib/format';
import { notify } from '../../../lib/notify';
import { downloadUrl, fetchChannels, setImportant } from '../api';
import { clock, parseDay, stampAt, today } from '../day';
import { fetchWithProgress, percent, saveBlob } from '../download';
import { backchannelPath, backtimePath, backlistPath } from '../paths';
import { RecordingBreadcrumb } from '../components/RecordingBreadcrumb';
import { useDayRecords, type DayRange } from '../useDayRecords';

export default function BacktimePage() {
  const { devid = '', chnid = '', day = '' } = useParams();
  if (!parseDay(day)) return <Navigate to={backtimePath(devid, chnid, today())} replace />;
  return <Backtime device={devid} channel={chnid} day={day} />;
}

function Backtime({ device, channel, day }: { device: string; channel: string; day: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { query, list } = useDayRecords(device, channel, day);
  const [progress, setProgress] = useState<Record<string, number>>({});
  // The names the backchannel page shows (same query, so going between the two asks once).
  const chans = useQuery({ queryKey: ['playback', 'channels', device], queryFn: () => fetchChannels(device, 0, 9999) });
  const chan = chans.data?.Channels.find((c) => c.ChannelID === channel);
  const name = chan?.Name || `${device}_${channel}`;
  const date = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`;

  const download = async (r: DayRange) => {
    const a = stampAt(day, r.start);
    const b = stampAt(day, r.end);
    try {
      const { blob, name } = await fetchWithProgress(downloadUrl(device, channel, a, b), (p) => setProgress((m) => ({ ...m, [r.name]: percent(p) })), `${device}_${channel}_${a}_${b}.mp4`);
      saveBlob(blob, name);
      setProgress((m) => ({ ...m, [r.name]: 100 }));
    } catch (err) {
      notify.error(t('playback.downloadFailed', { reason: (err as Error).message }));
      setProgress((m) => ({ ...m, [r.name]: -1 }));
    }
  };
  const mark = async (r: DayRange) => {
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
        parents={[
          { key: 'backlist', label: t('route.videoBacklist'), to: backlistPath('0') },
          { key: `d:${device}`, label: chan?.DeviceName || device, to: backlistPath(device) },
          { key: `c:${device}:${channel}`, label: name, to: backchannelPath(device, channel) },
          { key: `day:${day}`, label: date, to: backchannelPath(device, channel, day) },
        ]}
        node={{ key: `list:${day}`, label: t('playback.segmentList') }}
        stime={day}
      />
      <PageTitle
        title={`${t('route.videoBacktime')} · ${name} · ${date}`}
        extra={
          <Button icon={<FieldTimeOutlined />} onClick={() => navigate(backchannelPath(device, channel, day))}>
            {t('playback.timelineView')}
          </Button>
        }
      />
      <Card>
        <Table<DayRange>
          rowKey="name"
          size="small"
          loading={query.isLoading}
          dataSource={list}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          scroll={{ x: 760 }}
          columns={[
            {
              title: t('playback.time'),
              render: (_, r) => (
                <Space size={4} wrap>
                  {`${clock(r.start)} – ${clock(r.end)}`}
                  {r.recording === 1 && <Tag color="red">{t('playback.recording')}</Tag>}
                </Space>
              ),
            },
            { title: t('playback.duration'), render: (_, r) => clock(r.duration ?? r.end - r.start) },
            { title: t('playback.size'), render: (_, r) => (r.size !== undefined ? formatBytes(r.size) : '—') },
            {
              title: t('playback.important'),
              render: (_, r) => (r.important === 1 ? <Tag color="gold">{t('common.yes')}</Tag> : <Tag>{t('common.no')}</Tag>),
            },
            {
              title: t('common.actions'),
              render: (_, r) => (
                <Space>
                  <Button size="small" icon={<CaretRightOutlined />} onClick={() => navigate(`${backchannelPath(device, channel, day)}?t=${r.start}`)}>
                    {t('playback.play')}
                  </Button>
                  <Button size="small" icon={<DownloadOutlined />} onClick={() => void download(r)} disabled={(progress[r.name] ?? -1) >= 0 && progress[r.name] < 100}>
                    {t('playback.download')}
                  </Button>
                  <Button size="small" icon={r.important === 1 ? <StarFilled /> : <StarOutlined />} disabled={!r.ids?.length} onClick={() => void mark(r)}>
                    {r.important === 1 ? t('playback.unmarkImportant') : t('playback.markImportant')}
                  </Button>
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
