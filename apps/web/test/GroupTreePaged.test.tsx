/**
 * The group list tab with a group holding a site's cameras (1,500): the level comes a page at a
 * time from group/children (start, limit; Count for the rest) with "load more", instead of every
 * camera in one answer (230 KB) for a tree that shows 50.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { GroupTree } from '../src/features/video/components/GroupTree';
import { setLang } from '../src/i18n';
import { captureNotices } from './helpers/console';
import { stubTreeServer } from './helpers/tree-server';

const CAMERAS = Array.from({ length: 1500 }, (_, i) => ({
  ID: `${i + 1}:1`,
  Name: `cam ${i + 1}`,
  FavoritesChannel: i === 1 ? 1 : 0,
  ParentID: '1',
  Parental: 0,
  IsSearchDevice: 0,
  NodeType: 'camera',
  Online: 1,
  DeviceID: String(i + 1),
  ChannelID: '1',
  Enable: 1,
}));

let asked: URL[] = [];
beforeEach(() => {
  setLang('zh-CN');
  captureNotices();
  asked = stubTreeServer((url) => {
    if (url.pathname === '/api/v1/addfavoriteschannel') return { FavoritesChannel: 1 };
    if (url.pathname !== '/api/v1/group/children') return {};
    const all = url.searchParams.get('labelid') === '0' ? [{ ID: '1', Name: 'Site', ParentID: '0', Parental: 1, IsSearchDevice: 0, NodeType: 'directory' }] : CAMERAS;
    const start = Number(url.searchParams.get('start') ?? 0);
    const limit = url.searchParams.get('limit');
    return { Nodes: limit ? all.slice(start, start + Number(limit)) : all, Count: all.length };
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** Renders the group tree and opens its one group, Site. */
async function openSite() {
  render(
    <MemoryRouter>
      <GroupTree />
    </MemoryRouter>,
  );
  const site = (await screen.findByText('Site')).closest('.ant-tree-treenode')!;
  fireEvent.click(site.querySelector('.ant-tree-switcher')!);
}

describe('group tree: a group of 1,500 cameras', { timeout: 60_000 }, () => {
  it('opens a page of it, and loads more on demand', async () => {
    await openSite();
    expect(await screen.findByText('cam 50')).toBeInTheDocument();
    expect(screen.queryByText('cam 51')).not.toBeInTheDocument();
    const levels = () => asked.filter((u) => u.pathname === '/api/v1/group/children' && u.searchParams.get('labelid') === '1');
    expect(levels()).toHaveLength(1);
    expect(levels()[0].searchParams.get('limit')).toBe('50');
    fireEvent.click(screen.getByText('加载更多'));
    expect(await screen.findByText('cam 100')).toBeInTheDocument();
    await waitFor(() => expect(levels()).toHaveLength(2));
    expect(levels()[1].searchParams.get('start')).toBe('50');
  });

  it('stars a camera: an operator has this tree only, and had no way to a favourite', async () => {
    await openSite();
    const row = (name: string) => screen.getByText(name).closest('.ant-tree-treenode') as HTMLElement;
    await screen.findByText('cam 3');
    // cam 2 is a favourite already; cam 3 is not, and its star adds it.
    expect(within(row('cam 2')).getByRole('button', { name: '取消收藏' })).toHaveAttribute('aria-pressed', 'true');
    fireEvent.click(within(row('cam 3')).getByRole('button', { name: '收藏' }));
    await waitFor(() => expect(within(row('cam 3')).getByRole('button', { name: '取消收藏' })).toHaveAttribute('aria-pressed', 'true'));
    const added = asked.filter((u) => u.pathname === '/api/v1/addfavoriteschannel');
    expect(added.map((u) => [u.searchParams.get('device'), u.searchParams.get('channel')])).toEqual([['3', '1']]);
  });
});
