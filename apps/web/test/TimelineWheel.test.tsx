/**
 * The playback timeline's wheel zoom: a mouse wheel's notch halves the span around the pointer, so a
 * few notches bring a short recording to a usable width. Six notches used to zoom 24 h only to about
 * 6 h (0.8 a notch), where a 3-minute recording was a sliver of 2-6 px. Click to seek still works in
 * the zoomed view.
 */
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { setLang } from '../src/i18n';
import { Timeline } from '../src/features/playback/components/Timeline';
import { DAY, wheelZoomFactor, type Range, type View } from '../src/features/playback/timeline';

const WIDTH = 800;
/** A 3-minute recording at 10:00. */
const RECORDING: Range = [10 * 3600, 10 * 3600 + 180];

function Harness({ onSeek }: { onSeek: (s: number) => void }) {
  const [view, setView] = useState<View>({ start: 0, span: DAY });
  return <Timeline ranges={[RECORDING]} view={view} onView={setView} onSeek={onSeek} onSelect={() => undefined} />;
}

/** The timeline drawn WIDTH px wide from x = 0 (jsdom lays nothing out). */
function renderTimeline(onSeek = vi.fn()) {
  render(<Harness onSeek={onSeek} />);
  const el = screen.getByTestId('timeline');
  Object.defineProperty(el, 'clientWidth', { value: WIDTH, configurable: true });
  el.getBoundingClientRect = () => ({ left: 0, top: 0, width: WIDTH, height: 64, right: WIDTH, bottom: 64, x: 0, y: 0, toJSON: () => ({}) });
  window.dispatchEvent(new Event('resize'));
  return { el, onSeek };
}

const xOf = (el: HTMLElement, t: number) => ((t - Number(el.dataset.start)) / Number(el.dataset.span)) * WIDTH;

describe('timeline wheel zoom', () => {
  it('six notches on a 3-minute recording zoom the day to under half an hour, keeping the recording under the pointer', () => {
    const { el } = renderTimeline();
    const mid = (RECORDING[0] + RECORDING[1]) / 2;
    for (let i = 0; i < 6; i++) fireEvent.wheel(el, { deltaY: -100, deltaMode: 0, clientX: xOf(el, mid) });
    const span = Number(el.dataset.span);
    expect(span).toBeLessThanOrEqual(DAY / 64);
    // the recording stays under the pointer and is now tens of pixels wide
    const left = xOf(el, RECORDING[0]);
    const right = xOf(el, RECORDING[1]);
    expect(left).toBeGreaterThan(0);
    expect(right).toBeLessThan(WIDTH);
    expect(right - left).toBeGreaterThanOrEqual((180 / span) * WIDTH - 1);
    expect((180 / span) * WIDTH).toBeGreaterThan(80);
    // notches down zoom back out to the whole day
    for (let i = 0; i < 8; i++) fireEvent.wheel(el, { deltaY: 100, deltaMode: 0, clientX: 400 });
    expect(Number(el.dataset.span)).toBe(DAY);
  });

  it('a click in the zoomed view still seeks to the second under it', () => {
    const { el, onSeek } = renderTimeline();
    const mid = (RECORDING[0] + RECORDING[1]) / 2;
    for (let i = 0; i < 6; i++) fireEvent.wheel(el, { deltaY: -100, deltaMode: 0, clientX: xOf(el, mid) });
    const x = xOf(el, RECORDING[0] + 60);
    fireEvent.pointerDown(el, { button: 0, clientX: x, pointerId: 1 });
    fireEvent.pointerUp(el, { button: 0, clientX: x, pointerId: 1 });
    expect(onSeek).toHaveBeenCalledTimes(1);
    expect(onSeek.mock.calls[0][0]).toBeCloseTo(RECORDING[0] + 60, 0);
  });
});

