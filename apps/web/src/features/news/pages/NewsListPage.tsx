/** /news/list: the message log as a page. */
import { Button, Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageTitle } from '../../../components/PageTitle';
import { NewsList } from '../components/NewsList';
import { useNews } from '../useNews';

export default function NewsListPage() {
  const { t } = useTranslation();
  const news = useNews(true);
  return (
    <div style={{ padding: 16 }}>
      <PageTitle
        title={t('route.newsList')}
        extra={
          <Button onClick={() => void news.markRead()} disabled={news.unread === 0}>
            {t('news.readAll')}
          </Button>
        }
      />
      <Card>
        <NewsList
          items={news.items}
          loading={news.loading}
          hasMore={news.hasMore}
          height={window.innerHeight - 220}
          onLoadMore={news.loadMore}
          onRead={(id) => void news.markRead(id)}
          onDelete={(id) => void news.remove(id)}
        />
      </Card>
    </div>
  );
}
