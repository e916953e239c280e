/**
 * The playback timeline's wheel zoom: a mouse wheel's notch halves the span around the pointer, so a
 * few notches bring a short recording to a usable width. Six notches used to zoom 24 h only to about
 * 6 h (0.8 a notch), where a 3-minute recording was a sliver of 2-6 px. Click to seek still works in
 * the zoomed view.
 */
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
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
