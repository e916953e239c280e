/**
 * The 24-hour timeline: recorded ranges as bars, hour ticks, the playhead, and a download
 * selection. Wheel zooms around the pointer (×2 a notch, 24 h down to 5 minutes); click or drag moves the
 * playhead and seeks on release; Shift + drag selects a range to download. From the keyboard it is a
 * slider (its keys in aria-keyshortcuts): ←/→ move the playhead (a 48th of the view, ×6 with Shift) and seek when the key is let go,
 * as a drag does on release; Home/End go to the first recording's start and the last one's last 10 s; +/−
 * zoom around the playhead. Under a mouse a line follows the pointer with the second there (HH:mm:ss, at
 * every zoom) and whether it is recorded: the playhead and the hour ticks alone left an operator to
 * guess where a click would start playing.
 */
import { useEffect, useRef, useState, type KeyboardEvent as ReactKeyboardEvent, type PointerEvent as ReactPointerEvent } from 'react';
import { Button, Space, Tooltip, Typography } from 'antd';
import { LeftOutlined, RightOutlined, ZoomInOutlined, ZoomOutOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useUi } from '../../../lib/stores/ui';
import { clock } from '../day';
import { DAY, clampView, follow, rangeBoxes, ticks, timeToX, wheelZoomFactor, xToTime, zoomAt, zoomCentre, zoomStep, type Range, type View } from '../timeline';

interface Props {
  ranges: Range[];
  important?: Range[];
  view: View;
  onView: (v: View) => void;
  position?: number;
  onSeek: (second: number) => void;
  selection?: Range | null;
  onSelect: (r: Range | null) => void;
}

const HEIGHT = 64;
/** End goes this many seconds before the end of the last recording. */
const END_LEAD = 10;

