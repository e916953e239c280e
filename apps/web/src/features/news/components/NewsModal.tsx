/** The bell's message list modal (a lazy chunk: the list, pagination and tags load on first open). */
import { Button, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { useNews } from '../useNews';
import { NewsList } from './NewsList';

export interface NewsModalProps {
  open: boolean;
  onClose: () => void;
  news: ReturnType<typeof useNews>;
}

export default function NewsModal({ open, onClose, news }: NewsModalProps) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('news.title')}
      onCancel={onClose}
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
  );
}
