/**
 * antd's date pickers take their week-day and month names from dayjs: they must follow the console's
 * language (Chinese by default), and switch with it, as the rest of the console's words do.
 */
import { describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import { setLang } from '../src/i18n';
// For its ResizeObserver stand-in (antd's picker popup observes its size; jsdom has none).
import './helpers/console';
import { ConsoleLocale } from '../src/app/ConsoleLocale';

const NOVEMBER = dayjs('2026-11-27');

function renderPicker(picker?: 'month') {
  return render(
    <ConsoleLocale>
      <DatePicker open picker={picker} defaultPickerValue={NOVEMBER} />
    </ConsoleLocale>,
  );
}

const headerView = () => document.querySelector('.ant-picker-header-view')?.textContent;
const headerCells = () =>
  Array.from(document.querySelectorAll('.ant-picker-content thead th')).map((th) => th.textContent);

describe('date picker language', () => {
  it('shows Chinese week days and months in the Chinese console, starting the week on Monday', () => {
    act(() => setLang('zh-CN'));
    renderPicker();
    expect(headerCells()).toEqual(['一', '二', '三', '四', '五', '六', '日']);
    expect(headerView()).toBe('2026年11月');
  });

  it('shows English in the English console and switches back with the language', () => {
    act(() => setLang('en-US'));
    const { unmount } = renderPicker();
    expect(headerCells()).toEqual(['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa']);
    expect(headerView()).toBe('Nov2026');
    act(() => setLang('zh-CN'));
    expect(headerCells()).toEqual(['一', '二', '三', '四', '五', '六', '日']);
    expect(headerView()).toBe('2026年11月');
    unmount();
  });

  it('names the months in the month panel in the console language', () => {
    act(() => setLang('zh-CN'));
    renderPicker('month');
    expect(screen.getByText('11月')).toBeInTheDocument();
    expect(dayjs().locale()).toBe('zh-cn');
  });
});
