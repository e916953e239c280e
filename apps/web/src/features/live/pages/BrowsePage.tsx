/**
 * /video/browse — the multi-screen wall (spec 3, 9): 1/4/9/16 cells kept in localStorage, a channel
 * dragged from the sidebar (or picked after clicking a cell) plays in its cell over its own
 * WebSocket, the sub-stream when more than 4 cells show, and a loop mode pages through a saved
 * channel list, each page for its interval once its pictures show (useTour). Stream and token
 * failures here stay quiet.
 */
import { useEffect, useState } from 'react';
import { Button, Segmented, Tooltip, Typography } from 'antd';
import { ClearOutlined, CloseOutlined, PauseCircleOutlined, PlayCircleOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { LAYOUTS } from '@opencvr/shared';
import { LivePlayer } from '../../../components/player/LivePlayer';
import { LoopModal } from '../components/LoopModal';
import { PickChannelModal } from '../components/PickChannelModal';
import {
  CHANNEL_DRAG_TYPE,
  cellFlow,
  emptyWall,
  gridSide,
  loadLoop,
  loadWall,
  loopPages,
  nextEmptyCell,
  parseChannel,
  saveLoop,
  saveWall,
  setCell,
  type Layout,
  type LoopState,
  type WallChannel,
} from '../wall';
import { useTour } from '../useTour';

function readDrop(e: React.DragEvent): WallChannel | null {
  const raw = e.dataTransfer.getData(CHANNEL_DRAG_TYPE);
  if (!raw) return null;
  try {
    return parseChannel(JSON.parse(raw));
  } catch {
    return null;
  }
}

export default function BrowsePage() {
  const { t, i18n } = useTranslation();
  // The page has no heading (the wall takes the height) but names the browser tab as the others do;
  // again each time it shows (a kept-alive page's effects run again) and in a new language.
  useEffect(() => {
    document.title = t('route.videoBrowse');
  }, [t, i18n.language]);
  // The layout, the cells and the tour (running or not, and its page) as stored: a reload puts the
  // wall back as it was, a tour that ran running on from the page it showed.
  const [wall, setWall] = useState(loadWall);
  useEffect(() => saveWall(wall), [wall]);
  const [loop, setLoop] = useState<LoopState>(loadLoop);
  const looping = wall.tour.running;
  const setLooping = (running: boolean) => setWall((w) => ({ ...w, tour: { running, page: 0 } }));
  const [selected, setSelected] = useState(0);
  const [picking, setPicking] = useState(false);
  const [loopOpen, setLoopOpen] = useState(false);
  const [dropTarget, setDropTarget] = useState<number | null>(null);

  const update = (next: typeof wall) => setWall(next);
  const { layout } = wall;
  const side = gridSide(layout);
  const flow = cellFlow(layout);
  // A page's interval counts from its pictures (useTour): an H.265 cell's transcoding takes seconds.
  const tour = useTour(loop.channels, layout, flow, looping, loop.interval, wall.tour.page);
  const cells = looping ? tour.cells : wall.cells.slice(0, layout);
  const pages = loopPages(loop.channels, layout);
  const tourPage = tour.tick % pages;
  useEffect(() => {
    if (looping) setWall((w) => (w.tour.page === tourPage ? w : { ...w, tour: { ...w.tour, page: tourPage } }));
  }, [looping, tourPage]);

  // The tour's status: the row's words, and the whole sentence where the language needs them shorter.
  const tourVars = { page: tourPage + 1, pages, s: loop.interval };
  const tourStatus = {
    short: t(tour.waiting ? 'live.browse.loopWaitingShort' : 'live.browse.loopRunningShort', tourVars),
    long: t(tour.waiting ? 'live.browse.loopWaiting' : 'live.browse.loopRunning', tourVars),
  };

  const place = (index: number, c: WallChannel) => {
    const next = setCell(wall, index, c);
    update(next);
    setSelected(nextEmptyCell(next, index));
  };

  return (
    <div style={{ padding: 12, height: 'calc(100vh - 64px)', display: 'flex', flexDirection: 'column', gap: 8 }}>
      {/* One row: the tour's status takes what the buttons leave (cut short, its whole text in the
          tooltip) instead of wrapping onto a row of its own that pushes the wall down. */}
      <div data-testid="wall-toolbar" style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8 }}>
        <Typography.Text>{t('live.browse.layout')}</Typography.Text>
        <Segmented
          data-testid="wall-layout"
          value={layout}
          onChange={(v) => update({ ...wall, layout: v as Layout })}
          options={LAYOUTS.map((n) => ({ value: n, label: t('live.browse.screens', { count: n }) }))}
        />
        <Button icon={<ClearOutlined />} onClick={() => update({ ...emptyWall(), layout })} disabled={looping}>
          {t('live.browse.clearAll')}
        </Button>
        <Button icon={<SettingOutlined />} onClick={() => setLoopOpen(true)}>
          {t('live.browse.loopSettings')}
        </Button>
        <Button
          type={looping ? 'primary' : 'default'}
          icon={looping ? <PauseCircleOutlined /> : <PlayCircleOutlined />}
          disabled={!looping && !loop.channels.length}
          onClick={() => setLooping(!looping)}
          data-testid="wall-loop"
        >
          {looping ? t('live.browse.loopStop') : t('live.browse.loopStart')}
        </Button>
        {looping && (
          <Tooltip title={tourStatus.long !== tourStatus.short ? tourStatus.long : undefined}>
            <Typography.Text
              type="secondary"
              data-testid="wall-tour-status"
              style={{ flex: '1 1 0', minWidth: 96, whiteSpace: 'nowrap', overflow: 'hidden', textOverflow: 'ellipsis' }}
            >
              {tourStatus.short}
            </Typography.Text>
          </Tooltip>
        )}
      </div>
      <div
        data-testid="wall"
        data-layout={layout}
        style={{
          flex: 1,
          minHeight: 0,
          display: 'grid',
          gridTemplateColumns: `repeat(${side}, 1fr)`,
          gridTemplateRows: `repeat(${side}, 1fr)`,
          gap: 2,
          background: '#141414',
          padding: 2,
        }}
      >
        {cells.map((c, i) => (
          <div
            key={i}
            data-testid="wall-cell"
            data-cell={i}
            onClick={() => !looping && setSelected(i)}
            onDragOver={(e) => {
              if (looping || !e.dataTransfer.types.includes(CHANNEL_DRAG_TYPE)) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'copy';
              setDropTarget(i);
            }}
            onDragLeave={() => setDropTarget((d) => (d === i ? null : d))}
            onDrop={(e) => {
              setDropTarget(null);
              const dropped = readDrop(e);
              if (!dropped || looping) return;
              e.preventDefault();
              place(i, dropped);
            }}
            style={{
              position: 'relative',
              minWidth: 0,
              minHeight: 0,
              outline: dropTarget === i ? '2px dashed #1677ff' : !looping && selected === i ? '2px solid #1677ff' : '1px solid #303030',
              outlineOffset: -2,
              background: '#000',
            }}
          >
            {c ? (
              <LivePlayer
                key={`${c.device}/${c.channel}/${flow}`}
                device={c.device}
                channel={c.channel}
                flow={flow}
                name={c.name}
                quiet
                compact
                onStats={looping ? (st) => tour.report(tour.keys[i]!, st.phase) : undefined}
                leave={looping ? undefined : { label: t('live.browse.remove'), onClick: () => update(setCell(wall, i, null)) }}
                extra={
                  !looping && (
                    <Tooltip title={t('live.browse.remove')}>
                      <Button
                        type="text"
                        size="small"
                        style={{ color: '#fff' }}
                        aria-label={t('live.browse.remove')}
                        icon={<CloseOutlined />}
                        onClick={(e) => {
                          e.stopPropagation();
                          update(setCell(wall, i, null));
                        }}
                      />
                    </Tooltip>
                  )
                }
              />
            ) : (
              <div
                style={{ height: '100%', display: 'flex', alignItems: 'center', justifyContent: 'center', color: '#8c8c8c', cursor: looping ? 'default' : 'pointer', textAlign: 'center', padding: 8 }}
                onClick={() => {
                  if (looping) return;
                  setSelected(i);
                  setPicking(true);
                }}
                // A button for the keyboard too (Tab, Enter or Space), not only for the mouse.
                role={looping ? undefined : 'button'}
                tabIndex={looping ? undefined : 0}
                onKeyDown={(e) => {
                  if (looping || (e.key !== 'Enter' && e.key !== ' ')) return;
                  e.preventDefault();
                  setSelected(i);
                  setPicking(true);
                }}
                data-testid="wall-empty"
              >
                {/* A touring wall takes no drops or picks: the invitation would be a control that does nothing. */}
                {!looping && t('live.browse.emptyCell')}
              </div>
            )}
          </div>
        ))}
      </div>
      <PickChannelModal
        open={picking}
        title={`${t('live.browse.pickTitle')} · ${t('live.browse.pickFor', { n: selected + 1 })}`}
        onPick={(c) => {
          place(selected, c);
          setPicking(false);
        }}
        onClose={() => setPicking(false)}
      />
      <LoopModal
        open={loopOpen}
        value={loop}
        onClose={() => setLoopOpen(false)}
        onSave={(v) => {
          saveLoop(v);
          setLoop(loadLoop());
          setLoopOpen(false);
        }}
      />
    </div>
  );
}
