/** Shown when a page fails to render or its chunk fails to load (spec 8: ChunkLoadError). */
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';

export function RouteError() {
  const { t } = useTranslation();
  const err = useRouteError() as (Error & { code?: string }) | undefined;
  const chunk = err?.name === 'ChunkLoadError';
  return (
    <Result
      status="warning"
      title={chunk ? t('common.chunkFailed') : t('common.pageFailed')}
      subTitle={err?.code ?? err?.message}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </Button>
      }
    />
  );
}
