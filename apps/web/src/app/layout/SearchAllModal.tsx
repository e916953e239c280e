/** Search all functions (admins): filters the site map by title and jumps to a page. */
import { useMemo, useState } from 'react';
import { Button, Empty, Input, List, Modal, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { SEARCH_MODAL_MAX_HEIGHT } from '@opencvr/shared';
import { recordVersionOf, useConfig } from '../../lib/stores/config';
import { actionHref, buildSiteMap, filterSiteMap } from './siteMap';

export function SearchAllModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const recordVersion = useConfig(recordVersionOf);
  const [q, setQ] = useState('');
  const entries = useMemo(() => filterSiteMap(buildSiteMap(t, recordVersion), q), [t, recordVersion, q]);

  return (
    <Modal open={open} title={t('search.title')} footer={null} onCancel={onClose} width={640} destroyOnHidden>
      <Input.Search allowClear autoFocus placeholder={t('search.placeholder')} value={q} onChange={(e) => setQ(e.target.value)} style={{ marginBottom: 12 }} />
      <div data-testid="search-all-results" style={{ maxHeight: SEARCH_MODAL_MAX_HEIGHT, overflowY: 'auto' }}>
        {entries.length === 0 ? (
          <Empty />
        ) : (
          <List
            dataSource={entries}
            renderItem={(e) => (
              <List.Item>
                <List.Item.Meta title={e.title} description={<Typography.Text type="secondary">{e.describe}</Typography.Text>} />
                <Space wrap>
                  {e.actions.map((a) => (
                    <Button
                      key={actionHref(a) + a.label}
                      size="small"
                      type="link"
                      onClick={() => {
                        onClose();
                        navigate(actionHref(a));
                      }}
                    >
                      {a.label}
                    </Button>
                  ))}
                </Space>
              </List.Item>
            )}
          />
        )}
      </div>
    </Modal>
  );
}
