/**
 * /video/backchannel/:devid/:chnid/:day: the month calendar flagging recorded days, the 24-hour
 * timeline of the day's ranges (zoom, click/drag to seek, Shift+drag to select), the player with
 * pause/resume, ±10 s steps, speed 0.5x–16x and snapshot, range download with progress, marking a
 * range important and (admins) deleting the day. Without a valid day it opens today.
 */
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import { Button, Card, Col, Empty, Flex, Popconfirm, Row, Select, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import {
  BackwardOutlined,
  CameraOutlined,
  DeleteOutlined,
  ForwardOutlined,
  MutedOutlined,
  PauseOutlined,
  CaretRightOutlined,
  SoundOutlined,
  StarOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { TRANSCODE_FULL_SPEED_MAX } from '@opencvr/shared';
import { Navigate, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { PageTitle } from '../../../components/PageTitle';
import { downloadSnapshot } from '../../../components/player/snapshot';
import { isHevc } from '../../../components/player/transport';
import { isAdminRole } from '../../../lib/session';
import { useSession } from '../../../lib/stores/session';
import { useUi } from '../../../lib/stores/ui';
import { notify } from '../../../lib/notify';
import { fetchOneChannel } from '../../../lib/api/inventory';
import { RequestError } from '../../../lib/request';
import { fetchMonthly, removeDaily, setImportantBetween } from '../api';
import { clock, monthOf, parseDay, recordedDays, shiftMonth, stampAt, today } from '../day';
import { DownloadPanel } from '../components/DownloadPanel';
import { MonthCalendar } from '../components/MonthCalendar';
import { RecordSourceSwitch } from '../components/RecordSourceSwitch';
import { RecordingBreadcrumb } from '../components/RecordingBreadcrumb';
import { channelCrumbs } from '../breadcrumb';
import { Timeline } from '../components/Timeline';
import { backchannelPath, backtimePath, withSource } from '../paths';
import { useDayRecords } from '../useDayRecords';
import { usePlayback } from '../usePlayback';
import { DAY, followPlayhead, rangeAtOrAfter, replayFrom, type Range, type View } from '../timeline';
import { deviceSourceAvailable, sourceFromQuery, speedsFor, type RecordSource } from '../source';

/** The top bar's height (antd's Layout header). */
const TOP_BAR_PX = 64;
/** Below this the page stops shrinking the player to fit the window and scrolls instead. */
const FIT_MIN_PAGE_PX = 560;
/** The smallest the player is made to fit the window. */
const FIT_MIN_PLAYER_PX = 200;

/**
 * Whether the row's two columns (calendar, player) sit side by side, i.e. not wrapped one under the
 * other (a phone, or a narrow window beside the sidebar). Read from where they are laid out.
 */
function useSideBySide() {
  const ref = useRef<HTMLDivElement>(null);
  const [side, setSide] = useState(true);
  useLayoutEffect(() => {
    const row = ref.current;
    if (!row) return;
    const check = () => {
      const [a, b] = Array.from(row.children) as HTMLElement[];
      setSide(!!a && !!b && a.offsetTop === b.offsetTop);
    };
    check();
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(check) : null;
    ro?.observe(row);
    return () => ro?.disconnect();
  }, []);
  return [ref, side] as const;
}

export default function BackchannelPage() {
  const { devid = '', chnid = '', day = '' } = useParams();
  if (!parseDay(day)) return <Navigate to={backchannelPath(devid, chnid, today())} replace />;
  return <Backchannel key={`${devid}/${chnid}`} device={devid} channel={chnid} day={day} />;
}

function Backchannel({ device, channel, day }: { device: string; channel: string; day: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const qc = useQueryClient();
  const admin = isAdminRole(useSession((s) => s.userinfo?.role));
  const mobile = useUi((s) => s.isMobile);
  const [rowRef, sideBySide] = useSideBySide();
  // Side by side the page fits the window (1366×768 scrolled by a line or two: the English hint,
  // a range's summary, the download's progress): the player gives up the height the rest needs,
  // down to FIT_MIN_PLAYER_PX, and a long day list scrolls in its card. Stacked (a phone), it scrolls.
  const fit = !mobile && sideBySide;
  const videoRef = useRef<HTMLVideoElement>(null);
  const [month, setMonth] = useState(monthOf(day));
  const [view, setView] = useState<View>({ start: 0, span: DAY });
  const [selection, setSelection] = useState<Range | null>(null);
  const [position, setPosition] = useState<number | undefined>(undefined);
  // The platform's recordings, or (GB28181 channels) those kept on the device: in the address
  // (?source=Device), so the segment list, a day picked on the calendar and a reload keep it.
  const [params, setParams] = useSearchParams();
  const source = sourceFromQuery(params.get('source'));
  const setSource = useCallback(
    (v: RecordSource) => {
      const next = new URLSearchParams(params);
      if (v === 'Device') next.set('source', 'Device');
      else next.delete('source');
      setParams(next, { replace: true });
    },
    [params, setParams],
  );
  // Starts muted (a browser plays a muted video without a click first); the recordings keep their sound.
  const [muted, setMuted] = useState(true);
  useEffect(() => {
    if (videoRef.current) videoRef.current.muted = muted;
  }, [muted]);

  useEffect(() => setMonth(monthOf(day)), [day]);

  // Its name, device name and type (a GB28181 channel also has recordings on the device): the one
  // camera, wherever it sits in the device's folders; every channel of the device was 350 KB for an
  // NVR of 500, and the top level alone had no camera under a GB folder (no name, no device source).
  const chan = useQuery({ queryKey: ['playback', 'channel', device, channel], queryFn: () => fetchOneChannel(device, channel) }).data ?? undefined;
  const name = chan?.Name || `${device}_${channel}`;
  const deviceOk = deviceSourceAvailable(chan?.DeviceType);
  const onDevice = source === 'Device';

  const monthly = useQuery({ queryKey: ['playback', 'monthly', device, channel, month, source], queryFn: () => fetchMonthly(device, channel, month, source) });
  const recorded = useMemo(() => recordedDays(monthly.data, month), [monthly.data, month]);
  const isToday = day === today();
  const { query: daily, list, ranges, important } = useDayRecords(device, channel, day, isToday && !onDevice ? 30_000 : undefined, source);
  // Each failure once: the calendar says why its month could not be read unless the day's list says the same.
  const monthError = monthly.isError ? (monthly.error as Error).message : undefined;
  const calendarError = monthError !== undefined && !(daily.isError && (daily.error as Error).message === monthError) ? monthError : undefined;
  // A retry is offered for what may pass (a device that did not answer, a failed connection), not for
  // a channel that does not exist or is not the user's (404), a refusal (403) or a bad request (400):
  // asking again gets the same answer (session 27 walk: 通道 1/1不存在 with a 重试 button).
  const dayMayPass = !(daily.error instanceof RequestError && [400, 403, 404].includes(daily.error.code));

  const pb = usePlayback(videoRef, device, channel, day, source);
  const { state } = pb;
  const chooseSource = (v: RecordSource) => {
    setSource(v);
    setSelection(null);
    if (v === 'Device' && state.speed > 8) pb.setSpeed(1);
  };

  // The playhead follows the media clock, and the view the playhead (unless moved away from it).
  const lastRef = useRef<number | undefined>(undefined);
  useEffect(() => {
    const timer = setInterval(() => {
      const p = pb.position();
      const last = lastRef.current;
      lastRef.current = p;
      setPosition(p);
      if (p !== undefined && state.phase === 'playing') setView((v) => followPlayhead(v, p, last));
    }, 250);
    return () => clearInterval(timer);
  }, [pb, state.phase]);

  const seek = useCallback(
    (second: number) => {
      const r = rangeAtOrAfter(ranges, second);
      if (!r) {
        notify.warning(t('playback.nothingAfter'));
        return;
      }
      void pb.playAt(Math.max(second, r[0]));
    },
    [ranges, pb, t],
  );

  // ?t=<second>: start there once the day's ranges are known (the segment list's play button).
  const startAt = params.get('t');
  useEffect(() => {
    if (startAt === null || !ranges.length) return;
    const tt = Number(startAt);
    params.delete('t');
    setParams(params, { replace: true });
    if (Number.isFinite(tt)) seek(tt);
  }, [startAt, ranges, params, setParams, seek]);

  // The star acts on the selection, or else on the segment under the playhead (a few minutes): never
  // on the whole run of recording around it, which can be hours that retention would then never free.
  const markSpan: Range | undefined = selection ?? (position !== undefined ? [position, position + 1] : undefined);
  const current = markSpan ? list.find((r) => r.end > markSpan[0] && r.start < markSpan[1]) : undefined;

  const toggleImportant = async () => {
    if (!current?.ids?.length || !markSpan) return;
    try {
      await setImportantBetween(device, channel, stampAt(day, markSpan[0]), stampAt(day, Math.max(markSpan[1], markSpan[0] + 1)), current.important !== 1);
      notify.success(current.important === 1 ? t('playback.unmarked') : t('playback.marked'));
      void daily.refetch();
    } catch {
      /* the request layer said why */
    }
  };
  const deleteDay = async () => {
    try {
      const r = await removeDaily(device, channel, day);
      notify.success(t('playback.dayDeleted', { removed: r.Removed, kept: r.Kept }));
      pb.stop();
      void daily.refetch();
      void qc.invalidateQueries({ queryKey: ['playback', 'monthly', device, channel] });
    } catch {
      /* the request layer said why */
    }
  };
  const snapshot = async () => {
    const video = videoRef.current;
    if (!video) return;
    const base = parseDay(day)!;
    const at = new Date(base.getTime() + (position ?? 0) * 1000);
    if (!(await downloadSnapshot(video, name, at))) notify.warning(t('player.noFrame'));
  };

  const playing = state.phase === 'playing';
  /** The day as the breadcrumb and the confirmation show it (YYYY-MM-DD). */
  const date = `${day.slice(0, 4)}-${day.slice(4, 6)}-${day.slice(6)}`;
  const total = list.reduce((n, r) => n + (r.end - r.start), 0);

  /** A column that passes its height on to its cards (fit). */
  const column: CSSProperties = fit ? { display: 'flex', flexDirection: 'column', minHeight: 0, maxHeight: '100%' } : {};
  /** A card that may be shorter than its content, and its body (fit). */
  const shrinkCard: CSSProperties = fit ? { display: 'flex', flexDirection: 'column', minHeight: 0, flex: '0 1 auto' } : {};
  const shrinkBody: CSSProperties = fit ? { display: 'flex', flexDirection: 'column', minHeight: 0, flex: '0 1 auto' } : {};

  return (
    <div
      style={fit ? { padding: 16, boxSizing: 'border-box', height: `max(${FIT_MIN_PAGE_PX}px, calc(100vh - ${TOP_BAR_PX}px))`, display: 'flex', flexDirection: 'column' } : { padding: 16 }}
    >
      <RecordingBreadcrumb
        parents={channelCrumbs(t, device, channel, chan)}
        node={{ key: `day:${day}`, label: date }}
        stime={day}
      />
      <PageTitle
        // As the player page: a channel the server does not list to the user (outside the role, gone, or
        // still loading) is not titled by its bare id, and its segment list is not offered (the list
        // says why there is nothing).
        title={chan ? `${t('route.videoBackchannel')} · ${name}` : t('route.videoBackchannel')}
        extra={
          chan && (
            <Space>
              {deviceOk && <RecordSourceSwitch value={source} onChange={chooseSource} />}
              <Button icon={<UnorderedListOutlined />} onClick={() => navigate(withSource(backtimePath(device, channel, day), source))}>
                {t('playback.segmentList')}
              </Button>
            </Space>
          )
        }
      />
      <Row ref={rowRef} gutter={[16, 12]} style={fit ? { flex: '1 1 0', minHeight: 0 } : undefined}>
        {/* On a phone the columns stack: the player first, the calendar and the day's list under it. */}
        <Col flex="300px" style={{ order: mobile ? 2 : 1, ...column }}>
          <Card size="small" style={{ flex: 'none' }}>
            <MonthCalendar
              month={month}
              selected={day}
              recorded={recorded}
              loading={monthly.isFetching}
              error={calendarError}
              onMonth={(m, d) => setMonth(shiftMonth(m, d))}
              onPick={(d) => navigate(withSource(backchannelPath(device, channel, d), source))}
            />
          </Card>
          <Card size="small" style={{ marginTop: 12, ...shrinkCard }} styles={{ body: shrinkBody }} title={t('playback.dayRecords')}>
            {daily.isLoading ? (
              <Spin />
            ) : daily.isError ? (
              // Not "no recordings": the list could not be had (a device offline or silent says so).
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<Typography.Text type="danger" data-testid="day-error">{(daily.error as Error).message}</Typography.Text>}>
                {dayMayPass && (
                  <Button size="small" onClick={() => void daily.refetch()}>
                    {t('player.retry')}
                  </Button>
                )}
              </Empty>
            ) : list.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('playback.noRecords')}>
                {/* A GB28181 channel the platform does not record often has its recordings on the device (an NVR). */}
                {deviceOk && !onDevice && (
                  <Button size="small" data-testid="try-device-source" onClick={() => chooseSource('Device')}>
                    {t('gbDevice.recordsOnDevice')}
                  </Button>
                )}
              </Empty>
            ) : (
              <>
                <Typography.Text type="secondary" data-testid="day-summary">
                  {t('playback.daySummary', { count: list.length, duration: clock(total) })}
                </Typography.Text>
                {daily.data?.complete === 0 && (
                  <Typography.Text type="warning" data-testid="device-partial" style={{ display: 'block' }}>
                    {t('playback.devicePartial', { received: daily.data.received ?? 0, sumNum: daily.data.sumNum ?? 0 })}
                  </Typography.Text>
                )}
                <div data-testid="day-ranges" style={fit ? { overflow: 'auto', marginTop: 6, minHeight: 0, flex: '0 1 auto' } : { maxHeight: 240, overflow: 'auto', marginTop: 6 }}>
                  {/* Buttons: a keyboard reaches each range (Tab, Enter) as a click does. */}
                  {list.map((r) => (
                    <button
                      key={r.name}
                      type="button"
                      data-testid="day-range"
                      onClick={() => void pb.playAt(r.start)}
                      style={{ font: 'inherit', fontSize: 12, display: 'flex', justifyContent: 'space-between', width: '100%', cursor: 'pointer', padding: '2px 0', border: 0, background: 'none', color: 'inherit', textAlign: 'left' }}
                    >
                      <span>
                        {clock(r.start)} – {clock(r.end)}
                      </span>
                      <span>
                        {r.important === 1 && <Tag color="gold">{t('playback.important')}</Tag>}
                        {r.recording === 1 && <Tag color="red">{t('playback.recording')}</Tag>}
                      </span>
                    </button>
                  ))}
                </div>
              </>
            )}
          </Card>
        </Col>
        {/* Basis 0 (not auto): a long line under the player (the English timeline hint) must not push
            the player under the calendar on a wide screen; below 320 px beside it, it wraps. */}
        <Col flex="1 1 0" style={{ minWidth: 320, order: mobile ? 1 : 2, ...column }}>
          <Card size="small" style={shrinkCard} styles={{ body: shrinkBody }}>
            <div
              data-testid="playback-player"
              data-phase={state.phase}
              data-request-id={state.requestId}
              style={{
                position: 'relative',
                background: '#000',
                aspectRatio: '16 / 9',
                width: '100%',
                // Fit: 16:9 while there is room, shorter (the picture letterboxed) when the rest needs it.
                ...(fit ? { flex: '0 1 auto', minHeight: FIT_MIN_PLAYER_PX } : { maxHeight: '56vh' }),
              }}
            >
              <video
                ref={videoRef}
                data-testid="playback-video"
                muted
                playsInline
                // The browser may mute it again (no sound before a click): the button follows.
                onVolumeChange={(e) => setMuted(e.currentTarget.muted)}
                style={{ width: '100%', height: '100%', objectFit: 'contain', display: 'block' }}
              />
              {/* Idle: none that day, or click one; nothing while the day is read (the timeline is still
                  empty: "click a recording on the timeline" was said over it) or when it could not be (the list
                  says why; on a phone, where the list is two screens below the player, the player says it too:
                  an operator on another's channel saw a dead black player, session 27). */}
              {state.phase !== 'playing' && state.phase !== 'paused' && (
                <div data-testid="playback-status" style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center', color: '#fff', textAlign: 'center', padding: 12 }}>
                  {state.phase === 'loading' ? <Spin description={t('player.loading')} /> : state.phase === 'idle' ? (daily.isError ? (mobile ? (daily.error as Error).message : '') : daily.isLoading ? '' : t(ranges.length ? 'playback.clickToPlay' : 'playback.noRecords')) : state.phase === 'ended' ? t('playback.ended') : state.phase === 'unsupported' ? t(isHevc(state.reason) ? 'playback.hevcUnsupported' : 'player.unsupported', { mime: state.reason }) : state.reason}
                </div>
              )}
            </div>
            {state.transcoded && (
              // Why the picture may look softer (and, above TRANSCODE_FULL_SPEED_MAX, jumps from keyframe to keyframe).
              <Typography.Text type="secondary" data-testid="playback-transcoded" style={{ display: 'block', marginTop: 4 }}>
                {t('playback.transcoded')}
                {state.speed > TRANSCODE_FULL_SPEED_MAX ? ` ${t('playback.transcodedKeyframes', { speed: TRANSCODE_FULL_SPEED_MAX })}` : ''}
              </Typography.Text>
            )}
            <Flex gap={8} align="center" wrap style={{ margin: '8px 0' }}>
              <Tooltip title={playing ? t('playback.pause') : t('playback.play')}>
                <Button
                  data-testid="play-toggle"
                  aria-label={playing ? t('playback.pause') : t('playback.play')}
                  icon={playing ? <PauseOutlined /> : <CaretRightOutlined />}
                  disabled={!ranges.length}
                  onClick={() => (playing ? pb.pause() : state.phase === 'paused' ? pb.resume() : seek((state.phase === 'ended' ? replayFrom(ranges, position) : position) ?? ranges[0]?.[0] ?? 0))}
                />
              </Tooltip>
              <Tooltip title={t('playback.back10')}>
                <Button aria-label={t('playback.back10')} icon={<BackwardOutlined />} disabled={position === undefined} onClick={() => pb.step(-10)} />
              </Tooltip>
              <Tooltip title={t('playback.forward10')}>
                <Button aria-label={t('playback.forward10')} icon={<ForwardOutlined />} disabled={position === undefined} onClick={() => pb.step(10)} />
              </Tooltip>
              <Select
                data-testid="speed"
                aria-label={t('playback.speed')}
                style={{ width: 90 }}
                value={state.speed}
                onChange={(v: number) => pb.setSpeed(v)}
                options={speedsFor(source).map((s) => ({ value: s, label: `${s}x` }))}
              />
              <Tooltip title={muted ? t('player.unmute') : t('player.mute')}>
                <Button data-testid="playback-mute" aria-label={muted ? t('player.unmute') : t('player.mute')} icon={muted ? <MutedOutlined /> : <SoundOutlined />} onClick={() => setMuted(!muted)} />
              </Tooltip>
              <Tooltip title={t('player.snapshot')}>
                <Button aria-label={t('player.snapshot')} icon={<CameraOutlined />} disabled={position === undefined} onClick={() => void snapshot()} />
              </Tooltip>
              {!onDevice && (
                <Tooltip title={current?.important === 1 ? t('playback.unmarkImportant') : t('playback.markImportant')}>
                  <Button aria-label={t('playback.markImportant')} icon={<StarOutlined />} disabled={!current?.ids?.length} type={current?.important === 1 ? 'primary' : 'default'} onClick={() => void toggleImportant()} />
                </Tooltip>
              )}
              {admin && !onDevice && (
                <Popconfirm title={t('playback.deleteDayConfirm', { day: date })} onConfirm={() => void deleteDay()} okButtonProps={{ danger: true }}>
                  <Button danger aria-label={t('playback.deleteDay')} icon={<DeleteOutlined />} disabled={!list.length}>
                    {t('playback.deleteDay')}
                  </Button>
                </Popconfirm>
              )}
              <Typography.Text data-testid="playback-position" style={{ marginLeft: 'auto', fontVariantNumeric: 'tabular-nums' }}>
                {position !== undefined ? clock(position) : '--:--:--'}
              </Typography.Text>
            </Flex>
            <Timeline ranges={ranges} important={important} view={view} onView={setView} position={position} onSeek={seek} selection={selection} onSelect={setSelection} />
            <div style={{ marginTop: 12 }}>
              <DownloadPanel device={device} channel={channel} day={day} name={name} selection={selection} onSelection={setSelection} ranges={ranges} source={source} />
            </div>
          </Card>
        </Col>
      </Row>
    </div>
  );
}
