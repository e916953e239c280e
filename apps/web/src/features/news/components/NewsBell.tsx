/** The bell of the top bar: unread count and the message list modal. */
import { useState } from 'react';
import { Badge, Button, Modal } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useNews } from '../useNews';
import { NewsList } from './NewsList';

export function NewsBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const news = useNews(true);
  return (
    <>
      <Badge count={news.unread} size="small" overflowCount={99}>
        <Button type="text" aria-label={t('news.title')} icon={<BellOutlined style={{ color: '#fff', fontSize: 18 }} />} onClick={() => setOpen(true)} />
      </Badge>
      <Modal
        open={open}
        title={t('news.title')}
        onCancel={() => setOpen(false)}
        footer={
          <Button onClick={() => void news.markRead()} disabled={news.unread === 0}>
            {t('news.readAll')}
          </Button>
        }
        width={560}
      >
        <NewsList
          items={news.items}
          loading={news.loading}
          hasMore={news.hasMore}
          height={420}
          onLoadMore={news.loadMore}
          onRead={(id) => void news.markRead(id)}
          onDelete={(id) => void news.remove(id)}
        />
      </Modal>
    </>
  );
}