export function Timeline({ ranges, important = [], view, onView, position, onSeek, selection, onSelect }: Props) {
  const { t } = useTranslation();
  // A phone has neither a wheel nor Shift: its hint says what a finger does.
  const touch = useUi((s) => s.isMobile);
  const boxRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  const [drag, setDrag] = useState<{ mode: 'seek' | 'select'; from: number; to: number } | null>(null);
  /** The second under a mouse or pen (a finger has no hover: its moves are drags). */
  const [hover, setHover] = useState<number | null>(null);
  const viewRef = useRef(view);
  useEffect(() => {
    viewRef.current = view;
  }, [view]);

  useEffect(() => {
    const el = boxRef.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth || 800);
    measure();
    const ro = typeof ResizeObserver !== 'undefined' ? new ResizeObserver(measure) : null;
    ro?.observe(el);
    // Wheel zoom needs a non-passive listener to keep the page from scrolling.
    const onWheel = (e: WheelEvent) => {
      e.preventDefault();
      const rect = el.getBoundingClientRect();
      const v = viewRef.current;
      const anchor = xToTime(e.clientX - rect.left, v, rect.width || 1);
      onView(zoomAt(v, wheelZoomFactor(e), anchor));
    };
    el.addEventListener('wheel', onWheel, { passive: false });
    return () => {
      ro?.disconnect();
      el.removeEventListener('wheel', onWheel);
    };
  }, [onView]);

  const timeAt = (e: ReactPointerEvent) => {
    const rect = boxRef.current!.getBoundingClientRect();
    return xToTime(e.clientX - rect.left, view, rect.width || width);
  };
  const onDown = (e: ReactPointerEvent) => {
    if (e.button !== 0) return;
    (e.target as Element).setPointerCapture?.(e.pointerId);
    const tt = timeAt(e);
    setDrag({ mode: e.shiftKey ? 'select' : 'seek', from: tt, to: tt });
  };
  const onMove = (e: ReactPointerEvent) => {
    const tt = timeAt(e);
    if (e.pointerType !== 'touch') setHover(tt);
    if (!drag) return;
    setDrag({ ...drag, to: tt });
  };
  const onUp = (e: ReactPointerEvent) => {
    if (!drag) return;
    const to = timeAt(e);
    if (drag.mode === 'seek') onSeek(to);
    else {
      const a = Math.min(drag.from, to);
      const b = Math.max(drag.from, to);
      onSelect(b - a >= 1 ? [Math.floor(a), Math.ceil(b)] : null);
    }
    setDrag(null);
  };

  /** Keys that move the playhead: where each puts it from `at`. */
  const keyTarget = (key: string, shift: boolean, at: number): number | undefined => {
    const step = Math.max(1, Math.round(view.span / 48)) * (shift ? 6 : 1);
    if (key === 'ArrowLeft' || key === 'ArrowDown') return Math.max(0, at - step);
    if (key === 'ArrowRight' || key === 'ArrowUp') return Math.min(DAY, at + step);
    if (key === 'Home') return ranges[0]?.[0] ?? 0;
    // The last 10 s recorded (its very end has nothing after it to play).
    if (key === 'End') {
      const last = ranges.at(-1);
      return last ? Math.max(last[0], last[1] - END_LEAD) : DAY;
    }
    return undefined;
  };
  const onKeyDown = (e: ReactKeyboardEvent) => {
    if (e.key === '+' || e.key === '=' || e.key === '-' || e.key === '_') {
      e.preventDefault();
      onView(zoomStep(view, e.key === '+' || e.key === '=' ? 1 : -1, zoomCentre(view, drag?.to ?? position, selection, ranges)));
      return;
    }
    if (e.key === 'Enter' && !drag) {
      e.preventDefault();
      if (position !== undefined) onSeek(position);
      else if (ranges.length) onSeek(ranges[0][0]);
      return;
    }
    const from = drag?.mode === 'seek' ? drag.to : (position ?? ranges[0]?.[0] ?? view.start);
    const to = keyTarget(e.key, e.shiftKey, from);
    if (to === undefined) return;
    e.preventDefault();
    setDrag({ mode: 'seek', from, to });
    onView(follow(view, to));
  };
  const onKeyUp = (e: ReactKeyboardEvent) => {
    if (!drag || drag.mode !== 'seek' || keyTarget(e.key, false, 0) === undefined) return;
    onSeek(drag.to);
    setDrag(null);
  };

  const head = drag?.mode === 'seek' ? drag.to : position;
  const sel: Range | null | undefined = drag?.mode === 'select' ? [Math.min(drag.from, drag.to), Math.max(drag.from, drag.to)] : selection;
  const centre = zoomCentre(view, head, sel, ranges);

  return (
    <div>
      <Space style={{ marginBottom: 4 }} wrap>
        <Tooltip title={t('playback.zoomIn')}>
          <Button size="small" aria-label={t('playback.zoomIn')} icon={<ZoomInOutlined />} onClick={() => onView(zoomStep(view, 1, centre))} />
        </Tooltip>
        <Tooltip title={t('playback.zoomOut')}>
          <Button size="small" aria-label={t('playback.zoomOut')} icon={<ZoomOutOutlined />} onClick={() => onView(zoomStep(view, -1, centre))} />
        </Tooltip>
        <Tooltip title={t('playback.panLeft')}>
          <Button size="small" aria-label={t('playback.panLeft')} icon={<LeftOutlined />} onClick={() => onView(clampView({ ...view, start: view.start - view.span / 2 }))} />
        </Tooltip>
        <Tooltip title={t('playback.panRight')}>
          <Button size="small" aria-label={t('playback.panRight')} icon={<RightOutlined />} onClick={() => onView(clampView({ ...view, start: view.start + view.span / 2 }))} />
        </Tooltip>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="timeline-window">
          {clock(view.start)} – {clock(view.start + view.span)}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t(touch ? 'playback.timelineHintTouch' : 'playback.timelineHint')}
        </Typography.Text>
      </Space>
      <div
        ref={boxRef}
        data-testid="timeline"
        data-start={view.start}
        data-span={view.span}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onPointerLeave={() => setHover(null)}
        tabIndex={0}
        role="slider"
        aria-label={t('playback.timeline')}
        aria-valuemin={0}
        aria-valuemax={DAY}
        aria-valuenow={Math.round(head ?? 0)}
        aria-valuetext={head !== undefined ? clock(head) : t('playback.clickToPlay')}
        // Named here, not in the hint under the buttons: a longer hint took a second line and pushed
        // the download range under the fold of a 1366×768 window.
        aria-keyshortcuts="ArrowLeft ArrowRight Shift+ArrowLeft Shift+ArrowRight Home End + -"
        onKeyDown={onKeyDown}
        onKeyUp={onKeyUp}
        onBlur={() => drag?.mode === 'seek' && setDrag(null)}
        style={{ position: 'relative', height: HEIGHT, background: '#1f1f1f', borderRadius: 4, cursor: 'pointer', userSelect: 'none', touchAction: 'none', overflow: 'hidden' }}
      >
        {rangeBoxes(ranges, view, width).map((b, i) => (
          <div key={`r${i}`} data-testid="timeline-range" style={{ position: 'absolute', top: 22, height: 24, left: b.left, width: b.width, background: '#3b82f6', pointerEvents: 'none' }} />
        ))}
        {rangeBoxes(important, view, width).map((b, i) => (
          <div key={`i${i}`} style={{ position: 'absolute', top: 42, height: 4, left: b.left, width: b.width, background: '#f59e0b', pointerEvents: 'none' }} />
        ))}
        {ticks(view, width).map((tt) => (
          <div key={tt} style={{ position: 'absolute', left: timeToX(tt, view, width), top: 0, height: 20, borderLeft: '1px solid #666', pointerEvents: 'none' }}>
            <span style={{ color: '#bbb', fontSize: 10, marginLeft: 2 }}>{clock(tt).slice(0, tt % 60 === 0 ? 5 : 8)}</span>
          </div>
        ))}
        {sel && (
          <div
            data-testid="timeline-selection"
            style={{
              position: 'absolute',
              top: 18,
              bottom: 0,
              left: timeToX(sel[0], view, width),
              width: Math.max(1, timeToX(sel[1], view, width) - timeToX(sel[0], view, width)),
              background: 'rgba(250, 204, 21, 0.35)',
              border: '1px solid #facc15',
              pointerEvents: 'none',
            }}
          />
        )}
        {hover !== null && hover >= view.start && hover <= view.start + view.span && (
          <HoverMark x={timeToX(hover, view, width)} second={hover} recorded={isRecorded(ranges, hover)} flip={timeToX(hover, view, width) > width / 2} />
        )}
        {head !== undefined && head >= view.start && head <= view.start + view.span && (
          <div data-testid="playhead" data-time={Math.round(head)} style={{ position: 'absolute', top: 0, bottom: 0, left: timeToX(head, view, width), borderLeft: '2px solid #ef4444', pointerEvents: 'none' }}>
            <span style={{ position: 'absolute', bottom: 0, left: 3, color: '#fff', fontSize: 10, background: '#ef4444', padding: '0 2px' }}>{clock(head)}</span>
          </div>
        )}
      </div>
    </div>
  );
}

