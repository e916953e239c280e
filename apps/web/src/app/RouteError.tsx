/**
 * Shown when a page fails to render or its chunk fails to load (spec 8: ChunkLoadError). Part of
 * the first load (it must work when chunks do not arrive), so it uses plain markup and a Button.
 */
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router-dom';

export function RouteError() {
  const { t } = useTranslation();
  const err = useRouteError() as (Error & { code?: string }) | undefined;
  const chunk = err?.name === 'ChunkLoadError';
  const detail = err?.code ?? err?.message;
  return (
    <div role="alert" style={{ padding: '48px 32px', textAlign: 'center' }}>
      <div style={{ fontSize: 48, lineHeight: 1, color: '#faad14' }} aria-hidden>
        ⚠
      </div>
      <h3 style={{ fontSize: 24, fontWeight: 400, margin: '24px 0 8px', color: 'rgba(0,0,0,0.88)' }}>
        {chunk ? t('common.chunkFailed') : t('common.pageFailed')}
      </h3>
      {detail && <div style={{ color: 'rgba(0,0,0,0.45)', marginBottom: 24 }}>{detail}</div>}
      <Button type="primary" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </Button>
    </div>
  );
}
