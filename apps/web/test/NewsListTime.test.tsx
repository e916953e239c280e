/**
 * The messages of the top bar (and /news/list) show when a channel went on or off line in local time,
 * as every other time of the console: the server keeps NewsTime as an ISO text in UTC, which the rows
 * showed as it came ("2026-11-27T22:32:49.146Z", hours off for an operator in UTC+8).
 */
import { describe, expect, it } from 'vitest';
import { screen } from '@testing-library/react';
import type { NewsItem } from '@opencvr/shared';
import { NewsList } from '../src/features/news/components/NewsList';
import { renderConsole } from './helpers/console';

const at = new Date(2026, 10, 27, 13, 24, 20, 146);
const item: NewsItem = { ID: 1, Status: 'OFF', DeviceID: '2', ChannelID: '1', ChannelName: 'Cam B', NewsTime: at.toISOString(), sign: 0 };

describe('NewsList', () => {
  it('shows the time of a message in local time as YYYY-MM-DD HH:mm:ss', () => {
    renderConsole(<NewsList items={[item]} loading={false} hasMore={false} height={400} onLoadMore={() => {}} onRead={() => {}} onDelete={() => {}} />);
    const row = screen.getByText(/Cam B/).closest('.ant-list-item')!;
    expect(row).toHaveTextContent('2026-11-27 13:24:20');
    expect(row).not.toHaveTextContent(at.toISOString());
  });
});
