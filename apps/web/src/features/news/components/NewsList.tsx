/** Message rows: device id, channel name, 上线/离线, time, with read then delete (spec 2, 4). */
import type { UIEvent } from 'react';
import { Badge, Button, Empty, List, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { NewsItem } from '@opencvr/shared';
import { formatDateTime } from '../../../lib/time';

export interface NewsListProps {
  items: NewsItem[];
  loading: boolean;
  hasMore: boolean;
  height: number;
  onLoadMore: () => void;
  onRead: (id: number) => void;
  onDelete: (id: number) => void;
}

export function NewsList({ items, loading, hasMore, height, onLoadMore, onRead, onDelete }: NewsListProps) {
  const { t } = useTranslation();
  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    // Within a few pixels of the bottom counts as the bottom (fractional scroll positions).
    if (hasMore && !loading && el.scrollHeight - el.scrollTop - el.clientHeight < 4) onLoadMore();
  };
  return (
    <div style={{ maxHeight: height, overflowY: 'auto' }} onScroll={onScroll} data-testid="news-scroll">
      {items.length === 0 && !loading ? (
        <Empty description={t('news.empty')} />
      ) : (
        <List
          dataSource={items}
          renderItem={(n) => (
            <List.Item
              actions={[
                n.sign === 0 ? (
                  <Button key="read" size="small" type="link" onClick={() => onRead(n.ID)}>
                    {t('news.read')}
                  </Button>
                ) : (
                  <Button key="delete" size="small" type="link" danger onClick={() => onDelete(n.ID)}>
                    {t('common.delete')}
                  </Button>
                ),
              ]}
            >
              <List.Item.Meta
                avatar={<Badge dot={n.sign === 0} />}
                title={
                  <span>
                    <Typography.Text>{n.ChannelName || n.ChannelID}</Typography.Text>{' '}
                    <Tag color={n.Status === 'ON' ? 'green' : 'red'}>{n.Status === 'ON' ? t('news.on') : t('news.off')}</Tag>
                  </span>
                }
                description={
                  <span>
                    {t('news.device')}: {n.DeviceID} · {formatDateTime(n.NewsTime)}
                  </span>
                }
              />
            </List.Item>
          )}
        />
      )}
      {loading && (
        <div style={{ textAlign: 'center', padding: 8 }}>
          <Spin size="small" />
        </div>
      )}
    </div>
  );
}