describe('timeline from the keyboard', () => {
  beforeEach(() => setLang('zh-CN'));
  // It was a plain <div>: no tab stop, no keys. A keyboard could not seek anywhere but ±10 s from the start.
  it('is a slider in the tab order; arrows move the playhead and seek once the key is let go', () => {
    const { el, onSeek } = renderTimeline();
    const slider = screen.getByRole('slider', { name: '录像时间轴' });
    expect(slider).toBe(el);
    expect(slider.tabIndex).toBe(0);
    // Home: the first recording's start (nothing played yet).
    fireEvent.keyDown(slider, { key: 'Home' });
    expect(onSeek).not.toHaveBeenCalled();
    expect(slider).toHaveAttribute('aria-valuetext', '10:00:00');
    fireEvent.keyUp(slider, { key: 'Home' });
    expect(onSeek).toHaveBeenLastCalledWith(RECORDING[0]);
    // Held: three repeats move 3 × a 48th of the day (30 min each), one seek on release.
    onSeek.mockClear();
    for (let i = 0; i < 3; i++) fireEvent.keyDown(slider, { key: 'ArrowRight', repeat: i > 0 });
    expect(slider).toHaveAttribute('aria-valuetext', '11:30:00');
    fireEvent.keyUp(slider, { key: 'ArrowRight' });
    expect(onSeek).toHaveBeenCalledTimes(1);
    expect(onSeek).toHaveBeenCalledWith(RECORDING[0] + 3 * 1800);
    // End: the last 10 s recorded.
    fireEvent.keyDown(slider, { key: 'End' });
    fireEvent.keyUp(slider, { key: 'End' });
    expect(onSeek).toHaveBeenLastCalledWith(RECORDING[1] - 10);
  });

  it('+ and − zoom around the playhead', () => {
    const { el } = renderTimeline();
    const slider = screen.getByRole('slider');
    fireEvent.keyDown(slider, { key: '+' });
    fireEvent.keyDown(slider, { key: '+' });
    expect(Number(el.dataset.span)).toBe(6 * 3600);
    // around the recording (the playhead not set: the middle of what is recorded in view)
    expect(Number(el.dataset.start)).toBeLessThan(RECORDING[0]);
    expect(Number(el.dataset.start) + Number(el.dataset.span)).toBeGreaterThan(RECORDING[1]);
    fireEvent.keyDown(slider, { key: '-' });
    expect(Number(el.dataset.span)).toBe(12 * 3600);
  });
});

describe('timeline under the pointer', () => {
  beforeEach(() => setLang('zh-CN'));
  // Nothing said which second a click would play: an operator guessed from the hour ticks.
  it('shows the second under a mouse and whether it is recorded, at every zoom, and goes when the pointer leaves', () => {
    const { el } = renderTimeline();
    expect(screen.queryByTestId('timeline-hover')).toBeNull();
    const over = (t: number) => fireEvent.pointerMove(el, { clientX: xOf(el, t), pointerType: 'mouse' });
    // The whole day: 800 px for 24 h, 108 s a pixel.
    over(RECORDING[0] + 54);
    let mark = screen.getByTestId('timeline-hover');
    const at = Number(mark.dataset.time);
    expect(Math.abs(at - (RECORDING[0] + 54))).toBeLessThanOrEqual(1);
    const hhmmss = (t: number) => [Math.floor(t / 3600), Math.floor((t % 3600) / 60), t % 60].map((n) => String(n).padStart(2, '0')).join(':');
    expect(mark).toHaveTextContent(`${hhmmss(at)} 有录像`);
    expect(parseFloat(mark.style.left)).toBeCloseTo(xOf(el, RECORDING[0] + 54), 3);
    over(9 * 3600);
    mark = screen.getByTestId('timeline-hover');
    expect(mark).toHaveTextContent('09:00:00 无录像');
    expect(mark).toHaveAttribute('data-recorded', '0');
    // Zoomed to minutes around the recording: to the second.
    const mid = (RECORDING[0] + RECORDING[1]) / 2;
    for (let i = 0; i < 8; i++) fireEvent.wheel(el, { deltaY: -100, deltaMode: 0, clientX: xOf(el, mid) });
    expect(Number(el.dataset.span)).toBeLessThanOrEqual(600);
    over(RECORDING[1] - 1);
    expect(screen.getByTestId('timeline-hover')).toHaveTextContent('10:02:59 有录像');
    over(RECORDING[1]);
    expect(screen.getByTestId('timeline-hover')).toHaveTextContent('10:03:00 无录像');
    setLang('en-US');
    over(RECORDING[0] + 7);
    expect(screen.getByTestId('timeline-hover')).toHaveTextContent('10:00:07 recorded');
    fireEvent.pointerLeave(el, { pointerType: 'mouse' });
    expect(screen.queryByTestId('timeline-hover')).toBeNull();
    // A finger has no hover: its moves are drags.
    fireEvent.pointerMove(el, { clientX: xOf(el, mid), pointerType: 'touch' });
    expect(screen.queryByTestId('timeline-hover')).toBeNull();
  });
});

describe('wheelZoomFactor', () => {
  it('a mouse notch (pixels or lines) halves or doubles; a trackpad nudge zooms a little', () => {
    expect(wheelZoomFactor({ deltaY: -100, deltaMode: 0 })).toBe(0.5);
    expect(wheelZoomFactor({ deltaY: 120, deltaMode: 0 })).toBe(2);
    expect(wheelZoomFactor({ deltaY: -3, deltaMode: 1 })).toBe(0.5);
    const nudge = wheelZoomFactor({ deltaY: -4, deltaMode: 0 });
    expect(nudge).toBeGreaterThan(0.9);
    expect(nudge).toBeLessThan(1);
  });
});
