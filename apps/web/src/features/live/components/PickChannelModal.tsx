/**
 * A light channel chooser for the wall: the site's cameras (all/channels cameras=1) with a search,
 * PAGE at a time with "load more" (a site of 1,500 showed its first 200 and no way to the rest but
 * searching); one click picks (errors stay quiet). A row is a button for the keyboard too (Tab,
 * Enter or Space). `picked` (the tour's chooser, open for several picks): those rows are marked
 * 已添加 and pressed, or a click there showed nothing. With `onPickAll` (the tour's chooser) it
 * also adds every camera the search finds at once: a tour over a site's hundreds of cameras was
 * one click per camera.
 */
import { useState } from 'react';
import { Badge, Button, Empty, Flex, Input, List, Modal, Spin, Tag, Typography } from 'antd';
import { CheckOutlined } from '@ant-design/icons';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useDebounced } from '../../../lib/useDebounced';
import { isEnabled } from '../../../lib/channelClick';
import { fetchAllChannels } from '../api';
import { channelId, type WallChannel } from '../wall';

/** Rows per request: a screenful and more, small enough for a quick answer. */
const PAGE = 100;
/** Rows per request when every match is taken at once ("add all"). */
const ALL_PAGE = 500;

/** Every camera matching `query`, a few requests of ALL_PAGE, as the wall takes them. */
async function allMatches(query: string): Promise<WallChannel[]> {
  const out: WallChannel[] = [];
  for (let start = 0; ; start += ALL_PAGE) {
    const page = await fetchAllChannels(query, start, ALL_PAGE, true);
    for (const c of page.Channels) if (c.Parental !== 1) out.push({ device: c.ParentDeviceID, channel: c.ChannelID, name: c.Name });
    if (!page.Channels.length || start + ALL_PAGE >= page.ChannelCount) return out;
  }
}

interface Props {
  open: boolean;
  title: string;
  onPick: (c: WallChannel) => void;
  onClose: () => void;
  /** Channels already chosen (channelId): marked, and their rows pressed. */
  picked?: ReadonlySet<string>;
  /** Offers to add every match of the search at once (the tour); given them in the list's order. */
  onPickAll?: (channels: WallChannel[]) => void;
}

export function PickChannelModal({ open, title, onPick, onClose, picked, onPickAll }: Props) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const query = useDebounced(q.trim());
  const list = useInfiniteQuery({
    queryKey: ['live', 'pick', query],
    queryFn: ({ pageParam }) => fetchAllChannels(query, pageParam, PAGE, true),
    initialPageParam: 0,
    // The next start is what the pages so far asked for, until the count is reached.
    getNextPageParam: (last, pages) => (pages.length * PAGE < last.ChannelCount ? pages.length * PAGE : undefined),
    enabled: open,
  });
  const rows = (list.data?.pages ?? []).flatMap((p) => p.Channels).filter((c) => c.Parental !== 1);
  // Busy from the keystroke (the search waits for the debounce) until its rows are shown: the rows on
  // screen are about to be replaced, and a click on one may land on the list that follows.
  const busy = q.trim() !== query || list.isFetching;
  const total = list.data?.pages.at(-1)?.ChannelCount ?? 0;
  const [addingAll, setAddingAll] = useState(false);
  const addAll = async () => {
    if (!onPickAll) return;
    setAddingAll(true);
    try {
      onPickAll(await allMatches(query));
    } catch {
      // A failed read adds nothing; the list and its search are still there to try again.
    } finally {
      setAddingAll(false);
    }
  };

  return (
    <Modal open={open} title={title} onCancel={onClose} footer={null} destroyOnHidden>
      <Flex gap={8} style={{ marginBottom: 8 }}>
        <Input.Search allowClear autoFocus value={q} onChange={(e) => setQ(e.target.value)} placeholder={t('live.browse.search')} />
        {onPickAll && (
          <Button data-testid="wall-picker-all" disabled={busy || !total} loading={addingAll} onClick={() => void addAll()}>
            {t('live.browse.addAll', { count: total })}
          </Button>
        )}
      </Flex>
      <Spin spinning={list.isFetching && !list.isFetchingNextPage}>
        <div style={{ height: 380, overflow: 'auto' }} data-testid="wall-picker" aria-busy={busy}>
          {rows.length ? (
            <List
              size="small"
              dataSource={rows}
              renderItem={(c) => {
                const pick = { device: c.ParentDeviceID, channel: c.ChannelID, name: c.Name };
                const chosen = picked?.has(channelId(pick));
                return (
                  <List.Item
                    style={{ cursor: 'pointer' }}
                    data-testid="wall-picker-item"
                    role="button"
                    tabIndex={0}
                    aria-pressed={picked ? !!chosen : undefined}
                    onClick={() => onPick(pick)}
                    onKeyDown={(e) => {
                      if (e.key !== 'Enter' && e.key !== ' ') return;
                      e.preventDefault();
                      onPick(pick);
                    }}
                  >
                    <span>
                      <Badge status={!isEnabled(c) ? 'warning' : c.Online === 1 ? 'success' : 'default'} text={c.Name} />
                      {chosen && (
                        <Tag color="blue" icon={<CheckOutlined />} style={{ marginLeft: 8 }}>
                          {t('live.browse.added')}
                        </Tag>
                      )}
                    </span>
                    <span style={{ color: '#999', fontSize: 12 }}>
                      {/* A switched-off channel (or device) is offline by the server's rule; say why, as the square's card does. */}
                      {!isEnabled(c) && <span data-testid="wall-picker-disabled">{t(c.Enable === 1 ? 'live.square.deviceDisabled' : 'live.square.disabled')} · </span>}
                      {c.DeviceName}
                    </span>
                  </List.Item>
                );
              }}
            />
          ) : (
            !list.isFetching && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('live.browse.noChannels')} />
          )}
          {list.hasNextPage && (
            <div style={{ textAlign: 'center', padding: 8 }}>
              <Typography.Text type="secondary" style={{ marginRight: 8 }}>
                {t('live.browse.shown', { shown: rows.length, total })}
              </Typography.Text>
              <Button size="small" loading={list.isFetchingNextPage} onClick={() => void list.fetchNextPage()} data-testid="wall-picker-more">
                {t('live.browse.loadMore')}
              </Button>
            </div>
          )}
        </div>
      </Spin>
    </Modal>
  );
}