/** Whether the second that holds `t` is inside a recorded range. */
export function isRecorded(ranges: readonly Range[], t: number): boolean {
  const s = Math.floor(t);
  return ranges.some(([a, b]) => s >= a && s < b);
}

/** The pointer's line and its label (on the line's left in the right half, so it stays in the box). */
function HoverMark({ x, second, recorded, flip }: { x: number; second: number; recorded: boolean; flip: boolean }) {
  const { t } = useTranslation();
  return (
    <div
      data-testid="timeline-hover"
      data-time={Math.floor(second)}
      data-recorded={recorded ? '1' : '0'}
      aria-hidden
      style={{ position: 'absolute', top: 0, bottom: 0, left: x, borderLeft: '1px dashed rgba(255,255,255,0.85)', pointerEvents: 'none' }}
    >
      <span
        style={{
          position: 'absolute',
          top: 0,
          ...(flip ? { right: 3 } : { left: 3 }),
          whiteSpace: 'nowrap',
          fontSize: 11,
          lineHeight: '16px',
          padding: '0 4px',
          borderRadius: 2,
          background: 'rgba(0,0,0,0.85)',
          color: '#fff',
          fontVariantNumeric: 'tabular-nums',
        }}
      >
        {clock(Math.floor(second))} <span style={{ color: recorded ? '#73d13d' : '#bfbfbf' }}>{recorded ? t('playback.hoverRecorded') : t('playback.hoverNotRecorded')}</span>
      </span>
    </div>
  );
}
