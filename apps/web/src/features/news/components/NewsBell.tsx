/** The bell of the top bar: unread count and the message list modal. */
import { Suspense, useState } from 'react';
import { Badge, Button } from 'antd';
import { BellOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useForcedPromptPending } from '../../../lib/forcedPrompt';
import { lazyPage } from '../../../lib/lazy';
import { useNews } from '../useNews';

// The modal, list and pagination code arrives on the first click, not with every page.
const NewsModal = lazyPage(() => import('./NewsModal'));

export function NewsBell() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [opened, setOpened] = useState(false);
  // No list call while a forced dialog is pending: before initialisation (or a forced password
  // change) the server answers 426 to it.
  const news = useNews(!useForcedPromptPending());
  return (
    <>
      <Badge count={news.unread} size="small" overflowCount={99}>
        <Button
          type="text"
          aria-label={t('news.title')}
          data-testid="news-bell"
          icon={<BellOutlined style={{ color: '#fff', fontSize: 18 }} />}
          onClick={() => {
            setOpened(true);
            setOpen(true);
          }}
        />
      </Badge>
      {opened && (
        <Suspense fallback={null}>
          <NewsModal open={open} onClose={() => setOpen(false)} news={news} />
        </Suspense>
      )}
    </>
  );
}
